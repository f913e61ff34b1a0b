"""UsdPhysics joints back to SDFormat joints (types, frames, axes, limits, drives).

The joint frame is written relative to the child link. When the stage
carries the writer's double-precision copies (:mod:`~sdf_tools.convert.usd.exact`)
and they still agree with the schema values to float precision, the
original joint pose, axes, limits and dynamics come back exactly;
otherwise they are read from the schema: the pose is ``localPos1`` in the
child, the axis ``localRot1`` applied to the axis token, limits converted
from degrees, and a drive's stiffness and damping read back as a spring
and damper (reported).
"""
from __future__ import annotations

import math

import numpy as np
from pxr import Gf, Usd, UsdPhysics

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.usd.exact import get, get_joint, get_type
from sdf_tools.convert.usd.joint_state import read_joint_state
from sdf_tools.convert.usd.read_d6 import read_d6
from sdf_tools.convert.usd.read_gearbox import is_gearbox_mimic
from sdf_tools.convert.usd.rotation_limits import get_copy, limits_extra
from sdf_tools.model import Joint, JointAxis, RawPose
from sdf_tools.transform import Transform, Vec3, normalize_quat, rotate

_E = {'X': (1.0, 0.0, 0.0), 'Y': (0.0, 1.0, 0.0), 'Z': (0.0, 0.0, 1.0)}
#: Agreement asked of the exact copies with the float schema values (float has 24 bits).
FLOAT_TOL = 1e-5
#: Joint types of URDF that SDFormat lacks (a D6 joint written from one comes back as none).
_URDF_ONLY = ('planar', 'floating')


def number(prim: Usd.Prim, name: str) -> float | None:
    """Return a scalar attribute's value (None when absent, or not one number: a stage from
    elsewhere may author Newton's ``physics:lowerLimit`` of a spherical joint as a float3)."""
    attr = prim.GetAttribute(name)
    got = attr.Get() if attr else None
    return float(got) if isinstance(got, (int, float)) and not isinstance(got, bool) else None


def _pose(pos: Gf.Vec3f, rot: Gf.Quatf, length: float) -> Transform:
    im = rot.GetImaginary()
    return Transform((pos[0] * length, pos[1] * length, pos[2] * length),
                     normalize_quat((rot.GetReal(), im[0], im[1], im[2])))


def _close(a: Vec3, b: Vec3, scale: float = 1.0) -> bool:
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) <= FLOAT_TOL * max(1.0, scale)


def _schema_axis(prim: Usd.Prim, x1: Transform) -> Vec3:
    attr = prim.GetAttribute('physics:axis')
    token = str(attr.Get()) if attr and attr.Get() else 'X'
    return rotate(x1.q, _E.get(token, _E['X']))


def _limits(prim: Usd.Prim, kind: str, axis: JointAxis, angular: bool,
            report: ConversionReport, file: str) -> None:
    lo, hi = number(prim, 'physics:lowerLimit'), number(prim, 'physics:upperLimit')
    conv = math.radians if angular else float
    if lo is not None and hi is not None and lo > hi:
        report.add(ReportKind.KEPT, str(prim.GetPath()), f'lowerLimit {lo:g} is above '
                   f'upperLimit {hi:g}: read as written (UsdPhysics says nothing of such a '
                   'range; Gazebo holds the joint at the lower limit)', file)
    if lo is not None and math.isfinite(lo):
        axis.lower = conv(float(lo))
    if hi is not None and math.isfinite(hi):
        axis.upper = conv(float(hi))


def _drive(prim: Usd.Prim, axis: JointAxis, angular: bool, report: ConversionReport,
           file: str) -> None:
    name = 'angular' if angular else 'linear'
    if not prim.HasAPI(UsdPhysics.DriveAPI, name):
        return
    d = UsdPhysics.DriveAPI(prim, name)
    per = 180.0 / math.pi if angular else 1.0
    kp, kd = float(d.GetStiffnessAttr().Get() or 0.0), float(d.GetDampingAttr().Get() or 0.0)
    target = float(d.GetTargetPositionAttr().Get() or 0.0)
    axis.spring_stiffness, axis.damping = kp * per, kd * per
    axis.spring_reference = math.radians(target) if angular else target
    force = d.GetMaxForceAttr().Get()
    if force is not None and math.isfinite(force):
        axis.effort = float(force)
    report.add(ReportKind.APPROXIMATED, str(prim.GetPath()), f'{name} drive read as a spring '
               f'(stiffness {axis.spring_stiffness}) and damper ({axis.damping}) about its target',
               file)


