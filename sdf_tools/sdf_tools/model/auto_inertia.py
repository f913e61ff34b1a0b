"""Mass properties of shapes, as libsdformat 14+ computes ``<inertial auto="true">``.

Closed forms are gz-math's (``MassMatrix3::SetFromBox``, ``SetFromCylinderZ``,
``SetFromSphere``, ``Capsule::MassMatrix``, ``Ellipsoid::MassMatrix``,
``SetFromConeZ``); a mesh is integrated over its triangles as gz-sim's
``MeshInertiaCalculator`` does (the divergence theorem over the signed
tetrahedra of a closed surface). Parts are summed as ``gz::math::Inertial``'s
``operator+=`` sums them: composite centre of mass, parallel axes, the result's
frame aligned with the link. Every function here is pure: reading files and
reporting belong to the reader (``sdf/auto_inertial.py``).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from sdf_tools.model.inertia import in_frame
from sdf_tools.transform import Transform, Vec3

__all__ = ['CAN_COMPUTE', 'MassPart', 'combine', 'mesh_part', 'rescaled', 'shape_part']

#: Shapes libsdformat computes (cone from 14.4.0 on, gazebosim/sdformat#1415); any other is refused.
CAN_COMPUTE = ('box', 'capsule', 'cone', 'cylinder', 'ellipsoid', 'mesh', 'sphere')


@dataclass(frozen=True, slots=True)
class MassPart:
    """Mass, centre of mass and inertia about it, in one frame (a link's or a shape's)."""

    mass: float
    com: Vec3
    inertia: np.ndarray  # 3x3, about ``com``, axes of the frame

    def moved(self, pose: Transform) -> MassPart:
        """The same body seen from the frame in which ``pose`` places its frame."""
        com = pose.rotate(self.com)
        p = (pose.p[0] + com[0], pose.p[1] + com[1], pose.p[2] + com[2])
        rot = in_frame(_six(self.inertia), Transform((0.0, 0.0, 0.0), pose.q))
        return MassPart(self.mass, p, rot)


def _six(m: np.ndarray) -> tuple[float, float, float, float, float, float]:
    return (float(m[0, 0]), float(m[0, 1]), float(m[0, 2]), float(m[1, 1]), float(m[1, 2]),
            float(m[2, 2]))


def _diag(mass: float, ixx: float, iyy: float, izz: float, z: float = 0.0) -> MassPart:
    return MassPart(mass, (0.0, 0.0, z), np.diag([ixx, iyy, izz]))


def shape_part(kind: str, params: dict[str, object], density: float) -> MassPart | None:
    """Return a primitive's mass properties in its own frame; None where gz-math refuses.

    gz-math refuses a non-positive mass or size (an ellipsoid only a non-positive radius).
    """
    if kind == 'box':
        x, y, z = (float(v) for v in params['size'])  # type: ignore[attr-defined]
        mass = density * (x * y * z)
        if mass <= 0 or min(x, y, z) <= 0:
            return None
        x2, y2, z2 = x ** 2, y ** 2, z ** 2
        return _diag(mass, mass / 12.0 * (y2 + z2), mass / 12.0 * (z2 + x2), mass / 12.0 * (x2 + y2))
    if kind == 'sphere':
        r = float(params['radius'])  # type: ignore[arg-type]
        if density <= 0 or r <= 0:
            return None
        mass = density * ((4.0 / 3.0) * math.pi * r ** 3)
        return _diag(mass, 0.4 * mass * r ** 2, 0.4 * mass * r ** 2, 0.4 * mass * r ** 2)
    r = float(params.get('radius', 0.0))  # type: ignore[arg-type]
    length = float(params.get('length', 0.0))  # type: ignore[arg-type]
    if kind == 'cylinder':
        return _cylinder(density, length, r)
    if kind == 'cone':
        if density <= 0 or length <= 0 or r <= 0:
            return None
        mass = density * (math.pi * r * r * length / 3.0)
        ixx = 3.0 * mass * (4.0 * r ** 2 + length ** 2) / 80.0
        return _diag(mass, ixx, ixx, 3.0 * mass * r ** 2 / 10.0, -0.25 * length)
    if kind == 'capsule':
        return _capsule(density, length, r)
    if kind == 'ellipsoid':
        a, b, c = (float(v) for v in params['radii'])  # type: ignore[attr-defined]
        if a <= 0 or b <= 0 or c <= 0:
            return None
        mass = density * (float(4.0 * math.pi / 3.0) * a * b * c)
        a2, b2, c2 = a ** 2, b ** 2, c ** 2
        return _diag(mass, mass / 5.0 * (b2 + c2), mass / 5.0 * (a2 + c2), mass / 5.0 * (a2 + b2))
    return None


def _cylinder(density: float, length: float, r: float) -> MassPart | None:
    if density <= 0 or length <= 0 or r <= 0:
        return None
    mass = density * (math.pi * r ** 2 * length)
    ixx = mass / 12.0 * (3 * r ** 2 + length ** 2)
    return _diag(mass, ixx, ixx, mass / 2.0 * r ** 2)


def _capsule(density: float, length: float, r: float) -> MassPart | None:
    """A cylinder and two hemispheres (gz-math's ``Capsule::MassMatrix``)."""
    cylinder = _cylinder(density, length, r)
    r2 = r * r
    hemi_mass = density * 2.0 / 3.0 * math.pi * r2 * r
    ixx = 83.0 / 320.0 * hemi_mass * r2
    izz = 2.0 / 5.0 * hemi_mass * r2
    dz = length / 2.0 + r * 3.0 / 8.0
    parts = [_diag(hemi_mass, ixx, ixx, izz, dz), _diag(hemi_mass, ixx, ixx, izz, -dz)]
    if cylinder is not None:
        # gz-math adds a cylinder it failed to set up as massless (no effect on the sum).
        parts.insert(0, cylinder)
    total = combine(parts)
    if total is None or not _valid(total):
        return None
    return total


def _valid(part: MassPart) -> bool:
    """gz-math's ``MassMatrix3::IsValid``: positive mass, moments that can be a body's.

    The same tolerance as the reader's check of written inertia (``sdf/link.py``):
    ``10 * DBL_EPSILON * |ixx + iyy + izz| / 2``.
    """
    if not part.mass > 0 or not np.all(np.isfinite(part.inertia)):
        return False
    eps = 10.0 * 2.220446049250313e-16 * 0.5 * abs(float(np.trace(part.inertia)))
    a, b, c = (float(x) for x in np.linalg.eigvalsh(part.inertia))
    return min(a, b, c) >= -eps and a + b >= c - eps and b + c >= a - eps and a + c >= b - eps


def mesh_part(triangles: np.ndarray, density: float) -> MassPart | None:
    """Integrate a closed triangle mesh (``(n, 3, 3)`` vertices, outward winding).

    The volume, first and second moments come from the signed tetrahedra the
    triangles make with the origin (gz-sim's ``CalculateMassProperties``);
    None when the result is not a valid mass matrix (an open or inverted mesh).
    """
    if len(triangles) == 0:
        return None
    v0, v1, v2 = triangles[:, 0, :], triangles[:, 1, :], triangles[:, 2, :]
    cross = np.cross(v1 - v0, v2 - v0)
    f1 = v0 + v1 + v2
    f2 = v0 * v0 + v1 * v1 + v0 * v1 + v2 * f1
    f3 = v0 * v0 * v0 + v0 * v0 * v1 + v0 * v1 * v1 + v1 * v1 * v1 + v2 * f2
    g0 = f2 + (v0 + f1) * v0
    g1 = f2 + (v1 + f1) * v1
    g2 = f2 + (v2 + f1) * v2
    volume = float(np.sum(cross[:, 0] * f1[:, 0])) / 6.0
    if not volume > 0:
        return None
    first = np.sum(cross * f2, axis=0) / 24.0
    second = np.sum(cross * f3, axis=0) / 60.0
    xy = float(np.sum(cross[:, 0] * (v0[:, 1] * g0[:, 0] + v1[:, 1] * g1[:, 0]
                                     + v2[:, 1] * g2[:, 0]))) / 120.0
    yz = float(np.sum(cross[:, 1] * (v0[:, 2] * g0[:, 1] + v1[:, 2] * g1[:, 1]
                                     + v2[:, 2] * g2[:, 1]))) / 120.0
    zx = float(np.sum(cross[:, 2] * (v0[:, 0] * g0[:, 2] + v1[:, 0] * g1[:, 2]
                                     + v2[:, 0] * g2[:, 2]))) / 120.0
    cx, cy, cz = (float(c) / volume for c in first)
    sx, sy, sz = (float(s) for s in second)
    ixx = sy + sz - volume * (cy * cy + cz * cz)
    iyy = sx + sz - volume * (cz * cz + cx * cx)
    izz = sx + sy - volume * (cx * cx + cy * cy)
    ixy = -(xy - volume * cx * cy)
    ixz = -(zx - volume * cx * cz)
    iyz = -(yz - volume * cy * cz)
    inertia = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]]) * density
    part = MassPart(volume * density, (cx, cy, cz), inertia)
    return part if _valid(part) else None


