"""SDFormat/URDF -> USD, judged by usd-core: every body and joint parsed, where our graphs put it.

Each stage is opened with usd-core and parsed with ``UsdPhysics.LoadUsdPhysicsFromRange``
(:mod:`convert.usd.usd_judge`); link world transforms equal our resolved poses to 1e-9,
joint anchors/axes and mass properties to float precision (the schema's floats).
"""
from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from pxr import Sdf, Usd, UsdGeom, UsdPhysics

from convert.usd.usd_judge import judge, parse
from sdf_tools.convert.api import convert_loaded, write_result
from sdf_tools.convert.conversion_report import ReportKind
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file
from sdf_tools.transform import Transform

DATA = Path(__file__).resolve().parents[2] / 'data'
OWN = sorted([*DATA.glob('convert/*.urdf'), *DATA.glob('urdf/*.urdf'), *DATA.glob('sdf/*.sdf'),
              *DATA.glob('convert_urdf/*.sdf'), *DATA.glob('usd/*.sdf')])
FEATURES = DATA / 'usd' / 'features.sdf'


def export(src: Path, out: Path, options: ConversionOptions | None = None) -> tuple[Path, object]:
    loaded = load_file(src)
    result = convert_loaded(loaded, to='usd', options=options or ConversionOptions())
    assert result.ok, [str(d) for d in result.report.errors]
    write_result(out, result)
    return out, result


@pytest.mark.parametrize('src', [p for p in OWN if load_file(p).valid],
                         ids=lambda p: f'{p.parent.name}/{p.name}')
def test_stage_holds_our_resolved_model(src: Path, tmp_path: Path) -> None:
    out, _ = export(src, tmp_path / 'robot.usda')
    assert judge(out, load_file(src)) == []


def test_features_model_maps_every_concept(tmp_path: Path) -> None:
    out, result = export(FEATURES, tmp_path / 'f.usda')
    stage, parsed = parse(out)
    assert UsdGeom.GetStageUpAxis(stage) == 'Z' and UsdGeom.GetStageMetersPerUnit(stage) == 1.0
    assert UsdPhysics.GetStageKilogramsPerUnit(stage) == 1.0
    assert stage.GetDefaultPrim().GetPath() == Sdf.Path('/features')
    kinds = {k: len(v[0]) for k, v in parsed.items()}
    assert kinds['RigidBody'] == 7
    assert kinds['RevoluteJoint'] == 3 and kinds['PrismaticJoint'] == 1
    assert kinds['SphericalJoint'] == 1 and kinds['FixedJoint'] == 1 and kinds['D6Joint'] == 1
    assert kinds['Articulation'] == 1
    loop = stage.GetPrimAtPath('/features/joints/loop')
    assert UsdPhysics.Joint(loop).GetExcludeFromArticulationAttr().Get() is True
    shoulder = stage.GetPrimAtPath('/features/joints/shoulder')
    assert UsdPhysics.RevoluteJoint(shoulder).GetLowerLimitAttr().Get() == pytest.approx(
        -1.2 * 180 / 3.141592653589793, rel=1e-6)
    # The spring and damper of <dynamics> are the drive; the limit stiffness 1e5 is not.
    drive = UsdPhysics.DriveAPI(shoulder, 'angular')
    assert drive.GetStiffnessAttr().Get() == pytest.approx(4 * 3.141592653589793 / 180, rel=1e-6)
    assert drive.GetDampingAttr().Get() == pytest.approx(0.3 * 3.141592653589793 / 180, rel=1e-6)
    assert drive.GetTargetPositionAttr().Get() == pytest.approx(0.1 * 180 / 3.141592653589793,
                                                                rel=1e-6)
    velocity = shoulder.GetAttribute('physxJoint:maxJointVelocity').Get()
    assert velocity == pytest.approx(2 * 180 / 3.141592653589793, rel=1e-6)
    wrist = stage.GetPrimAtPath('/features/joints/wrist_u')
    for dof in ('transX', 'transY', 'transZ', 'rotZ'):
        lim = UsdPhysics.LimitAPI(wrist, dof)
        assert lim.GetLowAttr().Get() > lim.GetHighAttr().Get()  # locked
    assert UsdPhysics.LimitAPI(wrist, 'rotY').GetHighAttr().Get() == pytest.approx(
        0.25 * 180 / 3.141592653589793, rel=1e-6)
    mesh = stage.GetPrimAtPath('/features/base/shell')
    assert mesh.IsA(UsdGeom.Mesh) and mesh.HasAPI(UsdPhysics.MeshCollisionAPI)
    assert len(UsdGeom.Mesh(mesh).GetPointsAttr().Get()) > 0
    tip = stage.GetPrimAtPath('/features/arm/tool_tip')
    assert tip.IsA(UsdGeom.Xform) and not tip.HasAPI(UsdPhysics.RigidBodyAPI)
    body = stage.GetPrimAtPath('/features/base/body')
    assert tuple(UsdGeom.Gprim(body).GetDisplayColorAttr().Get()[0]) == pytest.approx(
        (0.8, 0.1, 0.1))
    lost = {e.element for e in result.report.entries if e.kind is ReportKind.DROPPED}
    assert any('plugin' in e for e in lost)
    kept = {e.element for e in result.report.entries if e.kind is ReportKind.REWRITTEN}
    assert any('sensor[imu]' in e for e in kept)  # an Xform at its pose (usd/sensors.py)
    assert all(e.file and e.line for e in result.report.entries if e.kind is ReportKind.DROPPED)


