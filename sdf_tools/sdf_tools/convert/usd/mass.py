"""A link's mass properties as ``UsdPhysics.MassAPI``: mass, centre of mass, principal inertia.

``MassAPI`` stores a diagonal inertia and the rotation of its principal
axes; the full tensor (with the inertial frame's orientation applied) is
decomposed by :func:`~sdf_tools.model.inertia.principal_frame`. The
schema's attributes are 32-bit floats (``float``, ``point3f``, ``float3``,
``quatf``): what reaches the file is our numbers rounded to single
precision.
"""
from __future__ import annotations

import math

from pxr import Gf, Usd, UsdPhysics

from sdf_tools.convert.usd.exact import put_inertial
from sdf_tools.convert.usd.xforms import quatf
from sdf_tools.model import Inertial, RawPose
from sdf_tools.model.inertia import PrincipalFrame, principal_frame
from sdf_tools.transform import IDENTITY, Transform

UNIT = Inertial()  # libsdformat's default: 1 kg, unit inertia at the link origin


def write_mass(prim: Usd.Prim, inertial: Inertial | None) -> PrincipalFrame:
    """Apply ``MassAPI`` to a link prim; a missing inertial is libsdformat's 1 kg, unit inertia.

    Returns the principal form written (in double precision).
    """
    i = inertial if inertial is not None else UNIT
    frame = i.pose.value if i.pose is not None else IDENTITY
    p = principal_frame(i.inertia, frame)
    api = UsdPhysics.MassAPI.Apply(prim)
    api.CreateMassAttr(float(i.mass))
    api.CreateCenterOfMassAttr(Gf.Vec3f(*p.com))
    api.CreateDiagonalInertiaAttr(Gf.Vec3f(*p.moments))
    api.CreatePrincipalAxesAttr(quatf(p.axes))
    put_inertial(prim, i)
    return p


def read_mass(prim: Usd.Prim) -> Inertial | None:
    """Return the inertial ``MassAPI`` holds on ``prim`` (None without a mass)."""
    if not prim.HasAPI(UsdPhysics.MassAPI):
        return None
    api = UsdPhysics.MassAPI(prim)
    mass = api.GetMassAttr().Get()
    if mass is None or mass <= 0.0:
        return None
    com = api.GetCenterOfMassAttr().Get()
    if com is None or not all(math.isfinite(v) for v in com):  # the fallback: "from the shapes"
        com = Gf.Vec3f(0.0)
    diag = api.GetDiagonalInertiaAttr().Get() or Gf.Vec3f(0.0)
    axes = api.GetPrincipalAxesAttr().Get() or Gf.Quatf(1.0)
    im = axes.GetImaginary()
    pose = RawPose(Transform((float(com[0]), float(com[1]), float(com[2])),
                             (float(axes.GetReal()), float(im[0]), float(im[1]), float(im[2]))))
    return Inertial(float(mass), (float(diag[0]), 0.0, 0.0, float(diag[1]), 0.0, float(diag[2])),
                    pose)
