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

from sdf_tools.convert.api import convert_file
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file
from sdf_tools.resolved import resolve
from sdf_tools.transform import Transform
from sdf_tools.verify.compare import pose_error
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


def test_link_sensors_come_back_from_the_stage_where_they_were(stage_path: Path,
                                                                tmp_path: Path) -> None:
    back = tmp_path / 'arm.sdf'
    result = convert_file(stage_path, to='sdf', output_path=back, options=ConversionOptions())
    assert result.ok, result.report.errors
    got = {s.name.split('::', 1)[1]: s for s in resolve(load_file(back)).sensors}
    for s in resolve(load_file(ARM)).sensors:
        name = s.name.split('::', 1)[1]
        if name == 'shoulder::shoulder_ft':  # a joint's sensor comes back on its child link
            name = 'upper::shoulder_ft'
            assert any('comes back as a sensor of link [upper]' in e.message
                       for e in result.report.entries)
        assert s.world is not None and got[name].world is not None
        assert got[name].element.type == s.element.type
        assert pose_error(got[name].world, s.world) < TOL, name
    assert '<horizontal_fov>1.047</horizontal_fov>' in got['base::front_camera'].element.xml
