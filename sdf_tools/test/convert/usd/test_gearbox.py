"""A gearbox joint through USD and back: still a gearbox, judged by libsdformat.

UsdPhysics has no gear, so the stage couples the two joints as a mimic
(test_couplings.py: Newton reads it) and keeps the gearbox in an untyped prim
that sdf_tools reads back. libsdformat 12 reads the source and the round trip
the same, number by number (and 14 / 16 for the 1.11 test model when
``SDFORMAT_PROBE_14`` / ``SDFORMAT_PROBE_16`` name those probes).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from support.libsdformat import compare, probe_available, probe_unavailable_reason, run_probe

from sdf_tools import gazebo
from sdf_tools.convert.api import convert_file
from sdf_tools.convert.conversion_report import ReportKind
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file
from sdf_tools.resolved import resolve
from sdf_tools.resolved.json_view import inspect_json

COUPLED = Path(__file__).resolve().parents[2] / 'data' / 'sim' / 'coupled.sdf'
_INERTIAL = ('<inertial><mass>0.5</mass><inertia><ixx>0.001</ixx><ixy>0</ixy><ixz>0</ixz>'
             '<iyy>0.001</iyy><iyz>0</iyz><izz>0.001</izz></inertia></inertial>')
GEARS = f"""<model name="gears"><pose>0.3 -0.2 0.5 0 0 0.7</pose>
  <link name="base">{_INERTIAL}</link>
  <link name="a"><pose>0.2 0 0 0 0 0</pose>{_INERTIAL}</link>
  <link name="b"><pose>0.2 0.3 0 0.3 0 0</pose>{_INERTIAL}</link>
  <joint name="ja" type="revolute"><parent>base</parent><child>a</child>
    <axis><xyz>0 0 1</xyz><limit><lower>-2</lower><upper>2</upper></limit></axis></joint>
  <joint name="jb" type="revolute"><parent>base</parent><child>b</child>
    <axis><xyz>0 0 1</xyz><limit><lower>-2</lower><upper>2</upper></limit></axis></joint>
  <joint name="mesh" type="gearbox"><pose>0.01 0.02 0 0 0 0.1</pose>
    <parent>a</parent><child>b</child>
    <gearbox_ratio>-3.25</gearbox_ratio><gearbox_reference_body>base</gearbox_reference_body>
    <axis><xyz>0 0 1</xyz></axis><axis2><xyz>0 0.6 0.8</xyz></axis2></joint>
</model>"""


def _round_trip(src: Path, tmp_path: Path, release: str) -> tuple[Path, Any, Any]:
    stage, out = tmp_path / 'g.usda', tmp_path / 'back.sdf'
    with gazebo.using(release):
        there = convert_file(src, to='usd', output_path=stage, options=ConversionOptions())
        back = convert_file(stage, to='sdf', output_path=out, options=ConversionOptions())
    assert there.ok and back.ok, (there.report.errors, back.report.errors)
    return out, there, back


def _plain(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in ('file', 'version', 'warnings')}


def _gearbox(path: Path, name: str) -> Any:
    return next(j for j in load_file(path).document.model.joints if j.name == name)


@pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))
def test_a_gearbox_comes_back_a_gearbox_as_libsdformat_reads_it(write_sdf: Any,
                                                                tmp_path: Path) -> None:
    src = write_sdf(GEARS, version='1.9')
    out, _, back = _round_trip(src, tmp_path, 'fortress')
    want, got = run_probe(src), run_probe(out)
    assert want['valid'] and got['valid'], got['errors']
    assert compare(_plain(got), _plain(want)) == []
    g, s = _gearbox(out, 'mesh'), _gearbox(src, 'mesh')
    assert (g.type, g.gearbox_ratio, g.gearbox_reference_body) == \
        (s.type, s.gearbox_ratio, s.gearbox_reference_body)
    jb = _gearbox(out, 'jb')
    assert jb.axis is not None and not jb.axis.mimic_joint  # not also a <mimic>
    assert [e for e in back.report.entries if e.kind is ReportKind.DROPPED] == []


def test_the_test_models_gearbox_reads_the_same_after_the_round_trip(tmp_path: Path) -> None:
    out, _, _ = _round_trip(COUPLED, tmp_path, 'harmonic')  # 1.11, as the source
    reports = [('sdf_tools', inspect_json(load_file(COUPLED)), inspect_json(load_file(out)))]
    for release in ('14', '16'):
        probe = os.environ.get(f'SDFORMAT_PROBE_{release}')
        if probe:
            reports.append((release, run_probe(COUPLED, probe=probe), run_probe(out, probe=probe)))
    for who, a, b in reports:
        assert a['valid'] and b['valid'], (who, b['errors'])
        assert compare(_plain(b), _plain(a)) == [], who
    g, s = _gearbox(out, 'gears'), _gearbox(COUPLED, 'gears')
    assert (g.type, g.gearbox_ratio, g.gearbox_reference_body) == \
        (s.type, s.gearbox_ratio, s.gearbox_reference_body)


def test_verify_finds_the_gearbox_as_the_coupling_the_stage_holds(write_sdf: Any,
                                                                  tmp_path: Path) -> None:
    """UsdPhysics has no gear: verify compares a gearbox with the NewtonMimicAPI coupling of
    the joints it gears (usd-core's reading of the stage), multiplier -ratio (was 'not in the
    output' for every gearbox, gz-sim's demo_joint_types.sdf among them)."""
    from sdf_tools.verify.compare import compare as compare_snapshots
    from sdf_tools.verify.expected import snapshot
    from sdf_tools.verify.usd_side import usd_snapshot

    src = write_sdf(GEARS, version='1.9')
    stage = tmp_path / 'g.usda'
    assert convert_file(src, to='usd', output_path=stage, options=ConversionOptions()).ok
    exp = snapshot(resolve(load_file(src)), 'source', target='usd')
    obs = usd_snapshot(str(stage))
    assert not isinstance(obs, str), obs
    assert exp.gearboxes == {'mesh': ('jb', 'ja', 3.25)}  # ratio -3.25, ODE's sign
    assert obs.couplings is not None and obs.couplings['jb'][0] == 'ja'
    verdict = compare_snapshots(exp, obs)
    assert [str(d) for d in verdict.differences] == []
    assert verdict.measures['joint type'].compared == 3