def _kind(prim: Usd.Prim, limited: bool) -> str | None:
    if prim.IsA(UsdPhysics.RevoluteJoint):
        return 'revolute' if limited else 'continuous'
    if prim.IsA(UsdPhysics.PrismaticJoint):
        return 'prismatic'
    if prim.IsA(UsdPhysics.SphericalJoint):
        return 'ball'
    if prim.IsA(UsdPhysics.FixedJoint):
        return 'fixed'
    return None


def _limits_agree(prim: Usd.Prim, lv: list[float], angular: bool) -> bool:
    """Return whether the schema limits (if any) are the stored ones to float precision (a
    reversed range is written held at its lower limit: joints.held_range)."""
    upper = lv[0] if lv[0] > lv[1] else lv[1]
    for name, value in (('physics:lowerLimit', lv[0]), ('physics:upperLimit', upper)):
        got = number(prim, name)
        if got is None or not math.isfinite(got):
            continue
        want = math.degrees(value) if angular else value
        if abs(float(got) - want) > FLOAT_TOL * max(1.0, abs(want)):
            return False
    return True


def _exact(prim: Usd.Prim, x1: Transform, axis: Vec3, kind: str) -> tuple[Joint, bool] | None:
    """Return the joint from the exact copies when they agree with the schema."""
    joint, lv = get_joint(prim), get(prim, 'limits', 8)
    if joint is None or lv is None or joint.pose is None:
        return None
    pose = joint.pose.value
    scale = max(abs(v) for v in pose.p) if any(pose.p) else 1.0
    if not _close(pose.p, x1.p, scale):
        return None
    a1 = joint.axis.xyz if joint.axis is not None else (0.0, 0.0, 0.0)
    if kind in ('revolute', 'prismatic') and not _close(pose.rotate(a1), axis):
        return None
    if not _limits_agree(prim, lv, kind == 'revolute'):
        return None
    return joint, True


def _odd_limits(prim: Usd.Prim, report: ConversionReport, file: str) -> None:
    """Report finite limits authored as something else than one number (not read)."""
    for name in ('physics:lowerLimit', 'physics:upperLimit'):
        attr = prim.GetAttribute(name)
        got = attr.Get() if attr else None
        if got is None or number(prim, name) is not None:
            continue
        try:
            finite = any(math.isfinite(float(v)) for v in got)
        except (TypeError, ValueError):
            finite = True
        if finite:
            report.add(ReportKind.DROPPED, str(prim.GetPath()), f'{name} {got} is not one '
                       'number: not read', file)


def _limited_ball(prim: Usd.Prim, x1: Transform) -> Joint | None:
    """Return the ball joint the writer wrote as a D6 joint limited in rotation, from the
    exact copies while they agree with the stage (else None: read as any D6 joint)."""
    joint, rot = get_joint(prim), get_copy(prim)
    if joint is None or rot is None or joint.pose is None:
        return None
    pose = joint.pose.value
    if not _close(pose.p, x1.p, max(abs(v) for v in pose.p) if any(pose.p) else 1.0):
        return None
    for dof, (lo, hi) in zip(('rotX', 'rotY', 'rotZ'), rot, strict=True):
        api = UsdPhysics.LimitAPI(prim, dof)
        got = (api.GetLowAttr().Get(), api.GetHighAttr().Get()) \
            if prim.HasAPI(UsdPhysics.LimitAPI, dof) else (None, None)
        for g, want in zip(got, (lo, hi), strict=True):
            w = math.degrees(want)
            if math.isfinite(w) and (g is None or abs(float(g) - w) > FLOAT_TOL * max(1.0, abs(w))):
                return None
    joint.extras = [limits_extra(rot)]
    return joint


