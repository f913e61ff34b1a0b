"""URDF (and xacro) -> SDFormat: poses, masses, joints, URDF-only elements, options, bad input.

The written SDFormat is loaded back by libsdformat 12 (the probe) and by our
reader, and compared with libsdformat's view of the ORIGINAL URDF and with
the URDF's own kinematics and lumped masses computed independently
(:mod:`to_sdf_compare`).
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from lxml import etree
from scipy.spatial.transform import Rotation
from support.libsdformat import probe_available, probe_unavailable_reason, run_probe

from convert.sdf.to_sdf_compare import (
    DATA,
    by_name,
    compare_kinematics,
    compare_libsdformat,
    compare_lumped_mass,
    convert,
    matrix,
    pose_error,
    read_urdf,
    write,
)
from sdf_tools.convert import ConversionOptions, ConversionResult, ReportEntry, ReportKind
from sdf_tools.convert.sdf.to_sdf import convert_to_sdf
from sdf_tools.convert.sdf.writer import URDF_NS
from sdf_tools.errors import ErrorCode
from sdf_tools.load import load_file, load_string
from sdf_tools.resolved import inspect_json
from sdf_tools.transform import Transform

URDF_DIR = DATA.parent / 'urdf'
PKG_ENV = {'ROS_PACKAGE_PATH': str(DATA / 'pkgs')}
# Robots libsdformat 12 loads: (file, environment).
LOADABLE = [('gazebo_tags.urdf', {}), ('lumping.urdf', {}), ('massless.urdf', {}),
            ('control.urdf', PKG_ENV)]
# Every robot of ours, including those libsdformat 12 rejects (floating/planar, massless root).
ALL_OWN = [*LOADABLE, ('joint_kinds.urdf', {}), ('massless_root.urdf', {})]

needs_probe = pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))


def _entries(result: ConversionResult, kind: ReportKind | None = None,
             element: str = '') -> list[ReportEntry]:
    return [e for e in result.report.entries
            if (kind is None or e.kind is kind) and element in e.element]


# ---------------------------------------------------------------------------------------
# 1. Where libsdformat puts the original URDF.


@needs_probe
@pytest.mark.parametrize('name,env', LOADABLE, ids=[n for n, _ in LOADABLE])
def test_output_puts_everything_where_libsdformat_puts_the_original(name: str, env: dict[str, str],
                                                                     tmp_path: Path) -> None:
    path = DATA / name
    result = convert(path, env)
    out = write(result, tmp_path)
    ours, ref = run_probe(out, env=env), run_probe(path, env=env)
    assert ours['valid'], ours['errors']
    assert ref['valid'], ref['errors']
    diffs = compare_libsdformat(ref, ours, read_urdf(path))
    assert not diffs, '\n'.join(diffs)
    # Links libsdformat drops but we keep all hang below (or are) a massless URDF link.
    model = ref['models'][0]['name']
    extra = set(by_name(ours['links'], model)) - set(by_name(ref['links'], model))
    robot = read_urdf(path)
    for link in extra:
        chain = [link]
        while (j := robot.parent_joint(chain[-1])) is not None and j.parent != 'world':
            chain.append(j.parent)
        assert any((robot.links[n].mass or 0.0) <= 1e-6 for n in chain), link
    given_mass = {e.element for e in _entries(result, ReportKind.ASSUMED, '/inertial')}
    assert given_mass == {f'link[{n}]/inertial' for n in extra if (robot.links[n].mass or 0.0) <= 1e-6}


@needs_probe
def test_arm_from_the_reader_tests_matches_libsdformat(tmp_path: Path) -> None:
    path = URDF_DIR / 'arm.urdf'
    ours = run_probe(write(convert(path), tmp_path))
    assert ours['valid'], ours['errors']
    diffs = compare_libsdformat(run_probe(path), ours, read_urdf(path))
    assert not diffs, '\n'.join(diffs)


@needs_probe
def test_drop_policy_gives_exactly_libsdformat_s_links(tmp_path: Path) -> None:
    path = DATA / 'massless.urdf'
    result = convert(path, massless_links='drop')
    ours, ref = run_probe(write(result, tmp_path)), run_probe(path)
    assert not compare_libsdformat(ref, ours, read_urdf(path))
    assert {x['name'] for x in ours['links']} == {x['name'] for x in ref['links']}
    assert {x['name'] for x in ours['joints']} == {x['name'] for x in ref['joints']}
    dropped = {e.element for e in _entries(result, ReportKind.DROPPED)}
    assert {'link[pan_dummy]', 'link[head]', 'link[laser_spinner]', 'link[tool_frame]'} <= dropped


# ---------------------------------------------------------------------------------------
# 2. Where the URDF's own kinematics put them.


@needs_probe
@pytest.mark.parametrize('name,env', ALL_OWN, ids=[n for n, _ in ALL_OWN])
def test_every_urdf_link_and_joint_is_where_the_urdf_puts_it(name: str, env: dict[str, str],
                                                             tmp_path: Path) -> None:
    path = DATA / name
    out = write(convert(path, env), tmp_path)
    robot = read_urdf(path)
    ours_lib = run_probe(out, env=env)
    assert ours_lib['valid'], ours_lib['errors']
    assert not compare_kinematics(robot, ours_lib)
    ours = json.loads(json.dumps(inspect_json(load_file(out))))
    assert ours['valid'], ours['errors']
    assert not compare_kinematics(robot, ours)


@needs_probe
@pytest.mark.parametrize('name,env', LOADABLE, ids=[n for n, _ in LOADABLE])
def test_masses_and_inertias_equal_an_independent_lumping(name: str, env: dict[str, str],
                                                          tmp_path: Path) -> None:
    path = DATA / name
    ours = run_probe(write(convert(path, env), tmp_path), env=env)
    assert not compare_lumped_mass(read_urdf(path), ours)


def _fk(path: Path) -> dict[str, np.ndarray]:
    """Forward kinematics with 4x4 matrices, written out for this one robot."""
    root = etree.parse(str(path)).getroot()
    pose = {'base': np.eye(4)}
    joints = {j.find('child').get('link'): j for j in root.iterfind('joint')}  # type: ignore[union-attr]
    for child in ('plate', 'sensor_link', 'arm', 'tool', 'finger', 'housing_link', 'kept_link',
                  'kept_child', 'locked_link'):
        j = joints[child]
        o = j.find('origin')
        m = np.eye(4)
        m[:3, :3] = Rotation.from_euler('xyz', [float(v) for v in o.get('rpy', '0 0 0').split()]).as_matrix()  # type: ignore[union-attr]
        m[:3, 3] = [float(v) for v in o.get('xyz').split()]  # type: ignore[union-attr]
        pose[child] = pose[j.find('parent').get('link')] @ m  # type: ignore[union-attr, index]
    world = np.eye(4)
    world[:3, :3] = Rotation.from_euler('z', 0.4).as_matrix()
    world[:3, 3] = [0.3, -0.1, 0.05]
    return {k: world @ v for k, v in pose.items()}


@needs_probe
def test_lumping_robot_matches_hand_written_forward_kinematics(tmp_path: Path) -> None:
    ours = run_probe(write(convert(DATA / 'lumping.urdf'), tmp_path))
    placed = {**by_name(ours['frames'], 'lumping'), **by_name(ours['links'], 'lumping')}
    for name, expected in _fk(DATA / 'lumping.urdf').items():
        assert pose_error(matrix(placed[name]['pose']), expected) < 1e-12, name
    assert set(by_name(ours['links'], 'lumping')) == {'base', 'arm', 'finger', 'kept_link', 'locked_link'}


# ---------------------------------------------------------------------------------------
# Massless links.


def test_massless_default_folds_or_gives_a_reported_mass() -> None:
    result = convert(DATA / 'massless.urdf')
    assumed = {e.element: e for e in _entries(result, ReportKind.ASSUMED, '/inertial')}
    assert set(assumed) == {'link[pan_dummy]/inertial', 'link[tool_frame]/inertial'}
    assert assumed['link[pan_dummy]/inertial'].line == 21
    assert 'revolute' in assumed['link[pan_dummy]/inertial'].message
    merged = {e.element for e in _entries(result, ReportKind.MERGED)}
    assert {'link[base_link]', 'link[imu_link]', 'link[laser_mount]'} <= merged
    doc = load_string(result.text or '', 'out.sdf')
    links = {lk.name: lk for lk in doc.document.model.links}  # type: ignore[union-attr]
    assert links['pan_dummy'].inertial is not None and links['pan_dummy'].inertial.mass == 1e-3
    assert links['base_footprint'].inertial.mass == 5.0  # type: ignore[union-attr]
    assert {f.name for f in doc.document.model.frames} >= {'imu_link', 'imu_joint', 'laser_mount'}  # type: ignore[union-attr]


def test_massless_with_kept_fixed_joints_folds_only_massless_links() -> None:
    result = convert(DATA / 'massless.urdf', keep_fixed_joints=True)
    doc = load_string(result.text or '', 'out.sdf').document
    assert doc is not None and doc.model is not None
    links = {lk.name for lk in doc.model.links}
    assert {'base_link', 'base_footprint', 'laser_spinner', 'tool_frame'} <= links
    assert 'imu_link' not in links and 'laser_mount' not in links
    assert {'imu_link', 'laser_mount'} <= {f.name for f in doc.model.frames}
    assert any(j.name == 'footprint_joint' and j.type == 'fixed' for j in doc.model.joints)


def test_massless_default_mass_policy_keeps_massless_frames_as_links() -> None:
    result = convert(DATA / 'massless.urdf', keep_fixed_joints=True, massless_links='default-mass',
                     default_mass=0.01)
    doc = load_string(result.text or '', 'out.sdf').document
    assert doc is not None and doc.model is not None
    links = {lk.name: lk for lk in doc.model.links}
    assert links['imu_link'].inertial is not None and links['imu_link'].inertial.mass == 0.01


def test_massless_error_policy_fails_with_each_link_s_line() -> None:
    result = convert(DATA / 'massless.urdf', massless_links='error')
    assert not result.ok and result.text is None
    lines = sorted((d.line, d.code) for d in result.report.errors)
    assert lines == [(21, ErrorCode.URDF_INVALID), (79, ErrorCode.URDF_INVALID)]
    assert all('massless_links=error' in d.message for d in result.report.errors)


@needs_probe
def test_massless_root_that_libsdformat_rejects_converts_to_a_valid_model(tmp_path: Path) -> None:
    path = DATA / 'massless_root.urdf'
    assert not run_probe(path)['valid']
    result = convert(path)
    ours = run_probe(write(result, tmp_path))
    assert ours['valid'], ours['errors']
    assert [e.element for e in _entries(result, ReportKind.ASSUMED)] == ['link[base]/inertial']


# ---------------------------------------------------------------------------------------
# Joints: floating, planar, mimic, URDF-only children.


@needs_probe
@pytest.mark.parametrize('version', ['1.9', '1.11'])
def test_floating_planar_and_mimic_joints(version: str, tmp_path: Path) -> None:
    result = convert(DATA / 'joint_kinds.urdf', sdf_version=version)
    ours = run_probe(write(result, tmp_path))
    assert ours['valid'], ours['errors']
    joints = by_name(ours['joints'], 'joint_kinds')
    assert 'drone_free' not in joints and 'drone_free' in by_name(ours['frames'], 'joint_kinds')
    assert joints['table']['type'] in ('continuous', 'revolute')
    assert [joints[n]['type'] for n in ('table__planar_x', 'table__planar_y')] == ['prismatic'] * 2
    pose = Transform.from_xyz_rpy((0.0, 0.0, 0.06), (0.0, 0.2, 0.0))
    axis = np.array(pose.rotate((0.0, 0.0, 1.0)))
    assert np.allclose(joints['table']['axis'], axis, atol=1e-12)
    for n in ('table__planar_x', 'table__planar_y'):
        assert abs(float(np.dot(joints[n]['axis'], axis))) < 1e-12  # in the plane
    kinds = {e.element: e.kind for e in result.report.entries}
    assert kinds['joint[table]'] is ReportKind.APPROXIMATED
    assert kinds['joint[drone_free]'] is ReportKind.REWRITTEN
    root = etree.fromstring((result.text or '').encode())
    right = root.find('model/joint[@name="finger_right_joint"]')
    assert right is not None
    if version == '1.11':
        mimic = right.find('axis/mimic')
        assert mimic is not None and mimic.get('joint') == 'finger_left_joint'
        assert float(mimic.findtext('offset') or 'nan') == 0.001
    else:
        mimic = right.find(f'{{{URDF_NS}}}mimic')
        assert mimic is not None and mimic.get('joint') == 'finger_left_joint'
    left = root.find('model/joint[@name="finger_left_joint"]')
    assert left is not None and left.find(f'{{{URDF_NS}}}safety_controller') is not None
    assert left.find(f'{{{URDF_NS}}}calibration') is not None


def test_continuous_joint_keeps_its_type_and_has_no_position_limits() -> None:
    result = convert(DATA / 'gazebo_tags.urdf')
    joint = etree.fromstring((result.text or '').encode()).find('model/joint[@name="wheel_joint"]')
    assert joint is not None and joint.get('type') == 'continuous'
    # <limit><lower>/<upper> are required by the spec: written as SDFormat's "no limit".
    assert float(joint.findtext('axis/limit/lower') or '-1e16') <= -1e16
    assert float(joint.findtext('axis/limit/upper') or '1e16') >= 1e16


# ---------------------------------------------------------------------------------------
# Transmissions, ros2_control, URIs.


def test_transmissions_and_ros2_control_are_carried_and_drive_their_joints() -> None:
    result = convert(DATA / 'control.urdf', PKG_ENV)
    root = etree.fromstring((result.text or '').encode())
    trans = root.find(f'model/{{{URDF_NS}}}transmission')
    assert trans is not None and trans.get('name') == 'trans1'
    assert trans.findtext('joint/hardwareInterface') == 'hardware_interface/PositionJointInterface'
    control = root.find(f'model/{{{URDF_NS}}}ros2_control')
    assert control is not None and control.find('joint[@name="joint2"]/command_interface') is not None
    plugins = {p.findtext('joint_name'): p.get('name') for p in root.iterfind('model/plugin')}
    assert plugins == {'joint1': 'gz::sim::systems::JointPositionController',
                       'joint2': 'gz::sim::systems::JointController'}
    drives = {e.element: e.line for e in _entries(result, ReportKind.ASSUMED, '/drive')}
    assert drives == {'joint[joint1]/drive': 53, 'joint[joint2]/drive': 64}
    kept = {e.element: e.line for e in _entries(result, ReportKind.KEPT, 'robot/')}
    assert kept == {'robot/transmission': 51, 'robot/ros2_control': 60}


def test_no_drive_when_gazebo_ros2_control_drives_the_joints() -> None:
    result = convert(URDF_DIR / 'arm.urdf')
    assert not _entries(result, ReportKind.ASSUMED, '/drive')
    result = convert(DATA / 'control.urdf', PKG_ENV, joint_drive_from_transmission=False)
    assert 'JointPositionController' not in (result.text or '')


@pytest.mark.parametrize('policy,expected', [
    ('keep', 'package://demo_description/meshes/block.stl'),
    ('model', 'model://demo_description/meshes/block.stl'),
    ('file', (DATA / 'pkgs/demo_description/meshes/block.stl').resolve().as_uri()),
])
def test_mesh_uris_follow_the_policy_and_missing_ones_are_reported(policy: str, expected: str) -> None:
    result = convert(DATA / 'control.urdf', PKG_ENV, uris=policy)
    root = etree.fromstring((result.text or '').encode())
    uris = [u.text for u in root.iter('uri') if 'block' in (u.text or '')]
    assert uris == [expected, expected]
    missing = [e for e in _entries(result, ReportKind.KEPT, 'uri[') if 'nowhere' in e.element]
    assert len(missing) == 1 and missing[0].line == 24 and 'cannot be found' in missing[0].message
    rewritten = _entries(result, ReportKind.REWRITTEN, 'uri[')
    assert len(rewritten) == {'keep': 0, 'model': 2, 'file': 1}[policy]  # 'file' needs the file


# ---------------------------------------------------------------------------------------
# Options that change the model.


@needs_probe
def test_root_transform_and_fixed_base_place_the_robot(tmp_path: Path) -> None:
    rt = Transform.from_xyz_rpy((1.0, 2.0, 3.0), (0.0, 0.0, 0.5))
    result = convert(DATA / 'massless.urdf', root_transform=rt, floating_base=False)
    ours = run_probe(write(result, tmp_path))
    assert ours['valid'], ours['errors']
    joints = by_name(ours['joints'], 'massless')
    assert joints['fixed_to_world']['parent'] == 'world'
    assert joints['fixed_to_world']['child'] == 'massless::base_footprint'
    assert not compare_kinematics(read_urdf(DATA / 'massless.urdf'), ours)
    base = by_name(ours['links'], 'massless')['base_footprint']['pose']
    assert pose_error(matrix(base), matrix(rt.to_json())) < 1e-12


def test_self_collide_option_overrides_model_and_links() -> None:
    result = convert(DATA / 'gazebo_tags.urdf', self_collide=False)
    root = etree.fromstring((result.text or '').encode())
    assert root.find('model/link[@name="base"]/self_collide') is None
    assert _entries(result, ReportKind.REWRITTEN, '/self_collide')


def test_visual_as_collision_and_inertia_from_geometry(tmp_path: Path) -> None:
    src = tmp_path / 'box.urdf'
    src.write_text('<robot name="b"><link name="l"><inertial><mass value="6"/>'
                   '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>'
                   '<visual><origin xyz="0 0 1"/><geometry><box size="1 2 3"/></geometry></visual>'
                   '</link></robot>')
    result = convert(src, visual_as_collision=True, inertia_from_geometry=True)
    link = load_string(result.text or '', 'o.sdf').document.model.links[0]  # type: ignore[union-attr]
    assert [c.name for c in link.collisions] == ['l_collision']
    inertial = link.inertial
    assert inertial is not None and inertial.pose is not None
    assert np.allclose(inertial.inertia, (6 / 12 * 13, 0, 0, 6 / 12 * 10, 0, 6 / 12 * 5))
    assert np.allclose(inertial.pose.value.p, (0, 0, 1))


def test_mesh_collision_box_and_inertia_of_a_mesh() -> None:
    result = convert(DATA / 'control.urdf', PKG_ENV, mesh_collision='box', inertia_from_geometry=True)
    base = load_string(result.text or '', 'o.sdf').document.model.links[0]  # type: ignore[union-attr]
    col = base.collisions[0]
    assert col.geometry is not None and col.geometry.type == 'box'
    assert np.allclose(col.geometry.params['size'], [0.4, 0.1, 0.05])  # type: ignore[arg-type]
    # The block is 0.2 x 0.1 x 0.05 centred at (0.05, 0, 0.025), scaled x2 along x.
    assert col.pose is not None
    expected = Transform.from_xyz_rpy((0, 0, 0.01), (0, 0, 0.3)) * Transform((0.1, 0.0, 0.025))
    assert np.allclose(col.pose.value.p, expected.p)
    inertial = base.inertial
    assert inertial is not None and inertial.pose is not None
    box = 2.0 / 12 * np.diag([0.1 ** 2 + 0.05 ** 2, 0.4 ** 2 + 0.05 ** 2, 0.4 ** 2 + 0.1 ** 2])
    r = Rotation.from_euler('z', 0.3).as_matrix()
    ixx, ixy, ixz, iyy, iyz, izz = inertial.inertia
    got = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    assert np.allclose(got, r @ box @ r.T, atol=1e-12)
    assert np.allclose(inertial.pose.value.p, expected.p, atol=1e-12)
    result = convert(DATA / 'control.urdf', PKG_ENV, mesh_collision='convex', sdf_version='1.11')
    assert 'optimization="convex_hull"' in (result.text or '')


# ---------------------------------------------------------------------------------------
# The output: header comment, version, report.


def test_output_starts_with_the_report_as_a_comment() -> None:
    result = convert(DATA / 'lumping.urdf')
    text = result.text or ''
    comment = text[text.index('<!--'):text.index('-->')]
    assert f'{len(result.report.entries)} report entries for ' in comment
    assert comment.splitlines()[1].endswith('lumping.urdf')
    for e in result.report.entries:
        assert f'{e.kind.value}: {e.element}: {e.message} (line {e.line})' in comment
    assert etree.fromstring(text.encode()).get('version') == '1.9'


def test_every_report_entry_has_a_file_and_line() -> None:
    for name, env in ALL_OWN:
        result = convert(DATA / name, env)
        for e in result.report.entries:
            assert e.file is not None and e.line is not None, str(e)


def test_xacro_input_converts() -> None:
    result = convert(URDF_DIR / 'two_link.urdf.xacro')
    assert result.ok, [str(d) for d in result.report.errors]
    assert load_string(result.text or '', 'o.sdf').valid


# ---------------------------------------------------------------------------------------
# 6. Bad input.


@pytest.mark.parametrize('name,code,line,fragment', [
    ('broken.urdf.xacro', ErrorCode.XACRO_ERROR, 5, "'width' is not defined"),
    ('unknown_joint_type.urdf', ErrorCode.URDF_INVALID, 5, 'unknown type [hinge]'),
    ('cyclic.urdf', ErrorCode.URDF_INVALID, 6, 'kinematic loop'),
    ('missing_parent.urdf', ErrorCode.URDF_INVALID, 5, 'parent link [nowhere]'),
])
def test_bad_input_fails_with_file_and_line(name: str, code: ErrorCode, line: int, fragment: str) -> None:
    result = convert(DATA / 'bad' / name)
    assert not result.ok and result.text is None
    errors = result.report.errors
    assert any(d.code is code and d.line == line and fragment in d.message
               and d.file and d.file.endswith(name) for d in errors), [str(d) for d in errors]


def test_bad_options_are_refused() -> None:
    result = convert_to_sdf(load_file(DATA / 'lumping.urdf'),
                            ConversionOptions(sdf_version='2.0', massless_links='maybe'))
    assert not result.ok
    assert {d.code for d in result.report.errors} == {ErrorCode.PARAMETER_ERROR}
    assert len(result.report.errors) == 2


def test_input_with_errors_is_refused_and_keeps_its_diagnostics() -> None:
    loaded = load_string('<robot name="r"><link name="a"/><joint name="j" type="revolute">'
                         '<parent link="a"/><child link="b"/></joint></robot>', 'r.urdf')
    assert loaded.errors
    result = convert_to_sdf(loaded, ConversionOptions())
    assert not result.ok and result.text is None
    assert result.report.errors == loaded.errors


def test_default_options_write_1_9_and_the_angles_as_written() -> None:
    text = convert(DATA / 'lumping.urdf').text or ''
    root = etree.fromstring(text.encode())
    pose = root.find('model/joint[@name="b_mount"]')
    assert pose is None  # lumped
    frame = root.find('model/frame[@name="b_mount"]/pose')
    assert frame is not None and frame.text == '0 0 0.1 0.2 0.1 -0.3' and frame.get('relative_to') == 'base'
    assert math.isclose(float(root.findtext('model/link[@name="base"]/inertial/mass') or 'nan'), 2.71)


def test_drop_policy_that_leaves_no_link_fails() -> None:
    result = convert(DATA / 'massless_root.urdf', massless_links='drop')
    assert not result.ok
    # the reader already says libsdformat drops the massless root (at its <link>)
    assert [d.code for d in result.report.errors] == [ErrorCode.MODEL_WITHOUT_LINK]
