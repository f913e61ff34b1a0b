"""Fixed-joint lumping: combined inertia, libsdformat's order and names, frames, switches."""
from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pytest
from lxml import etree
from scipy.spatial.transform import Rotation

from convert.sdf.to_sdf_compare import DATA, convert
from sdf_tools.convert import ReportKind
from sdf_tools.convert.sdf.lumping import combine_inertials, urdf_shape_name
from sdf_tools.load import load_string
from sdf_tools.model import Inertial, RawPose
from sdf_tools.transform import Transform


def _random_inertial(rng: np.random.Generator) -> tuple[Inertial, np.ndarray, np.ndarray, float]:
    mass = float(rng.uniform(0.1, 5.0))
    principal = rng.uniform(0.1, 1.0, 3)
    principal[2] = min(principal[2], principal[0] + principal[1])
    rot = Rotation.random(random_state=rng)
    tensor = rot.as_matrix() @ np.diag(principal) @ rot.as_matrix().T
    com = rng.uniform(-0.5, 0.5, 3)
    frame_rot = Rotation.random(random_state=rng)
    local = frame_rot.as_matrix().T @ tensor @ frame_rot.as_matrix()  # expressed in the inertial frame
    pose = Transform.from_xyz_rpy(tuple(com), tuple(frame_rot.as_euler('xyz')))  # type: ignore[arg-type]
    values = (local[0, 0], local[0, 1], local[0, 2], local[1, 1], local[1, 2], local[2, 2])
    inertial = Inertial(mass, tuple(float(v) for v in values), RawPose(pose))  # type: ignore[arg-type]
    return inertial, com, tensor, mass


@pytest.mark.parametrize('seed', range(20))
def test_combined_inertia_is_the_parallel_axis_sum(seed: int) -> None:
    rng = np.random.default_rng(seed)
    parent, c1, t1, m1 = _random_inertial(rng)
    child, c2, t2, m2 = _random_inertial(rng)
    placement = Transform.from_xyz_rpy(tuple(rng.uniform(-1, 1, 3)), tuple(rng.uniform(-3, 3, 3)))
    r = Rotation.from_quat([*placement.q[1:], placement.q[0]]).as_matrix()
    c2p, t2p = r @ c2 + np.array(placement.p), r @ t2 @ r.T
    com = (m1 * c1 + m2 * c2p) / (m1 + m2)
    expected = sum(t + m * (np.dot(c - com, c - com) * np.eye(3) - np.outer(c - com, c - com))
                   for m, c, t in ((m1, c1, t1), (m2, c2p, t2p)))
    got = combine_inertials(parent, child, placement)
    assert got.mass == pytest.approx(m1 + m2, rel=1e-15)
    assert got.pose is not None
    assert np.allclose(got.pose.value.p, com, atol=1e-14)
    # Expressed in the parent's inertial orientation, as libsdformat keeps it.
    assert np.allclose(got.pose.value.q, parent.pose.value.q)  # type: ignore[union-attr]
    rot = Rotation.from_quat([*got.pose.value.q[1:], got.pose.value.q[0]]).as_matrix()
    ixx, ixy, ixz, iyy, iyz, izz = got.inertia
    tensor = rot @ np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]]) @ rot.T
    assert np.allclose(tensor, expected, atol=1e-13)


def test_a_parent_without_inertial_takes_the_child_s_mass_at_its_place() -> None:
    child = Inertial(2.0, (1.0, 0.0, 0.0, 2.0, 0.0, 3.0), RawPose(Transform((0.0, 0.0, 1.0))))
    got = combine_inertials(None, child, Transform((1.0, 0.0, 0.0)))
    assert got.mass == 2.0 and got.pose is not None
    assert got.pose.value.p == (1.0, 0.0, 1.0)
    assert got.inertia == pytest.approx((1.0, 0.0, 0.0, 2.0, 0.0, 3.0))


@pytest.mark.parametrize('sdf_name,link,suffix,index,urdf', [
    ('base_visual', 'base', '_visual', 0, 'base'),
    ('base_visual_2', 'base', '_visual', 2, 'base'),
    ('base_fixed_joint_lump__lid_visual_1', 'base', '_visual', 1, 'lid'),
    ('base_shell_collision', 'base', '_collision', 0, 'base_shell'),
])
def test_urdf_names_are_recovered_from_the_reader_s_names(sdf_name: str, link: str, suffix: str,
                                                          index: int, urdf: str) -> None:
    assert urdf_shape_name(link, sdf_name, suffix, index) == urdf


def _output(**options: object) -> etree._Element:
    result = convert(DATA / 'lumping.urdf', **options)  # type: ignore[arg-type]
    assert result.ok
    return etree.fromstring((result.text or '').encode())


