"""SDFormat sensors -> MJCF, judged by MuJoCo: sensor counts, site and camera poses, custom data."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import mujoco
import numpy as np
import pytest

from sdf_tools.convert.mjcf.sensors import MAX_RAYS
from sdf_tools.convert.mjcf.to_mjcf import convert_to_mjcf
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file, load_string
from sdf_tools.resolved import resolve
from sdf_tools.transform import Transform

DATA = Path(__file__).resolve().parents[2] / 'data'
ARM = DATA / 'sim' / 'sensor_arm.sdf'
TOL = 1e-9
# MuJoCo sensors per SDFormat sensor type (the mapping the exporter documents).
PER_TYPE = {'imu': 3, 'force_torque': 2, 'magnetometer': 1, 'altimeter': 1, 'camera': 0,
            'depth_camera': 0}

MORE = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="more">
    <link name="base">
      <sensor name="mag" type="magnetometer"><pose>0 0.1 0 0.1 0.2 0.3</pose></sensor>
      <sensor name="alt" type="altimeter"><pose>0 0 0.3 0 0 0</pose></sensor>
      <sensor name="gps" type="navsat"><pose>0.2 0 0 0 0 0</pose></sensor>
      <sensor name="grid" type="gpu_lidar">
        <pose>0 0 0.5 0 0 0.4</pose>
        <lidar>
          <scan>
            <horizontal><samples>4</samples><resolution>1</resolution><min_angle>-0.6</min_angle><max_angle>0.6</max_angle></horizontal>
            <vertical><samples>2</samples><resolution>1</resolution><min_angle>-0.2</min_angle><max_angle>0.1</max_angle></vertical>
          </scan>
          <range><min>0.1</min><max>20</max></range>
        </lidar>
      </sensor>
      <sensor name="dense" type="lidar">
        <lidar><scan><horizontal><samples>640</samples><resolution>1</resolution><min_angle>-3</min_angle><max_angle>3</max_angle></horizontal></scan>
        <range><min>0.1</min><max>30</max></range></lidar>
      </sensor>
    </link>
  </model>
</sdf>
"""


def _export(loaded: Any) -> tuple[Any, Any, Any]:
    result = convert_to_mjcf(loaded, ConversionOptions())
    assert result.ok, result.report.errors
    m = mujoco.MjModel.from_xml_string(result.text)
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    return m, d, result


def _rot(t: Transform) -> np.ndarray:
    out = np.zeros(9)
    mujoco.mju_quat2Mat(out, np.asarray(t.q, dtype=float))
    return out.reshape(3, 3)


def _site(m: Any, d: Any, name: str) -> tuple[np.ndarray, np.ndarray]:
    s = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_SITE, name)
    assert s >= 0, name
    return np.asarray(d.site_xpos[s]), np.asarray(d.site_xmat[s]).reshape(3, 3)


def _site_name(sensor_name: str) -> str:
    owner, _, name = sensor_name.split('::', 1)[1].rpartition('::')
    return f'{owner}/{name}'


@pytest.mark.parametrize('source', ['arm', 'more'])
def test_every_sensor_site_sits_at_the_resolved_sensor_pose(source: str) -> None:
    loaded = load_file(ARM) if source == 'arm' else load_string(MORE, 'more.sdf')
    m, d, _ = _export(loaded)
    sensors = resolve(loaded).sensors
    assert sensors
    for s in sensors:
        assert s.world is not None
        pos, mat = _site(m, d, _site_name(s.name))
        assert np.abs(pos - np.asarray(s.world.p)).max() < TOL, s.name
        assert np.abs(mat - _rot(s.world)).max() < TOL, s.name


def test_mujoco_counts_the_sensors_of_each_mapped_type() -> None:
    loaded = load_file(ARM)
    m, _, _ = _export(loaded)
    sensors = resolve(loaded).sensors
    rays = sum(1 for s in sensors if s.element.type == 'gpu_lidar')       # one ray each here
    touches = sum(1 for s in sensors if s.element.type == 'contact')      # one collision each
    assert m.nsensor == sum(PER_TYPE.get(s.element.type, 0) for s in sensors) + rays + touches
    assert m.ncam == sum(1 for s in sensors if 'camera' in s.element.type)


