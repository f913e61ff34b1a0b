"""Rigid transforms: the one place poses are composed.

Rotations come from transforms3d (Euler angles, quaternions); composition is
done here on plain floats because it is the hot path of frame resolution
(a 10,000-link world composes tens of thousands of poses) and numpy's
per-call overhead would dominate there.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from transforms3d.euler import euler2quat, quat2euler

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


def normalize_quat(q: Quat) -> Quat:
    """Return ``q`` scaled to unit length (identity for a zero quaternion)."""
    n = math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    if n == 0.0:
        return (1.0, 0.0, 0.0, 0.0)
    return (q[0] / n, q[1] / n, q[2] / n, q[3] / n)


@dataclass(frozen=True, slots=True)
class Transform:
    """A rigid transform ``X_AB``: the pose of frame B expressed in frame A."""

    p: Vec3 = (0.0, 0.0, 0.0)
    q: Quat = (1.0, 0.0, 0.0, 0.0)

    @staticmethod
    def from_xyz_rpy(xyz: Vec3, rpy: Vec3) -> Transform:
        """Build from a position and fixed-axis roll, pitch, yaw (radians)."""
        w, x, y, z = euler2quat(rpy[0], rpy[1], rpy[2], 'sxyz').tolist()
        return Transform(xyz, (w, x, y, z))  # euler2quat gives a unit quaternion

    @staticmethod
    def from_xyz_quat_xyzw(xyz: Vec3, xyzw: tuple[float, float, float, float]) -> Transform:
        """Build from a position and an ``x y z w`` quaternion (normalised here)."""
        return Transform(xyz, normalize_quat((xyzw[3], xyzw[0], xyzw[1], xyzw[2])))

    def __mul__(self, other: Transform) -> Transform:
        """Compose: ``X_AC = X_AB * X_BC``."""
        r = rotate(self.q, other.p)
        return Transform(
            (self.p[0] + r[0], self.p[1] + r[1], self.p[2] + r[2]),
            _qmul(self.q, other.q),
        )

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
        w, x, y, z = normalize_quat(self.q)
        for c in (w, x, y, z):
            if c != 0.0:
                if c < 0.0:
                    w, x, y, z = -w, -x, -y, -z
                break
        return (x + 0.0, y + 0.0, z + 0.0, w + 0.0)

    def to_json(self) -> dict[str, list[float]]:
        """Return ``{"xyz": [...], "quat_xyzw": [...]}``."""
        return {'xyz': [self.p[0] + 0.0, self.p[1] + 0.0, self.p[2] + 0.0],
                'quat_xyzw': list(self.quat_xyzw())}


IDENTITY = Transform()
