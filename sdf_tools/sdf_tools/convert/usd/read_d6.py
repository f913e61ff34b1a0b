"""A generic UsdPhysics joint (D6) from another tool, read by its free degrees of freedom.

A ``PhysicsJoint`` locks a degree of freedom with ``PhysicsLimitAPI:<dof>``
whose low is above its high (MuJoCo's and Newton's exports write the
hinges of a body this way, as in Newton's humanoid.usda). With every
translation locked, the free rotations give: one, a revolute joint; two, a
universal joint (axis then axis2, in that order); three, a ball joint (its
limits kept as ``<sdf_tools:rotation_limits>``: rotation_limits.py). A
rotation's limits are read in degrees; the axes are the joint frame's
(``localRot1``) in the child link. Drives on
these joints are not read (reported). Anything else stays unread, reported
by the caller.
"""
from __future__ import annotations

import math

from pxr import Usd, UsdPhysics

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.usd.rotation_limits import limits_extra
from sdf_tools.model import Joint, JointAxis, RawPose
from sdf_tools.transform import Transform, rotate

_E = {'X': (1.0, 0.0, 0.0), 'Y': (0.0, 1.0, 0.0), 'Z': (0.0, 0.0, 1.0)}


def _limit(prim: Usd.Prim, dof: str) -> tuple[float, float] | None:
    """Return (low, high) of a degree of freedom's LimitAPI (None: free, no limit)."""
    if not prim.HasAPI(UsdPhysics.LimitAPI, dof):
        return None
    api = UsdPhysics.LimitAPI(prim, dof)
    low, high = api.GetLowAttr().Get(), api.GetHighAttr().Get()
    return (-math.inf if low is None else float(low), math.inf if high is None else float(high))


def _locked(limit: tuple[float, float] | None) -> bool:
    return limit is not None and limit[0] > limit[1]


def read_d6(prim: Usd.Prim, x1: Transform, report: ConversionReport, file: str) -> Joint | None:
    """Return the SDFormat joint of a D6 joint that only rotates (None when it translates)."""
    if not all(_locked(_limit(prim, f'trans{a}')) for a in 'XYZ'):
        return None
    free = [(a, _limit(prim, f'rot{a}')) for a in 'XYZ' if not _locked(_limit(prim, f'rot{a}'))]
    if not free:
        return Joint('', 'fixed', pose=RawPose(Transform(x1.p)))
    path = str(prim.GetPath())
    if any(prim.HasAPI(UsdPhysics.DriveAPI, f'rot{a}') for a, _ in free):
        report.add(ReportKind.DROPPED, path, 'the drives of a D6 joint are not read', file)
    if len(free) == 3:
        if all(lim is None for _, lim in free):
            return Joint('', 'ball', pose=RawPose(Transform(x1.p)))
        limits = [(math.radians(lim[0]), math.radians(lim[1])) if lim is not None
                  else (-math.inf, math.inf) for _, lim in free]
        report.add(ReportKind.KEPT, path, 'D6 joint with three free rotations read as a ball '
                   'joint: SDFormat has no limits for one (Gazebo turns it freely), so its '
                   'rotation limits are kept as <sdf_tools:rotation_limits> about the X, Y, Z '
                   'of its <pose>, which USD output writes back as this D6 joint', file)
        return Joint('', 'ball', pose=RawPose(x1), extras=[limits_extra(limits)])
    axes = []
    for a, lim in free:
        axis = JointAxis(rotate(x1.q, _E[a]))
        if lim is not None and math.isfinite(lim[0]):
            axis.lower = math.radians(lim[0])
        if lim is not None and math.isfinite(lim[1]):
            axis.upper = math.radians(lim[1])
        axes.append(axis)
    if len(axes) == 1:
        lim = free[0][1]
        limited = lim is not None and (math.isfinite(lim[0]) or math.isfinite(lim[1]))
        return Joint('', 'revolute' if limited else 'continuous', pose=RawPose(Transform(x1.p)),
                     axis=axes[0])
    report.add(ReportKind.APPROXIMATED, path, f'D6 joint with free rotations about '
               f'{free[0][0]} then {free[1][0]} read as a universal joint', file)
    return Joint('', 'universal', pose=RawPose(Transform(x1.p)), axis=axes[0], axis2=axes[1])
