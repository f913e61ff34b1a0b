"""The spec check (``sdf/spec/check.py``) against libsdformat 12: one model per rule.

Each case is a document that trips one rule of libsdformat's ``readXml``/``Param``
(a value its type refuses, a bound, a missing required attribute, an unknown element
or attribute, a custom namespaced one, ...). libsdformat and we must agree on the
verdict (the probe); our diagnostics must name the rule with the code and line given.
Values that libsdformat reads leniently but our reader refuses on purpose (``2kg``,
``1 2 3abc``) are not here: README lists them as deliberate differences.
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest
from support.libsdformat import probe_available, probe_unavailable_reason

from differential.reference import differences
from sdf_tools.errors import Severity
from sdf_tools.load import load_file

pytestmark = pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))


class Case(NamedTuple):
    body: str          # placed from line 3 of a <sdf version="1.9"> document
    code: str          # the diagnostic that names the rule
    line: int
    valid: bool        # libsdformat's verdict (checked against the probe too)


def _link(inner: str) -> str:
    return f'<model name="m">\n<link name="l">\n{inner}\n</link>\n</model>'


def _shape(shape: str) -> str:
    return _link(f'<visual name="v"><geometry>\n{shape}\n</geometry></visual>')


_CAM = '<sensor name="c" type="camera"><camera>\n{}\n</camera></sensor>'
_LIDAR = ('<sensor name="s" type="gpu_lidar"><lidar><scan><horizontal>\n{}\n'
          '</horizontal></scan></lidar></sensor>')
_MAT = ('<visual name="v"><geometry><sphere><radius>1</radius></sphere></geometry>'
        '<material>\n{}\n</material></visual>')

CASES: dict[str, Case] = {
    'double_not_a_number': Case(_link('<inertial>\n<mass>abc</mass></inertial>'),
                                'ELEMENT_INVALID', 6, False),
    'bool_not_a_bool': Case('<model name="m">\n<static>yes</static><link name="l"/></model>',
                            'ELEMENT_INVALID', 4, False),
    'bool_any_case': Case('<model name="m">\n<static>TRUE</static><link name="l"/></model>',
                          'DEFAULT_ASSUMED', 4, True),
    'color_above_one': Case(_link(_MAT.format('<ambient>1 0 2 1</ambient>')), 'ELEMENT_INVALID', 6, False),
    'color_two_values': Case(_link(_MAT.format('<diffuse>1 0</diffuse>')), 'ELEMENT_INVALID', 6, False),
    'vector3_two_values': Case(_shape('<box><size>1 2</size></box>'), 'ELEMENT_INVALID', 6, False),
    'vector3_infinite': Case(_shape('<box><size>1 2 inf</size></box>'), 'ELEMENT_INVALID', 6, False),
    'vector2d_one_value': Case(_shape('<plane><normal>0 0 1</normal><size>1</size></plane>'),
                               'ELEMENT_INVALID', 6, False),
    'unsigned_negative_wraps': Case(_link(_LIDAR.format('<samples>-1</samples>')),
                                    'DEFAULT_ASSUMED', 5, True),
    'unsigned_not_a_number': Case(_link(_LIDAR.format('<samples>x</samples>')), 'ELEMENT_INVALID', 6, False),
    'int_not_a_number': Case(_link(_CAM.format('<image><width>wide</width></image>')),
                             'ELEMENT_INVALID', 6, False),
    'int_hexadecimal': Case(_link(_CAM.format('<image><width>0x40</width></image>')),
                            'DEFAULT_ASSUMED', 6, True),
    'above_spec_max': Case(_link(_CAM.format('<horizontal_fov>7</horizontal_fov>')),
                           'ELEMENT_INVALID', 6, False),
    'below_spec_min': Case(_link(_CAM.format('<clip><near>-1</near><far>2</far></clip>')),
                           'ELEMENT_INVALID', 6, False),
    'float_out_of_range': Case(_link(_MAT.format('<render_order>1e39</render_order>')),
                               'ELEMENT_INVALID', 6, False),
    'required_attribute_missing': Case(_link('<visual><geometry><sphere><radius>1</radius></sphere>'
                                             '</geometry></visual>'), 'ATTRIBUTE_MISSING', 5, False),
    'attribute_not_a_bool': Case(_link('<pose degrees="maybe">0 0 0 0 0 0</pose>'),
                                 'ATTRIBUTE_INVALID', 5, False),
    'attribute_unknown': Case('<model name="m">\n<link name="l" colour="red"/></model>',
                              'ATTRIBUTE_INCORRECT_TYPE', 4, True),
    'element_unknown': Case(_link('<wheel>1</wheel>'), 'ELEMENT_INCORRECT_TYPE', 5, True),
    'namespace_undeclared': Case('<model name="m" foo:bar="1">\n<link name="l"><x:y>1</x:y></link></model>',
                                 'XML_MALFORMED_TOLERATED', 3, True),
    'pose_five_values': Case(_link('<pose>0 0 0 0 0</pose>'), 'ELEMENT_INVALID', 5, False),
    'pose_quaternion_in_degrees': Case(
        _link('<pose rotation_format="quat_xyzw" degrees="true">0 0 0 0 0 0 1</pose>'),
        'ELEMENT_INVALID', 5, False),
    'pose_unknown_rotation_format': Case(_link('<pose rotation_format="axis_angle">0 0 0 0 0 0</pose>'),
                                         'ELEMENT_INVALID', 5, False),
    'required_value_empty': Case(_shape('<mesh><uri></uri></mesh>'), 'ELEMENT_INVALID', 6, False),
    'required_value_self_closed': Case(_shape('<sphere><radius/></sphere>'), 'ELEMENT_INVALID', 6, False),
    'required_element_missing': Case(_shape('<sphere/>'), 'DEFAULT_ASSUMED', 6, True),
    'plugin_content_unchecked': Case('<model name="m"><link name="l"/>\n<plugin name="p" filename="f">'
                                     '<whatever a="b"><x>1</x></whatever></plugin></model>',
                                     'DEFAULT_ASSUMED', 3, True),
    'time_two_integers': Case('<world name="w">\n<state world_name="w"><sim_time>1 5</sim_time>'
                              '</state></world>', 'DEFAULT_ASSUMED', 3, True),
    'time_decimal': Case('<world name="w">\n<state world_name="w"><sim_time>1.5</sim_time>'
                         '</state></world>', 'ELEMENT_INVALID', 4, False),
    'world_defaults': Case('<world name="w"/>', 'DEFAULT_ASSUMED', 3, True),
    # "--" in a comment: XML forbids it, tinyxml2 reads the comment to its first "-->".
    'comment_opened_twice': Case('<model name="m">\n<!-- mass <!-- of the door -->\n'
                                 '<link name="l"/></model>', 'XML_MALFORMED_TOLERATED', 4, True),
    'comment_ending_in_three_hyphens': Case('<model name="m">\n<!-- a ---><link name="l"/></model>',
                                            'XML_MALFORMED_TOLERATED', 4, True),
    'comment_hyphens_and_undeclared_prefix': Case(
        '<model name="m">\n<!-- a -- b --><link name="l"><x:y/></link></model>', 'XML_MALFORMED_TOLERATED', 4, True),
    # ... and what else is wrong is named once the comment is set aside.
    'comment_hyphens_in_a_broken_file': Case('<model name="m">\n<!-- a -- b --><link name="l">\n</model>',
                                             'XML_INVALID', 5, False),
}


def _write(tmp_path: Path, body: str, version: str = '1.9') -> Path:
    path = tmp_path / 'case.sdf'
    path.write_text(f'<?xml version="1.0"?>\n<sdf version="{version}">\n{body}\n</sdf>\n')
    return path


@pytest.mark.parametrize('name', sorted(CASES))
def test_spec_rule_matches_libsdformat(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    path = _write(tmp_path, case.body)
    result = load_file(path)
    assert result.valid is case.valid, [str(d) for d in result.diagnostics]
    found = [(d.code.value, d.line) for d in result.diagnostics]
    assert (case.code, case.line) in found, found
    if not case.valid and case.code != 'XML_INVALID':
        # libsdformat reports the failing element and its ancestors, then gives up on the file.
        codes = [d.code.value for d in result.errors]
        assert codes.count('ELEMENT_INVALID') >= 2 and 'FILE_READ' in codes, codes
    diffs = differences(path)
    assert not diffs, '\n'.join(diffs)


def test_failing_element_is_reported_up_to_the_root_once_each(tmp_path: Path) -> None:
    body = _link('<inertial>\n<mass>abc</mass>\n<pose>1 2</pose></inertial>')
    result = load_file(_write(tmp_path, body))
    chain = [(d.message.split(':')[0], d.line) for d in result.errors
             if d.message.startswith('Error reading element')]
    assert chain == [('Error reading element <mass>', 6), ('Error reading element <pose>', 7),
                     ('Error reading element <inertial>', 5), ('Error reading element <link>', 4),
                     ('Error reading element <model>', 3), ('Error reading element <sdf>', 2)]


@pytest.mark.parametrize('version', ['1.12', '2.0'])
def test_unknown_version_is_read_with_a_warning(version: str, tmp_path: Path) -> None:
    path = _write(tmp_path, '<model name="m"><link name="l"/></model>', version)
    result = load_file(path, gazebo='fortress')  # judged by libsdformat 12
    assert result.valid
    assert [(d.code.value, d.line) for d in result.warnings][0] == ('VERSION_UNSUPPORTED', 2)
    assert not differences(path)


@pytest.mark.parametrize('tail, valid', [('<extra><b/></extra>', True),
                                         ('<!-- c --><sdf version="1.9"/>', True),
                                         ('</sdf>', True),
                                         ('junk text', False)])
def test_content_after_the_root(tail: str, valid: bool, tmp_path: Path) -> None:
    path = tmp_path / 'after.sdf'
    path.write_text('<?xml version="1.0"?>\n<sdf version="1.9">\n<model name="m"><link name="l"/></model>\n'
                    f'</sdf>\n{tail}\n')
    result = load_file(path)
    assert result.valid is valid
    if valid:
        assert ('XML_MALFORMED_TOLERATED', 5) in [(d.code.value, d.line) for d in result.warnings]
        assert all(d.severity is Severity.WARNING for d in result.diagnostics)
    assert not differences(path)


_ROOT = '<sdf version="1.9">\n<model name="m"><link name="l"/></model>\n</sdf>\n'
_ROBOT = ('<robot name="r">\n<link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" '
          'ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>\n</robot>\n')


# Text outside any element: tinyxml2 reads it as a text node up to the next '<'.
@pytest.mark.parametrize('name, text, code, line, valid', [
    ('declaration_without_lt', '?xml version="1.0"?>\n' + _ROOT, 'XML_TEXT_OUTSIDE_ROOT', 1, True),
    ('text_after_declaration', '<?xml version="1.0"?>\nstray & text > here\n' + _ROOT, 'XML_TEXT_OUTSIDE_ROOT', 2, True),
    ('text_around_a_comment', '<?xml version="1.0"?>\n<!-- c -->a\n<!-- d -->b\n' + _ROOT, 'XML_TEXT_OUTSIDE_ROOT', 2, True),
    ('text_then_element_after_root', '<?xml version="1.0"?>\n' + _ROOT + 'junk <extra/>\n',
     'XML_MALFORMED_TOLERATED', 5, True),
    ('text_ending_the_file', '<?xml version="1.0"?>\n' + _ROOT + 'junk <extra/> junk\n',
     'XML_INVALID', 5, False),
    ('text_before_a_urdf_robot', '<?xml version="1.0"?>\nstray text\n' + _ROBOT, 'XML_INVALID', 2, False),
])
def test_text_outside_the_root(name: str, text: str, code: str, line: int, valid: bool,
                               tmp_path: Path) -> None:
    path = tmp_path / ('case.urdf' if 'urdf' in name else 'case.sdf')
    path.write_text(text)
    result = load_file(path)
    assert result.valid is valid, [str(d) for d in result.diagnostics]
    assert (code, line) in [(d.code.value, d.line) for d in result.diagnostics]
    assert not differences(path)


def test_bad_include_is_reported_and_its_parent_goes_on(tmp_path: Path) -> None:
    # libsdformat checks an <include> aside: "Error reading element <include>", no chain.
    (tmp_path / 'child.sdf').write_text('<?xml version="1.0"?>\n<sdf version="1.9">\n'
                                        '<model name="m"><link name="l"/></model>\n</sdf>\n')
    path = _write(tmp_path, '<world name="w">\n<include>\n<uri>child.sdf</uri>\n'
                            '<static>maybe</static>\n</include>\n</world>')
    result = load_file(path)
    chain = [(d.message.split(':')[0], d.line) for d in result.errors
             if d.message.startswith('Error reading element')]
    assert chain == [('Error reading element <static>', 6), ('Error reading element <include>', 4)]
    assert 'FILE_READ' not in [d.code.value for d in result.errors]
    assert not differences(path)
