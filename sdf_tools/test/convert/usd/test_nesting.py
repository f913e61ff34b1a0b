"""Nested models through USD and back (convert/usd/nesting.py), judged by libsdformat 12.

The stage flattens a model's nested models into one Xform of links; the way back must give
the same models, frames, canonical links, joints and sensors, as libsdformat reads them both.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.libsdformat import compare, probe_available, probe_unavailable_reason, run_probe

from sdf_tools import gazebo
from sdf_tools.convert.api import convert_file
from sdf_tools.convert.conversion_report import ReportKind
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file
from sdf_tools.verify import verify_files

BOX = ('<inertial><mass>{m}</mass><inertia><ixx>0.1</ixx><iyy>0.2</iyy><izz>0.3</izz></inertia>'
       '</inertial><collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry>'
       '</collision>')
ROBOT = f"""<model name="robot"><pose>1 0 0.5 0 0 0.3</pose>
  <link name="base">{BOX.format(m=2)}</link>
  <model name="arm" canonical_link="upper"><pose relative_to="base">0.1 0.2 0.3 0 0.2 0</pose>
    <link name="lower"><pose>0 0 0.1 0 0 0</pose>{BOX.format(m=0.5)}</link>
    <link name="upper"><pose>0 0 0.4 0.1 0 0</pose>{BOX.format(m=0.25)}
      <sensor name="imu" type="imu"><pose>0 0 0.05 0 0 0</pose></sensor></link>
    <frame name="tip" attached_to="upper"><pose>0 0 0.2 0 0 0</pose></frame>
    <joint name="elbow" type="revolute"><parent>lower</parent><child>upper</child>
      <sensor name="ft" type="force_torque"><pose>0 0 0.02 0 0 0</pose></sensor>
      <axis><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis></joint>
    <model name="hand"><pose>0 0 0.6 0 0 0</pose>
      <link name="palm">{BOX.format(m=0.1)}</link></model>
    <joint name="wrist" type="fixed"><parent>upper</parent><child>hand::palm</child></joint>
  </model>
  <joint name="shoulder" type="revolute"><parent>base</parent><child>arm::lower</child>
    <axis><xyz>0 0 1</xyz><limit><lower>-2</lower><upper>2</upper></limit></axis></joint>
</model>"""


def _strip(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in ('file', 'warnings', 'version')}


@pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))
@pytest.mark.parametrize('wrap', [False, True], ids=['model', 'world'])
def test_nested_models_come_back_as_libsdformat_reads_the_source(
        write_sdf: Any, tmp_path: Path, wrap: bool) -> None:
    src = write_sdf(f'<world name="w">{ROBOT}</world>' if wrap else ROBOT)
    stage, out = tmp_path / 'robot.usda', tmp_path / 'back.sdf'
    with gazebo.using('fortress'):
        there = convert_file(src, to='usd', output_path=stage, options=ConversionOptions())
        back = convert_file(stage, to='sdf', output_path=out, options=ConversionOptions())
    assert there.ok and [e.element for e in there.report.entries if 'import rebuilds it' in
                         e.message] == ['model[arm]', 'model[arm::hand]']
    assert back.ok, [str(d) for d in back.report.errors]
    assert [e for e in back.report.entries if e.kind in (ReportKind.RENAMED, ReportKind.DROPPED,
                                                         ReportKind.REWRITTEN)
            and 'sdf/@version' not in e.element] == []
    want, got = run_probe(src), run_probe(out)
    assert want['valid'] and got['valid'], got['errors']
    assert compare(_strip(got), _strip(want)) == []
    doc = load_file(out).document
    assert doc is not None
    top = doc.worlds[0].models[0] if wrap else doc.model
    assert top is not None
    arm = top.models[0]
    assert [s.name for s in arm.links[1].sensors] == ['imu']
    assert [(j.name, [s.name for s in j.sensors]) for j in arm.joints] == \
        [('elbow', ['ft']), ('wrist', [])]
    v = verify_files(str(out), str(src))  # sensors: where and what, against the source
    assert v.ok and v.measures['sensor pose'].compared == 2, [str(d) for d in v.differences]


def test_a_foreign_scoped_link_makes_a_nested_model_at_its_parent_frame(
        write_sdf: Any, tmp_path: Path) -> None:
    """Without the writer's record (sdf_tools:models), every link keeps its pose."""
    from pxr import Usd
    src = write_sdf(ROBOT)
    stage_path, out = tmp_path / 'robot.usda', tmp_path / 'back.sdf'
    assert convert_file(src, to='usd', output_path=stage_path, options=ConversionOptions()).ok
    stage = Usd.Stage.Open(str(stage_path))
    for name in ('models', 'modelPoses', 'modelCanonical', 'modelStatic'):
        assert stage.GetPrimAtPath('/robot').RemoveProperty(f'sdf_tools:{name}')
    stage.GetRootLayer().Save()
    assert convert_file(stage_path, to='sdf', output_path=out, options=ConversionOptions()).ok
    v = verify_files(str(out), str(src))
    assert v.ok, [str(d) for d in v.differences]
    assert v.measures['body pose'].compared == 4 and v.measures['joint type'].compared == 3
