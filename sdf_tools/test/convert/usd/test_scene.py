"""A world's gravity through the stage's PhysicsScene and back (convert/usd/scene.py).

Judged by usd-core (the scene's gravity as its parser reads it) and by our reader of the
SDFormat written back; the default and a model file's standard gravity are checked too.
"""
from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest
from pxr import Usd, UsdPhysics

from sdf_tools.convert.api import convert_file
from sdf_tools.convert.conversion_report import ConversionResult, ReportKind
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file

BALL = ('<model name="ball"><link name="b"><collision name="c"><geometry><sphere><radius>0.5'
        '</radius></sphere></geometry></collision></link></model>')


def _convert(src: Path, out: Path) -> ConversionResult:
    result = convert_file(src, to=None, output_path=out, options=ConversionOptions())
    assert result.ok, [str(d) for d in result.report.errors]
    return result


def _parsed_gravity(path: Path) -> tuple[float, float, float]:
    stage = Usd.Stage.Open(str(path))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        parsed = dict(UsdPhysics.LoadUsdPhysicsFromRange(stage, ['/']))
    (_, [scene]), = [v for k, v in parsed.items() if str(k).endswith('Scene')]
    g = scene.gravityDirection * scene.gravityMagnitude
    return (g[0], g[1], g[2])


def _world_gravity(path: Path) -> str | None:
    doc = load_file(path).document
    assert doc is not None and doc.worlds
    return next((e.xml for e in doc.worlds[0].extras if e.tag == 'gravity'), None)


@pytest.mark.parametrize('gravity, want', [
    ('<gravity>-1 0.25 -9.8</gravity>', (-1.0, 0.25, -9.8)),
    ('', (0.0, 0.0, -9.8)),          # libsdformat's default
    ('<gravity>0 0 0</gravity>', (0.0, 0.0, 0.0)),
])
def test_world_gravity_is_the_scene_s_and_comes_back(write_sdf: Any, tmp_path: Path,
                                                     gravity: str, want: tuple[float, ...]) -> None:
    src = write_sdf(f'<world name="w">{gravity}{BALL}</world>')
    there = _convert(src, tmp_path / 'w.usda')
    assert _parsed_gravity(tmp_path / 'w.usda') == pytest.approx(want, abs=1e-6)
    kind = ReportKind.REWRITTEN if gravity else ReportKind.ASSUMED
    assert [e.kind for e in there.report.entries if e.element == 'world[w]/gravity'] == [kind]
    back = _convert(tmp_path / 'w.usda', tmp_path / 'back.sdf')
    assert not [e for e in back.report.entries if e.kind is ReportKind.DROPPED]
    got = _world_gravity(tmp_path / 'back.sdf')
    if not gravity:
        assert got is None  # the default stays implicit
    else:
        assert got is not None
        values = [float(v) for v in got.split('>')[1].split('<')[0].split()]
        assert values == list(want)  # exact, through the double copy


def test_a_model_file_gets_standard_gravity_and_a_foreign_one_is_reported(
        write_sdf: Any, tmp_path: Path) -> None:
    _convert(write_sdf(BALL), tmp_path / 'm.usda')
    g = _parsed_gravity(tmp_path / 'm.usda')
    assert g == pytest.approx((0.0, 0.0, -9.80665), abs=1e-6)
    back = _convert(tmp_path / 'm.usda', tmp_path / 'm.sdf')
    assert not [e for e in back.report.entries if e.kind is ReportKind.DROPPED]
    stage = Usd.Stage.Open(str(tmp_path / 'm.usda'))
    scene = UsdPhysics.Scene(stage.GetPrimAtPath('/physicsScene'))
    scene.GetGravityMagnitudeAttr().Set(3.7)  # edited elsewhere: the exact copy no longer agrees
    stage.GetRootLayer().Save()
    back = _convert(tmp_path / 'm.usda', tmp_path / 'm2.sdf')
    lost = [e.message for e in back.report.entries if e.kind is ReportKind.DROPPED]
    assert len(lost) == 1 and 'gravity 0 0 -3.7' in lost[0] and 'model file' in lost[0]
