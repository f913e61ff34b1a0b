"""A world's own joints (SDFormat 1.10+) through USD and back.

A ``<world><joint>`` fixing a model to the world, or joining two models, is a
UsdPhysics joint on the stage (``body0`` empty for the world), judged by
usd-core's physics parser and Newton's importer against the joint's world
frame as our frame graphs resolve it; the SDFormat read back holds the same
joints, judged by ``inspect --json`` on both files and, where
``SDFORMAT_PROBE_14`` / ``SDFORMAT_PROBE_16`` name libsdformat 14 / 16
probes (12 has no world joints), by libsdformat on both files.
"""
from __future__ import annotations

import math
import os
import warnings
from pathlib import Path
from typing import Any

import pytest
from pxr import Gf, Usd, UsdGeom, UsdPhysics
from support.libsdformat import compare, run_probe

from sdf_tools import gazebo
from sdf_tools.convert.api import convert_file
from sdf_tools.convert.conversion_report import ConversionResult, ReportKind
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file
from sdf_tools.resolved.json_view import inspect_json

from .newton_judge import NEWTON_TOL
from .usd_judge import _AXES, FLOAT_TOL

_BODY = """<model name="{name}"><pose>{pose}</pose>
  <link name="base">
    <inertial><mass>2</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia>
    </inertial>
    <collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision>
  </link>
  <link name="tip"><pose>0 0 0.4 0 0 0</pose>
    <inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia>
    </inertial>
    <collision name="c"><geometry><sphere><radius>0.05</radius></sphere></geometry></collision>
  </link>
  <joint name="hinge" type="revolute"><parent>base</parent><child>tip</child>
    <axis><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis></joint>
</model>"""

WORLD = f"""<world name="w">
  {_BODY.format(name='arm', pose='1 2 0.5 0 0 0.3')}
  {_BODY.format(name='cart', pose='-1 0.5 0.2 0.1 0 -0.4')}
  <joint name="to_world" type="fixed"><pose>0 0 0.1 0 0 0</pose>
    <parent>world</parent><child>arm::base</child></joint>
  <joint name="towed" type="revolute"><pose relative_to="arm::tip">0.05 0 0 0 0.2 0</pose>
    <parent>arm::tip</parent><child>cart</child>
    <axis><xyz expressed_in="arm">1 0 0</xyz><limit><lower>-0.5</lower><upper>0.7</upper>
    </limit></axis></joint>
</world>"""

_I = '<inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial>'
# Ends in a nested model, on a frame, on a model (its canonical link) and on a static model's
# link; an axis expressed in a frame of a nested model.
NESTED = f"""<world name="w">
  <model name="arm"><pose>1 2 0.5 0 0 0.3</pose>
    <link name="base">{_I}</link>
    <model name="inner"><pose>0 0.2 0.3 0.1 0 0</pose>
      <link name="l">{_I}</link>
      <frame name="f" attached_to="l"><pose>0.1 0 0 0 0 0.5</pose></frame>
    </model>
    <joint name="fix_inner" type="fixed"><parent>base</parent><child>inner::l</child></joint>
  </model>
  <model name="box"><pose>1.1 2.2 0.8 0 0 0</pose><link name="b">{_I}</link></model>
  <model name="ground"><static>true</static>
    <link name="g"><collision name="c"><geometry><box><size>1 1 0.1</size></box></geometry>
    </collision></link></model>
  <joint name="spin" type="revolute"><parent>world</parent><child>arm</child>
    <axis><xyz expressed_in="arm::inner::f">0 0 1</xyz>
      <limit><lower>-1</lower><upper>2</upper></limit></axis></joint>
  <joint name="slide" type="prismatic"><pose relative_to="arm::inner::f">0.05 0 0 0 0 0</pose>
    <parent>arm::inner::f</parent><child>box::b</child>
    <axis><xyz>1 0 0</xyz><limit><lower>0</lower><upper>0.5</upper></limit></axis></joint>
  <joint name="on_ground" type="fixed"><parent>ground::g</parent><child>box</child></joint>
</world>"""

