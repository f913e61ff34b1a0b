"""libsdformat's fixed-joint lumping arithmetic (ODE's ``dMass``), operation for operation.

``ReduceInertialToParent`` (parser_urdf.cc) moves both inertias to the parent link's
frame with ``dMassTranslate`` (adding ``m d^2`` terms), adds them, and moves the sum
back to the combined centre of mass (subtracting them again). The result equals the
textbook composite (:func:`sdf_tools.model.inertia.combine_inertials`) up to round-off,
and the round-off decides a verdict when a moment is far below ``m d^2``: Drake's
cart-pole point mass (inertia 1e-20, 0.5 m from its pin) comes back with ``ixx = 0``,
which fails ignition-math's triangle inequality (``LINK_INERTIA_INVALID``). The readers'
numbers stay the composite's; only the validity of a lumped sum is judged on these.
"""
from __future__ import annotations

import math

from sdf_tools.model import Inertial
from sdf_tools.model.common import RawPose
from sdf_tools.transform import Quat, Transform, Vec3, rpy_quat

__all__ = ['ode_lump']

_M3 = list[list[float]]


def _rpy(q: Quat) -> Vec3:
    """urdfdom's ``Rotation::getRPY`` of a quaternion ``(w, x, y, z)``."""
    w, x, y, z = q
    sarg = -2.0 * (x * z - w * y)
    if sarg <= -0.99999:
        return 0.0, -math.pi / 2, 2.0 * math.atan2(x, -y)
    if sarg >= 0.99999:
        return 0.0, math.pi / 2, 2.0 * math.atan2(-x, y)
    return (math.atan2(2.0 * (y * z + w * x), w * w - x * x - y * y + z * z), math.asin(sarg),
            math.atan2(2.0 * (x * y + w * z), w * w + x * x - y * y - z * z))


def _r_from_euler(phi: float, theta: float, psi: float) -> _M3:
    """ODE's ``dRFromEulerAngles``."""
    sp, cp, st, ct, ss, cs = (math.sin(phi), math.cos(phi), math.sin(theta), math.cos(theta),
                              math.sin(psi), math.cos(psi))
    return [[cs * ct, ss * ct, -st],
            [cs * st * sp - ss * cp, ss * st * sp + cs * cp, ct * sp],
            [cs * st * cp + ss * sp, ss * st * cp - cs * sp, ct * cp]]


def _dot3(a: list[float], b: list[float]) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


class _DMass:
    """ODE's ``dMass``: a mass, its centre ``c`` and inertia ``i`` about the frame origin... at c."""

    def __init__(self, mass: float, i6: tuple[float, ...]) -> None:
        ixx, ixy, ixz, iyy, iyz, izz = i6
        self.mass = mass
        self.c = [0.0, 0.0, 0.0]
        self.i = [[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]]

    def rotate(self, r: _M3) -> None:
        """``dMassRotate``: I = R I R^T (``dMultiply2_333`` then ``dMultiply0_333``)."""
        t1 = [[_dot3(self.i[a], r[b]) for b in range(3)] for a in range(3)]  # I R^T
        col = [[t1[0][b], t1[1][b], t1[2][b]] for b in range(3)]
        self.i = [[_dot3(r[a], col[b]) for b in range(3)] for a in range(3)]
        self.i[1][0], self.i[2][0], self.i[2][1] = self.i[0][1], self.i[0][2], self.i[1][2]
        self.c = [_dot3(r[a], self.c) for a in range(3)]

    def rotate_rpy(self, q: Quat) -> None:
        """Undo a URDF origin's rotation, one Euler angle at a time, as parser_urdf.cc does."""
        phi, theta, psi = _rpy(q)
        for angles in ((-phi, 0.0, 0.0), (0.0, -theta, 0.0), (0.0, 0.0, -psi)):
            self.rotate(_r_from_euler(*angles))

    def translate(self, x: float, y: float, z: float) -> None:
        """``dMassTranslate``: I += m (chat^2 - ahat^2), c += (x, y, z)."""
        t2 = _cross_squared(self.c)
        t1 = _cross_squared([x + self.c[0], y + self.c[1], z + self.c[2]])
        for a in range(3):
            for b in range(3):
                self.i[a][b] += self.mass * (t2[a][b] - t1[a][b])
        self.i[1][0], self.i[2][0], self.i[2][1] = self.i[0][1], self.i[0][2], self.i[1][2]
        self.c = [self.c[0] + x, self.c[1] + y, self.c[2] + z]

    def add(self, b: _DMass) -> None:
        """``dMassAdd``."""
        denom = 1.0 / (self.mass + b.mass)
        self.c = [(self.c[k] * self.mass + b.c[k] * b.mass) * denom for k in range(3)]
        self.mass += b.mass
        self.i = [[self.i[r][k] + b.i[r][k] for k in range(3)] for r in range(3)]


def _cross_squared(v: list[float]) -> _M3:
    """``dSetCrossMatrixPlus`` of ``v`` times itself (``dMultiply0_333``)."""
    h = [[0.0, -v[2], v[1]], [v[2], 0.0, -v[0]], [-v[1], v[0], 0.0]]
    col = [[h[0][b], h[1][b], h[2][b]] for b in range(3)]
    return [[_dot3(h[a], col[b]) for b in range(3)] for a in range(3)]


def _in_link(inertial: Inertial) -> _DMass:
    """A link's ``<inertial>`` as a ``dMass`` in the link frame."""
    m = _DMass(inertial.mass, inertial.inertia)
    pose = inertial.pose.value if inertial.pose is not None else Transform()
    m.rotate_rpy(pose.q)
    m.translate(*pose.p)
    return m


def ode_lump(parent: Inertial | None, child: Inertial, x_pc: Transform) -> Inertial:
    """Return the parent's ``<inertial>`` after ``ReduceInertialToParent`` adds ``child``.

    ``x_pc`` is the lumped joint's origin (the child link in the parent link's frame).
    The total mass must be positive (``dMassAdd`` divides by it).
    """
    base = parent if parent is not None else Inertial(0.0, (0.0,) * 6)
    total = _in_link(base)
    link = _in_link(child)
    link.rotate_rpy(x_pc.q)
    link.translate(*x_pc.p)
    total.add(link)
    cx, cy, cz = total.c
    total.translate(-cx, -cy, -cz)
    q = base.pose.value.q if base.pose is not None else Transform().q
    total.rotate(_r_from_euler(*_rpy(q)))
    i = total.i
    pose = Transform((cx, cy, cz), rpy_quat(*_rpy(q)))
    return Inertial(total.mass, (i[0][0], i[0][1], i[0][2], i[1][1], i[1][2], i[2][2]),
                    RawPose(pose), base.loc)
