"""MJCF sensors and cameras back to SDFormat: the export's mapping read back, and MJCF's own."""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from sdf_tools.convert.api import convert_file
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file
from sdf_tools.resolved import resolve
from sdf_tools.verify.compare import pose_error

ARM = Path(__file__).resolve().parents[2] / 'data' / 'sim' / 'sensor_arm.sdf'
BACK = {'imu': 'imu', 'camera': 'camera', 'depth_camera': 'camera', 'gpu_lidar': 'ray',
        'contact': 'contact', 'force_torque': 'force_torque'}
OWN = """<mujoco model="own">
  <worldbody>
    <body name="torso" pos="0 0 1">
      <freejoint/>
      <inertial pos="0 0 0" mass="3" diaginertia="0.1 0.1 0.1"/>
      <site name="imu" pos="0 0 0.1" quat="0.9238795 0 0 0.3826834"/>
      <camera name="eye" pos="0.2 0 0" xyaxes="0 -1 0 0 0 1" fovy="60"/>
    </body>
  </worldbody>
  <sensor>
    <accelerometer name="acc" site="imu"/>
    <gyro name="gyro" site="imu"/>
    <velocimeter name="vel" site="imu"/>
  </sensor>
</mujoco>
"""


def _round_trip(tmp_path: Path) -> tuple[Path, object]:
    mjcf, back = tmp_path / 'arm.mjcf', tmp_path / 'arm.sdf'
    assert convert_file(ARM, to=None, output_path=mjcf, options=ConversionOptions()).ok
    result = convert_file(mjcf, to=None, output_path=back, options=ConversionOptions())
    assert result.ok, result.report.errors
    return back, result


def test_link_sensors_come_back_with_their_type_and_pose(tmp_path: Path) -> None:
    back, _ = _round_trip(tmp_path)
    got = {s.name.split('::')[-1]: s for s in resolve(load_file(back)).sensors}
    for s in resolve(load_file(ARM)).sensors:
        short = s.name.split('::')[-1]
        assert got[short].element.type == BACK[s.element.type]
        assert s.world is not None and got[short].world is not None
        assert pose_error(got[short].world, s.world) < 1e-9, short


def test_camera_field_of_view_update_rate_and_noise_come_back(tmp_path: Path) -> None:
    back, _ = _round_trip(tmp_path)
    got = {s.name.split('::')[-1]: s.element for s in resolve(load_file(back)).sensors}
    cam = etree.fromstring(got['front_camera'].xml)
    assert float(cam.findtext('camera/horizontal_fov')) == pytest.approx(1.047, abs=1e-12)
    assert cam.findtext('camera/image/width') == '640'
    imu = etree.fromstring(got['imu'].xml)
    assert float(imu.findtext('update_rate')) == 200
    assert imu.findtext('imu/angular_velocity/x/noise/stddev') == '0.0002'


def test_mjcf_sensors_not_written_by_us_come_back_by_site_and_the_rest_is_reported(
        tmp_path: Path) -> None:
    src = tmp_path / 'own.xml'
    src.write_text(OWN)
    out = tmp_path / 'own.sdf'
    result = convert_file(src, to=None, output_path=out, options=ConversionOptions())
    assert result.ok, result.report.errors
    sensors = {s.element.name: s for s in resolve(load_file(out)).sensors}
    assert sensors['imu'].element.type == 'imu' and sensors['eye'].element.type == 'camera'
    dropped = [e for e in result.report.entries if e.kind.value == 'dropped']
    assert any(e.element == 'sensor[vel]' and e.line == 13 for e in dropped)
    assert not any(e.element in ('sensor[acc]', 'camera[eye]') for e in dropped)