def test_imu_orientation_reads_the_sensor_frame_and_force_torque_uses_its_site() -> None:
    loaded = load_file(ARM)
    m, d, _ = _export(loaded)
    imu = next(s for s in resolve(loaded).sensors if s.element.type == 'imu')
    sid = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_SENSOR, 'base/imu:orientation')
    q = d.sensordata[m.sensor_adr[sid]:m.sensor_adr[sid] + 4]
    assert imu.world is not None
    assert min(np.abs(q - imu.world.q).max(), np.abs(q + imu.world.q).max()) < TOL
    force = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_SENSOR, 'shoulder/shoulder_ft:force')
    assert m.sensor_type[force] == mujoco.mjtSensor.mjSENS_FORCE
    assert m.site(int(m.sensor_objid[force])).name == 'shoulder/shoulder_ft'
    assert m.site_bodyid[m.sensor_objid[force]] == m.body('upper').id  # the joint's child


def test_cameras_look_along_the_sensor_x_axis_with_fovy_from_the_horizontal_fov() -> None:
    loaded = load_file(ARM)
    m, d, _ = _export(loaded)
    for s in resolve(loaded).sensors:
        if 'camera' not in s.element.type:
            continue
        c = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_CAMERA, _site_name(s.name))
        assert s.world is not None and c >= 0
        mat, want = np.asarray(d.cam_xmat[c]).reshape(3, 3), _rot(s.world)
        assert np.abs(-mat[:, 2] - want[:, 0]).max() < TOL  # looks along the sensor's +X
        assert np.abs(mat[:, 1] - want[:, 2]).max() < TOL   # up is the sensor's +Z
        assert np.abs(d.cam_xpos[c] - np.asarray(s.world.p)).max() < TOL
        w, h = (int(v) for v in m.cam_resolution[c])
        hfov = 1.047 if s.element.name == 'front_camera' else 1.2
        assert (w, h) == ((640, 480) if s.element.name == 'front_camera' else (320, 240))
        fovy = math.degrees(2 * math.atan(math.tan(hfov / 2) * h / w))
        assert m.cam_fovy[c] == pytest.approx(fovy, abs=1e-9)


def test_a_ray_grid_becomes_rangefinders_along_each_ray_and_a_dense_scan_is_reported() -> None:
    loaded = load_string(MORE, 'more.sdf')
    m, d, result = _export(loaded)
    grid = next(s for s in resolve(loaded).sensors if s.element.name == 'grid')
    assert grid.world is not None
    rot = _rot(grid.world)
    yaws = np.linspace(-0.6, 0.6, 4)
    found = 0
    for k, pitch in enumerate((-0.2, 0.1)):
        for i, yaw in enumerate(yaws):
            _, mat = _site(m, d, f'base/grid:ray{k * 4 + i}')
            want = rot @ np.array([math.cos(pitch) * math.cos(yaw),
                                   math.cos(pitch) * math.sin(yaw), math.sin(pitch)])
            assert np.abs(mat[:, 2] - want).max() < TOL  # MuJoCo's rangefinder looks along +Z
            found += 1
    kinds = [int(t) for t in m.sensor_type]
    assert kinds.count(int(mujoco.mjtSensor.mjSENS_RANGEFINDER)) == found == 8
    assert kinds.count(int(mujoco.mjtSensor.mjSENS_MAGNETOMETER)) == 1
    dense = [e for e in result.report.entries if e.element == 'link[base]/sensor[dense]']
    assert dense and f'more than the {MAX_RAYS}' in dense[0].message and dense[0].line
    gps = [e for e in result.report.entries if e.element == 'link[base]/sensor[gps]']
    assert gps and gps[0].kind.value == 'dropped' and gps[0].line == 7


def test_update_rate_and_noise_are_kept_as_custom_data() -> None:
    m, _, _ = _export(load_file(ARM))
    assert m.numeric('sensor_update_rate:base/imu').data[0] == 200
    t = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_TEXT, 'sensor_noise:base/imu:imu/angular_velocity/x')
    assert t >= 0
    data = bytes(m.text_data[m.text_adr[t]:m.text_adr[t] + m.text_size[t] - 1]).decode()
    assert 'type=gaussian' in data and 'stddev=0.0002' in data
