"""A static model through USD and back: its joints and its links' mass properties survive.

UsdPhysics' static body is a collider without ``RigidBodyAPI``: it has no mass, and
usd-core parses a joint between two of them with both ends on the world (Newton imports
none). Gazebo keeps both in a static model (gz-sim's test/worlds/static_diff_drive_vehicle.sdf,
sensor.sdf's camera::link), so the round trip must give them back, judged by libsdformat 12
on the source and the result, number by number.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.libsdformat import compare, probe_available, probe_unavailable_reason, run_probe

from sdf_tools import gazebo
from sdf_tools.convert.api import convert_file
from sdf_tools.convert.conversion_report import ConversionResult, ReportKind
from sdf_tools.convert.options import ConversionOptions

CART = """<model name="cart"><static>true</static><pose>1 2 0.3 0 0 0.4</pose>
  <link name="chassis"><pose>-0.15 0 0.17 0 0 0</pose>
    <inertial><pose>0.01 0.02 0.03 0.1 0.2 0.3</pose><mass>1.14395</mass>
      <inertia><ixx>0.126164</ixx><ixy>0.001</ixy><ixz>0</ixz><iyy>0.416519</iyy><iyz>0</iyz>
        <izz>0.481014</izz></inertia></inertial>
    <collision name="c"><geometry><box><size>2 1 0.5</size></box></geometry></collision></link>
  <link name="wheel"><pose>0.55 0.62 -0.02 -1.5707 0 0</pose>
    <inertial><mass>2</mass><inertia><ixx>0.145833</ixx><ixy>0</ixy><ixz>0</ixz>
      <iyy>0.145833</iyy><iyz>0</iyz><izz>0.125</izz></inertia></inertial>
    <collision name="c"><geometry><sphere><radius>0.3</radius></sphere></geometry></collision></link>
  <link name="caster"><pose>-0.95 0 -0.12 0 0 0</pose>
    <collision name="c"><geometry><sphere><radius>0.2</radius></sphere></geometry></collision></link>
  <joint name="axle" type="revolute"><pose>0 0 0.01 0 0 0</pose><parent>chassis</parent>
    <child>wheel</child><axis><xyz>0 0 1</xyz><limit><lower>-1.5</lower><upper>2.5</upper>
    </limit><dynamics><damping>0.25</damping></dynamics></axis></joint>
  <joint name="swivel" type="ball"><parent>chassis</parent><child>caster</child></joint>
  <joint name="anchor" type="fixed"><parent>world</parent><child>chassis</child></joint>
</model>"""


def _round_trip(src: Path, tmp_path: Path) -> tuple[Path, ConversionResult, ConversionResult]:
    stage, out = tmp_path / 'cart.usda', tmp_path / 'back.sdf'
    with gazebo.using('fortress'):  # SDFormat 1.9 out, as libsdformat 12 reads it
        there = convert_file(src, to='usd', output_path=stage, options=ConversionOptions())
        assert there.ok, [str(d) for d in there.report.errors]
        back = convert_file(stage, to='sdf', output_path=out, options=ConversionOptions())
        assert back.ok, [str(d) for d in back.report.errors]
    return out, there, back


def _without_file(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in ('file', 'warnings')}


@pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))
@pytest.mark.parametrize('wrap', [False, True], ids=['model', 'world'])
def test_static_model_keeps_joints_and_masses_as_libsdformat_reads_them(
        write_sdf: Any, tmp_path: Path, wrap: bool) -> None:
    body = f'<world name="w">{CART}</world>' if wrap else CART
    src = write_sdf(body, version='1.9')
    out, there, back = _round_trip(src, tmp_path)
    want, got = run_probe(src), run_probe(out)
    assert want['valid'] and got['valid'], got['errors']
    assert compare(_without_file(got), _without_file(want)) == []
    assert [e for e in back.report.entries if e.kind is ReportKind.DROPPED] == []


def test_static_joints_and_masses_are_reported_as_kept_only_for_sdf_tools(
        write_sdf: Any, tmp_path: Path) -> None:
    _, there, _ = _round_trip(write_sdf(CART, version='1.9'), tmp_path)
    kept = {e.element: e.message for e in there.report.entries if e.kind is ReportKind.KEPT}
    assert 'axle, swivel, anchor' in kept['model[cart]/joint']
    assert '1.14395 kg' in kept['link[chassis]/inertial'] and '2.0 kg' in kept['link[wheel]/inertial']
    assert 'link[caster]/inertial' not in kept  # no <inertial>: nothing to keep
