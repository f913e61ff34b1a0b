"""SDFormat joints as UsdPhysics joints: bodies, joint frames, axes and limits.

=================  ==============================================================
SDFormat / URDF    UsdPhysics
=================  ==============================================================
revolute           ``RevoluteJoint``, limits in degrees
continuous         ``RevoluteJoint`` without limits
prismatic          ``PrismaticJoint``, limits in metres
fixed              ``FixedJoint``
ball               ``SphericalJoint``; with ``<sdf_tools:rotation_limits>`` (a limited
                   D6 joint read from a stage) the ``Joint`` (D6) locked in
                   translation with those rotation limits (rotation_limits.py)
universal,         ``Joint`` (D6) locked by ``LimitAPI`` (``low > high``) in every
revolute2          translation and in rotation about Z, the frame's X and Y along
                   the two axes (revolute2 reported: its second axis turns with the
                   child in SDFormat)
planar (URDF)      ``Joint`` (D6) locked in translation along the normal and in the
                   two tilts
screw              ``RevoluteJoint`` (the coupled translation is lost, reported)
floating (URDF)    no joint: the child is a free rigid body (reported)
gearbox            no joint: a mimic of the two joints it couples (couplings.py)
=================  ==============================================================

``localPos0/localRot0`` is the joint frame in ``body0`` (the parent link,
or the world when there is no ``body0``), ``localPos1/localRot1`` the joint
frame in ``body1`` (the child). A UsdPhysics axis is a token of the joint
frame (``X``, ``Y`` or ``Z``): an axis along +X, +Y or +Z keeps the joint
frame; any other axis turns the joint frame (in both bodies alike) so that
its X is the axis. Positions and rotations of joint frames are 32-bit
floats in the schema.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from pxr import Gf, Sdf, Usd, UsdPhysics
from transforms3d.quaternions import mat2quat

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import WORLD, FlatJoint, FlatModel, where
from sdf_tools.convert.joint_names import written_name
from sdf_tools.convert.usd.exact import put_joint
from sdf_tools.convert.usd.names import Siblings, keep_name
from sdf_tools.convert.usd.rotation_limits import kept_limits, put_copy
from sdf_tools.convert.usd.xforms import quatf
from sdf_tools.model import Loc
from sdf_tools.transform import Quat, Transform, Vec3, normalize_quat

#: |limit| at or beyond this is "no limit" (SDFormat's default is 1e16).
NO_LIMIT = 1e15
_TOKENS = {(1.0, 0.0, 0.0): 'X', (0.0, 1.0, 0.0): 'Y', (0.0, 0.0, 1.0): 'Z'}


@dataclass
class JointSite:
    """What every joint of one model needs."""

    stage: Usd.Stage
    flat: FlatModel
    bodies: dict[str, str]              # link name -> prim path
    scope: str                          # path of the joints scope
    report: ConversionReport
    names: Siblings = field(default_factory=Siblings)


def _unit(v: Vec3) -> Vec3 | None:
    n = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    return None if n == 0.0 else (v[0] / n, v[1] / n, v[2] / n)


def align_x(axis: Vec3) -> Quat:
    """Return the shortest rotation taking +X onto the unit vector ``axis``."""
    c = axis[0]
    if c < -1.0 + 1e-12:
        return (0.0, 0.0, 0.0, 1.0)  # half turn about Z
    w = 1.0 + c
    return normalize_quat((w, 0.0, -axis[2], axis[1]))  # (w, X x axis)


def frame_xy(a1: Vec3, a2: Vec3) -> Quat:
    """Return the rotation of a frame whose X is ``a1`` and whose Y is ``a2`` made orthogonal."""
    x = np.asarray(a1, dtype=float)
    y = np.asarray(a2, dtype=float) - float(np.dot(a2, x)) * x
    if np.linalg.norm(y) < 1e-9:
        return align_x(a1)
    y = y / np.linalg.norm(y)
    z = np.cross(x, y)
    w, qx, qy, qz = (float(v) for v in mat2quat(np.column_stack([x, y, z])))
    return normalize_quat((w, qx, qy, qz))


def axis_frame(j: FlatJoint) -> tuple[str, Quat]:
    """Return the axis token and the rotation applied to the joint frame for its axis."""
    axis = _unit(j.axes[0] or (0.0, 0.0, 1.0)) or (0.0, 0.0, 1.0)
    if j.joint.type in ('universal', 'revolute2', 'planar'):
        second = _unit(j.axes[1] or (0.0, 1.0, 0.0)) if j.joint.type != 'planar' else None
        if j.joint.type == 'planar':  # URDF planar: the axis is the plane's normal -> Z
            return 'Z', (Transform(q=align_x(axis)) * Transform(q=(0.5, 0.5, 0.5, 0.5))).q
        return 'X', frame_xy(axis, second or (0.0, 1.0, 0.0))
    token = _TOKENS.get(axis)
    if token is not None:
        return token, (1.0, 0.0, 0.0, 0.0)
    return 'X', align_x(axis)


def joint_frames(flat: FlatModel, j: FlatJoint, turn: Quat) -> tuple[Transform, Transform]:
    """Return the joint frame (turned by ``turn``) in body0 (world when none) and in body1."""
    t = Transform(q=turn)
    if j.parent == WORLD or j.parent is None:
        x0 = flat.world_pose(j.vid)
    else:
        x0 = flat.rel(flat.vid(j.parent), j.vid)
    x1 = flat.rel(flat.vid(j.child or WORLD), j.vid)
    return x0 * t, x1 * t


def held_range(lo: float, hi: float, label: str, j: FlatJoint, report: ConversionReport,
               loc: Loc | None = None) -> tuple[float, float]:
    """Return the range to write for ``lower``/``upper``: the joint held at ``lower`` when
    ``lower > upper``, as Gazebo does (reported).

    libsdformat keeps such limits as written, without a word (12, 14 and 16 alike), and
    Gazebo's DART checks the lower bound first (JointLimitConstraint::update): below it the
    joint is pushed up, above it (so above the upper bound too) pushed down, which holds it
    at ``lower``. UsdPhysics says nothing of a reversed RevoluteJoint/PrismaticJoint range
    (PhysX takes it as invalid) and reads ``low > high`` in a ``LimitAPI`` as locked at
    zero, so the hold is written as the empty range ``lower``..``lower``.
    """
    if not lo > hi:
        return lo, hi
    report.add(ReportKind.REWRITTEN, f'{label}/limit', f'lower limit {lo:g} is above upper limit '
               f'{hi:g} (libsdformat keeps both; Gazebo holds the joint at the lower limit): '
               f'written as the range {lo:g}..{lo:g}, the upper kept only in sdf_tools:limits',
               *where(loc or j.joint.loc))
    return lo, lo


def _limits(prim: Usd.Prim, j: FlatJoint, joint: UsdPhysics.Joint, angular: bool,
            report: ConversionReport) -> None:
    ax = j.joint.axis
    if ax is None or j.joint.type == 'continuous':
        return
    lo, hi = ax.lower, ax.upper
    if abs(lo) >= NO_LIMIT and abs(hi) >= NO_LIMIT:
        return
    lo, hi = held_range(lo, hi, f'joint[{j.scoped}]', j, report, ax.loc)
    scale = 180.0 / math.pi if angular else 1.0
    typed = UsdPhysics.RevoluteJoint(prim) if angular else UsdPhysics.PrismaticJoint(prim)
    typed.CreateLowerLimitAttr(lo * scale if abs(lo) < NO_LIMIT else -math.inf)
    typed.CreateUpperLimitAttr(hi * scale if abs(hi) < NO_LIMIT else math.inf)


def _lock(prim: Usd.Prim, dofs: list[str]) -> None:
    for dof in dofs:
        api = UsdPhysics.LimitAPI.Apply(prim, dof)
        api.CreateLowAttr(1.0)
        api.CreateHighAttr(-1.0)


def _limit(prim: Usd.Prim, dof: str, lo: float, hi: float) -> None:
    if abs(lo) >= NO_LIMIT and abs(hi) >= NO_LIMIT:
        return
    hi = max(lo, hi)  # reversed: held at lower (held_range), not LimitAPI's lock at zero
    api = UsdPhysics.LimitAPI.Apply(prim, dof)
    api.CreateLowAttr(math.degrees(lo) if abs(lo) < NO_LIMIT else -math.inf)
    api.CreateHighAttr(math.degrees(hi) if abs(hi) < NO_LIMIT else math.inf)


def _define(site: JointSite, j: FlatJoint, path: Sdf.Path) -> UsdPhysics.Joint | None:
    s, kind = site.stage, j.joint.type
    label = f'joint[{j.scoped}]'
    if kind in ('revolute', 'continuous', 'screw'):
        if kind == 'screw':
            site.report.add(ReportKind.APPROXIMATED, label, 'screw joint written as a '
                            'RevoluteJoint: the translation coupled to the rotation '
                            f'(thread_pitch {j.joint.thread_pitch}) is lost', *where(j.joint.loc))
        return UsdPhysics.RevoluteJoint.Define(s, path)
    if kind == 'prismatic':
        return UsdPhysics.PrismaticJoint.Define(s, path)
    if kind == 'fixed':
        return UsdPhysics.FixedJoint.Define(s, path)
    if kind == 'ball' and kept_limits(j.joint) is not None:
        site.report.add(ReportKind.REWRITTEN, label, 'ball joint with <sdf_tools:rotation_limits> '
                        "written as a D6 joint limited in rotation about its frame's X, Y and "
                        'Z (as read from a USD stage; Gazebo ignores the element)',
                        *where(j.joint.loc))
        return UsdPhysics.Joint.Define(s, path)
    if kind == 'ball':
        return UsdPhysics.SphericalJoint.Define(s, path)
    if kind in ('universal', 'revolute2', 'planar'):
        if kind == 'revolute2':
            site.report.add(ReportKind.APPROXIMATED, label, 'revolute2 written as a D6 joint '
                            'with two rotations about the axes at the reference configuration',
                            *where(j.joint.loc))
        return UsdPhysics.Joint.Define(s, path)
    return None


def _d6_limits(prim: Usd.Prim, j: FlatJoint, report: ConversionReport) -> None:
    a1, a2 = j.joint.axis, j.joint.axis2
    if j.joint.type == 'planar':
        _lock(prim, ['transZ', 'rotX', 'rotY'])
        return
    _lock(prim, ['transX', 'transY', 'transZ', 'rotZ'])
    for dof, a, tag in (('rotX', a1, 'axis'), ('rotY', a2, 'axis2')):
        if a is not None:
            _limit(prim, dof, *held_range(a.lower, a.upper, f'joint[{j.scoped}]/{tag}', j,
                                          report, a.loc))


def write_joint(site: JointSite, j: FlatJoint, in_tree: bool) -> Usd.Prim | None:
    """Define one joint; None (reported) when it has no UsdPhysics form or no bodies."""
    label = f'joint[{j.scoped}]'
    if j.joint.type == 'floating':
        site.report.add(ReportKind.REWRITTEN, label, 'floating joint not written: its child is '
                        'a free rigid body', *where(j.joint.loc))
        return None
    if j.joint.type == 'gearbox':
        return None  # a ratio between two joints: a mimic coupling (couplings.py reports it)
    if j.child is None or j.parent is None or j.child == WORLD:
        site.report.add(ReportKind.DROPPED, label, 'its child or parent is attached to no link '
                        'that moves', *where(j.joint.loc))
        return None
    own = written_name(j)  # the file's name of a URDF joint named like a link
    path = Sdf.Path(site.scope).AppendChild(site.names.take(own))
    joint = _define(site, j, path)
    if joint is None:
        site.report.add(ReportKind.DROPPED, label, f'joint type [{j.joint.type}] has no '
                        'UsdPhysics form', *where(j.joint.loc))
        return None
    prim = joint.GetPrim()
    keep_name(prim, j.scoped if own == j.name else own)
    token, turn = axis_frame(j)
    x0, x1 = joint_frames(site.flat, j, turn)
    if j.parent != WORLD:
        joint.CreateBody0Rel().SetTargets([site.bodies[j.parent]])
    joint.CreateBody1Rel().SetTargets([site.bodies[j.child]])
    joint.CreateLocalPos0Attr(Gf.Vec3f(*x0.p))
    joint.CreateLocalRot0Attr(quatf(x0.q))
    joint.CreateLocalPos1Attr(Gf.Vec3f(*x1.p))
    joint.CreateLocalRot1Attr(quatf(x1.q))
    put_joint(prim, j.joint, site.flat.rel(site.flat.vid(j.child), j.vid), j.axes)
    if not in_tree:
        joint.CreateExcludeFromArticulationAttr(True)
        site.report.add(ReportKind.REWRITTEN, label, 'closes a kinematic loop: written with '
                        'excludeFromArticulation (a maximal-coordinate constraint)',
                        *where(j.joint.loc))
    kind = j.joint.type
    if kind in ('revolute', 'continuous', 'screw'):
        UsdPhysics.RevoluteJoint(prim).CreateAxisAttr(token)
        _limits(prim, j, joint, True, site.report)
    elif kind == 'prismatic':
        UsdPhysics.PrismaticJoint(prim).CreateAxisAttr(token)
        _limits(prim, j, joint, False, site.report)
    elif kind in ('universal', 'revolute2', 'planar'):
        _d6_limits(prim, j, site.report)
    elif (rot := kept_limits(j.joint)) is not None:
        _lock(prim, ['transX', 'transY', 'transZ'])
        for dof, (lo, hi) in zip(('rotX', 'rotY', 'rotZ'), rot, strict=True):
            _limit(prim, dof, lo, hi)
        put_copy(prim, rot)
    return prim
