"""Each libsdformat rule, broken once: the right code, message and line."""
from __future__ import annotations

import pytest

from sdf_tools import gazebo
from sdf_tools.load import load_file

CASES = [
    # (id, version, body, code, message fragment, line of the culprit)
    ('duplicate_link', '1.9', '<model name="m">\n<link name="a"/>\n<link name="a"/>\n</model>',
     'DUPLICATE_NAME', 'name[a]', 5),
    ('link_joint_clash', '1.9',
     '<model name="m">\n<link name="a"/>\n<link name="b"/>\n<joint name="a" type="fixed"><parent>a</parent><child>b</child></joint>\n</model>',
     'DUPLICATE_NAME', 'non-unique name [a]', 6),
    ('reserved_model_name', '1.9', '<model name="__m__">\n<link name="a"/>\n</model>',
     'RESERVED_NAME', '[__m__] is reserved', 3),
    ('reserved_link_world', '1.9', '<model name="m">\n<link name="world"/>\n</model>',
     'RESERVED_NAME', '[world] is reserved', 4),
    ('double_colon_name', '1.9', '<model name="m">\n<link name="a::b"/>\n</model>',
     'RESERVED_NAME', "'::'", 4),
    ('relative_to_missing', '1.9', '<model name="m">\n<link name="a"><pose relative_to="nope"/></link>\n</model>',
     'POSE_RELATIVE_TO_INVALID', 'relative_to name[nope]', 4),
    ('relative_to_cycle', '1.9',
     '<model name="m">\n<link name="a"><pose relative_to="b"/></link>\n<link name="b"><pose relative_to="a"/></link>\n</model>',
     'POSE_RELATIVE_TO_CYCLE', 'cycle', 4),
    ('relative_to_self', '1.9', '<model name="m">\n<link name="a"><pose relative_to="a"/></link>\n</model>',
     'POSE_RELATIVE_TO_CYCLE', 'identical', 4),
    ('attached_to_missing', '1.9', '<model name="m">\n<link name="a"/>\n<frame name="f" attached_to="zz"/>\n</model>',
     'FRAME_ATTACHED_TO_INVALID', 'attached_to name[zz]', 5),
    ('attached_to_cycle', '1.9',
     '<model name="m">\n<link name="a"/>\n<frame name="f1" attached_to="f2"/>\n<frame name="f2" attached_to="f1"/>\n</model>',
     'FRAME_ATTACHED_TO_CYCLE', 'cycle', 5),
    ('joint_parent_missing', '1.9',
     '<model name="m">\n<link name="a"/>\n<joint name="j" type="fixed"><parent>q</parent><child>a</child></joint>\n</model>',
     'JOINT_PARENT_LINK_INVALID', 'parent frame with name[q]', 5),
    ('joint_child_missing', '1.9',
     '<model name="m">\n<link name="a"/>\n<joint name="j" type="fixed"><parent>a</parent><child>q</child></joint>\n</model>',
     'JOINT_CHILD_LINK_INVALID', 'name[q]', 5),
    ('joint_child_world', '1.9',
     '<model name="m">\n<link name="a"/>\n<joint name="j" type="fixed"><parent>a</parent><child>world</child></joint>\n</model>',
     'JOINT_CHILD_LINK_INVALID', '[world]', 5),
    ('joint_same_parent_child', '1.9',
     '<model name="m">\n<link name="a"/>\n<joint name="j" type="fixed"><parent>a</parent><child>a</child></joint>\n</model>',
     'JOINT_PARENT_SAME_AS_CHILD', 'different', 5),
    ('joint_resolves_same_link', '1.9',
     '<model name="m">\n<link name="a"/>\n<frame name="f" attached_to="a"/>\n<joint name="j" type="fixed"><parent>f</parent><child>a</child></joint>\n</model>',
     'JOINT_PARENT_SAME_AS_CHILD', 'both resolve to [m::a]', 6),
    ('axis_expressed_in_missing', '1.9',
     '<model name="m">\n<link name="a"/>\n<link name="b"/>\n<joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz expressed_in="zz">0 0 1</xyz></axis></joint>\n</model>',
     'JOINT_AXIS_EXPRESSED_IN_INVALID', '[zz]', 6),
    ('joint_type_invalid', '1.9',
     '<model name="m">\n<link name="a"/>\n<link name="b"/>\n<joint name="j" type="hinge"><parent>a</parent><child>b</child></joint>\n</model>',
     'ATTRIBUTE_INVALID', 'hinge', 6),
    ('joint_child_element_missing', '1.9',
     '<model name="m">\n<link name="a"/>\n<joint name="j" type="fixed"><parent>a</parent></joint>\n</model>',
     'ELEMENT_MISSING', 'child', 5),
    ('model_without_link', '1.9', '<model name="m">\n<frame name="f"/>\n</model>',
     'MODEL_WITHOUT_LINK', 'at least one link', 3),
    ('canonical_link_invalid', '1.9', '<model name="m" canonical_link="x">\n<link name="a"/>\n</model>',
     'MODEL_CANONICAL_LINK_INVALID', 'name[x]', 3),
    ('placement_frame_invalid', '1.9', '<model name="m" placement_frame="zz">\n<link name="a"/>\n</model>',
     'MODEL_PLACEMENT_FRAME_INVALID', '[zz]', 3),
    ('inertia_invalid', '1.9', '<model name="m">\n<link name="a">\n<inertial><mass>-1</mass></inertial></link>\n</model>',
     'LINK_INERTIA_INVALID', 'invalid inertia', 5),
    ('inertia_triangle', '1.9',
     '<model name="m">\n<link name="a">\n<inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>5</izz></inertia></inertial></link>\n</model>',
     'LINK_INERTIA_INVALID', 'invalid inertia', 5),
    ('pose_wrong_count', '1.9', '<model name="m">\n<link name="a"><pose>1 2 3</pose></link>\n</model>',
     'ELEMENT_INVALID', 'needs 6 numbers', 4),
    ('pose_not_number', '1.9', '<model name="m">\n<link name="a"><pose>1 2 3 a 0 0</pose></link>\n</model>',
     'ELEMENT_INVALID', 'not a number', 4),
    ('pose_nan', '1.9', '<model name="m">\n<link name="a"><pose>1 2 3 nan 0 0</pose></link>\n</model>',
     'ELEMENT_INVALID', 'finite', 4),
    ('pose_degrees_with_quat', '1.9',
     '<model name="m">\n<link name="a"><pose degrees="true" rotation_format="quat_xyzw">0 0 0 0 0 0 1</pose></link>\n</model>',
     'ELEMENT_INVALID', 'degrees', 4),
    ('axis_zero', '1.9',
     '<model name="m">\n<link name="a"/>\n<link name="b"/>\n<joint name="j" type="revolute"><parent>a</parent><child>b</child>\n<axis><xyz>0 0 0</xyz></axis></joint>\n</model>',
     'ELEMENT_INVALID', 'norm', 7),
    ('missing_model_name', '1.9', '<model>\n<link name="a"/>\n</model>',
     'ATTRIBUTE_MISSING', 'name', 3),
    ('include_not_found', '1.9', '<model name="m">\n<link name="a"/>\n<include><uri>model://does_not_exist</uri></include>\n</model>',
     'URI_LOOKUP', 'does_not_exist', 5),
    ('duplicate_world_model', '1.9',
     '<world name="w">\n<model name="m"><link name="a"/></model>\n<model name="m"><link name="a"/></model>\n</world>',
     'DUPLICATE_NAME', 'name[m]', None),
]