def test_links_are_merged_in_libsdformat_s_order_and_named_like_it() -> None:
    root = _output()
    base = root.find('model/link[@name="base"]')
    assert base is not None
    visuals = [v.get('name') for v in base.iterfind('visual')]
    # Own visual, then housing (joint a_first), then plate and what plate absorbed (b_mount).
    assert visuals == ['base_visual', 'base_fixed_joint_lump__housing_visual_1',
                       'base_fixed_joint_lump__plate_visual_2', 'base_fixed_joint_lump__sensor_link_visual_3']
    collisions = [c.get('name') for c in base.iterfind('collision')]
    assert collisions == ['base_collision', 'base_fixed_joint_lump__housing_link_collision_1',
                          'base_fixed_joint_lump__plate_col_collision_2']
    assert [lk.get('name') for lk in root.iterfind('model/link')] == \
        ['base', 'arm', 'finger', 'kept_link', 'locked_link']


def test_each_lumped_joint_and_link_becomes_a_frame() -> None:
    root = _output()
    frames = {f.get('name'): (f.get('attached_to'), f.find('pose')) for f in root.iterfind('model/frame')}
    assert set(frames) == {'a_first', 'housing_link', 'b_mount', 'plate', 'p_sensor', 'sensor_link',
                           'tool_joint', 'tool', 'kept_child_joint', 'kept_child'}
    attached, pose = frames['p_sensor']
    assert attached == 'plate' and pose is not None
    assert pose.get('relative_to') == 'plate' and pose.text == '0.05 0 0.02 0 0.5 0'
    attached, pose = frames['sensor_link']
    assert attached == 'p_sensor' and pose is not None and pose.get('relative_to') == 'p_sensor'


def test_joints_below_a_lumped_link_hang_from_its_absorber_placed_from_its_frame() -> None:
    root = _output()
    arm = root.find('model/joint[@name="p_arm"]')
    assert arm is not None and arm.findtext('parent') == 'base'
    pose = arm.find('pose')
    assert pose is not None and pose.get('relative_to') == 'plate' and pose.text == '-0.05 0 0.02 0 0 0.7'


def test_preserved_joint_stays_fixed_and_disabled_one_is_locked() -> None:
    root = _output()
    kept = root.find('model/joint[@name="kept_joint"]')
    locked = root.find('model/joint[@name="locked_joint"]')
    assert kept is not None and kept.get('type') == 'fixed'
    assert locked is not None and locked.get('type') == 'revolute'
    assert (locked.findtext('axis/limit/lower'), locked.findtext('axis/limit/upper')) == ('0', '0')
    result = convert(DATA / 'lumping.urdf')
    rewritten = [e for e in result.report.entries if e.element == 'joint[locked_joint]']
    assert rewritten and rewritten[0].kind is ReportKind.REWRITTEN and rewritten[0].line == 145


def test_keep_fixed_joints_lumps_nothing() -> None:
    root = _output(keep_fixed_joints=True)
    assert len(root.findall('model/link')) == 10
    assert root.find('model/frame') is None
    assert root.find('model/joint[@name="b_mount"]').get('type') == 'fixed'  # type: ignore[union-attr]


def test_merges_and_renames_are_reported_with_their_lines() -> None:
    result = convert(DATA / 'lumping.urdf')
    merged = {e.element: e.line for e in result.report.entries if e.kind is ReportKind.MERGED}
    assert merged == {'link[housing_link]': 98, 'link[sensor_link]': 39, 'link[plate]': 24,
                      'link[tool]': 69, 'link[kept_child]': 125}
    renamed = {e.element: e.message for e in result.report.entries if e.kind is ReportKind.RENAMED}
    assert renamed['link[plate]/collision[plate_col_collision]'] == \
        'is collision [base_fixed_joint_lump__plate_col_collision_2] of link [base]'


def test_lumped_output_reads_back_valid_with_the_merged_mass() -> None:
    result = convert(DATA / 'lumping.urdf')
    back = load_string(result.text or '', 'o.sdf')
    assert back.valid, [str(d) for d in back.errors]
    links = {lk.name: lk for lk in back.document.model.links}  # type: ignore[union-attr]
    assert links['base'].inertial.mass == pytest.approx(2.71)  # type: ignore[union-attr]
    assert links['arm'].inertial.mass == pytest.approx(1.2)  # type: ignore[union-attr]
    assert links['kept_link'].inertial.mass == pytest.approx(0.4)  # type: ignore[union-attr]


