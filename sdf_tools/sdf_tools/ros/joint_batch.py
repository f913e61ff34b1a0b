"""Many one-axis joints at once: :meth:`MovingJoint.transform` in one numpy pass.

Bit for bit the same numbers as the scalar code in
:mod:`~sdf_tools.ros.joint_motion` (and :mod:`sdf_tools.transform`), so that
the fast /tf path and the ordinary one publish the same bits. That rules
out any algebra: each rounding of the scalar code happens here too, in the
same order, on float64 arrays (numpy's ``+ - *`` round like Python's, and
no fused multiply-add is used). What is free is only what is exact:

* ``a - b`` is ``a + (-b)``, and ``-(a * b)`` is ``(-a) * b``: a quaternion
  product becomes a (n, 4, 4) array of signed products summed left to
  right over its second axis;
* the constant factors (the joint's axis and fixed poses) are permuted and
  signed once, when the batch is built.

Sines and cosines come from :mod:`math` (one C call per joint): numpy's own
``sin`` may be a vectorised approximation on some CPUs and differ in the
last bit from the C library that ``math.sin`` uses.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from sdf_tools.ros.joint_motion import MovingJoint, _qmul

Array = npt.NDArray[np.float64]

# qmul(a, b)[k] = sum over j (left to right) of _SIGN[j, k] * a[j] * b[_B[j, k]]
_B = np.array([[0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 0, 1], [3, 2, 1, 0]])
_SIGN = np.array([[1.0, 1.0, 1.0, 1.0], [-1.0, 1.0, -1.0, 1.0],
                  [-1.0, 1.0, 1.0, -1.0], [-1.0, -1.0, 1.0, 1.0]])
# cross(u, v)[i] = u[i+1] * v[i+2] - u[i+2] * v[i+1] (indices mod 3): both products of all
# three components in one (n, 6) array, u's two permutations [u1 | u2] times v's [v2 | v1]
_U6 = np.array([1, 2, 0, 2, 0, 1])
_V6 = np.array([2, 0, 1, 1, 2, 0])


def _sum4(m: Array) -> Array:
    """Sum the (n, 4, 4) products over axis 1 in the scalar code's order."""
    return ((m[:, 0] + m[:, 1]) + m[:, 2]) + m[:, 3]


def _cross(u6: Array, v: Array) -> Array:
    """``cross(u, v)`` as :func:`sdf_tools.transform.rotate` computes it, from ``u[:, _U6]``."""
    p = u6 * v[:, _V6]
    return p[:, :3] - p[:, 3:]


def _rotate(w: Array, u6: Array, v: Array) -> Array:
    """``rotate((w, u), v)``: ``t = 2 cross(u, v)``; ``v + w t + cross(u, t)``."""
    t = 2.0 * _cross(u6, v)
    return (v + w * t) + _cross(u6, t)


class _ConstRotation:
    """``rotate(q, v)`` and ``qmul(q, x)`` for fixed unit quaternions ``q`` (n, 4)."""

    def __init__(self, q: Array) -> None:
        self.w = q[:, 0:1].copy()
        self.u6 = q[:, 1:][:, _U6].copy()
        self.signed = q[:, :, None] * _SIGN  # [n, j, k] = sign * q_j

    def rotate(self, v: Array) -> Array:
        return _rotate(self.w, self.u6, v)

    def times(self, x: Array) -> Array:
        return _sum4(self.signed * x[:, _B])


class OneAxisBatch:
    """The transforms of a fixed list of revolute, continuous or prismatic joints."""

    def __init__(self, joints: Sequence[MovingJoint]) -> None:
        if any(len(j.axes) != 1 for j in joints):
            raise ValueError('OneAxisBatch takes one-axis joints only')
        self.size = len(joints)
        prismatic = np.array([j.type == 'prismatic' for j in joints], dtype=bool)
        self._rev, self._pri = np.flatnonzero(~prismatic), np.flatnonzero(prismatic)
        a_p = np.array([j.parent_to_joint.p for j in joints], dtype=np.float64).reshape(-1, 3)
        a_q = np.array([j.parent_to_joint.q for j in joints], dtype=np.float64).reshape(-1, 4)
        b_p = np.array([j.joint_to_child.p for j in joints], dtype=np.float64).reshape(-1, 3)
        b_q = np.array([j.joint_to_child.q for j in joints], dtype=np.float64).reshape(-1, 4)
        axis = np.array([j.axes[0] for j in joints], dtype=np.float64).reshape(-1, 3)
        r, s = self._rev, self._pri
        self._r_ap, self._r_a, self._r_bp = a_p[r], _ConstRotation(a_q[r]), b_p[r]
        self._r_axis, self._r_axis6 = axis[r], axis[r][:, _U6]
        # qmul(r, b_q)[k] = sum over j of r_j * (sign * b_q[_B[j, k]])
        self._r_bq = np.stack([_SIGN[j] * b_q[r][:, _B[j]] for j in range(4)], axis=1)
        self._s_ap, self._s_a, self._s_bp, self._s_axis = a_p[s], _ConstRotation(a_q[s]), b_p[s], axis[s]
        self._s_q = np.array([_qmul(j.parent_to_joint.q, j.joint_to_child.q)
                              for j in joints if j.type == 'prismatic'], dtype=np.float64).reshape(-1, 4)

    def transforms(self, q: Array) -> tuple[Array, Array]:
        """Return translations (n, 3) and rotations (n, 4: w x y z) at positions ``q`` (n,)."""
        if not self._pri.size:
            return self._revolute(q)
        p_out, q_out = np.empty((self.size, 3)), np.empty((self.size, 4))
        if self._rev.size:
            p_out[self._rev], q_out[self._rev] = self._revolute(q[self._rev])
        d = q[self._pri, None]
        p_out[self._pri] = self._s_ap + self._s_a.rotate(self._s_bp + self._s_axis * d)
        q_out[self._pri] = self._s_q
        return p_out, q_out

    def _revolute(self, q: Array) -> tuple[Array, Array]:
        """``X_pj * (cos(q/2), axis sin(q/2)) * X_jc``, as ``MovingJoint._one_axis``."""
        half = (0.5 * q).tolist()
        s = np.fromiter(map(math.sin, half), np.float64, len(half))[:, None]
        c = np.fromiter(map(math.cos, half), np.float64, len(half))[:, None]
        rotated = _rotate(c, self._r_axis6 * s, self._r_bp)
        r = np.concatenate((c, self._r_axis * s), axis=1)
        r_bq = _sum4(r[:, :, None] * self._r_bq)
        return self._r_ap + self._r_a.rotate(rotated), self._r_a.times(r_bq)