def test_collision_friction_is_a_physics_material(tmp_path: Path) -> None:
    out, _ = export(FEATURES, tmp_path / 'f.usda')
    stage, parsed = parse(out)
    shape = stage.GetPrimAtPath('/features/base/body_2')
    (paths, descs) = parsed['CubeShape']
    desc = descs[[str(p) for p in paths].index('/features/base/body_2')]
    assert len(desc.materials) == 1
    mat = UsdPhysics.MaterialAPI(stage.GetPrimAtPath(desc.materials[0]))
    assert mat.GetStaticFrictionAttr().Get() == pytest.approx(0.7)
    assert shape.HasAPI(UsdPhysics.CollisionAPI)


def test_judge_sees_a_link_moved_by_a_nanometre(tmp_path: Path) -> None:
    out, _ = export(FEATURES, tmp_path / 'f.usda')
    stage = Usd.Stage.Open(str(out))
    op = UsdGeom.Xformable(stage.GetPrimAtPath('/features/arm')).GetOrderedXformOps()[0]
    value = op.Get()
    op.Set(value + type(value)(0.0, 0.0, 2e-9))
    stage.GetRootLayer().Save()
    assert any('arm' in p for p in judge(out, load_file(FEATURES)))


def test_prim_names_are_identifiers_and_keep_the_original(write_sdf, tmp_path: Path) -> None:
    src = write_sdf('<model name="m 1"><link name="link-1"/><link name="2nd"/>'
                    '<model name="in"><link name="x"/></model>'
                    '<joint name="j.1" type="fixed"><parent>link-1</parent><child>2nd</child>'
                    '</joint></model>')
    out, _ = export(src, tmp_path / 'n.usda')
    stage = Usd.Stage.Open(str(out))
    names = {}
    for prim in stage.Traverse():
        assert Sdf.Path.IsValidIdentifier(prim.GetName()), prim.GetPath()
        attr = prim.GetAttribute('sdf_tools:name')
        if attr and attr.HasAuthoredValue():
            names[str(attr.Get())] = prim
            assert prim.GetDisplayName() == attr.Get()
    assert {'m 1', 'link-1', '2nd', 'in::x', 'j.1'} <= set(names)