_PROBES = {'14': os.environ.get('SDFORMAT_PROBE_14'), '16': os.environ.get('SDFORMAT_PROBE_16')}


def _round_trip(src: Path, tmp_path: Path) -> tuple[Path, Path, ConversionResult,
                                                      ConversionResult]:
    stage, out = tmp_path / 'w.usda', tmp_path / 'back.sdf'
    with gazebo.using('harmonic'):  # SDFormat 1.11 out, which libsdformat 14 reads
        there = convert_file(src, to='usd', output_path=stage, options=ConversionOptions())
        assert there.ok, [str(d) for d in there.report.errors]
        back = convert_file(stage, to='sdf', output_path=out, options=ConversionOptions())
        assert back.ok, [str(d) for d in back.report.errors]
    return stage, out, there, back


def _joints(path: Path) -> dict[str, Any]:
    return {j['name']: j for j in inspect_json(load_file(path))['joints']}


def _parsed_joints(stage_path: Path) -> dict[str, Any]:
    stage = Usd.Stage.Open(str(stage_path))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        parsed = UsdPhysics.LoadUsdPhysicsFromRange(stage, ['/'])
    out: dict[str, Any] = {}
    for kind, (paths, descs) in parsed.items():
        if str(kind).endswith('Joint'):
            out.update({str(p): d for p, d in zip(paths, descs, strict=True)})
    return out


def _frame(stage: Usd.Stage, body: str, pos: Gf.Vec3f, rot: Gf.Quatf) -> Gf.Matrix4d:
    """The joint frame in the world: a body's world transform composed with a local pose."""
    local = Gf.Matrix4d().SetRotate(Gf.Quatd(rot)) * Gf.Matrix4d().SetTranslateOnly(
        Gf.Vec3d(pos))
    if body in ('', '/'):
        return local
    return local * UsdGeom.Xformable(stage.GetPrimAtPath(body)).ComputeLocalToWorldTransform(
        Usd.TimeCode.Default())


def _close(a: Gf.Matrix4d, b: Gf.Matrix4d, tol: float) -> bool:
    return all(abs(a[r][c] - b[r][c]) <= tol for r in range(4) for c in range(4))


def test_world_joints_are_usdphysics_joints_where_the_frame_graphs_put_them(
        write_sdf: Any, tmp_path: Path) -> None:
    src = write_sdf(WORLD, version='1.10')
    stage_path, _, there, _ = _round_trip(src, tmp_path)
    assert not [e for e in there.report.entries if 'joint[to_world]' in e.element
                or 'joint[towed]' in e.element and e.kind is ReportKind.DROPPED]
    want = {j['name']: j for j in inspect_json(load_file(src))['joints']}
    parsed = _parsed_joints(stage_path)
    stage = Usd.Stage.Open(str(stage_path))
    fixed, towed = parsed['/w/joints/to_world'], parsed['/w/joints/towed']
    assert (str(fixed.body0), str(fixed.body1)) in (('', '/w/arm/base'), ('/', '/w/arm/base'))
    assert (str(towed.body0), str(towed.body1)) == ('/w/arm/tip', '/w/cart/base')
    for name, d in (('to_world', fixed), ('towed', towed)):
        frames = [_frame(stage, str(getattr(d, f'body{side}')),
                         getattr(d, f'localPose{side}Position'),
                         getattr(d, f'localPose{side}Orientation')) for side in (0, 1)]
        # Both bodies see one joint frame, at the joint's resolved origin (its orientation
        # is turned so that X is the axis: the axis is compared instead).
        assert _close(frames[0], frames[1], 10 * FLOAT_TOL), name
        origin = frames[1].ExtractTranslation()
        assert list(origin) == pytest.approx(want[name]['pose']['xyz'], abs=10 * FLOAT_TOL)
        if want[name]['axis'] is not None:
            axis = frames[1].TransformDir(Gf.Vec3d(*_AXES[str(d.axis).split('.')[-1]]))
            assert list(axis) == pytest.approx(want[name]['axis'], abs=10 * FLOAT_TOL)
    # Fixing arm to the world makes it a fixed-base articulation; towing cart's root link
    # from arm's tip makes one articulation of both, as usd-core's parser finds it.
    for name in ('to_world', 'towed'):
        assert not UsdPhysics.Joint(stage.GetPrimAtPath(f'/w/joints/{name}')) \
            .GetExcludeFromArticulationAttr().Get()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        parsed_all = UsdPhysics.LoadUsdPhysicsFromRange(stage, ['/'])
    arts = {str(p): d for k, (ps, ds) in parsed_all.items() if 'Articulation' in str(k)
            for p, d in zip(ps, ds, strict=True)}
    assert list(arts) == ['/w/arm']
    assert {str(b) for b in arts['/w/arm'].articulatedBodies} >= {
        '/w/arm/base', '/w/arm/tip', '/w/cart/base', '/w/cart/tip'}
    limits = (towed.limit.lower, towed.limit.upper)
    assert limits == pytest.approx((math.degrees(-0.5), math.degrees(0.7)), rel=FLOAT_TOL)


