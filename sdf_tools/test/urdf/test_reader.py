"""The URDF reader: the model it builds, where the frame graphs put it, and every error."""
from __future__ import annotations

import glob
import math
from pathlib import Path

import numpy as np
import pytest
from lxml import etree
from scipy.spatial.transform import Rotation

from sdf_tools import gazebo
from sdf_tools.errors import Diagnostic, ErrorCode, Severity
from sdf_tools.frames import build_model_graphs, resolve_pose
from sdf_tools.model import Model
from sdf_tools.transform import Transform
from sdf_tools.urdf import read_urdf_file, read_urdf_root, sdf_shape_name
from sdf_tools.urdf.conversion import is_massless_root

DATA = Path(__file__).resolve().parents[1] / 'data' / 'urdf'
ARM = DATA / 'arm.urdf'

# ---------------------------------------------------------------------------------------
# Forward kinematics written independently of the reader: lxml + scipy, 4x4 matrices.


def _matrix(xyz: str | None, rpy: str | None) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = Rotation.from_euler('xyz', [float(v) for v in (rpy or '0 0 0').split()]).as_matrix()
    m[:3, 3] = [float(v) for v in (xyz or '0 0 0').split()]
    return m


def _origin(el: etree._Element) -> np.ndarray:
    o = el.find('origin')
    return np.eye(4) if o is None else _matrix(o.get('xyz'), o.get('rpy'))


