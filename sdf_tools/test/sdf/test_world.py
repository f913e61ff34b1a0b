"""A world read per Gazebo target: what libsdformat 14 changed in World::Load."""
from __future__ import annotations

import pytest

from sdf_tools.load import load_string

WORLD = ('<?xml version="1.0"?>\n<sdf version="{v}">\n<world name="w">\n'
         '<model name="box"><static>true</static><link name="l"/></model>\n'
         '<frame name="box"><pose>1 0 0 0 0 0</pose></frame>\n</world>\n</sdf>\n')


@pytest.mark.parametrize('gazebo, version, renamed', [
    ('fortress', '1.9', True), ('fortress', '1.6', True),  # libsdformat 12: always renamed
    ('harmonic', '1.6', True), ('harmonic', '1.9', False), ('jetty', '1.11', False),
])
def test_world_frame_named_like_a_model(gazebo: str, version: str, renamed: bool) -> None:
    # gazebosim/sdformat#1311 (14.0): renamed to <name>_frame only in files before 1.7,
    # DUPLICATE_NAME in newer ones. Fortress's verdict is the probe's (valid, renamed).
    result = load_string(WORLD.format(v=version), 'w.sdf', gazebo=gazebo)
    codes = [(d.code.value, d.line, d.severity.value) for d in result.diagnostics
             if d.code.value == 'DUPLICATE_NAME']
    if renamed:
        assert result.valid and codes == [('DUPLICATE_NAME', 5, 'warning')]
        assert result.document is not None
        assert [f.name for f in result.document.worlds[0].frames] == ['box_frame']
    else:
        assert not result.valid and ('DUPLICATE_NAME', 5, 'error') in codes
        said = [d.message for d in result.errors]
        assert 'Frame with name [box] in world with name [w] has a name collision.' in said[0]
