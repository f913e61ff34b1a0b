"""The spec check per Gazebo target: an empty custom attribute (gazebosim/sdformat#1407), custom elements."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from support.libsdformat import build_probe, probe_available, probe_unavailable_reason

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


NAMESPACED = ('<?xml version="1.0"?>\n<sdf version="{version}" xmlns:third="custom_ns_uri">\n'
              '<model name="m" some_attribute="x">\n<link name="l">\n'
              '<third:not_a_link_element>ignored</third:not_a_link_element>\n</link>\n'
              '<third:not_a_model_element/>\n</model>\n<third:elem/>\n</sdf>\n')


@pytest.mark.parametrize('gazebo', ['fortress', 'harmonic', 'jetty'])
@pytest.mark.parametrize('version', ['1.6', '1.9'])
def test_namespaced_elements_are_copied_silently(gazebo: str, version: str) -> None:
    # libsdformat's test/sdf/unrecognized_elements_with_namespace.sdf: a prefix bound to a
    # URI without a colon. 12.3, 14.9.0 and 16.1.0 warn only about the plain attribute
    # (their stderr: "XML Attribute[some_attribute] in element[model] not defined in SDF.").
    result = load_string(NAMESPACED.format(version=version), 'n.sdf', gazebo=gazebo)
    assert result.valid
    unknown = [(d.line, d.message) for d in result.warnings if 'not defined in SDF' in d.message]
    assert unknown == [(3, 'XML Attribute[some_attribute] in element[model] not defined in SDF.')]


@pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))
@pytest.mark.parametrize('version', ['1.6', '1.9'])
def test_unknown_warnings_are_libsdformat_12s(tmp_path: Path, version: str) -> None:
    path = tmp_path / 'n.sdf'
    path.write_text(NAMESPACED.format(version=version))
    run = subprocess.run([str(build_probe()), str(path)], capture_output=True, text=True,
                         timeout=60, check=False)
    theirs = {(int(m[0]), m[1]) for m in re.findall(r':L(\d+)\]: (XML [^\n]*?not defined in SDF\.)',
                                                    re.sub(r'\x1b\[[0-9;]*m', '', run.stderr))}
    ours = {(d.line, d.message) for d in load_string(path.read_text(), str(path), gazebo='fortress')
            .warnings if 'not defined in SDF' in d.message}
    assert theirs and ours == theirs


NEWER_ELEMENT = ('<?xml version="1.0"?>\n<sdf version="{version}">\n<model name="m">\n'
                 '<link name="l">\n<inertial><mass>1</mass></inertial>\n'
                 '<sensor name="s" type="imu"><enable_metrics>{value}</enable_metrics></sensor>\n'
                 '</link>\n</model>\n</sdf>\n')


@pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))
@pytest.mark.parametrize('value', ['true', 'notabool'])
@pytest.mark.parametrize('version', ['1.5', '1.6'])
def test_fortress_knows_what_1_9_added_in_an_older_file(tmp_path: Path, version: str,
                                                        value: str) -> None:
    # //sensor/enable_metrics came with 1.7. libsdformat 12.3 converts a 1.5/1.6 file to
    # 1.9 and reads it against 1.9's table (readDoc; sdf::init is 1.9's), so the element is
    # known and its value parsed as a bool: the probe refuses 'notabool' (we said valid,
    # with an unknown-element warning, before).
    path = tmp_path / 'n.sdf'
    path.write_text(NEWER_ELEMENT.format(version=version, value=value))
    run = subprocess.run([str(build_probe()), str(path)], capture_output=True, text=True,
                         timeout=60, check=False)
    theirs = json.loads(run.stdout)
    ours = load_string(path.read_text(), str(path), gazebo='fortress')
    assert ours.valid is theirs['valid'] is (value == 'true')
    assert ([d.message.split(':')[0] for d in ours.errors if d.code.value == 'ELEMENT_INVALID']
            == [e['message'] for e in theirs['errors'] if e['code'] == 'ELEMENT_INVALID'])
    assert not [d for d in ours.warnings if 'enable_metrics' in d.message]