@pytest.mark.parametrize('case', CASES, ids=[c[0] for c in CASES])
def test_error_is_reported_with_code_message_and_line(write_sdf, case):  # type: ignore[no-untyped-def]
    _, version, body, code, fragment, line = case
    result = load_file(write_sdf(body, version=version))
    assert not result.valid
    matching = [d for d in result.errors if d.code.value == code and fragment in d.message]
    assert matching, [str(d) for d in result.errors]
    if line is not None:
        assert any(d.line == line for d in matching), [str(d) for d in matching]
    assert all(d.file is not None for d in matching)


def test_every_error_is_reported_not_only_the_first(write_sdf):  # type: ignore[no-untyped-def]
    result = load_file(write_sdf('<model name="m">\n<link name="a"><pose relative_to="x"/></link>\n'
                                 '<frame name="f" attached_to="y"/>\n</model>'))
    codes = {d.code.value for d in result.errors}
    assert {'POSE_RELATIVE_TO_INVALID', 'FRAME_ATTACHED_TO_INVALID'} <= codes


def test_missing_inertial_is_reported_as_an_assumption(write_sdf):  # type: ignore[no-untyped-def]
    result = load_file(write_sdf('<model name="m">\n<link name="a"/>\n</model>'))
    assert result.valid
    assert any(w.code.value == 'DEFAULT_ASSUMED' and 'mass 1' in w.message and w.line == 4
               for w in result.warnings)


@pytest.mark.parametrize('body,fragment,line', [
    ('<model name="m">\n<link name="a">\n<visual name="v"/>\n</link>\n</model>', 'empty geometry', 5),
    ('<model name="m">\n<link name="a"/>\n<link name="b"/>\n<joint name="j" type="revolute"><parent>a</parent>'
     '<child>b</child>\n<axis><xyz>0 0 1</xyz></axis></joint>\n</model>', 'lower -1e16', 7),
    ('<model name="m">\n<link name="a"/>\n<link name="b"/>\n<joint name="j" type="revolute"><parent>a</parent>'
     '<child>b</child>\n<axis></axis></joint>\n</model>', 'assumes 0 0 1', 7),
])
def test_libsdformat_silent_defaults_are_reported_as_warnings(write_sdf, body, fragment, line):  # type: ignore[no-untyped-def]
    # libsdformat 12's defaults (Fortress); 13+ read a missing <limit> as 1.10's -inf..inf,
    # whose words test/sdf/test_joint.py checks per target.
    with gazebo.using('fortress'):
        result = load_file(write_sdf(body))
    assert result.valid, [str(d) for d in result.errors]
    assert any(w.code.value == 'DEFAULT_ASSUMED' and fragment in w.message and w.line == line
               for w in result.warnings), [str(w) for w in result.warnings]
