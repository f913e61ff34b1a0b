"""SDFormat sensors in USD: Xforms at their poses carrying their SDFormat, cameras as UsdGeom.Camera.

Judged by usd-core (world transforms, ``Gf.Camera``'s field of view) and by the
round trip SDFormat -> USD -> SDFormat through our importer.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from pxr import Gf, Usd, UsdGeom
from support.custom_sensor import CUSTOM_SENSOR

from sdf_tools.convert.api import convert_file
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file
from sdf_tools.resolved import resolve
from sdf_tools.transform import Transform
from sdf_tools.verify.compare import pose_error
from sdf_tools.verify.run import output_snapshot
from sdf_tools.verify.snapshot import rotation

ARM = Path(__file__).resolve().parents[2] / 'data' / 'sim' / 'sensor_arm.sdf'
TOL = 1e-9


@pytest.fixture(scope='module')
def stage_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp('sensors') / 'arm.usda'
    result = convert_file(ARM, to='usd', output_path=out, options=ConversionOptions())
    assert result.ok, result.report.errors
    assert not [e for e in result.report.entries if 'sensor' in e.element and e.line is None]
    return out


def _world(prim: Usd.Prim) -> Transform:
    m = UsdGeom.Xformable(prim).ComputeLocalToWorldTransform(Usd.TimeCode.Default())
    t, q = m.ExtractTranslation(), m.ExtractRotationQuat()
    return Transform((t[0], t[1], t[2]), (q.GetReal(), *q.GetImaginary()))


def _sensor_prims(stage: Usd.Stage) -> dict[str, Usd.Prim]:
    return {str(p.GetAttribute('sdf_tools:sensorName').Get()): p for p in stage.Traverse()
            if p.HasAttribute('sdf_tools:sensorName')}


def test_every_sensor_is_an_xform_at_the_resolved_pose(stage_path: Path) -> None:
    stage = Usd.Stage.Open(str(stage_path))  # kept alive while its prims are used
    prims = _sensor_prims(stage)
    sensors = resolve(load_file(ARM)).sensors
    assert len(prims) == len(sensors)
    for s in sensors:
        assert s.world is not None
        prim = prims[s.name.split('::', 1)[1]]
        assert prim.GetAttribute('sdf_tools:sensorType').Get() == s.element.type
        assert pose_error(_world(prim), s.world) < TOL, s.name


def test_cameras_look_along_the_sensor_x_axis_with_its_field_of_view(stage_path: Path) -> None:
    stage = Usd.Stage.Open(str(stage_path))
    prims = _sensor_prims(stage)
    fovs = {'base::front_camera': (1.047, 640, 480), 'camera_link::depth': (1.2, 320, 240)}
    for name, (hfov, w, h) in fovs.items():
        cam_prim = prims[name].GetChild('camera')
        cam = UsdGeom.Camera(cam_prim).GetCamera(Usd.TimeCode.Default())
        assert cam.GetFieldOfView(Gf.Camera.FOVHorizontal) == pytest.approx(math.degrees(hfov),
                                                                            rel=1e-6)
        assert cam.aspectRatio == pytest.approx(w / h, rel=1e-6)
        r_cam, r_sensor = rotation(_world(cam_prim)), rotation(_world(prims[name]))
        assert np.abs(-r_cam[:, 2] - r_sensor[:, 0]).max() < TOL  # looks along +X
        assert np.abs(r_cam[:, 1] - r_sensor[:, 2]).max() < TOL   # up is +Z


def test_link_and_joint_sensors_come_back_from_the_stage_where_they_were(stage_path: Path,
                                                                          tmp_path: Path) -> None:
    back = tmp_path / 'arm.sdf'
    result = convert_file(stage_path, to='sdf', output_path=back, options=ConversionOptions())
    assert result.ok, result.report.errors
    got = {s.name.split('::', 1)[1]: s for s in resolve(load_file(back)).sensors}
    assert 'shoulder::shoulder_ft' in got  # a joint's sensor, back on its joint (gz-sim's F/T)
    assert not [e for e in result.report.entries if 'comes back as a sensor of link' in e.message]
    for s in resolve(load_file(ARM)).sensors:
        name = s.name.split('::', 1)[1]
        assert s.world is not None and got[name].world is not None
        assert got[name].element.type == s.element.type
        assert pose_error(got[name].world, s.world) < TOL, name
    assert '<horizontal_fov>1.047</horizontal_fov>' in got['base::front_camera'].element.xml


GAZEBO_URDF = '''<robot name="bot">
  <link name="base"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="head"><inertial><mass value="0.5"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <joint name="neck" type="revolute"><parent link="base"/><child link="head"/>
    <origin xyz="0.1 0.2 0.3" rpy="0.1 0.2 0.3"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <gazebo reference="head">
    <sensor name="cam" type="camera"><pose>0.05 -0.01 0.02 0 0.3 -0.2</pose>
      <update_rate>30</update_rate>
      <camera><horizontal_fov>1.2</horizontal_fov><image><width>640</width><height>480</height>
        </image><clip><near>0.05</near><far>50</far></clip></camera></sensor>
  </gazebo>
  <gazebo reference="base">
    <sensor name="imu" type="imu"><pose>0.01 0.02 0.03 0.4 0 0</pose>
      <update_rate>200</update_rate></sensor>
  </gazebo>
  <gazebo reference="neck"><sensor name="joint_imu" type="imu"><pose>0 0 0.1 0 0 0.5</pose>
    </sensor></gazebo>
  <gazebo reference="nothing"><sensor name="lost" type="imu"/></gazebo>
</robot>
'''


def test_urdf_gazebo_sensors_reach_usd_where_libsdformat_puts_them(tmp_path: Path) -> None:
    """The reference: the URDF as SDFormat (our writer places <gazebo> as libsdformat's parser),
    resolved; a joint's sensor (in the joint frame, its child link's in URDF) is on that link."""
    src = tmp_path / 'bot.urdf'
    src.write_text(GAZEBO_URDF)
    out, sdf = tmp_path / 'bot.usda', tmp_path / 'bot.sdf'
    result = convert_file(src, to='usd', output_path=out, options=ConversionOptions())
    assert result.ok and convert_file(src, to='sdf', output_path=sdf,
                                      options=ConversionOptions()).ok
    expected = {s.name.split('::', 1)[1]: s for s in resolve(load_file(sdf)).sensors}
    assert sorted(expected) == ['base::imu', 'head::cam', 'neck::joint_imu']
    stage = Usd.Stage.Open(str(out))
    prims = _sensor_prims(stage)
    assert sorted(prims) == sorted(expected)
    for name, s in expected.items():
        assert s.world is not None
        assert prims[name].GetAttribute('sdf_tools:sensorType').Get() == s.element.type
        assert pose_error(_world(prims[name]), s.world) < TOL, name
    cam = UsdGeom.Camera(prims['head::cam'].GetChild('camera')).GetCamera(Usd.TimeCode.Default())
    assert cam.GetFieldOfView(Gf.Camera.FOVHorizontal) == pytest.approx(math.degrees(1.2),
                                                                        rel=1e-6)
    clip = cam.clippingRange  # float32 in USD
    assert (clip.min, clip.max) == pytest.approx((0.05, 50.0), rel=1e-6)
    lost = [e for e in result.report.entries if e.element == 'gazebo[nothing]/sensor[lost]']
    line = GAZEBO_URDF[:GAZEBO_URDF.index('name="lost"')].count('\n') + 1
    assert [(e.kind.value, e.line) for e in lost] == [('dropped', line)]
    assert not [e for e in result.report.entries if e.message == 'no USD form'
                and e.element.endswith('/gazebo')]
    # read back on import as the SDFormat ones are
    back = tmp_path / 'back.sdf'
    assert convert_file(out, to='sdf', output_path=back, options=ConversionOptions()).ok
    got = {s.name.split('::', 1)[1]: s for s in resolve(load_file(back)).sensors}
    for name, s in expected.items():  # the joint's sensor back on the joint, as libsdformat has it
        assert got[name].world is not None and s.world is not None
        assert pose_error(got[name].world, s.world) < TOL, name
    assert '<horizontal_fov>1.2</horizontal_fov>' in got['head::cam'].element.xml




def test_a_sensor_with_an_undeclared_prefix_comes_back_from_usd(tmp_path: Path) -> None:
    src, out, back = tmp_path / 'odo.sdf', tmp_path / 'odo.usda', tmp_path / 'back.sdf'
    src.write_text(CUSTOM_SENSOR)
    assert convert_file(src, to='usd', output_path=out, options=ConversionOptions()).ok
    params = output_snapshot(str(out)).sensor_params['link::odo']
    assert params == {'update_rate': 30.0, 'noise gz:odometer mean': 0.25,
                      'noise gz:odometer stddev': 0.5}
    result = convert_file(out, to='sdf', output_path=back, options=ConversionOptions())
    assert result.ok
    assert [e.message for e in result.report.entries if 'sensor' in e.message] == []
    sensors = resolve(load_file(back)).sensors
    assert [(s.element.name, s.element.type) for s in sensors] == [('odo', 'custom')]
    assert 'gz:type="odometer"' in sensors[0].element.xml
    assert pose_error(sensors[0].world, Transform.from_xyz_rpy((0.1, 0.2, 0.3), (0, 0, 0.4))) < TOL
