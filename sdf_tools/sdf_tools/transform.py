"""Rigid transforms: the one place poses are composed.

Rotations are converted with transforms3d's formulas (Euler angles, quaternions);
composition is done here on plain floats because it is the hot path of frame
resolution (a 10,000-link world composes tens of thousands of poses) and numpy's
per-call overhead would dominate there.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, cast

from sdf_tools import _native


def quat2euler(quaternion: Any, axes: str = 'sxyz') -> Any:
    """transforms3d's ``quat2euler``, imported on first use.

    transforms3d imports numpy, which starts its BLAS threads; the loader does without it
    (``rpy_quat`` below, ``sdf/link.py``) and so runs single-threaded, where glibc's malloc
    takes no locks, and the spec-check worker (``sdf/spec/parallel.py``) starts faster.
    """
    from transforms3d.euler import quat2euler as convert
    return convert(quaternion, axes)


Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]  # (w, x, y, z), Hamilton convention


def _qmul(a: Quat, b: Quat) -> Quat:
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    )


def rotate(q: Quat, v: Vec3) -> Vec3:
    """Rotate vector ``v`` by unit quaternion ``q``."""
    w, x, y, z = q
    vx, vy, vz = v
    # t = 2 * cross(q.xyz, v); v' = v + w * t + cross(q.xyz, t)
    tx = 2.0 * (y * vz - z * vy)
    ty = 2.0 * (z * vx - x * vz)
    tz = 2.0 * (x * vy - y * vx)
    return (
        vx + w * tx + (y * tz - z * ty),
        vy + w * ty + (z * tx - x * tz),
        vz + w * tz + (x * ty - y * tx),
    )


def rpy_quat(roll: float, pitch: float, yaw: float) -> Quat:
    """The quaternion of fixed-axis roll, pitch, yaw: ``euler2quat(roll, pitch, yaw, 'sxyz')``.

    transforms3d's own arithmetic for these axes (the same operations in the same order, so
    the same bits; ``test_transform.py`` compares them), without its axis-table lookups and
    the numpy array: every rotated ``<pose>`` of a large world comes through here.
    """
    ai, aj, ak = roll / 2.0, pitch / 2.0, yaw / 2.0
    ci, si = math.cos(ai), math.sin(ai)
    cj, sj = math.cos(aj), math.sin(aj)
    ck, sk = math.cos(ak), math.sin(ak)
    cc, cs, sc, ss = ci * ck, ci * sk, si * ck, si * sk
    return (cj * cc + sj * ss, cj * sc - sj * cs, cj * ss + sj * cc, cj * cs - sj * sc)


def normalize_quat(q: Quat) -> Quat:
    """Return ``q`` scaled to unit length (identity for a zero quaternion)."""
    n = math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    if n == 0.0:
        return (1.0, 0.0, 0.0, 0.0)
    return (q[0] / n, q[1] / n, q[2] / n, q[3] / n)


# Methods written out rather than generated at import (sdf_tools/records.py says why).
@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class Transform:
    """A rigid transform ``X_AB``: the pose of frame B expressed in frame A."""

    p: Vec3 = (0.0, 0.0, 0.0)
    q: Quat = (1.0, 0.0, 0.0, 0.0)

    # Written out (dataclass keeps a class's own __init__): compiled by mypyc
    # (sdf_tools/_native.py) it is native code that sets the fields directly, 0.11 against
    # 0.25 us with the generated one, which stays interpreted there (measured, and what it
    # saves on the N=1000 world with Loc's and RawPose's: bench/PROFILE.md). As Python it
    # does what the generated one does for a frozen class.
    def __init__(self, p: Vec3 = (0.0, 0.0, 0.0), q: Quat = (1.0, 0.0, 0.0, 0.0)) -> None:
        if _COMPILED:
            self.p = p  # type: ignore[misc]  # frozen for everyone else
            self.q = q  # type: ignore[misc]
        else:
            object.__setattr__(self, 'p', p)
            object.__setattr__(self, 'q', q)

    @staticmethod
    def from_xyz_rpy(xyz: Vec3, rpy: Vec3) -> Transform:
        """Build from a position and fixed-axis roll, pitch, yaw (radians)."""
        return Transform(xyz, rpy_quat(rpy[0], rpy[1], rpy[2]))  # a unit quaternion

    @staticmethod
    def from_xyz_quat_xyzw(xyz: Vec3, xyzw: tuple[float, float, float, float]) -> Transform:
        """Build from a position and an ``x y z w`` quaternion (normalised here)."""
        return Transform(xyz, normalize_quat((xyzw[3], xyzw[0], xyzw[1], xyzw[2])))

    def __repr__(self) -> str:
        return f'Transform(p={self.p!r}, q={self.q!r})'

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Transform) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.p, self.q) == (other.p, other.q)

    def __hash__(self) -> int:
        return hash((self.p, self.q))

    def __reduce__(self) -> tuple[type[Transform], tuple[Vec3, Quat]]:
        # copy, deepcopy and pickle rebuild it through the constructor: a frozen class
        # compiled by mypyc (sdf_tools/_native.py) refuses the attribute-by-attribute way.
        return (Transform, (self.p, self.q))

    def __mul__(self, other: Transform) -> Transform:
        """Compose: ``X_AC = X_AB * X_BC``."""
        # rotate() and _qmul() written out: the same operations in the same
        # order (so the same bits), without two calls and their tuples per
        # product, which were half its cost.
        w, x, y, z = self.q
        vx, vy, vz = other.p
        tx = 2.0 * (y * vz - z * vy)
        ty = 2.0 * (z * vx - x * vz)
        tz = 2.0 * (x * vy - y * vx)
        px, py, pz = self.p
        bw, bx, by, bz = other.q
        p = (px + (vx + w * tx + (y * tz - z * ty)),
             py + (vy + w * ty + (z * tx - x * tz)),
             pz + (vz + w * tz + (x * ty - y * tx)))
        q = (w * bw - x * bx - y * by - z * bz,
             w * bx + x * bw + y * bz - z * by,
             w * by - x * bz + y * bw + z * bx,
             w * bz + x * by - y * bx + z * bw)
        if _COMPILED:
            return Transform(p, q)  # a native class: its constructor is the fast way
        out = _new_transform(Transform)
        _set_p(out, p)
        _set_q(out, q)
        return out

    def inverse(self) -> Transform:
        """Return ``X_BA`` for ``self = X_AB``."""
        qi = (self.q[0], -self.q[1], -self.q[2], -self.q[3])
        r = rotate(qi, self.p)
        return Transform((-r[0], -r[1], -r[2]), qi)

    def rotate(self, v: Vec3) -> Vec3:
        """Rotate a free vector from frame B into frame A."""
        return rotate(self.q, v)

    def rpy(self) -> Vec3:
        """Return fixed-axis roll, pitch, yaw in radians."""
        r, p, y = quat2euler(self.q, 'sxyz')
        return (float(r), float(p), float(y))

    def quat_xyzw(self) -> tuple[float, float, float, float]:
        """Return the unit quaternion as ``x y z w`` with a canonical sign.

        ``q`` and ``-q`` are the same rotation; we print the one with
        ``w >= 0`` (first non-zero component positive when ``w == 0``) so that
        two tools agree on the numbers.
        """
        x, y, z, w = self.to_json()['quat_xyzw']
        return (x, y, z, w)

    def to_json(self) -> dict[str, list[float]]:
        """Return ``{"xyz": [...], "quat_xyzw": [...]}`` (see :meth:`quat_xyzw`).

        Hot in ``inspect --json`` (one call per pose), so written out in one
        piece: :func:`normalize_quat`'s arithmetic and then the sign flip, with
        two shortcuts that change no bit. A norm of exactly 1.0 (about half the
        poses of a large world) needs no division, and ``w > 0`` no sign search.
        ``v or 0.0`` turns ``-0.0`` into ``0.0``, as ``v + 0.0`` does for every
        float, without making a new one.
        """
        x, y, z = self.p
        w, qx, qy, qz = self.q
        n2 = w * w + qx * qx + qy * qy + qz * qz
        if n2 != 1.0:  # else the norm is sqrt(1.0), exactly 1.0
            n = _sqrt(n2)
            if n != 1.0:
                if n == 0.0:
                    w, qx, qy, qz = 1.0, 0.0, 0.0, 0.0
                else:
                    w, qx, qy, qz = w / n, qx / n, qy / n, qz / n
        if not w > 0.0:
            for c in (w, qx, qy, qz):
                if c != 0.0:
                    if c < 0.0:
                        w, qx, qy, qz = -w, -qx, -qy, -qz
                    break
        return {'xyz': [x or 0.0, y or 0.0, z or 0.0],
                'quat_xyzw': [qx or 0.0, qy or 0.0, qz or 0.0, w or 0.0]}


# A product is built by setting its two slots directly: the frozen dataclass
# __init__ goes through object.__setattr__ per field, 40% of the cost of
# making one, and a large world makes tens of thousands.
# (Compiled by mypyc, see sdf_tools/_native.py, Transform is a native class: there its
# constructor is fast, and neither object.__new__ nor the slots exist.)
_COMPILED = _native.is_extension(__file__)
_new_transform = object.__new__
_set_p: Any = None if _COMPILED else cast(Any, Transform).__dict__['p'].__set__  # the slots'
_set_q: Any = None if _COMPILED else cast(Any, Transform).__dict__['q'].__set__  # descriptors

_sqrt = math.sqrt  # a global name, looked up faster than an attribute

IDENTITY = Transform()