# ---------------------------------------------------------------------------------------
# Property: random trees of fixed and moving joints, lumped, read back by our reader.

hypothesis = pytest.importorskip('hypothesis')
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from convert.sdf.to_sdf_compare import compare_kinematics, compare_lumped_mass, read_urdf  # noqa: E402

_num = st.floats(-1.0, 1.0, allow_nan=False).map(lambda v: round(v, 4))
_angle = st.floats(-3.0, 3.0, allow_nan=False).map(lambda v: round(v, 4))
_pitch = st.floats(-1.4, 1.4, allow_nan=False).map(lambda v: round(v, 4))  # away from +-90 degrees


@st.composite
def _robots(draw: st.DrawFn) -> str:
    n = draw(st.integers(2, 8))
    parts = ['<robot name="r">']
    for i in range(n):
        body = ''
        if i == 0 or draw(st.booleans()) or draw(st.booleans()):
            mass = draw(st.floats(0.1, 5.0)).__round__(3)
            d = sorted(round(draw(st.floats(0.1, 1.0)), 3) for _ in range(3))
            d[2] = min(d[2], d[0] + d[1])  # the triangle inequality of principal moments
            body += (f'<inertial><origin xyz="{draw(_num)} {draw(_num)} {draw(_num)}" '
                     f'rpy="{draw(_angle)} {draw(_pitch)} {draw(_angle)}"/><mass value="{mass}"/>'
                     f'<inertia ixx="{d[0]}" ixy="0" ixz="0" iyy="{d[1]}" iyz="0" izz="{d[2]}"/></inertial>')
        if draw(st.booleans()):
            body += f'<visual><origin xyz="{draw(_num)} 0 0"/><geometry><sphere radius="0.1"/></geometry></visual>'
        parts.append(f'<link name="l{i}">{body}</link>')
    keep = []
    for i in range(1, n):
        parent = draw(st.integers(0, i - 1))
        kind = draw(st.sampled_from(['fixed', 'fixed', 'revolute', 'prismatic']))
        limit = '<limit lower="-1" upper="1" effort="1" velocity="1"/>' if kind != 'fixed' else ''
        parts.append(f'<joint name="j{i}" type="{kind}"><parent link="l{parent}"/><child link="l{i}"/>'
                     f'<origin xyz="{draw(_num)} {draw(_num)} {draw(_num)}" '
                     f'rpy="{draw(_angle)} {draw(_pitch)} {draw(_angle)}"/><axis xyz="0 0 1"/>{limit}</joint>')
        if kind == 'fixed' and draw(st.integers(0, 4)) == 0:
            keep.append(f'<gazebo reference="j{i}"><preserveFixedJoint>true</preserveFixedJoint></gazebo>')
    return ''.join(parts + keep + ['</robot>'])


@settings(max_examples=40, deadline=None, derandomize=True)
@given(_robots())
def test_random_robots_keep_their_kinematics_and_lumped_masses(urdf: str) -> None:
    import tempfile
    from pathlib import Path

    from sdf_tools.resolved import inspect_json

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / 'r.urdf'
        path.write_text(urdf)
        result = convert(path)
        assert result.ok, [str(e) for e in result.report.errors]
        back = load_string(result.text or '', 'o.sdf')
        assert back.valid, [str(e) for e in back.errors]
        ours = inspect_json(back)
        robot = read_urdf(path)
        assert not compare_kinematics(robot, ours)
        assert not compare_lumped_mass(robot, ours)


@pytest.mark.skipif(not __import__('support.libsdformat', fromlist=['x']).probe_available(),
                    reason='libsdformat 12 probe unavailable')
@settings(max_examples=15, deadline=None, derandomize=True)
@given(_robots())
def test_random_robots_lump_like_libsdformat(urdf: str) -> None:
    import tempfile
    from pathlib import Path

    from support.libsdformat import run_probe

    from convert.sdf.to_sdf_compare import compare_libsdformat, write

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / 'r.urdf'
        path.write_text(urdf)
        ref = run_probe(path)
        result = convert(path, massless_links='drop')
        ours = run_probe(write(result, Path(d)))
        assert ours['valid'], ours['errors']
        if not ref['valid']:
            return  # libsdformat drops every link (massless root): nothing to compare
        assert not compare_libsdformat(ref, ours, read_urdf(path))
        assert {x['name'] for x in ours['links']} == {x['name'] for x in ref['links']}


_TINY = '<inertial><mass value="4e-7"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>'
_PROBES = {'fortress': None, 'harmonic': os.environ.get('SDFORMAT_PROBE_14'),
           'ionic': os.environ.get('SDFORMAT_PROBE_15'),
           'jetty': os.environ.get('SDFORMAT_PROBE_16')}