@pytest.mark.parametrize('world', [WORLD, NESTED], ids=['models', 'nested_frames_static'])
def test_world_joints_come_back_from_usd_as_libsdformat_reads_them(
        write_sdf: Any, tmp_path: Path, world: str) -> None:
    src = write_sdf(world, version='1.10')
    _, out, _, back = _round_trip(src, tmp_path)
    assert [e for e in back.report.entries if e.kind is ReportKind.DROPPED] == []
    assert {j.name for w in load_file(src).document.worlds for j in w.joints} <= set(_joints(out))
    reports = [('sdf_tools', inspect_json(load_file(src)), inspect_json(load_file(out)))]
    reports += [(release, run_probe(src, probe=probe), run_probe(out, probe=probe))
                for release, probe in _PROBES.items() if probe]
    for who, a, b in reports:
        assert a['valid'] and b['valid'], (who, b['errors'])
        assert compare(_plain(b), _plain(a)) == [], who


def _plain(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in ('file', 'version', 'warnings')}


def test_newton_fixes_the_model_a_world_joint_fixes_and_tows_the_other(write_sdf: Any, tmp_path: Path) -> None:
    pytest.importorskip('newton')
    from .newton_judge import _quiet
    _quiet()
    import newton
    src = write_sdf(WORLD, version='1.10')
    stage_path, _, _, _ = _round_trip(src, tmp_path)
    builder = newton.ModelBuilder()
    builder.add_usd(str(stage_path))
    labels = list(builder.joint_label if hasattr(builder, 'joint_label') else builder.joint_key)
    bodies = list(builder.body_label if hasattr(builder, 'body_label') else builder.body_key)
    k = labels.index('/w/joints/to_world')
    assert builder.joint_parent[k] == -1  # the world
    assert builder.joint_type[k] == newton.JointType.FIXED
    t = labels.index('/w/joints/towed')  # cart hangs from arm's tip, in one articulation
    assert (bodies[builder.joint_parent[t]], bodies[builder.joint_child[t]]) == \
        ('/w/arm/tip', '/w/cart/base')
    assert len(builder.articulation_start) == 1
    p = _joints(src)['to_world']['pose']
    got = [float(v) for v in builder.joint_X_p[k]]
    assert got[:3] == pytest.approx(p['xyz'], abs=NEWTON_TOL)
    x, y, z, w = p['quat_xyzw']
    sign = 1.0 if got[6] * w >= 0 else -1.0
    assert [sign * v for v in got[3:]] == pytest.approx([x, y, z, w], abs=NEWTON_TOL)


