"""The spec check per Gazebo target: an empty custom attribute (gazebosim/sdformat#1407)."""
from __future__ import annotations

import pytest

from sdf_tools.load import load_string

TEXT = ('<?xml version="1.0"?>\n<sdf version="1.9" xmlns:foo="http://example.com/foo">\n'
        '<model name="m">\n<link name="l" foo:note="">\n<inertial><mass>1</mass></inertial>\n'
        '</link>\n</model>\n</sdf>\n')


@pytest.mark.parametrize('gazebo, valid', [('fortress', False), ('harmonic', True),
                                           ('ionic', True), ('jetty', True)])
def test_empty_custom_attribute(gazebo: str, valid: bool) -> None:
    # libsdformat 12 adds a custom attribute as a required string, so an empty value is
    # ATTRIBUTE_MISSING (the probe agrees: test_libsdformat_rules); 14.3 made it optional.
    result = load_string(TEXT, 'c.sdf', gazebo=gazebo)
    assert result.valid is valid
    missing = [(d.line, d.message) for d in result.errors if d.code.value == 'ATTRIBUTE_MISSING']
    assert missing == ([] if valid else [(4, 'Required attribute[foo:note] in element[link] '
                                             'is not specified in SDF.')])