@pytest.mark.parametrize('gazebo', list(_PROBES))
def test_drop_judges_a_link_by_its_lumped_sum_as_read(gazebo: str, tmp_path: Path) -> None:
    # [mount] (4e-7 kg) takes [tip] (4e-7 kg) through fixed joint [f]: 8e-7 kg, no mass for
    # libsdformat 12.3 (within 1e-6 of 0), which leaves [mount] out; a mass for 14+. The sum
    # is the URDF's as read (the load's walk): summing again after lumping counted [tip]
    # twice (1.2e-6 kg) and kept [mount] for Fortress.
    from support.libsdformat import probe_available, probe_unavailable_reason, run_probe

    from convert.sdf.to_sdf_compare import write
    from sdf_tools.convert import ConversionOptions
    from sdf_tools.convert.sdf.to_sdf import convert_to_sdf

    probe = _PROBES[gazebo]
    if gazebo == 'fortress' and not probe_available():
        pytest.skip(str(probe_unavailable_reason()))
    if gazebo != 'fortress' and (not probe or not Path(probe).is_file()):
        pytest.skip(f'no libsdformat probe for {gazebo} (SDFORMAT_PROBE_1x)')
    path = tmp_path / 'r.urdf'
    path.write_text(
        '<robot name="r"><link name="base"><inertial><mass value="1"/><inertia ixx="0.01" '
        'ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>'
        '<joint name="j" type="revolute"><parent link="base"/><child link="mount"/>'
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        f'<link name="mount">{_TINY}</link><joint name="f" type="fixed"><parent link="mount"/>'
        f'<child link="tip"/><origin xyz="0 0 0.1"/></joint><link name="tip">{_TINY}</link></robot>')
    ref = run_probe(path, probe=probe)
    result = convert_to_sdf(load_string(path.read_text(), str(path), gazebo=gazebo),
                            ConversionOptions(gazebo=gazebo, massless_links='drop'))
    back = run_probe(write(result, tmp_path), probe=probe)
    assert ref['valid'] and back['valid'], back['errors']
    assert [lk['name'] for lk in back['links']] == [lk['name'] for lk in ref['links']]
    assert [lk['mass'] for lk in back['links']] == [lk['mass'] for lk in ref['links']]


_LAMINA = '''<robot name="r">
  <link name="base"><inertial><mass value="1.0"/>
    <inertia ixx="1.0" ixy="0" ixz="0" iyy="1.0" iyz="0" izz="1.0"/></inertial></link>
  <link name="mount"/>
  <link name="plate">
    <inertial>
      <origin xyz="0 0 1" rpy="0.5781 0.125 0"/>
      <mass value="1.0"/>
      <inertia ixx="0.125" ixy="0" ixz="0" iyy="0.5" iyz="0" izz="0.625"/>
    </inertial>
  </link>
  <joint name="mount_joint" type="fixed"><parent link="base"/><child link="mount"/></joint>
  <joint name="plate_joint" type="fixed"><parent link="mount"/><child link="plate"/>
    <origin rpy="0 1 0"/></joint>
  <gazebo reference="mount_joint"><preserveFixedJoint>true</preserveFixedJoint></gazebo>
</robot>
'''


@pytest.mark.skipif(not __import__('support.libsdformat', fromlist=['x']).probe_available(),
                    reason='libsdformat 12 probe unavailable')
def test_a_lumped_flat_lamina_is_written_with_libsdformat_s_round_off(tmp_path: Path) -> None:
    # A plate (ixx + iyy = izz exactly) turned by its joint and lumped into a massless link:
    # libsdformat accepts the URDF; the textbook composite's last bits broke the triangle
    # inequality, so our converter refused it, then wrote a file libsdformat refused.
    from support.libsdformat import run_probe

    from convert.sdf.to_sdf_compare import compare_libsdformat, write

    path = tmp_path / 'lamina.urdf'
    path.write_text(_LAMINA)
    ref = run_probe(path)
    assert ref['valid'], ref['errors']
    result = convert(path)
    ours = run_probe(write(result, tmp_path))
    assert ours['valid'], ours['errors']
    assert not compare_libsdformat(ref, ours)
    [mount] = [x for x in ours['links'] if x['name'].endswith('::mount')]
    [expected] = [x for x in ref['links'] if x['name'].endswith('::mount')]
    # libsdformat's own numbers to the last bit or two (ours were ~1e-16 off and refused)
    assert all(math.isclose(a, b, rel_tol=1e-15, abs_tol=1e-15)
               for a, b in zip(mount['inertia'], expected['inertia'], strict=True))