def test_a_world_joint_to_a_model_not_exported_is_reported_dropped(
        write_sdf: Any, tmp_path: Path) -> None:
    src = write_sdf(WORLD, version='1.10')
    got = convert_file(src, to='usd', output_path=tmp_path / 'arm.usda',
                       options=ConversionOptions(model='arm'))
    assert got.ok
    dropped = {e.element: e.message for e in got.report.entries if e.kind is ReportKind.DROPPED}
    assert 'cart::base' in dropped['world[w]/joint[towed]']
    assert 'world[w]/joint[to_world]' not in dropped


def test_verify_finds_the_world_joints_usd_core_parses(write_sdf: Any, tmp_path: Path) -> None:
    from sdf_tools.verify.usd_side import usd_snapshot
    src = write_sdf(WORLD, version='1.10')
    stage_path, _, _, _ = _round_trip(src, tmp_path)
    snap = usd_snapshot(str(stage_path))
    assert not isinstance(snap, str), snap
    want = _joints(src)
    for name in ('to_world', 'towed'):
        assert snap.joints[name].anchor == pytest.approx(want[name]['pose']['xyz'],
                                                        abs=10 * FLOAT_TOL)


BODIES = """<world name="w">
  <joint name="fix" type="fixed"><parent>world</parent><child>m1</child></joint>
  <model name="m1"><pose>0 0 1 0 0 0</pose><link name="l1">
    <collision name="c"><geometry><sphere><radius>0.5</radius></sphere></geometry></collision>
  </link></model>
  <joint name="j1" type="revolute"><pose relative_to="m1"/><parent>m1</parent><child>m2</child>
    <axis><xyz>0 1 0</xyz></axis></joint>
  <model name="m2"><pose>2 0 1 0 0 0</pose><link name="l2">
    <collision name="c"><geometry><sphere><radius>0.5</radius></sphere></geometry></collision>
  </link></model>
</world>"""


def test_single_bodies_joined_by_world_joints_are_one_articulation_newton_imports(
        write_sdf: Any, tmp_path: Path) -> None:
    """gz-sim's test/worlds/joints_in_world.sdf: two one-link models hinged together and fixed
    to the world. Newton refuses a joint outside any articulation, so the group gets one,
    rooted at its top link; verify (usd-core and Newton) agrees with the source."""
    pytest.importorskip('newton')
    from sdf_tools.verify.run import verify_files
    src = write_sdf(BODIES, version='1.10')
    stage_path, _, _, _ = _round_trip(src, tmp_path)
    verdict = verify_files(str(stage_path), str(src))
    assert verdict.ok, [str(d) for d in verdict.differences]
    assert verdict.measures['joint anchor (Newton)'].compared == 2


def test_world_joints_written_as_sdformat_1_9_are_reported_as_fortress_ignores_them(
        write_sdf: Any, tmp_path: Path) -> None:
    """SDFormat 1.9 has no world joints: libsdformat 12 reads them as nothing, without a word.
    The USD import gives them back, so a Fortress output says so (it was silent)."""
    from support.libsdformat import probe_available, run_probe
    src = write_sdf(WORLD, version='1.10')
    stage_path, _, _, _ = _round_trip(src, tmp_path)
    out = tmp_path / 'fortress.sdf'
    with gazebo.using('fortress'):
        got = convert_file(stage_path, to='sdf', output_path=out, options=ConversionOptions())
    assert got.ok, got.report.errors
    kept = {e.element for e in got.report.entries if e.kind is ReportKind.KEPT
            and 'ignored by libsdformat 12' in e.message}
    assert kept == {'world[w]/joint[to_world]', 'world[w]/joint[towed]'}
    if probe_available():  # what the entry says: libsdformat 12 holds no such joint
        names = {j['name'] for j in run_probe(out)['joints']}
        assert not names & {'to_world', 'towed'}