def combine(parts: Iterable[MassPart]) -> MassPart | None:
    """Sum parts given in one frame (``gz::math::Inertial::operator+=``).

    A sum whose mass would not be positive leaves the running total as it was,
    as gz-math does; None when no part had mass.
    """
    total: MassPart | None = None
    for part in parts:
        if total is None:
            if part.mass > 0:
                total = part
            continue
        m1, m2 = total.mass, part.mass
        mass = m1 + m2
        if mass <= 0:
            continue
        c1, c2 = np.array(total.com), np.array(part.com)
        com = (m1 * c1 + m2 * c2) / mass
        moi = total.inertia + part.inertia
        for m, c in ((m1, c1), (m2, c2)):
            d = c - com
            moi = moi + m * (float(d @ d) * np.eye(3) - np.outer(d, d))
        total = MassPart(mass, (float(com[0]), float(com[1]), float(com[2])), moi)
    return total


def rescaled(part: MassPart, mass: float) -> MassPart:
    """The same shape at another mass: libsdformat's ``<mass>`` given with ``auto``."""
    return MassPart(mass, part.com, part.inertia / part.mass * mass)


def as_six(part: MassPart) -> tuple[float, float, float, float, float, float]:
    """``(ixx, ixy, ixz, iyy, iyz, izz)`` about the centre of mass."""
    return _six(part.inertia)


def scaled_triangles(vertices: Sequence[Sequence[float]] | np.ndarray,
                     faces: Sequence[Sequence[int]] | np.ndarray,
                     scale: Sequence[float]) -> np.ndarray:
    """Triangles ``(n, 3, 3)`` of a mesh, scaled as ``<mesh><scale>`` scales them."""
    v = np.asarray(vertices, dtype=float) * np.asarray(scale, dtype=float)
    triangles: np.ndarray = v[np.asarray(faces, dtype=int)]
    return triangles
