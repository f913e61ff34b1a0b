"""Transforms on prims: double-precision translate and orient, scale only on shapes.

Link prims carry their pose as ``xformOp:translate`` (double3) and
``xformOp:orient`` (quatd) so that the world transform USD composes equals
our resolved pose to double precision; quaternions are normalised before
they are written. Scale appears only on shape prims (a box is a unit
``Cube`` scaled to its size), never on a link.
"""
from __future__ import annotations

from collections.abc import Sequence

from pxr import Gf, UsdGeom

from sdf_tools.transform import Quat, Transform, normalize_quat

_DOUBLE = UsdGeom.XformOp.PrecisionDouble


def quatd(q: Quat) -> Gf.Quatd:
    """Return ``q`` (w, x, y, z) normalised as a ``Gf.Quatd``."""
    w, x, y, z = normalize_quat(q)
    return Gf.Quatd(w, Gf.Vec3d(x, y, z))


def quatf(q: Quat) -> Gf.Quatf:
    """Return ``q`` (w, x, y, z) normalised as a ``Gf.Quatf`` (joint frames, principal axes)."""
    w, x, y, z = normalize_quat(q)
    return Gf.Quatf(w, Gf.Vec3f(x, y, z))


def set_pose(xformable: UsdGeom.Xformable, pose: Transform,
             scale: Sequence[float] | None = None) -> None:
    """Author ``pose`` (and a scale, for shapes) as the prim's only transform ops."""
    xformable.ClearXformOpOrder()
    ops = []
    if any(v != 0.0 for v in pose.p):
        op = xformable.AddTranslateOp(_DOUBLE)
        op.Set(Gf.Vec3d(*pose.p))
        ops.append(op)
    if normalize_quat(pose.q) != (1.0, 0.0, 0.0, 0.0):
        op = xformable.AddOrientOp(_DOUBLE)
        op.Set(quatd(pose.q))
        ops.append(op)
    if scale is not None:
        op = xformable.AddScaleOp(_DOUBLE)
        op.Set(Gf.Vec3d(*(float(s) for s in scale)))
        ops.append(op)
    xformable.SetXformOpOrder(ops)


def set_link_pose(xformable: UsdGeom.Xformable, pose: Transform) -> None:
    """Author a link's pose: translate and orient always (tools expect both on bodies)."""
    xformable.ClearXformOpOrder()
    t = xformable.AddTranslateOp(_DOUBLE)
    t.Set(Gf.Vec3d(*pose.p))
    r = xformable.AddOrientOp(_DOUBLE)
    r.Set(quatd(pose.q))
    xformable.SetXformOpOrder([t, r])


def world_transform(prim_xformable: UsdGeom.Xformable) -> Transform:
    """Return the prim's world transform as a :class:`Transform` (no scale expected)."""
    m = prim_xformable.ComputeLocalToWorldTransform(0.0)
    t = m.ExtractTranslation()
    q = m.ExtractRotationQuat()
    im = q.GetImaginary()
    return Transform((t[0], t[1], t[2]), normalize_quat((q.GetReal(), im[0], im[1], im[2])))