def read_joint(prim: Usd.Prim, x1_schema: tuple[Gf.Vec3f, Gf.Quatf], length: float,
               report: ConversionReport, file: str) -> Joint | None:
    """Return the SDFormat joint of a UsdPhysics joint prim (names filled in by the caller)."""
    x1 = _pose(x1_schema[0], x1_schema[1], length)
    axis = _schema_axis(prim, x1)
    lo = number(prim, 'physics:lowerLimit')
    kind = _kind(prim, lo is not None and math.isfinite(lo))
    _odd_limits(prim, report, file)
    if kind is None:
        stored = get_type(prim)
        if stored == 'ball' and (ball := _limited_ball(prim, x1)) is not None:
            return read_joint_state(prim, ball)
        if stored in ('universal', 'revolute2', 'planar'):
            kind = stored
        elif stored is None and (d6 := read_d6(prim, x1, report, file)) is not None:
            return read_joint_state(prim, d6)
        else:
            report.add(ReportKind.DROPPED, str(prim.GetPath()), f'{prim.GetTypeName() or "Joint"} '
                       'with free degrees of freedom has no SDFormat joint type', file)
            return None
    exact = _exact(prim, x1, axis, kind if kind != 'continuous' else 'revolute')
    if exact is not None and exact[0].type in _URDF_ONLY:
        report.add(ReportKind.DROPPED, str(prim.GetPath()), f'a URDF {exact[0].type} joint has '
                   'no SDFormat form: not read back (its child is a free body)', file)
        return None
    if exact is not None:
        return read_joint_state(prim, exact[0])
    if kind in ('universal', 'revolute2', 'planar'):
        report.add(ReportKind.DROPPED, str(prim.GetPath()), f'{kind} joint changed in the stage: '
                   'not read back', file)
        return None
    joint = Joint('', kind, pose=RawPose(Transform(x1.p)))
    if kind in ('revolute', 'continuous', 'prismatic'):
        angular = kind != 'prismatic'
        joint.axis = JointAxis(tuple(float(v) for v in np.asarray(axis)))  # type: ignore[arg-type]
        _limits(prim, kind, joint.axis, angular, report, file)
        _drive(prim, joint.axis, angular, report, file)
        v = number(prim, 'physxJoint:maxJointVelocity')
        if v is not None and math.isfinite(v):
            joint.axis.velocity = math.radians(v) if angular else v
    return read_joint_state(prim, joint)


def read_mimics(stage: Usd.Stage, joints: list[Joint], report: ConversionReport,
                file: str) -> None:
    """Give each joint of one model the mimic its ``NewtonMimicAPI`` holds (couplings.py wrote
    it from a ``<mimic>`` or a gearbox); a leader outside the model is reported."""
    by_path = {j.loc.xml_path: j for j in joints if j.loc is not None and j.loc.xml_path}
    for path, joint in by_path.items():
        prim = stage.GetPrimAtPath(path)
        if 'NewtonMimicAPI' not in prim.GetAppliedSchemas() or joint.axis is None or \
                joint.type == 'gearbox':
            continue
        if is_gearbox_mimic(prim):
            report.add(ReportKind.KEPT, path, 'NewtonMimicAPI written for a gearbox: read back '
                       'as that gearbox, not as a <mimic>', file)
            continue
        rel = prim.GetRelationship('newton:mimicJoint')
        targets = [str(t) for t in rel.GetTargets()] if rel else []
        leader = by_path.get(targets[0]) if targets else None
        if leader is None:
            report.add(ReportKind.DROPPED, path, f'NewtonMimicAPI: the leader {targets} is no '
                       'joint of the same model', file)
            continue
        offset = number(prim, 'newton:mimicCoef0') or 0.0
        angular = joint.type in ('revolute', 'continuous')
        joint.axis.mimic_joint = leader.name
        joint.axis.mimic_multiplier = number(prim, 'newton:mimicCoef1') or 0.0
        joint.axis.mimic_offset = math.radians(offset) if angular else float(offset)
        report.add(ReportKind.REWRITTEN, path, f'NewtonMimicAPI read as a <mimic> of '
                   f'[{leader.name}]', file)
