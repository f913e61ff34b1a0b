"""``sdf_tools verify``: exports agree with their source; injected faults are found and named."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from lxml import etree

from sdf_tools.cli import main
from sdf_tools.convert.api import convert_file
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.verify import Verdict, verify_files

DATA = Path(__file__).resolve().parents[1] / 'data'
ARM = DATA / 'sim' / 'sensor_arm.sdf'
URDF = DATA / 'urdf' / 'arm.urdf'


def _export(src: Path, out: Path) -> Path:
    result = convert_file(src, to=None, output_path=out, options=ConversionOptions())
    assert result.ok, result.report.errors
    return out


def _differs(v: Verdict) -> set[tuple[str, str]]:
    return {(d.measure, d.object) for d in v.differences}


@pytest.mark.parametrize('suffix', ['.mjcf', '.usda', '.sdf', '.urdf'])
def test_an_export_of_a_urdf_agrees_with_its_source(suffix: str, tmp_path: Path) -> None:
    out = _export(URDF, tmp_path / f'arm{suffix}')
    v = verify_files(str(out), str(URDF))
    assert v.ok, [str(d) for d in v.differences]
    assert v.measures['body pose'].compared >= 4 and v.measures['mass'].compared >= 4
    assert v.measures['joint axis'].compared >= 2


def _mjcf(tmp_path: Path, edit: Callable[[etree._Element], None]) -> Path:
    out = _export(ARM, tmp_path / 'arm.mjcf')
    root = etree.parse(str(out)).getroot()
    edit(root)
    out.write_bytes(etree.tostring(root))
    return out


def _flip_axis(root: etree._Element) -> None:
    j = root.find(".//joint[@name='shoulder']")
    j.set('axis', ' '.join(str(-float(v)) for v in (j.get('axis') or '0 0 1').split()))


def _drop_link(root: etree._Element) -> None:
    body = root.find(".//body[@name='wheel']")
    body.getparent().remove(body)
    key = root.find('keyframe')  # its qpos held the dropped joint
    if key is not None:
        root.remove(key)


def _shift_mass(root: etree._Element) -> None:
    inertial = root.find(".//body[@name='upper']/inertial")
    inertial.set('pos', '0 0 0.06')


def _rename_joint(root: etree._Element) -> None:
    root.find(".//joint[@name='slide']").set('name', 'slider')


@pytest.mark.parametrize('edit, found', [
    (_flip_axis, {('joint axis', 'joint [shoulder]')}),
    (_drop_link, {('body pose', 'link [wheel]'), ('joint type', 'joint [spin]')}),
    (_shift_mass, {('centre of mass', 'body [upper]')}),
    (_rename_joint, {('joint type', 'joint [slide]')}),
])
def test_verify_names_each_fault_injected_into_an_mjcf_export(
        edit: Callable[[etree._Element], None], found: set[tuple[str, str]],
        tmp_path: Path) -> None:
    out = _mjcf(tmp_path, edit)
    v = verify_files(str(out), str(ARM), input_format='mjcf')
    got = _differs(v) - {(m, o) for m, o in _differs(v) if m == 'sensor pose'}
    assert got == found


def _usd(tmp_path: Path, edit: Callable[[object], None]) -> Path:
    from pxr import Usd
    out = _export(ARM, tmp_path / 'arm.usda')
    stage = Usd.Stage.Open(str(out))
    edit(stage)
    stage.GetRootLayer().Save()
    return out


def _usd_flip_axis(stage: object) -> None:
    from pxr import Gf
    prim = stage.GetPrimAtPath('/sensor_arm/joints/shoulder')  # type: ignore[attr-defined]
    attr = prim.GetAttribute('physics:localRot1')
    attr.Set(Gf.Quatf(attr.Get() * Gf.Quatf(0.0, 0.0, 0.0, 1.0)))  # half turn about Z


def _usd_drop_link(stage: object) -> None:
    stage.RemovePrim('/sensor_arm/wheel')  # type: ignore[attr-defined]
    stage.RemovePrim('/sensor_arm/joints/spin')  # type: ignore[attr-defined]


def _usd_shift_mass(stage: object) -> None:
    from pxr import UsdPhysics
    api = UsdPhysics.MassAPI(stage.GetPrimAtPath('/sensor_arm/upper'))  # type: ignore[attr-defined]
    api.GetMassAttr().Set(1.6)


def _usd_rename_joint(stage: object) -> None:
    stage.GetPrimAtPath('/sensor_arm/joints/slide').GetAttribute(  # type: ignore[attr-defined]
        'sdf_tools:name').Set('slider')


@pytest.mark.parametrize('edit, found', [
    (_usd_flip_axis, {('joint axis', 'joint [shoulder]')}),
    (_usd_drop_link, {('body pose', 'link [wheel]'), ('joint type', 'joint [spin]')}),
    (_usd_shift_mass, {('mass', 'body [upper]')}),
    (_usd_rename_joint, {('joint type', 'joint [slide]')}),
])
def test_verify_names_each_fault_injected_into_a_usd_export(
        edit: Callable[[object], None], found: set[tuple[str, str]], tmp_path: Path) -> None:
    out = _usd(tmp_path, edit)
    v = verify_files(str(out), str(ARM))
    got = {(m, o) for m, o in _differs(v) if m != 'sensor pose'}
    assert found <= got, got


def test_cli_exit_codes_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _export(URDF, tmp_path / 'arm.mjcf')
    assert main(['verify', str(good), '--source', str(URDF)]) == 0
    assert 'agree' in capsys.readouterr().out
    bad = _mjcf(tmp_path, _flip_axis)
    assert main(['verify', str(bad), '--source', str(ARM), '--from', 'mjcf', '--json']) == 1
    data = json.loads(capsys.readouterr().out)
    assert not data['ok'] and data['engine'].startswith('MuJoCo')
    assert {'measure': 'joint axis', 'object': 'joint [shoulder]'}.items() <= \
        next(d for d in data['differences'] if d['measure'] == 'joint axis').items()
    assert data['measures']['joint axis']['worst'] == pytest.approx(2.0)


@pytest.mark.parametrize('make', ['missing', 'not_mjcf', 'bad_source'])
def test_unusable_input_exits_2_with_a_message(make: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out, src = tmp_path / 'out.mjcf', ARM
    if make == 'not_mjcf':
        out.write_text('<mujoco><worldbody><body><joint type="nonsense"/></body></worldbody>'
                       '</mujoco>')
    elif make == 'bad_source':
        out = _export(ARM, out)
        src = tmp_path / 'broken.sdf'
        src.write_text('<sdf version="1.9"><model name="m">')
    assert main(['verify', str(out), '--source', str(src)]) == 2
    assert 'sdf_tools verify:' in capsys.readouterr().err


@pytest.mark.parametrize('suffix', ['.mjcf', '.usda'])
def test_a_world_of_several_models_agrees_model_by_model(suffix: str, tmp_path: Path) -> None:
    world = DATA / 'convert_urdf' / 'world_two_models.sdf'
    out = _export(world, tmp_path / f'world{suffix}')
    v = verify_files(str(out), str(world))
    assert v.ok, [str(d) for d in v.differences]
    assert v.measures['body pose'].compared >= 2
    picked = tmp_path / f'one{suffix}'
    assert convert_file(world, to=None, output_path=picked,
                        options=ConversionOptions(model='one')).ok
    one = verify_files(str(picked), str(world), model='one')
    assert one.ok, [str(d) for d in one.differences]
    assert one.measures['body pose'].compared < v.measures['body pose'].compared


def _mjcf_driven(tmp_path: Path, edit: Callable[[etree._Element], None]) -> Path:
    """The sensor arm with position servos (actuators='position'), edited."""
    out = tmp_path / 'arm.mjcf'
    result = convert_file(ARM, to=None, output_path=out,
                          options=ConversionOptions(actuators='position'))
    assert result.ok, result.report.errors
    root = etree.parse(str(out)).getroot()
    edit(root)
    out.write_bytes(etree.tostring(root))
    return out


def _set(xpath: str, attr: str, value: str) -> Callable[[etree._Element], None]:
    def edit(root: etree._Element) -> None:
        found = root.xpath(xpath)
        assert found, xpath
        found[0].set(attr, value)
    return edit


def _no_edit(root: etree._Element) -> None:
    del root


@pytest.mark.parametrize('edit, found', [
    (_no_edit, set()),
    (_set("//joint[@name='shoulder']", 'actuatorfrcrange', '-31 31'),
     {('effort limit', 'joint [shoulder]')}),
    (_set("//actuator/position[@joint='shoulder']", 'forcerange', '-20 20'),
     {('effort limit', 'actuator [shoulder]')}),
    (_set("//actuator/position[@joint='shoulder']", 'ctrlrange', '-1.5 1.5'),
     {('joint limits', 'actuator [shoulder]')}),
    (_set("//custom/numeric[@name='velocity_limit:shoulder']", 'data', '2.5'),
     {('velocity limit', 'joint [shoulder]')}),
    (_set("//custom/numeric[@name='sensor_update_rate:base/imu']", 'data', '100'),
     {('sensor parameters', 'sensor [base::imu] [update_rate]')}),
    (_set("//custom/text[starts-with(@name, 'sensor_noise:base/imu:')]", 'data',
          'type=gaussian mean=0 stddev=0.5'),
     {('sensor parameters', 'sensor [base::imu] [noise imu/angular_velocity/x stddev]')}),
    (_set('//rangefinder', 'cutoff', '4'),
     {('sensor parameters', 'sensor [base::range] [range_max]')}),
    (_set("//camera[@name='camera_link/depth']", 'fovy', '60'),
     {('sensor parameters', 'sensor [camera_link::depth] [horizontal_fov]')}),
])
def test_verify_compares_limits_actuators_and_sensor_parameters_in_mujoco(
        edit: Callable[[etree._Element], None], found: set[tuple[str, str]],
        tmp_path: Path) -> None:
    v = verify_files(str(_mjcf_driven(tmp_path, edit)), str(ARM), input_format='mjcf')
    assert _differs(v) == found
    assert v.measures['effort limit'].compared == 2  # the joint's and the servo's forcerange
    assert v.measures['velocity limit'].compared == 1
    assert v.measures['sensor parameters'].compared >= 5


def _usd_velocity(stage: object) -> None:
    prim = stage.GetPrimAtPath('/sensor_arm/joints/shoulder')  # type: ignore[attr-defined]
    prim.GetAttribute('physxJoint:maxJointVelocity').Set(100.0)  # degrees/s: not 2 rad/s


def _usd_focal(stage: object) -> None:
    from pxr import UsdGeom
    cam = UsdGeom.Camera(stage.GetPrimAtPath(  # type: ignore[attr-defined]
        '/sensor_arm/camera_link/depth/camera'))
    cam.GetFocalLengthAttr().Set(cam.GetFocalLengthAttr().Get() * 1.01)


def _usd_noise(stage: object) -> None:
    attr = stage.GetPrimAtPath('/sensor_arm/base/imu').GetAttribute(  # type: ignore[attr-defined]
        'sdf_tools:sensorXml')
    attr.Set(attr.Get().replace('<stddev>0.0002</stddev>', '<stddev>0.02</stddev>'))


@pytest.mark.parametrize('edit, found', [
    (_usd_velocity, {('velocity limit', 'joint [shoulder]')}),
    (_usd_focal, {('sensor parameters', 'sensor [camera_link::depth] [horizontal_fov]')}),
    (_usd_noise, {('sensor parameters', 'sensor [base::imu] [noise imu/angular_velocity/x '
                   'stddev]')}),
])
def test_verify_compares_limits_and_sensor_parameters_in_usd(
        edit: Callable[[object], None], found: set[tuple[str, str]], tmp_path: Path) -> None:
    v = verify_files(str(_usd(tmp_path, edit)), str(ARM))
    assert found <= _differs(v), _differs(v)
    assert not {d for d in _differs(v) if d[0].removesuffix(' (Newton)') not in {m for m, _ in found}}


def _usd_shift_parent_frame(stage: object) -> None:
    """Move the shoulder's frame on its parent only: usd-core's anchor (body1's side) stays."""
    from pxr import Gf
    attr = stage.GetPrimAtPath(  # type: ignore[attr-defined]
        '/sensor_arm/joints/shoulder').GetAttribute('physics:localPos0')
    attr.Set(attr.Get() + Gf.Vec3f(0.0, 0.0, 0.01))


@pytest.mark.parametrize('edit, found', [
    (_usd_drop_link, {('body pose (Newton)', 'link [wheel]'),
                      ('joint type (Newton)', 'joint [spin]')}),
    (_usd_shift_mass, {('mass (Newton)', 'body [upper]')}),
    (_usd_rename_joint, {('joint type (Newton)', 'joint [slide]')}),
    (_usd_velocity, {('velocity limit (Newton)', 'joint [shoulder]')}),
    (_usd_shift_parent_frame, {('joint anchor (Newton)', 'joint [shoulder]'),
                               ('body pose (Newton)', 'link [upper]')}),
])
def test_newton_imports_the_usd_export_and_names_the_same_faults(
        edit: Callable[[object], None], found: set[tuple[str, str]], tmp_path: Path) -> None:
    v = verify_files(str(_usd(tmp_path, edit)), str(ARM))
    assert 'Newton' in v.engine
    assert found <= _differs(v), _differs(v)
    if edit is _usd_shift_parent_frame:  # the joint frames disagree: only Newton's FK shows it
        assert {m for m, _ in _differs(v)} <= {m for m in v.measures if '(Newton)' in m}


def test_newton_agrees_with_a_clean_usd_export_to_float32_precision(tmp_path: Path) -> None:
    v = verify_files(str(_export(ARM, tmp_path / 'arm.usda')), str(ARM))
    assert v.ok, [str(d) for d in v.differences]
    for m in ('body pose', 'joint anchor', 'joint axis', 'joint limits', 'velocity limit',
              'mass', 'centre of mass', 'inertia'):
        newton = v.measures[f'{m} (Newton)']
        assert newton.compared == v.measures[m].compared > 0, m
        assert newton.tolerance >= v.measures[m].tolerance  # float32 throughout


STATIC_WORLD = '''<?xml version="1.0"?>
<sdf version="1.9"><world name="w">
  <model name="ground"><static>true</static><link name="link">
    <collision name="c"><geometry><box><size>5 5 0.1</size></box></geometry></collision></link></model>
  <model name="box"><pose>0 0 1 0 0 0.3</pose><link name="link">
    <inertial><mass>2</mass><inertia><ixx>0.1</ixx><ixy>0</ixy><ixz>0</ixz><iyy>0.1</iyy><iyz>0</iyz><izz>0.1</izz></inertia></inertial>
    <collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link></model>
</world></sdf>
'''


def test_a_static_model_is_world_geometry_in_newton_not_a_missing_body(tmp_path: Path) -> None:
    src = tmp_path / 'world.sdf'
    src.write_text(STATIC_WORLD)
    v = verify_files(str(_export(src, tmp_path / 'world.usda')), str(src))
    assert v.ok, [str(d) for d in v.differences]
    assert v.measures['body pose'].compared == 2  # usd-core: the ground's Xform too
    assert v.measures['body pose (Newton)'].compared == 1
    assert any('world geometry' in n and 'ground::link' in n for n in v.notes), v.notes


def test_a_model_of_static_links_only_has_no_body_in_newton_and_agrees(tmp_path: Path) -> None:
    # Drake's extra_heavy_duty_table.sdf: nothing moves, so Newton builds no body at all.
    src = tmp_path / 'table.sdf'
    src.write_text('<sdf version="1.7"><model name="table"><static>1</static><link name="top">'
                   '<collision name="c"><geometry><box><size>1 1 0.1</size></box></geometry>'
                   '</collision></link></model></sdf>')
    v = verify_files(str(_export(src, tmp_path / 'table.usda')), str(src))
    assert v.ok, [str(d) for d in v.differences]
    assert v.measures['body pose (Newton)'].compared == 0
    assert any('world geometry' in n and 'top' in n for n in v.notes), v.notes


LOCKED = """<robot name="locked">
  <link name="base"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="arm"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="1 0 0"/>
    <limit lower="0.3" upper="0.3" effort="1" velocity="1"/></joint>
</robot>
"""


def test_a_joint_the_mjcf_export_locks_by_an_equality_is_compared_as_limited(
        tmp_path: Path) -> None:
    # example-robot-data's double_pendulum.urdf (a <limit> without lower/upper: both 0):
    # MuJoCo takes no empty range, so the export holds the joint by <equality><joint>.
    src = tmp_path / 'locked.urdf'
    src.write_text(LOCKED)
    out = _export(src, tmp_path / 'locked.mjcf')
    v = verify_files(str(out), str(src))
    assert v.ok, [str(d) for d in v.differences]
    assert v.measures['joint limits'].compared == 1
    root = etree.parse(str(out)).getroot()
    for eq in root.findall('equality/joint'):
        eq.getparent().remove(eq)
    out.write_bytes(etree.tostring(root))
    assert _differs(verify_files(str(out), str(src))) == {('joint limits', 'joint [j]')}


ZERO_MASS_TIP = """<robot name="tip">
  <link name="base"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="arm"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="tip"><inertial><mass value="0"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="weld" type="fixed"><parent link="arm"/><child link="tip"/>
    <origin xyz="0 0 0.1"/></joint>
</robot>
"""


def test_a_zero_mass_link_merged_into_a_body_adds_its_inertia_as_libsdformat_lumps_it(
        tmp_path: Path) -> None:
    # pybullet_data's franka_panda/panda.urdf: panda_link8 (mass 0, inertia 0.1) merged
    # into panda_link7 gives it 0.2, as libsdformat's lumping does; verify said 'off by 0.5'.
    src = tmp_path / 'tip.urdf'
    src.write_text(ZERO_MASS_TIP)
    out = _export(src, tmp_path / 'tip.mjcf')
    v = verify_files(str(out), str(src))
    assert v.ok, [str(d) for d in v.differences]
    root = etree.parse(str(out)).getroot()
    arm = root.find(".//body[@name='arm']/inertial")
    assert arm.get('diaginertia') == '0.2 0.2 0.2'
    arm.set('diaginertia', '0.1 0.1 0.1')
    out.write_bytes(etree.tostring(root))
    assert _differs(verify_files(str(out), str(src))) == {('inertia', 'body [arm]')}


HUGE_LIMITS = """<sdf version="1.9"><model name="prop">
  <link name="body"><inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz>
    </inertia></inertial></link>
  <link name="propeller"><pose>0 0 0.1 0 0 0</pose><inertial><mass>0.1</mass><inertia>
    <ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial></link>
  <joint name="spin" type="revolute"><parent>body</parent><child>propeller</child>
    <axis><xyz>0 0 1</xyz><limit><lower>-1e+12</lower><upper>1e+12</upper></limit></axis></joint>
</model></sdf>
"""


def test_huge_limits_agree_in_usd_floats_and_with_newtons_no_limit(tmp_path: Path) -> None:
    # gz-sim's battery_thruster_consumer.sdf: a propeller limited to +-1e12 rad. USD holds
    # the degrees as floats (off by 2.5e4, 4e-10 relative) and Newton reads +-1e9 and beyond
    # as no limit: verify said both differ.
    src = tmp_path / 'prop.sdf'
    src.write_text(HUGE_LIMITS)
    v = verify_files(str(_export(src, tmp_path / 'prop.usda')), str(src))
    assert v.ok, [str(d) for d in v.differences]
    assert v.measures['joint limits'].compared == 1
    assert v.measures['joint limits'].worst < 1e-7


SMALL = '''<robot name="small">
  <link name="base"><inertial><mass value="1e-6"/>
    <inertia ixx="1e-6" ixy="0" ixz="0" iyy="1e-6" iyz="0" izz="1e-6"/></inertial></link>
  <link name="trunk"><inertial><origin xyz="0.01 0 0"/><mass value="5"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.2" iyz="0" izz="0.3"/></inertial></link>
  <link name="tip"><inertial><mass value="1e-4"/>
    <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
  <joint name="mount" type="fixed"><parent link="base"/><child link="trunk"/></joint>
  <joint name="tip_joint" type="prismatic"><parent link="trunk"/><child link="tip"/>
    <origin xyz="0.3 0 0"/><axis xyz="1 0 0"/><limit lower="0" upper="0.1" effort="10" velocity="1"/></joint>
</robot>
'''


@pytest.mark.parametrize('suffix', ['.mjcf', '.sdf'])
def test_a_written_small_mass_and_a_zero_inertia_are_compared_as_written(
        suffix: str, tmp_path: Path) -> None:
    src = tmp_path / 'small.urdf'
    src.write_text(SMALL)
    v = verify_files(str(_export(src, tmp_path / f'small{suffix}')), str(src))
    # MuJoCo keeps base's 1e-6 kg (a mass above mjMINVAL) with trunk's 5 kg in one body;
    # libsdformat's rule makes it no mass for SDFormat: each side follows its target's rule
    if suffix == '.mjcf':  # MuJoCo gives the tip a body's inertia (the export reports it)
        assert _differs(v) == {('inertia', 'body [tip]')}, _differs(v)
        assert v.measures['mass'].worst <= 1e-12
        return
    assert v.ok, [str(d) for d in v.differences]
    assert not any('no mass in the source' in n for n in v.notes), v.notes
    assert v.measures['inertia'].compared == 2 and v.measures['inertia'].worst <= 1e-12


def test_a_zero_velocity_limit_is_none_in_every_engine(tmp_path: Path) -> None:
    """URDF's velocity="0" (romeo's hands): no limit in MJCF, USD and Newton alike."""
    src = tmp_path / 'zero.urdf'
    src.write_text(SMALL.replace('effort="10" velocity="1"', 'effort="10" velocity="0"'))
    for suffix in ('.usda', '.mjcf'):
        v = verify_files(str(_export(src, tmp_path / f'zero{suffix}')), str(src))
        assert not {d for d in _differs(v) if d[0].startswith('velocity limit')}, _differs(v)


GAZEBO_SENSOR = SMALL.replace('</robot>', '''<link name="cam"><inertial><mass value="0.1"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <joint name="cam_mount" type="fixed"><parent link="trunk"/><child link="cam"/>
    <origin xyz="0.2 0 0.1" rpy="0 0.3 0"/></joint>
  <gazebo reference="cam"><sensor name="eye" type="camera"><pose>0.05 0 0 0 0 0.2</pose>
    <update_rate>30</update_rate><camera><horizontal_fov>1.2</horizontal_fov>
    <image><width>640</width><height>480</height></image></camera></sensor></gazebo>
</robot>''')


@pytest.mark.parametrize('suffix', ['.mjcf', '.sdf', '.usda'])
def test_a_urdf_gazebo_sensor_is_compared_where_the_output_put_it(
        suffix: str, tmp_path: Path) -> None:
    """MJCF and USD keep [cam] a body; SDFormat lumps it into [trunk] and moves the sensor there."""
    src = tmp_path / 'cam.urdf'
    src.write_text(GAZEBO_SENSOR)
    v = verify_files(str(_export(src, tmp_path / f'cam{suffix}')), str(src))
    assert v.measures['sensor pose'].compared == 1
    assert v.measures['sensor parameters'].compared >= 2  # update rate, field of view
    assert not {d for d in _differs(v) if d[0].startswith('sensor')}, _differs(v)


def test_a_urdf_output_keeps_every_sensor_in_gazebo_blocks(tmp_path: Path) -> None:
    """SDFormat -> URDF keeps sensors as <gazebo reference="LINK|JOINT">: all six, noise too."""
    v = verify_files(str(_export(ARM, tmp_path / 'arm.urdf')), str(ARM))
    assert v.ok, [str(d) for d in v.differences]
    assert v.measures['sensor pose'].compared == 6  # shoulder_ft in the joint's frame too
    assert v.measures['sensor parameters'].compared >= 10  # incl. the imu's noise


UNBALANCED = '''<robot name="unbalanced">
  <link name="base"><inertial><mass value="2"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="rod"><inertial><mass value="1"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="antenna"><inertial><mass value="1e-6"/>
    <inertia ixx="2.371e-8" ixy="6.119e-8" ixz="1.179e-8" iyy="2.833e-8" iyz="7.74e-9" izz="3.849e-8"/>
    </inertial></link>
  <joint name="rod_mount" type="fixed"><parent link="base"/><child link="rod"/>
    <origin xyz="0.3 0 0"/></joint>
  <joint name="antenna_mount" type="fixed"><parent link="base"/><child link="antenna"/>
    <origin xyz="0 0 0.2"/></joint>
</robot>
'''


def test_an_inertia_mujoco_balances_is_compared_as_balanced(tmp_path: Path) -> None:
    # Fixed to the base (libsdformat lumps them: the file is valid), kept as bodies in MJCF.
    # rod's moments break A + B >= C; antenna's tensor (TIAGo's) has a negative moment, which
    # the exporter writes as 0: MuJoCo's balanceinertia gives both the mean of their moments
    src = tmp_path / 'unbalanced.urdf'
    src.write_text(UNBALANCED)
    out = _export(src, tmp_path / 'unbalanced.mjcf')
    v = verify_files(str(out), str(src))
    assert v.ok, [str(d) for d in v.differences]
    assert any('balances it' in n and 'antenna, rod' in n for n in v.notes), v.notes
    assert v.measures['inertia'].compared == 3
    # a balanced body whose written inertia is then changed is still a difference
    root = etree.parse(str(out)).getroot()
    rod = root.find('.//body[@name="rod"]/inertial')
    assert rod is not None
    rod.set('diaginertia', '0.5 0.5 0.5')
    out.write_bytes(etree.tostring(root))
    assert _differs(verify_files(str(out), str(src))) == {('inertia', 'body [rod]')}


SLASHED = '''<sdf version="1.11"><model name="m">
  <link name="base"><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz>
  </inertia></inertial></link>
  <link name="left/gripper"><pose>0.1 0.2 0 0 0 0.3</pose><inertial><mass>0.5</mass>
    <inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial>
    <sensor name="wrist_cam" type="camera"><pose>0.01 0 0.02 0 0.2 0</pose>
      <camera><horizontal_fov>1</horizontal_fov></camera></sensor></link>
  <joint name="fix" type="fixed"><parent>base</parent><child>left/gripper</child></joint>
</model></sdf>
'''


@pytest.mark.parametrize('ext', ['mjcf', 'usda'])
def test_a_collapsed_link_and_its_camera_are_found_where_it_was_merged(tmp_path: Path,
                                                                       ext: str) -> None:
    """Menagerie's aloha (left/gripper_base, with a wrist camera) as SDFormat, exported with
    collapsed fixed joints: the merged link is a site (not a sensor site, though its name holds
    the '/' those have) or a USD frame, and its camera moves onto the body it merged into."""
    src, out = tmp_path / 'm.sdf', tmp_path / f'm.{ext}'
    src.write_text(SLASHED)
    assert convert_file(src, to='mjcf' if ext == 'mjcf' else 'usd', output_path=out,
                        options=ConversionOptions(collapse_fixed_joints=True)).ok
    verdict = verify_files(str(out), str(src))
    assert verdict.ok, [str(d) for d in verdict.differences]
    assert verdict.measures['body pose'].compared == 2
    assert verdict.measures['mass'].compared >= 1
    assert verdict.measures['sensor pose'].compared == 1


_STATIC = """<?xml version="1.0"?>
<sdf version="1.9"><model name="cart"><static>true</static><pose>1 2 0.3 0 0 0.4</pose>
  <link name="body"><inertial><mass>3</mass></inertial><collision name="c"><geometry><box>
    <size>1 1 1</size></box></geometry></collision></link>
  <link name="wheel"><pose>0.5 0.6 0 -1.5707 0 0</pose><collision name="c"><geometry><sphere>
    <radius>0.3</radius></sphere></geometry></collision></link>
  <joint name="axle" type="revolute"><pose>0 0 0.1 0 0 0</pose><parent>body</parent>
    <child>wheel</child><axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>2</upper></limit>
    </axis></joint></model></sdf>
"""


@pytest.mark.parametrize('shift', [0.0, 0.01])
def test_usd_core_compares_the_joints_of_a_static_model(shift: float, tmp_path: Path) -> None:
    """usd-core parses a joint between static colliders on the world at both ends (pose in the
    world); Newton imports none, which is noted, not hidden as an agreement."""
    from pxr import Gf, Usd
    src = tmp_path / 'cart.sdf'
    src.write_text(_STATIC)
    out = _export(src, tmp_path / 'cart.usda')
    stage = Usd.Stage.Open(str(out))
    attr = stage.GetPrimAtPath('/cart/joints/axle').GetAttribute('physics:localPos1')
    attr.Set(attr.Get() + Gf.Vec3f(0.0, 0.0, shift))
    stage.GetRootLayer().Save()
    v = verify_files(str(out), str(src))
    assert v.measures['joint type'].compared == 1 and v.measures['joint axis'].compared == 1
    assert _differs(v) == ({('joint anchor', 'joint [axle]')} if shift else set())
    assert any('joint not compared for 1 joints' in n and 'axle' in n for n in v.notes)
    assert any('mass not compared for 1 links' in n and 'body' in n for n in v.notes)
