"""A joint whose lower limit is above its upper one, through USD and back.

libsdformat (12, 14, 16) keeps such limits as written without a word, and
Gazebo's DART holds the joint at the lower limit (it checks the lower bound
first). The stage holds it there too, as the empty range lower..lower
(usd-core's parser and Newton read it so), reports the change at the
``<limit>``'s line, and the round trip gives the limits back as written,
judged by libsdformat 12.
"""
from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Any

import pytest
from pxr import Usd, UsdPhysics
from support.libsdformat import compare, probe_available, probe_unavailable_reason, run_probe

from sdf_tools import gazebo
from sdf_tools.convert.api import convert_file
from sdf_tools.convert.conversion_report import ReportKind
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file
from sdf_tools.verify.run import verify_files

from .usd_judge import FLOAT_TOL

_I = ('<inertial><mass>1</mass><inertia><ixx>0.1</ixx><ixy>0</ixy><ixz>0</ixz><iyy>0.1</iyy>'
      '<iyz>0</iyz><izz>0.1</izz></inertia></inertial>')
MODEL = f"""<model name="m">
  <link name="base">{_I}</link>
  <link name="arm"><pose>0 0 0.5 0 0 0</pose>{_I}</link>
  <link name="slider"><pose>0.3 0 0 0 0 0</pose>{_I}</link>
  <link name="wrist"><pose>0 0.3 0 0 0 0</pose>{_I}</link>
  <joint name="hinge" type="revolute"><parent>base</parent><child>arm</child>
    <axis><xyz>0 1 0</xyz>
      <limit><lower>1.2</lower><upper>-0.4</upper></limit></axis></joint>
  <joint name="rail" type="prismatic"><parent>base</parent><child>slider</child>
    <axis><xyz>1 0 0</xyz><limit><lower>0.25</lower><upper>0.1</upper></limit></axis></joint>
  <joint name="cross" type="universal"><parent>base</parent><child>wrist</child>
    <axis><xyz>1 0 0</xyz><limit><lower>-0.5</lower><upper>0.5</upper></limit></axis>
    <axis2><xyz>0 1 0</xyz><limit><lower>0.3</lower><upper>-0.2</upper></limit></axis2></joint>
</model>"""


def _convert(src: Path, tmp_path: Path) -> tuple[Path, Any]:
    stage = tmp_path / 'm.usda'
    got = convert_file(src, to='usd', output_path=stage, options=ConversionOptions())
    assert got.ok, got.report.errors
    return stage, got


def _axes(src: Path) -> dict[str, list[Any]]:
    doc = load_file(src).document
    assert doc is not None and doc.model is not None
    return {j.name: [j.axis, j.axis2] for j in doc.model.joints}


def test_a_reversed_range_is_held_at_the_lower_limit_as_usd_core_parses_it(
        write_sdf: Any, tmp_path: Path) -> None:
    src = write_sdf(MODEL, version='1.9')
    stage_path, got = _convert(src, tmp_path)
    axes = _axes(src)
    stage = Usd.Stage.Open(str(stage_path))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        parsed = UsdPhysics.LoadUsdPhysicsFromRange(stage, ['/'])
    descs = {str(p).rsplit('/', 1)[-1]: d for _, (ps, ds) in parsed.items()
             for p, d in zip(ps, ds, strict=True)}
    hinge, rail = axes['hinge'][0], axes['rail'][0]
    for name, lower, scale in (('hinge', hinge.lower, 180.0 / math.pi), ('rail', rail.lower, 1.0)):
        lim = descs[name].limit
        assert lim.enabled, name
        assert (lim.lower, lim.upper) == pytest.approx((lower * scale, lower * scale),
                                                       rel=FLOAT_TOL), name
    rot_y = UsdPhysics.LimitAPI(stage.GetPrimAtPath('/m/joints/cross'), 'rotY')
    want = math.degrees(axes['cross'][1].lower)
    assert (rot_y.GetLowAttr().Get(), rot_y.GetHighAttr().Get()) == \
        pytest.approx((want, want), rel=FLOAT_TOL)
    said = {e.element: e for e in got.report.entries if e.kind is ReportKind.REWRITTEN}
    for label, axis in (('joint[hinge]/limit', hinge), ('joint[rail]/limit', rail),
                        ('joint[cross]/axis2/limit', axes['cross'][1])):
        assert 'holds the joint at the lower limit' in said[label].message
        assert said[label].line == axis.loc.line
    assert 'joint[cross]/axis/limit' not in said  # -0.5 < 0.5: as written


def test_verify_agrees_the_stage_holds_what_gazebo_holds(write_sdf: Any, tmp_path: Path) -> None:
    src = write_sdf(MODEL, version='1.9')
    stage_path, _ = _convert(src, tmp_path)
    verdict = verify_files(str(stage_path), str(src))
    assert verdict.measures['joint limits'].compared >= 2  # hinge and rail at least
    assert [str(d) for d in verdict.differences if 'limit' in d.measure] == []


@pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))
def test_the_round_trip_keeps_the_limits_as_written_as_libsdformat_reads_them(
        write_sdf: Any, tmp_path: Path) -> None:
    src = write_sdf(MODEL, version='1.9')
    stage_path, _ = _convert(src, tmp_path)
    out = tmp_path / 'back.sdf'
    with gazebo.using('fortress'):
        back = convert_file(stage_path, to='sdf', output_path=out, options=ConversionOptions())
    assert back.ok, back.report.errors
    want, got = run_probe(src), run_probe(out)
    assert want['valid'] and got['valid'], got['errors']
    drop = ('file', 'warnings')
    assert compare({k: v for k, v in got.items() if k not in drop},
                   {k: v for k, v in want.items() if k not in drop}) == []
