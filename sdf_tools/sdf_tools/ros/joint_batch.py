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

# Arrays are component-major, (3, n) vectors and (4, n) quaternions (w x y z), so that
# every row used below is contiguous.
# qmul(a, b)[k] = sum over j (left to right) of _SIGN[j, k] * a[j] * b[_B[j, k]]
_B = np.array([[0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 0, 1], [3, 2, 1, 0]])
_SIGN = np.array([[1.0, 1.0, 1.0, 1.0], [-1.0, 1.0, -1.0, 1.0],
                  [-1.0, 1.0, 1.0, -1.0], [-1.0, -1.0, 1.0, 1.0]])
# cross(u, v)[i] = u[i+1] * v[i+2] - u[i+2] * v[i+1] (indices mod 3): both products of all
# three components in one (6, n) array, u's two permutations [u1; u2] times v's [v2; v1]
_U6 = np.array([1, 2, 0, 2, 0, 1])
_V6 = np.array([2, 0, 1, 1, 2, 0])


def _sum4(m: Array) -> Array:
    """Sum (4, 4, n) products over the first axis in the scalar code's order."""
    out = m[0] + m[1]
    out += m[2]
    out += m[3]
    return out


def _cross(u6: Array, v: Array) -> Array:
    """``cross(u, v)`` as :func:`sdf_tools.transform.rotate` computes it, from ``u[_U6]``."""
    p = u6 * v.take(_V6, axis=0)
    return p[:3] - p[3:]


def _rotate(w: Array, u6: Array, v: Array) -> Array:
    """``rotate((w, u), v)``: ``t = 2 cross(u, v)``; ``v + w t + cross(u, t)``.

    In place where it allocates less (``w t + v`` is ``v + w t``: ``+`` commutes exactly).
    """
    t = _cross(u6, v)
    t *= 2.0
    out = w * t
    out += v
    out += _cross(u6, t)
    return out


def _signed(b: Array) -> Array:
    """Return (4, 4, n) ``[j, k] = _SIGN[j, k] * b[_B[j, k]]`` for quaternions ``b`` (4, n)."""
    return _SIGN[:, :, None] * b.take(_B, axis=0)


class _ConstRotation:
    """``rotate(q, v)`` and ``qmul(q, x)`` for fixed unit quaternions ``q`` (4, n)."""

    def __init__(self, q: Array) -> None:
        self.w = q[0].copy()
        self.u6 = q[1:].take(_U6, axis=0)
        self.signed = _SIGN[:, :, None] * q[:, None, :]  # [j, k] = sign * q_j

    def rotate(self, v: Array) -> Array:
        return _rotate(self.w, self.u6, v)

    def times(self, x: Array) -> Array:
        return _sum4(self.signed * x.take(_B, axis=0))


def _columns(rows: list[tuple[float, ...]], width: int) -> Array:
    return np.array(rows, dtype=np.float64).reshape(-1, width).T.copy()


class OneAxisBatch:
    """The transforms of a fixed list of revolute, continuous or prismatic joints."""

    def __init__(self, joints: Sequence[MovingJoint]) -> None:
        if any(len(j.axes) != 1 for j in joints):
            raise ValueError('OneAxisBatch takes one-axis joints only')
        self.size = len(joints)
        prismatic = np.array([j.type == 'prismatic' for j in joints], dtype=bool)
        self._rev, self._pri = np.flatnonzero(~prismatic), np.flatnonzero(prismatic)
        a_p = _columns([j.parent_to_joint.p for j in joints], 3)
        a_q = _columns([j.parent_to_joint.q for j in joints], 4)
        b_p = _columns([j.joint_to_child.p for j in joints], 3)
        b_q = _columns([j.joint_to_child.q for j in joints], 4)
        axis = _columns([j.axes[0] for j in joints], 3)
        r, s = self._rev, self._pri
        self._r_ap, self._r_a, self._r_bp = a_p[:, r], _ConstRotation(a_q[:, r]), b_p[:, r]
        self._r_axis, self._r_axis6 = axis[:, r], axis[:, r].take(_U6, axis=0)
        self._r_bq = _signed(b_q[:, r])  # qmul(r, b_q)[k] = sum over j of r_j * _r_bq[j, k]
        self._s_ap, self._s_a, self._s_bp = a_p[:, s], _ConstRotation(a_q[:, s]), b_p[:, s]
        self._s_axis = axis[:, s]
        self._s_q = _columns([_qmul(j.parent_to_joint.q, j.joint_to_child.q)
                              for j in joints if j.type == 'prismatic'], 4)

    def transforms(self, q: Array) -> tuple[Array, Array]:
        """Return translations (3, n) and rotations (4, n: w x y z) at positions ``q`` (n,)."""
        if not self._pri.size:
            return self._revolute(q)
        p_out, q_out = np.empty((3, self.size)), np.empty((4, self.size))
        if self._rev.size:
            p_out[:, self._rev], q_out[:, self._rev] = self._revolute(q[self._rev])
        p_out[:, self._pri] = self._s_ap + self._s_a.rotate(self._s_bp + self._s_axis * q[self._pri])
        q_out[:, self._pri] = self._s_q
        return p_out, q_out

    def _revolute(self, q: Array) -> tuple[Array, Array]:
        """``X_pj * (cos(q/2), axis sin(q/2)) * X_jc``, as ``MovingJoint._one_axis``."""
        half = (0.5 * q).tolist()
        s = np.fromiter(map(math.sin, half), np.float64, len(half))
        c = np.fromiter(map(math.cos, half), np.float64, len(half))
        rotated = _rotate(c, self._r_axis6 * s, self._r_bp)
        r = np.concatenate((c[None], self._r_axis * s))
        r_bq = _sum4(r[:, None] * self._r_bq)
        return self._r_ap + self._r_a.rotate(rotated), self._r_a.times(r_bq)