@pytest.mark.parametrize('ending', ['.usda', '.usd', '.usdc'])
def test_cli_writes_each_ending(ending: str, tmp_path: Path) -> None:
    out = tmp_path / f'robot{ending}'
    src = DATA / 'urdf' / 'arm.urdf'
    run = subprocess.run([sys.executable, '-m', 'sdf_tools', 'convert', str(src), '-o', str(out)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    head = out.read_bytes()[:8]
    assert (head == b'PXR-USDC') == (ending != '.usda')
    assert judge(out, load_file(src)) == []


def test_fixed_base_adds_a_world_joint_and_root_transform_moves_the_links(tmp_path: Path) -> None:
    src = DATA / 'convert' / 'joint_kinds.urdf'  # a floating robot, its root at the origin
    root = Transform.from_xyz_rpy((1.0, 2.0, 3.0), (0.0, 0.0, 1.0))
    out, _ = export(src, tmp_path / 'a.usda',
                    ConversionOptions(floating_base=False, root_transform=root))
    stage, parsed = parse(out)
    fixed = [d for d in parsed['FixedJoint'][1] if str(d.body0) in ('', '/')]
    assert len(fixed) == 1
    base = UsdGeom.Xformable(stage.GetPrimAtPath(str(fixed[0].body1)))
    t = base.ComputeLocalToWorldTransform(Usd.TimeCode.Default()).ExtractTranslation()
    assert tuple(t) == pytest.approx((1.0, 2.0, 3.0), abs=1e-12)


@pytest.mark.parametrize('options, token', [
    (ConversionOptions(), 'convexHull'),  # a moving body: PhysX needs a convex shape
    (ConversionOptions(usd_mesh_approximation='convexDecomposition'), 'convexDecomposition'),
    (ConversionOptions(usd_mesh_approximation='none'), 'none'),
    (ConversionOptions(mesh_collision='convex'), 'convexHull')])
def test_mesh_collision_approximation_of_a_moving_body(options: ConversionOptions, token: str,
                                                       tmp_path: Path) -> None:
    out, result = export(FEATURES, tmp_path / 'f.usda', options)
    stage = Usd.Stage.Open(str(out))
    api = UsdPhysics.MeshCollisionAPI(stage.GetPrimAtPath('/features/base/shell'))
    assert api.GetApproximationAttr().Get() == token
    noted = [e for e in result.report.entries  # type: ignore[attr-defined]
             if 'usd_mesh_approximation' in e.message]
    assert len(noted) == (1 if token != 'none' and options.mesh_collision == 'keep' else 0)


def test_a_static_body_keeps_its_triangles(tmp_path: Path) -> None:
    src = tmp_path / 'static.sdf'
    text = FEATURES.read_text().replace('<model name="features">',
                                        '<model name="features"><static>true</static>', 1)
    src.write_text(text.replace('meshes/block.stl', str(FEATURES.parent / 'meshes/block.stl')))
    out, _ = export(src, tmp_path / 's.usda')
    stage = Usd.Stage.Open(str(out))
    api = UsdPhysics.MeshCollisionAPI(stage.GetPrimAtPath('/features/base/shell'))
    assert api.GetApproximationAttr().Get() == 'none'


def test_mesh_collision_box_writes_a_cube(tmp_path: Path) -> None:
    out, _ = export(FEATURES, tmp_path / 'f.usda', ConversionOptions(mesh_collision='box'))
    stage = Usd.Stage.Open(str(out))
    assert stage.GetPrimAtPath('/features/base/shell').IsA(UsdGeom.Cube)


def test_self_collision_off_filters_the_model_against_itself(tmp_path: Path) -> None:
    out, _ = export(FEATURES, tmp_path / 'f.usda')
    _, parsed = parse(out)
    groups = parsed['CollisionGroup'][1]
    assert len(groups) == 1 and list(groups[0].filteredGroups) == [parsed['CollisionGroup'][0][0]]
    out2, _ = export(FEATURES, tmp_path / 'g.usda', ConversionOptions(self_collide=True))
    assert 'CollisionGroup' not in parse(out2)[1]


def test_transmissions_give_drives_with_the_effort_limit(tmp_path: Path) -> None:
    out, result = export(DATA / 'convert' / 'control.urdf', tmp_path / 'c.usda')
    stage = Usd.Stage.Open(str(out))
    j1 = UsdPhysics.DriveAPI(stage.GetPrimAtPath('/control/joints/joint1'), 'angular')
    assert j1.GetMaxForceAttr().Get() == 10.0 and j1.GetStiffnessAttr().Get() > 0
    assert any(e.kind is ReportKind.ASSUMED and 'drive' in e.element for e in result.report.entries)
    out2, _ = export(DATA / 'convert' / 'control.urdf', tmp_path / 'd.usda',
                     ConversionOptions(joint_drive_from_transmission=False))
    stage2 = Usd.Stage.Open(str(out2))
    assert not stage2.GetPrimAtPath('/control/joints/joint1').HasAPI(UsdPhysics.DriveAPI)


def test_world_has_a_default_prim_holding_each_model(tmp_path: Path) -> None:
    src = DATA / 'convert_urdf' / 'world_two_models.sdf'
    out, _ = export(src, tmp_path / 'w.usda')
    stage = Usd.Stage.Open(str(out))
    world = stage.GetDefaultPrim()
    assert sorted(c.GetName() for c in world.GetChildren()) == ['one', 'two']


@pytest.mark.parametrize('args', [
    ['missing.sdf', '-o', 'x.usda'],
    ['{bad}', '-o', 'x.usda'],
    ['{txt}', '-o', 'x.sdf', '--from', 'usd'],
    ['{nobody}', '-o', 'x.sdf'],
])
def test_bad_input_fails_cleanly(args: list[str], tmp_path: Path) -> None:
    bad = tmp_path / 'bad.sdf'
    bad.write_text('<sdf version="1.9"><model name="m"><link name="a"/><link name="a"/>'
                   '</model></sdf>')
    txt = tmp_path / 'robot.txt'
    txt.write_text('not a stage')
    nobody = tmp_path / 'empty.usda'
    nobody.write_text('#usda 1.0\ndef Xform "a" {}\n')
    argv = [a.format(bad=bad, txt=txt, nobody=nobody) for a in args]
    run = subprocess.run([sys.executable, '-m', 'sdf_tools', 'convert', *argv], cwd=tmp_path,
                         capture_output=True, text=True, check=False)
    assert run.returncode in (1, 2), run.stderr
    assert 'Traceback' not in run.stderr
    assert not (tmp_path / 'x.usda').exists() and not (tmp_path / 'x.sdf').exists()


def test_model_option_exports_one_model_of_a_world(tmp_path: Path) -> None:
    src = DATA / 'convert_urdf' / 'world_two_models.sdf'
    out, _ = export(src, tmp_path / 'w.usda', ConversionOptions(model='two'))
    stage = Usd.Stage.Open(str(out))
    assert [c.GetName() for c in stage.GetDefaultPrim().GetChildren()] == ['two']
    result = convert_loaded(load_file(src), to='usd', options=ConversionOptions(model='three'))
    assert not result.ok and 'no model [three]' in str(result.report.errors[0])


def test_drop_frames_and_options_without_effect_are_reported(tmp_path: Path) -> None:
    out, result = export(FEATURES, tmp_path / 'f.usda',
                         ConversionOptions(frames_as_links=False, keep_fixed_joints=True))
    stage = Usd.Stage.Open(str(out))
    assert not stage.GetPrimAtPath('/features/arm/tool_tip')
    entries = {(e.kind, e.element) for e in result.report.entries}
    assert (ReportKind.DROPPED, 'frame[tool_tip]') in entries
    assert (ReportKind.ASSUMED, 'option[keep_fixed_joints]') in entries


def test_urdf_gazebo_friction_is_bound_to_the_link_collisions(tmp_path: Path) -> None:
    out, _ = export(DATA / 'convert' / 'gazebo_tags.urdf', tmp_path / 'g.usda')
    stage, parsed = parse(out)
    frictions = {}
    for kind, (paths, descs) in parsed.items():
        if kind.endswith('Shape'):
            for p, d in zip(paths, descs, strict=True):
                if str(p).startswith('/gazebo_tags/base/') and d.materials:
                    api = UsdPhysics.MaterialAPI(stage.GetPrimAtPath(d.materials[0]))
                    frictions[str(p)] = api.GetDynamicFrictionAttr().Get()
    assert frictions and all(v == pytest.approx(0.9) for v in frictions.values())


@pytest.mark.parametrize('kind', ['position', 'motor'])
def test_actuators_from_effort_limits_are_drives(kind: str, tmp_path: Path) -> None:
    src = DATA / 'convert' / 'name_clash.urdf'  # HAA and KFE: effort 40, no transmission
    out, result = export(src, tmp_path / 'a.usda', ConversionOptions(actuators=kind))
    stage = Usd.Stage.Open(str(out))
    drives = {str(p.GetAttribute('sdf_tools:name').Get()): UsdPhysics.DriveAPI(p, 'angular')
              for p in stage.Traverse() if p.HasAPI(UsdPhysics.DriveAPI, 'angular')}
    assert set(drives) == {'HAA', 'KFE'}
    haa = drives['HAA']
    assert haa.GetMaxForceAttr().Get() == 40
    want = 40 / 0.1 * math.pi / 180 if kind == 'position' else 0.0  # per degree in UsdPhysics
    assert haa.GetStiffnessAttr().Get() == pytest.approx(want, rel=1e-6)
    notes = [e for e in result.report.entries if e.element == 'joint[HAA_joint]/drive']  # type: ignore[attr-defined]
    assert len(notes) == 1 and 'effort limit' in notes[0].message
    _, plain = export(src, tmp_path / 'b.usda')
    assert not any('/drive' in e.element for e in plain.report.entries)  # type: ignore[attr-defined]


def test_rank_deficient_inertia_has_no_negative_round_off_moment(tmp_path: Path) -> None:
    # Every entry 0.001 (as example-robot-data's ANYmal hatch writes it): moments 0.003, 0, 0.
    # numpy's eigh gives the zeros as +-3e-19; a negative one made Newton discard the tensor.
    src = tmp_path / 'rod.urdf'
    src.write_text(
        '<robot name="r"><link name="base"><inertial><mass value="2"/>'
        '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>'
        '<joint name="j" type="fixed"><parent link="base"/><child link="hatch"/></joint>'
        '<link name="hatch"><inertial><mass value="0.142"/>'
        '<inertia ixx="0.001" ixy="0.001" ixz="0.001" iyy="0.001" iyz="0.001" izz="0.001"/>'
        '</inertial></link></robot>')
    out, result = export(src, tmp_path / 'rod.usda')
    stage = Usd.Stage.Open(str(out))
    moments = UsdPhysics.MassAPI(stage.GetPrimAtPath('/r/hatch')).GetDiagonalInertiaAttr().Get()
    assert sorted(moments) == [0.0, 0.0, pytest.approx(0.003, rel=1e-7)]
    kept = [e for e in result.report.entries  # type: ignore[attr-defined]
            if e.kind is ReportKind.KEPT and e.element == 'link[hatch]/inertial']
    assert len(kept) == 1 and 'not those of a body' in kept[0].message