def forward_kinematics(path: Path) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Return world matrices of every link and joint at zero joint positions."""
    robot = etree.parse(str(path)).getroot()
    model = _origin(robot)
    joints = {j.find('child').get('link'): j for j in robot.findall('joint')}
    links: dict[str, np.ndarray] = {}
    joint_poses: dict[str, np.ndarray] = {}

    def place(link: str) -> np.ndarray:
        if link not in links:
            j = joints.get(link)
            if j is None:
                links[link] = model
            else:
                joint_poses[j.get('name')] = place(j.find('parent').get('link')) @ _origin(j)
                links[link] = joint_poses[j.get('name')]
        return links[link]

    for link in robot.findall('link'):
        place(link.get('name'))
    return links, joint_poses


def _as_matrix(t: Transform) -> np.ndarray:
    w, x, y, z = t.q
    m = np.eye(4)
    m[:3, :3] = Rotation.from_quat([x, y, z, w]).as_matrix()
    m[:3, 3] = t.p
    return m


def _read(path: Path) -> tuple[Model, list[Diagnostic]]:
    doc, diags = read_urdf_file(path)
    assert doc is not None and doc.model is not None
    return doc.model, diags


def _line(path: Path, fragment: str) -> int:
    """Return the number of the first line of ``path`` holding ``fragment``."""
    return next(i for i, text in enumerate(path.read_text().splitlines(), 1) if fragment in text)


def _errors(diags: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diags if d.severity is Severity.ERROR]


# ---------------------------------------------------------------------------------------
# The arm: placement, joints, shapes, extras.


def test_arm_reads_without_error() -> None:
    _, diags = _read(ARM)
    assert _errors(diags) == []


def test_arm_links_and_joints_are_where_forward_kinematics_puts_them() -> None:
    model, _ = _read(ARM)
    g = build_model_graphs(model)
    assert g.errors == []
    fk_links, fk_joints = forward_kinematics(ARM)
    for link in model.links:
        pose = resolve_pose(g, g.ids[f'arm::{link.name}'])
        assert pose is not None
        np.testing.assert_allclose(_as_matrix(pose), fk_links[link.name], rtol=0, atol=1e-12)
    for joint in model.joints:
        pose = resolve_pose(g, g.ids[f'arm::{joint.name}'])
        assert pose is not None
        np.testing.assert_allclose(_as_matrix(pose), fk_joints[joint.name], rtol=0, atol=1e-12)
    assert {lk.name for lk in model.links} == set(fk_links) - {'world'}


def test_arm_axes_are_unit_vectors_in_the_joint_frame() -> None:
    model, _ = _read(ARM)
    g = build_model_graphs(model)
    _, fk_joints = forward_kinematics(ARM)
    robot = etree.parse(str(ARM)).getroot()
    for j in robot.findall('joint'):
        joint = next(x for x in model.joints if x.name == j.get('name'))
        if j.get('type') == 'fixed':
            assert joint.axis is None
            continue
        assert joint.axis is not None and joint.axis.expressed_in == ''
        written = np.array([float(v) for v in j.find('axis').get('xyz').split()])
        pose = resolve_pose(g, g.ids[f'arm::{joint.name}'])
        assert pose is not None
        expected = fk_joints[joint.name][:3, :3] @ (written / np.linalg.norm(written))
        np.testing.assert_allclose(pose.rotate(joint.axis.xyz), expected, rtol=0, atol=1e-12)


def test_robot_origin_places_the_model(tmp_path: Path) -> None:
    path = tmp_path / 'placed.urdf'
    path.write_text(ARM.read_text().replace(
        '<robot name="arm">', '<robot name="arm">\n  <origin xyz="1 2 3" rpy="0.3 0.2 0.1"/>'))
    model, _ = _read(path)
    assert model.pose is not None
    g = build_model_graphs(model)
    fk_links, _ = forward_kinematics(path)
    for link in model.links:
        pose = resolve_pose(g, g.ids[f'arm::{link.name}'])
        assert pose is not None
        np.testing.assert_allclose(_as_matrix(pose), fk_links[link.name], rtol=0, atol=1e-12)


def test_world_link_becomes_the_world_parent_of_a_joint() -> None:
    model, _ = _read(ARM)
    assert 'world' not in {lk.name for lk in model.links}
    joint = next(j for j in model.joints if j.name == 'world_to_base')
    assert (joint.type, joint.parent, joint.child) == ('fixed', 'world', 'base')
    assert joint.pose is not None and joint.pose.relative_to == '__model__'
    base = next(lk for lk in model.links if lk.name == 'base')
    assert base.pose is not None and base.pose.relative_to == 'world_to_base'
    assert base.pose.value == Transform()


def test_root_link_is_the_model_frame_and_children_follow_their_joints() -> None:
    model, _ = _read(DATA / 'floating_planar.urdf')
    links = {lk.name: lk for lk in model.links}
    assert links['base'].pose is None
    assert links['drone'].pose is not None and links['drone'].pose.relative_to == 'fly'
    fly = next(j for j in model.joints if j.name == 'fly')
    assert fly.pose is not None and fly.pose.relative_to == 'base'
    assert fly.pose.text == '0 0 2 0 0 1'


def test_joint_types_limits_dynamics_and_mimic() -> None:
    model, _ = _read(ARM)
    joints = {j.name: j for j in model.joints}
    assert [joints[n].type for n in ('shoulder_yaw', 'elbow', 'slide', 'tool_mount')] == [
        'revolute', 'continuous', 'prismatic', 'fixed']
    yaw = joints['shoulder_yaw'].axis
    assert yaw is not None
    assert (yaw.lower, yaw.upper, yaw.effort, yaw.velocity) == (-2.0, 2.0, 50.0, 1.5)
    assert (yaw.damping, yaw.friction) == (0.7, 0.1)
    elbow = joints['elbow'].axis
    assert elbow is not None
    assert elbow.xyz == pytest.approx((0.0, math.sqrt(0.5), math.sqrt(0.5)), abs=1e-15)
    # A continuous joint has no position limits (the spec's defaults of the target's
    # SDFormat: 1.9's +-1e16 for Fortress, -inf..inf from 1.10); effort and velocity apply.
    for target, bound in (('fortress', 1e16), ('harmonic', math.inf)):
        with gazebo.using(target):
            elbow = {j.name: j for j in _read(ARM)[0].joints}['elbow'].axis
        assert elbow is not None
        assert (elbow.lower, elbow.upper, elbow.effort, elbow.velocity) == (-bound, bound, 30.0,
                                                                            2.0)
    right = joints['finger_right_joint'].axis
    assert right is not None
    assert (right.mimic_joint, right.mimic_multiplier, right.mimic_offset) == (
        'finger_left_joint', 2.0, 0.01)
    assert [e.tag for e in joints['slide'].extras] == ['safety_controller']


def test_missing_axis_defaults_to_x_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / 'r.urdf'
    path.write_text(_robot('<joint name="j" type="continuous"><parent link="a"/>'
                           '<child link="b"/></joint>'))
    model, diags = _read(path)
    assert model.joints[0].axis is not None and model.joints[0].axis.xyz == (1.0, 0.0, 0.0)
    assert any(d.code is ErrorCode.DEFAULT_ASSUMED and 'has no <axis>' in d.message for d in diags)


def test_floating_and_planar_joints_are_kept_with_a_warning() -> None:
    model, diags = _read(DATA / 'floating_planar.urdf')
    joints = {j.name: j for j in model.joints}
    assert joints['fly'].type == 'floating' and joints['fly'].axis is None
    assert joints['glide'].type == 'planar'
    assert joints['glide'].axis is not None and joints['glide'].axis.xyz == (0.0, 0.0, 1.0)
    warnings = {d.line: d for d in diags if d.code is ErrorCode.URDF_JOINT_TYPE_UNSUPPORTED}
    fly, glide = (_line(DATA / 'floating_planar.urdf', f'name="{n}"') for n in ('fly', 'glide'))
    assert 'floating' in warnings[fly].message and 'SDFormat lacks' in warnings[fly].message
    assert 'planar' in warnings[glide].message
    assert _errors(diags) == []


def test_visual_and_collision_names_follow_libsdformat() -> None:
    model, _ = _read(ARM)
    links = {lk.name: lk for lk in model.links}
    assert [v.name for v in links['base'].visuals] == ['base_visual']
    assert [c.name for c in links['base'].collisions] == ['base_collision']
    # A name not starting with the link's name gets libsdformat's lump prefix.
    assert [v.name for v in links['shoulder'].visuals] == [
        'shoulder_fixed_joint_lump__shell_visual', 'shoulder_visual_1']
    assert [c.name for c in links['shoulder'].collisions] == ['shoulder_hull_collision']
    assert sdf_shape_name('l', None, '_collision', 2) == 'l_collision_2'


def test_geometry_has_the_sdf_reader_parameter_names() -> None:
    model, _ = _read(ARM)
    links = {lk.name: lk for lk in model.links}
    geoms = [v.geometry for v in links['shoulder'].visuals]
    assert [(g.type, g.params) for g in geoms if g is not None] == [
        ('box', {'size': [0.1, 0.2, 0.3]}), ('sphere', {'radius': 0.05})]
    cyl = links['base'].visuals[0].geometry
    assert cyl is not None and (cyl.type, cyl.params) == ('cylinder', {'radius': 0.1, 'length': 0.1})
    mesh = links['upper_arm'].visuals[0].geometry
    assert mesh is not None and mesh.type == 'mesh'
    assert mesh.params == {'uri': 'package://arm_description/meshes/upper_arm.dae',
                           'scale': [0.001, 0.001, 0.001], 'submesh': None}
    default_scale = links['upper_arm'].collisions[0].geometry
    assert default_scale is not None and default_scale.params['scale'] == [1.0, 1.0, 1.0]
    shell = links['shoulder'].visuals[0]
    assert shell.pose is not None and shell.pose.relative_to == ''
    assert shell.pose.value.p == (0.0, 0.0, 0.1)


def test_inertial_keeps_mass_inertia_and_its_pose() -> None:
    model, _ = _read(ARM)
    shoulder = next(lk for lk in model.links if lk.name == 'shoulder')
    inertial = shoulder.inertial
    assert inertial is not None
    assert inertial.mass == 1.5
    assert inertial.inertia == (0.004, 0.0001, 0.0002, 0.005, 0.0003, 0.006)
    assert inertial.pose is not None and inertial.pose.relative_to == ''
    expected = Transform.from_xyz_rpy((0.01, 0.02, 0.03), (0.1, 0.2, 0.3))
    assert inertial.pose.value == expected


@pytest.mark.parametrize('target, code, said', [
    ('fortress', ErrorCode.DEFAULT_ASSUMED, 'libsdformat drops'),
    # libsdformat 14+ warns itself where it leaves the link out (gazebosim/sdformat#1238)
    ('harmonic', ErrorCode.LINK_INERTIA_INVALID, 'libsdformat 14+ leaves it out'),
])
def test_link_without_inertial_keeps_none_and_warns(tmp_path: Path, target: str, code: ErrorCode,
                                                     said: str) -> None:
    path = tmp_path / 'r.urdf'
    path.write_text('<robot name="r">\n  <link name="bare"/>\n</robot>\n')
    with gazebo.using(target):
        model, diags = _read(path)
    assert model.links[0].inertial is None
    warn = [d for d in diags if d.severity is Severity.WARNING]
    assert [(d.code, d.line) for d in warn] == [(code, 2)] and said in warn[0].message
    assert [d.code for d in diags if d.severity is Severity.ERROR] == [ErrorCode.MODEL_WITHOUT_LINK]


def test_transmission_gazebo_ros2_control_and_materials_are_kept_verbatim() -> None:
    model, diags = _read(ARM)
    tags = [(e.tag, e.loc.line if e.loc else None) for e in model.extras]
    assert tags == [('material', _line(ARM, '<material name="blue">')),
                    ('transmission', _line(ARM, '<transmission')),
                    ('gazebo', _line(ARM, '<gazebo reference')),
                    ('gazebo', _line(ARM, '<gazebo>')),
                    ('ros2_control', _line(ARM, '<ros2_control'))]
    gazebo = etree.fromstring(model.extras[2].xml)
    assert gazebo.get('reference') == 'shoulder' and gazebo.findtext('mu1') == '0.8'
    assert 'gz_ros2_control/GazeboSimSystem' in model.extras[4].xml
    shell = next(lk for lk in model.links if lk.name == 'shoulder').visuals[0]
    assert [e.tag for e in shell.extras] == ['material']
    assert 'rgba="1 0 0 1"' in shell.extras[0].xml
    assert not [d for d in diags if d.code is ErrorCode.ELEMENT_UNKNOWN]


def test_unknown_elements_are_kept_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / 'r.urdf'
    path.write_text('<robot name="r">\n  <link name="a">\n    <contact><lateral_friction value="1"/>'
                    '</contact>\n  </link>\n  <sensor name="s"/>\n</robot>\n')
    model, diags = _read(path)
    assert [e.tag for e in model.links[0].extras] == ['contact']
    assert [e.tag for e in model.extras] == ['sensor']
    unknown = [(d.line, d.message) for d in diags if d.code is ErrorCode.ELEMENT_UNKNOWN]
    assert [line for line, _ in unknown] == [3, 5]


def test_every_element_keeps_its_file_and_line() -> None:
    model, _ = _read(ARM)
    assert model.loc is not None and (model.loc.file, model.loc.line) == (str(ARM), 3)
    links = {lk.name: lk for lk in model.links}
    joints = {j.name: j for j in model.joints}
    base_line = _line(ARM, '<link name="base">')
    assert links['base'].loc is not None and links['base'].loc.line == base_line
    visual = links['base'].visuals[0].loc
    assert visual is not None and visual.line == base_line + 6
    collision = links['base'].collisions[0].loc
    assert collision is not None and collision.line == base_line + 13
    world_to_base = joints['world_to_base'].loc
    assert world_to_base is not None and world_to_base.line == _line(ARM, 'name="world_to_base"')
    pose = joints['shoulder_yaw'].pose
    assert pose is not None and pose.loc is not None
    assert pose.loc.line == _line(ARM, 'rpy="0 0 0.5"')


def test_canonical_link_is_libsdformats_first_link(tmp_path: Path) -> None:
    path = tmp_path / 'r.urdf'
    body = ('<link name="world"/><link name="light"/>' + _INERT.format('heavy') + _INERT.format('b')
            + '<joint name="z" type="fixed"><parent link="world"/><child link="heavy"/></joint>'
            + '<joint name="a" type="fixed"><parent link="world"/><child link="light"/></joint>'
            + '<joint name="c" type="fixed"><parent link="heavy"/><child link="b"/></joint>')
    path.write_text(f'<robot name="r">{body}</robot>')
    model, _ = _read(path)
    # Joint [a] sorts first, but its child has no mass: libsdformat drops it.
    assert model.links[0].name == 'light' and model.canonical_link == 'heavy'


# ---------------------------------------------------------------------------------------
# Errors: the code, a fragment of the message, and the line.

_INERT = ('<link name="{}"><inertial><mass value="1"/>'
          '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>')


def _robot(*body: str, name: str = 'r') -> str:
    links = '\n'.join(_INERT.format(n) for n in ('a', 'b', 'c'))
    return f'<robot name="{name}">\n{links}\n' + '\n'.join(body) + '\n</robot>\n'


def _rev(name: str, parent: str, child: str, extra: str = '') -> str:
    return (f'<joint name="{name}" type="revolute"><parent link="{parent}"/>'
            f'<child link="{child}"/><limit effort="1" velocity="1"/>{extra}</joint>')


_TREE = [_rev('ab', 'a', 'b'), _rev('bc', 'b', 'c')]

ERROR_CASES: dict[str, tuple[str, ErrorCode, str, int]] = {
    # name: (urdf text, code, message fragment, line)
    'missing robot name': ('<robot>\n' + _INERT.format('a') + '\n</robot>',
                           ErrorCode.URDF_INVALID, '<robot> needs attribute [name]', 1),
    'link without name': (_robot('<link/>', *_TREE), ErrorCode.URDF_INVALID,
                          '<link> needs attribute [name]', 5),
    'joint without name': (_robot(*_TREE, '<joint type="fixed"/>'), ErrorCode.URDF_INVALID,
                           '<joint> needs attribute [name]', 7),
    'duplicate link': (_robot(_INERT.format('b'), *_TREE), ErrorCode.URDF_INVALID,
                       'link name [b] is used twice (first at line 3)', 5),
    'duplicate joint': (_robot(*_TREE, _rev('ab', 'a', 'c')), ErrorCode.URDF_INVALID,
                        'joint name [ab] is used twice', 7),
    'joint without parent': (
        _robot(_TREE[0], '<joint name="bc" type="fixed"><child link="c"/></joint>'),
        ErrorCode.URDF_INVALID, 'joint [bc] has no <parent link="..."/>', 6),
    'joint without child': (
        _robot(_TREE[0], '<joint name="bc" type="fixed">\n<parent link="b"/>\n<child/></joint>'),
        ErrorCode.URDF_INVALID, 'joint [bc] has no <child link="..."/>', 8),
    'unknown parent link': (_robot(_TREE[0], _rev('bc', 'nope', 'c')), ErrorCode.URDF_INVALID,
                            'parent link [nope] of joint [bc] is not a link of robot [r]', 6),
    'unknown child link': (_robot(_TREE[0], _rev('bc', 'b', 'nope')), ErrorCode.URDF_INVALID,
                           'child link [nope] of joint [bc] is not a link of robot [r]', 6),
    'undeclared world': (_robot(*_TREE, '<joint name="w" type="fixed"><parent link="world"/>'
                                '<child link="a"/></joint>'),
                         ErrorCode.URDF_INVALID, 'parent link [world] of joint [w]', 7),
    'world as child': (_robot('<link name="world"/>', *_TREE,
                              '<joint name="w" type="fixed"><parent link="a"/>'
                              '<child link="world"/></joint>'),
                       ErrorCode.URDF_INVALID, 'has link [world] as child', 8),
    'unknown joint type': (_robot(_TREE[0], '<joint name="bc" type="hinge"><parent link="b"/>'
                                  '<child link="c"/></joint>'),
                           ErrorCode.URDF_INVALID, 'joint [bc] has unknown type [hinge]', 6),
    'missing joint type': (_robot(_TREE[0], '<joint name="bc"><parent link="b"/>'
                                  '<child link="c"/></joint>'),
                           ErrorCode.URDF_INVALID, 'joint [bc] has no type attribute', 6),
    'two roots': (_robot(_TREE[0]), ErrorCode.URDF_INVALID,
                  'robot [r] has 2 root links ([a], [c])', 4),
    'child of two joints': (_robot(*_TREE, _rev('ac', 'a', 'c')), ErrorCode.URDF_INVALID,
                            'link [c] is the child of two joints, [bc] and [ac]', 7),
    'loop': (_robot(_rev('ab', 'a', 'b'), _rev('bc', 'b', 'c'), _rev('ca', 'c', 'a')),
             ErrorCode.URDF_INVALID,
             'kinematic loop: link [a] -> joint [ab] -> link [b] -> joint [bc] -> link [c] '
             '-> joint [ca] -> link [a]', 5),
    'self joint': (_robot(*_TREE, _rev('cc', 'c', 'c')), ErrorCode.URDF_INVALID,
                   'joint [cc] joins link [c] to itself', 7),
    'non-numeric origin': (_robot(_TREE[0], '<joint name="bc" type="fixed"><parent link="b"/>'
                                  '<child link="c"/>\n<origin xyz="1 two 3"/></joint>'),
                           ErrorCode.URDF_INVALID,
                           '<origin xyz="1 two 3"> of joint [bc]: [two] is not a number', 7),
    'non-finite origin': (_robot(_TREE[0], '<joint name="bc" type="fixed"><parent link="b"/>'
                                 '<child link="c"/>\n<origin rpy="0 nan 0"/></joint>'),
                          ErrorCode.URDF_INVALID, '[nan] must be a finite number', 7),
    'wrong count': (_robot(_TREE[0], '<joint name="bc" type="fixed"><parent link="b"/>'
                           '<child link="c"/>\n<origin rpy="0 0 0 0"/></joint>'),
                    ErrorCode.URDF_INVALID, 'needs 3 numbers, found 4', 7),
    'non-numeric mass': (_robot('<link name="d"><inertial>\n<mass value="heavy"/>'
                                '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>'
                                '</inertial></link>', *_TREE,
                                '<joint name="cd" type="fixed"><parent link="c"/>'
                                '<child link="d"/></joint>'),
                         ErrorCode.URDF_INVALID, '[heavy] is not a number', 6),
    'invalid inertia': (_robot('<link name="d"><inertial><mass value="1"/><inertia ixx="1" '
                               'ixy="0" ixz="0" iyy="1" iyz="0" izz="5"/></inertial></link>',
                               *_TREE, _rev('cd', 'c', 'd')),
                        ErrorCode.LINK_INERTIA_INVALID, 'A link named d has invalid inertia.', 5),
    'revolute without limit': (_robot(_TREE[0], '<joint name="bc" type="revolute">'
                                      '<parent link="b"/><child link="c"/></joint>'),
                               ErrorCode.URDF_INVALID,
                               'joint [bc] is of type revolute but has no <limit>', 6),
    'limit without effort': (_robot(_TREE[0], '<joint name="bc" type="prismatic"><parent link="b"/>'
                                    '<child link="c"/>\n<limit velocity="1"/></joint>'),
                             ErrorCode.URDF_INVALID,
                             '<limit> of joint [bc] needs attribute [effort]', 7),
    'zero axis': (_robot(_TREE[0], _rev('bc', 'b', 'c', '\n<axis xyz="0 0 0"/>')),
                  ErrorCode.URDF_INVALID, 'the norm of the xyz vector cannot be zero', 7),
    'empty dynamics': (_robot(_TREE[0], _rev('bc', 'b', 'c', '\n<dynamics/>')),
                       ErrorCode.URDF_INVALID, 'needs attribute [damping] or [friction]', 7),
    'mimic without joint': (_robot(_TREE[0], _rev('bc', 'b', 'c', '\n<mimic multiplier="2"/>')),
                            ErrorCode.URDF_INVALID, '<mimic> of joint [bc] needs attribute [joint]',
                            7),
    'reserved link name': (_robot('<link name="__model__"/>', *_TREE), ErrorCode.RESERVED_NAME,
                           'link name [__model__] is reserved', 5),
    'reserved joint name': (_robot(_TREE[0], _rev('__j__', 'b', 'c')), ErrorCode.RESERVED_NAME,
                            'joint name [__j__] is reserved', 6),
    'no links': ('<robot name="r">\n</robot>', ErrorCode.URDF_INVALID, 'robot [r] has no <link>', 1),
    'material without name': (_robot('<link name="d"><visual><geometry><sphere radius="1"/>'
                                     '</geometry>\n<material/></visual></link>', *_TREE,
                                     '<joint name="cd" type="fixed"><parent link="c"/>'
                                     '<child link="d"/></joint>'),
                              ErrorCode.URDF_INVALID, '<material> in a visual of link [d] needs '
                              'attribute [name]', 6),
}



# urdfdom logs an unreadable shape, drops it with the link's later shapes and keeps the
# robot: warnings, at the shape's line.
WARNING_CASES: dict[str, tuple[str, ErrorCode, str, int]] = {
    'missing geometry': (_robot('<link name="d">\n<visual><origin xyz="0 0 1"/></visual></link>',
                                *_TREE, '<joint name="cd" type="fixed"><parent link="c"/>'
                                '<child link="d"/></joint>'),
                         ErrorCode.URDF_INVALID, 'visual [d_visual] of link [d] has no <geometry>', 6),
    'empty geometry': (_robot('<link name="d"><collision>\n<geometry/></collision></link>',
                              *_TREE, '<joint name="cd" type="fixed"><parent link="c"/>'
                              '<child link="d"/></joint>'),
                       ErrorCode.URDF_INVALID,
                       '<geometry> of collision [d_collision] of link [d] holds no shape', 6),
    'unknown shape': (_robot('<link name="d"><collision><geometry>\n<plane normal="0 0 1"/>'
                             '</geometry></collision></link>', *_TREE,
                             '<joint name="cd" type="fixed"><parent link="c"/><child link="d"/>'
                             '</joint>'),
                      ErrorCode.URDF_INVALID, 'holds unknown shape <plane>', 6),
    'box without size': (_robot('<link name="d"><collision><geometry>\n<box/>'
                                '</geometry></collision></link>', *_TREE,
                                '<joint name="cd" type="fixed"><parent link="c"/>'
                                '<child link="d"/></joint>'),
                         ErrorCode.URDF_INVALID, '<box> of collision [d_collision] of link [d] '
                         'needs attribute [size]', 6),
    'mesh without filename': (_robot('<link name="d"><visual><geometry>\n<mesh/>'
                                     '</geometry></visual></link>', *_TREE,
                                     '<joint name="cd" type="fixed"><parent link="c"/>'
                                     '<child link="d"/></joint>'),
                              ErrorCode.URDF_INVALID, 'needs attribute [filename]', 6),
}


@pytest.mark.parametrize('case', sorted(ERROR_CASES))
def test_reader_reports_error_with_code_message_and_line(case: str, tmp_path: Path) -> None:
    text, code, fragment, line = ERROR_CASES[case]
    path = tmp_path / 'bad.urdf'
    path.write_text(text)
    doc, diags = read_urdf_file(path)
    assert doc is not None
    found = [d for d in _errors(diags) if d.code is code and fragment in d.message]
    assert found, f'no {code.value} error with {fragment!r} in:\n' + '\n'.join(map(str, diags))
    assert (found[0].file, found[0].line) == (str(path), line), str(found[0])


@pytest.mark.parametrize('case', sorted(WARNING_CASES))
def test_unreadable_shapes_are_warnings_and_dropped(case: str, tmp_path: Path) -> None:
    text, code, fragment, line = WARNING_CASES[case]
    path = tmp_path / 'bad.urdf'
    path.write_text(text)
    doc, diags = read_urdf_file(path)
    assert doc is not None and doc.model is not None
    assert _errors(diags) == [], '\n'.join(map(str, _errors(diags)))
    found = [d for d in diags if d.code is code and fragment in d.message]
    assert found and (found[0].file, found[0].line) == (str(path), line), '\n'.join(map(str, diags))
    d_link = next(lk for lk in doc.model.links if lk.name == 'd')
    assert d_link.visuals == [] and d_link.collisions == []


def test_a_bad_visual_drops_later_visuals_and_all_collisions(tmp_path: Path) -> None:
    path = tmp_path / 'r.urdf'
    path.write_text(_robot('<link name="d">'
                           '<visual name="v1"><geometry><box size="1 1 1"/></geometry></visual>'
                           '<visual name="bad"><geometry><plane/></geometry></visual>'
                           '<visual name="v3"><geometry><box size="1 1 1"/></geometry></visual>'
                           '<collision name="c1"><geometry><box size="1 1 1"/></geometry></collision>'
                           '</link>', *_TREE, _rev('cd', 'c', 'd')))
    doc, diags = read_urdf_file(path)
    assert doc is not None and doc.model is not None and _errors(diags) == []
    d_link = next(lk for lk in doc.model.links if lk.name == 'd')
    assert [v.name for v in d_link.visuals] == ['v1_visual'] or len(d_link.visuals) == 1
    assert d_link.collisions == []


def test_inertia_is_judged_after_fixed_joint_lumping(tmp_path: Path) -> None:
    # Alone, tip's inertia breaks the triangle inequality; lumped into base the sum is valid.
    path = tmp_path / 'r.urdf'
    path.write_text('<robot name="r">\n<link name="base"><inertial><mass value="1"/>'
                    '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>\n'
                    '<link name="tip"><inertial><mass value="0.1"/>'
                    '<inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.003"/></inertial></link>\n'
                    '<joint name="fix" type="fixed"><parent link="base"/><child link="tip"/></joint>\n'
                    '</robot>\n')
    doc, diags = read_urdf_file(path)
    assert _errors(diags) == []
    assert any(d.code is ErrorCode.LINK_INERTIA_INVALID and d.line == 3 for d in diags)


def test_joint_named_like_a_kept_link_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / 'r.urdf'
    path.write_text(_robot('<link name="g"><inertial><mass value="1"/><inertia ixx="1" ixy="0" '
                           'ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>',
                           _rev('g', 'a', 'g')))
    doc, diags = read_urdf_file(path)
    assert any(d.code is ErrorCode.DUPLICATE_NAME and 'Gazebo refuses' in d.message
               for d in _errors(diags)), '\n'.join(map(str, diags))
    fixed = tmp_path / 'f.urdf'
    fixed.write_text(_robot('<link name="g"/>', '<joint name="g" type="fixed"><parent link="a"/>'
                            '<child link="g"/></joint>'))
    # a lumped joint is gone for Fortress; 14+ keep a frame of its name (#1148), which
    # clashes (the 14.9 probe: "frame with name[g] already exists.")
    for target, clash in (('fortress', False), ('harmonic', True)):
        with gazebo.using(target):
            _, diags = read_urdf_file(fixed)
        assert any(d.code is ErrorCode.DUPLICATE_NAME for d in _errors(diags)) is clash


def test_scoped_names_are_allowed_as_libsdformat_12_allows_them(tmp_path: Path) -> None:
    # 14+ refuses them (urdf/test_conversion.py::test_colons_in_names_as_each_libsdformat_judges_them)
    from sdf_tools.gazebo import using

    path = tmp_path / 'r.urdf'
    path.write_text(_robot(_TREE[0], _rev('b::c', 'b', 'c')))
    with using('fortress'):
        doc, diags = read_urdf_file(path)
    assert doc is not None and _errors(diags) == []
    assert 'b::c' in {j.name for j in doc.model.joints}  # type: ignore[union-attr]


def test_reader_refuses_a_root_that_is_not_robot() -> None:
    root = etree.fromstring(b'<sdf version="1.9">\n<model name="m"/></sdf>')
    doc, diags = read_urdf_root(root, 'x.urdf')
    assert doc is None
    assert [(d.code, d.line) for d in diags] == [(ErrorCode.URDF_INVALID, 1)]
    assert 'the root element is <sdf>, not <robot>' in diags[0].message


def test_reader_reports_unreadable_files(tmp_path: Path) -> None:
    doc, diags = read_urdf_file(tmp_path / 'missing.urdf')
    assert doc is None and [d.code for d in diags] == [ErrorCode.FILE_READ]
    bad = tmp_path / 'bad.urdf'
    bad.write_text('<robot name="r">\n<link name="a">\n</robot>\n')
    doc, diags = read_urdf_file(bad)
    assert doc is None and diags[0].code is ErrorCode.XML_INVALID and diags[0].line == 3


def test_loop_is_broken_so_the_frame_graph_stays_resolvable(tmp_path: Path) -> None:
    path = tmp_path / 'loop.urdf'
    path.write_text(ERROR_CASES['loop'][0])
    model, _ = _read(path)
    g = build_model_graphs(model)
    assert not [e for e in g.errors if e.code is ErrorCode.POSE_RELATIVE_TO_CYCLE]


def test_bad_joints_stay_out_of_the_model_so_errors_do_not_cascade(tmp_path: Path) -> None:
    path = tmp_path / 'r.urdf'
    path.write_text(ERROR_CASES['unknown parent link'][0])
    model, diags = _read(path)
    assert [j.name for j in model.joints] == ['ab']
    assert len(_errors(diags)) == 1
    assert build_model_graphs(model).errors == []


# ---------------------------------------------------------------------------------------
# Real robots: nothing crashes, every error has a line, error-free robots resolve.

def _real_urdfs() -> list[str]:
    try:
        import pybullet_data
    except ImportError:
        return []
    return sorted(glob.glob(f'{pybullet_data.getDataPath()}/**/*.urdf', recursive=True))


REAL = _real_urdfs()


@pytest.mark.skipif(not REAL, reason='pybullet_data is not installed')
def test_real_urdfs_read_without_crash_and_with_located_errors() -> None:
    clean = 0
    for path in REAL:
        doc, diags = read_urdf_file(path)
        for d in diags:
            assert d.file == path and (d.line is not None or d.code is ErrorCode.FILE_READ), str(d)
        if doc is None or _errors(diags):
            continue
        assert doc.model is not None
        g = build_model_graphs(doc.model)
        assert g.errors == [], f'{path}: {g.errors}'
        for link in doc.model.links:
            assert resolve_pose(g, g.ids[f'{doc.model.name}::{link.name}']) is not None
        clean += 1
    assert clean > len(REAL) // 2


@pytest.mark.skipif(not REAL, reason='pybullet_data is not installed')
@pytest.mark.parametrize('name', ['r2d2.urdf', 'kuka_iiwa/model.urdf', 'franka_panda/panda.urdf',
                                  'laikago/laikago.urdf', 'a1/a1.urdf', 'racecar/racecar.urdf'])
def test_real_urdf_links_match_forward_kinematics(name: str) -> None:
    path = next((Path(p) for p in REAL if p.endswith('/' + name)), None)
    if path is None:
        pytest.skip(f'{name} is not in this pybullet_data')
    model, diags = _read(path)
    # kuka's root link has mass 0: libsdformat (and so the reader) refuses the robot, yet
    # every frame is known
    assert [d for d in _errors(diags) if not is_massless_root(d)] == []
    g = build_model_graphs(model)
    fk_links, _ = forward_kinematics(path)
    for link in model.links:
        pose = resolve_pose(g, g.ids[f'{model.name}::{link.name}'])
        assert pose is not None
        np.testing.assert_allclose(_as_matrix(pose), fk_links[link.name], rtol=0, atol=1e-12)


# ---------------------------------------------------------------------------------------
# libsdformat 12, where it is installed: same place for every link it keeps.

def test_arm_link_poses_match_libsdformat() -> None:
    support = pytest.importorskip('support.libsdformat')
    if not support.probe_available():
        pytest.skip(support.probe_unavailable_reason())
    report = support.run_probe(ARM)
    assert report['valid'], report.get('errors')
    model, _ = _read(ARM)
    g = build_model_graphs(model)
    theirs = {lk['name']: lk['pose'] for lk in report['links']}
    # libsdformat lumps [tool] into [forearm] through the fixed joint: it has no pose there.
    assert set(theirs) == {f'arm::{lk.name}' for lk in model.links} - {'arm::tool'}
    for name, pose in theirs.items():
        ours = resolve_pose(g, g.ids[name])
        assert ours is not None
        np.testing.assert_allclose(ours.p, pose['xyz'], rtol=0, atol=1e-9)
        q = np.array(ours.quat_xyzw())
        q_ref = np.array(pose['quat_xyzw'])
        assert min(np.abs(q - q_ref).max(), np.abs(q + q_ref).max()) < 1e-9
