"""Generic UsdPhysics joints (D6) from other tools, read by their free rotations (read_d6.py).

Newton's humanoid.usda (from MuJoCo) writes a body's hinges as one PhysicsJoint with the other
degrees of freedom locked (LimitAPI low > high); judged against usd-core's own reading of the
stage: each joint axis in the world where the stage puts it, limits in radians.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from pxr import Gf, Usd, UsdGeom, UsdPhysics
from support.libsdformat import probe_available, run_probe

from sdf_tools import gazebo
from sdf_tools.convert.api import convert_file
from sdf_tools.convert.conversion_report import ReportKind
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.convert.usd.rotation_limits import kept_limits
from sdf_tools.load import load_file
from sdf_tools.resolved import resolve
from sdf_tools.verify.snapshot import rotation

ROT = Gf.Quatf(0.9238795, 0.0, 0.3826834, 0.0)  # 45 degrees about Y


def _stage(path: Path, free: dict[str, tuple[float, float] | None], slide: bool = False) -> None:
    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    UsdPhysics.ArticulationRootAPI.Apply(UsdGeom.Xform.Define(stage, '/bot').GetPrim())
    for name, z in (('a', 0.0), ('b', 0.5)):
        xf = UsdGeom.Xform.Define(stage, f'/bot/{name}')
        xf.AddTranslateOp().Set(Gf.Vec3d(0.0, 0.0, z))
        UsdPhysics.RigidBodyAPI.Apply(xf.GetPrim())
        UsdPhysics.CollisionAPI.Apply(UsdGeom.Cube.Define(stage, f'/bot/{name}/c').GetPrim())
    joint = UsdPhysics.Joint.Define(stage, '/bot/hip')
    joint.CreateBody0Rel().SetTargets(['/bot/a'])
    joint.CreateBody1Rel().SetTargets(['/bot/b'])
    joint.CreateLocalPos0Attr(Gf.Vec3f(0.0, 0.0, 0.25))
    joint.CreateLocalPos1Attr(Gf.Vec3f(0.0, 0.0, -0.25))
    joint.CreateLocalRot0Attr(ROT)
    joint.CreateLocalRot1Attr(ROT)
    for dof in ('transX', 'transY', 'transZ', 'rotX', 'rotY', 'rotZ'):
        if dof.startswith('trans') and slide and dof == 'transX':
            continue
        lim = free.get(dof[-1]) if dof.startswith('rot') else None
        if dof.startswith('rot') and dof[-1] in free and lim is None:
            continue  # free, unlimited
        api = UsdPhysics.LimitAPI.Apply(joint.GetPrim(), dof)
        low, high = lim if lim is not None else (1.0, -1.0)  # low > high: locked
        api.CreateLowAttr(low)
        api.CreateHighAttr(high)
    stage.GetRootLayer().Save()


def _world_axis(path: Path, token: str) -> np.ndarray:
    stage = Usd.Stage.Open(str(path))
    joint = UsdPhysics.Joint(stage.GetPrimAtPath('/bot/hip'))
    m1 = UsdGeom.Xformable(stage.GetPrimAtPath('/bot/b')).ComputeLocalToWorldTransform(0)
    rot1 = Gf.Matrix4d().SetRotate(Gf.Quatd(joint.GetLocalRot1Attr().Get()))
    e = {'X': (1, 0, 0), 'Y': (0, 1, 0), 'Z': (0, 0, 1)}[token]
    return np.asarray((rot1 * m1).TransformDir(Gf.Vec3d(*e)))


@pytest.mark.parametrize('free, kind', [
    ({'X': (-30.0, 60.0)}, 'revolute'),
    ({'Z': None}, 'continuous'),
    ({'X': (-45.0, 15.0), 'Z': (-60.0, 35.0)}, 'universal'),
    ({'X': None, 'Y': (-10.0, 10.0), 'Z': None}, 'ball'),
    ({}, 'fixed'),
])
def test_a_d6_joint_reads_as_its_free_rotations(tmp_path: Path,
                                                free: dict[str, tuple[float, float] | None],
                                                kind: str) -> None:
    src, out = tmp_path / 'd6.usda', tmp_path / 'd6.sdf'
    _stage(src, free)
    result = convert_file(src, to='sdf', output_path=out, options=ConversionOptions())
    assert result.ok, [str(d) for d in result.report.errors]
    r = resolve(load_file(out))
    [joint] = r.joints
    assert joint.element.type == kind
    child = next(lk for lk in r.links if lk.name.endswith('b'))
    assert child.world is not None
    axes = [joint.element.axis, joint.element.axis2] if kind in ('revolute', 'continuous',
                                                                'universal') else []
    for axis, (token, lim) in zip(axes, free.items(), strict=False):
        assert axis is not None
        got = rotation(child.world) @ np.asarray(axis.xyz)
        assert np.abs(got - _world_axis(src, token)).max() < 1e-6, token
        if lim is not None:
            assert (axis.lower, axis.upper) == pytest.approx(
                (math.radians(lim[0]), math.radians(lim[1])), rel=1e-9)
    assert [e for e in result.report.entries if e.kind is ReportKind.DROPPED] == []
    if kind == 'ball':  # its rotation limits kept, in radians, about its frame's X, Y, Z
        kept = kept_limits(joint.element)
        assert kept is not None
        for (lo, hi), token in zip(kept, 'XYZ', strict=True):
            want = free[token]
            assert (lo, hi) == ((-math.inf, math.inf) if want is None else pytest.approx(
                (math.radians(want[0]), math.radians(want[1])), rel=1e-9))


def test_a_d6_joint_that_slides_is_reported_not_read(tmp_path: Path) -> None:
    src, out = tmp_path / 'd6.usda', tmp_path / 'd6.sdf'
    _stage(src, {'X': None}, slide=True)
    result = convert_file(src, to='sdf', output_path=out, options=ConversionOptions())
    assert result.ok
    assert not resolve(load_file(out)).joints
    assert any('free degrees of freedom' in e.message for e in result.report.entries)


def _newton_d6(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Newton's reading of the stage's one D6 joint: each angular DOF's axis in the child
    link, its limits (radians) and the joint's anchor in the parent and the child."""
    import warp as wp
    wp.config.quiet = True
    import newton
    b = newton.ModelBuilder()
    b.add_usd(str(path))
    k = [int(t) for t in b.joint_type].index(int(newton.JointType.D6))
    start = b.joint_qd_start[k]
    count = b.joint_dof_dim[k][0] + b.joint_dof_dim[k][1]
    xc = b.joint_X_c[k]
    q = Gf.Quatd(float(xc[6]), float(xc[3]), float(xc[4]), float(xc[5]))
    rot = Gf.Matrix4d().SetRotate(q)
    axes = np.asarray([rot.TransformDir(Gf.Vec3d(*map(float, b.joint_axis[i])))
                       for i in range(start, start + count)])
    lims = np.asarray([(b.joint_limit_lower[i], b.joint_limit_upper[i])
                       for i in range(start, start + count)])
    return axes, lims, np.asarray(b.joint_X_p[k])[:3], np.asarray(xc)[:3]


def test_a_limited_three_rotation_d6_joint_survives_usd_sdf_usd_as_newton_reads_it(
        tmp_path: Path) -> None:
    pytest.importorskip('newton')
    src, sdf, back = tmp_path / 'd6.usda', tmp_path / 'd6.sdf', tmp_path / 'back.usda'
    _stage(src, {'X': (-40.0, 25.0), 'Y': (-10.0, 10.0), 'Z': (-5.0, 65.0)})
    with gazebo.using('fortress'):
        there = convert_file(src, to='sdf', output_path=sdf, options=ConversionOptions())
    assert there.ok, [str(d) for d in there.report.errors]
    if probe_available():  # what Gazebo gets: a ball joint, the custom element copied
        got = run_probe(sdf)
        assert got['valid'], got['errors']
        assert [j['type'] for j in got['joints']] == ['ball']
    again = convert_file(sdf, to='usd', output_path=back, options=ConversionOptions())
    assert again.ok, [str(d) for d in again.report.errors]
    want, got = _newton_d6(src), _newton_d6(back)
    assert want[0].shape == got[0].shape == (3, 3)
    for w, g in zip(want, got, strict=True):
        assert np.abs(w - g).max() < 1e-6  # float32 in Newton and in the schema
