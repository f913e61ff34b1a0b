"""A world's gravity as the MJCF and USD writers export it (convert/world_gravity.py).

Judged by libsdformat 12's printout (``ign sdf -p``): before SDFormat 1.6 gravity is a child
of ``<physics>`` and its 1.5 -> 1.6 conversion moves it up to the world; in a 1.6 file that
child is no longer gravity, and the world has the default. MuJoCo reads the MJCF's
``<option gravity>``, usd-core the stage's physics scene.
"""
from __future__ import annotations

from pathlib import Path

import mujoco
import numpy as np
import pytest
from pxr import Gf, Usd, UsdPhysics

from convert.sdf.to_sdf_compare import ign_available, printout
from sdf_tools.convert.api import convert_file
from sdf_tools.convert.conversion_report import ReportKind
from sdf_tools.convert.options import ConversionOptions

needs_ign = pytest.mark.skipif(not ign_available(), reason='`ign sdf` (libsdformat 12) is not installed')

WORLD = """<?xml version="1.0"?>
<sdf version="{version}"><world name="w">
  <physics type="ode"><gravity>0.5 -0.25 -9.81</gravity><max_step_size>0.002</max_step_size></physics>
  <model name="ball"><link name="b"><collision name="c"><geometry><sphere><radius>0.5</radius>
  </sphere></geometry></collision></link></model>
</world></sdf>
"""


def _libsdformat_gravity(path: Path) -> list[float]:
    text = printout(path).findtext('world/gravity')
    assert text is not None
    return [float(v) for v in text.split()]


def _scene_gravity(path: Path) -> Gf.Vec3d:
    stage = Usd.Stage.Open(str(path))
    scene = next(UsdPhysics.Scene(p) for p in stage.Traverse() if p.IsA(UsdPhysics.Scene))
    return Gf.Vec3d(scene.GetGravityDirectionAttr().Get()) * scene.GetGravityMagnitudeAttr().Get()


@needs_ign
@pytest.mark.parametrize('version', ['1.4', '1.5', '1.6'])
def test_physics_gravity_of_an_old_file_is_the_world_s_as_libsdformat_reads_it(
        tmp_path: Path, version: str) -> None:
    src = tmp_path / 'w.sdf'
    src.write_text(WORLD.format(version=version))
    want = _libsdformat_gravity(src)
    assert want == ([0.5, -0.25, -9.81] if version != '1.6' else [0.0, 0.0, -9.8])
    mjcf = convert_file(src, to='mjcf', output_path=tmp_path / 'w.xml', options=ConversionOptions())
    assert mjcf.ok, [str(d) for d in mjcf.report.errors]
    model = mujoco.MjModel.from_xml_path(str(tmp_path / 'w.xml'))
    assert np.array_equal(model.opt.gravity, want)
    usd = convert_file(src, to='usd', output_path=tmp_path / 'w.usda', options=ConversionOptions())
    assert usd.ok, [str(d) for d in usd.report.errors]
    assert np.allclose(_scene_gravity(tmp_path / 'w.usda'), want, rtol=1e-6)  # UsdPhysics holds 32-bit floats
    for result in (mjcf, usd):
        kinds = {e.kind for e in result.report.entries if e.element == 'world[w]/gravity'}
        assert (ReportKind.ASSUMED in kinds) == (version == '1.6'), kinds
