"""Mass properties, once: the inertia tensor, its principal axes, and rigidly joined bodies.

Every consumer of an inertia reads it here: the URDF reader and the URDF ->
SDF converter (fixed-joint lumping: :func:`combine_inertials`), the MJCF and
USD writers (which store a diagonal inertia and the rotation of its axes:
:func:`principal_frame`; MuJoCo's test of a moving body: :func:`composite`),
and the lint checks and the report (:func:`principal`, :func:`tolerance`), and
the readers' validity test (:func:`inertia_is_valid`, libsdformat's verdict: it lives
in :mod:`sdf_tools.model.inertia_validity`, which ``check`` imports without this module).
An inertia is SDFormat's six numbers ``(ixx, ixy, ixz, iyy, iyz, izz)`` about
the centre of mass, in the inertial frame.

numpy is imported by the functions that need it, not by this module: the
readers test every link of a large world here, and importing numpy starts
its BLAS threads (a process with threads takes a lock in every malloc, and
the loader of a large world makes millions of them).
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from sdf_tools.model.common import RawPose
from sdf_tools.model.elements import Inertial
from sdf_tools.model.inertia_validity import EPS_FACTOR
from sdf_tools.model.inertia_validity import inertia_is_valid as inertia_is_valid
from sdf_tools.model.inertia_validity import principal_moments as principal_moments
from sdf_tools.transform import IDENTITY, Quat, Transform, Vec3, normalize_quat

if TYPE_CHECKING:
    import numpy as np

#: ixx, ixy, ixz, iyy, iyz, izz about the centre of mass, in the inertial frame.
Inertia6 = tuple[float, float, float, float, float, float]
_FLOAT_EPS = 2.220446049250313e-16  # numpy.finfo(float).eps, as transforms3d's quat2mat


def tensor(i: Sequence[float]) -> np.ndarray:
    """Return the symmetric 3x3 matrix of ``(ixx, ixy, ixz, iyy, iyz, izz)``."""
    import numpy as np

    ixx, ixy, ixz, iyy, iyz, izz = i
    return np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]], dtype=float)


def rotation(q: Quat) -> np.ndarray:
    """Return the 3x3 rotation matrix of a quaternion ``(w, x, y, z)``.

    transforms3d's ``quat2mat``, the same operations in the same order (so the
    same bits; a test compares them): importing transforms3d imports all of it,
    numpy.random included (~12 ms), on the path of every URDF whose fixed joints
    lump inertia, which the description publisher reads before its first /tf_static.
    """
    import numpy as np

    w, x, y, z = (float(c) for c in q)
    nq = w * w + x * x + y * y + z * z
    if nq < _FLOAT_EPS:
        return np.eye(3)
    s = 2.0 / nq
    xs, ys, zs = x * s, y * s, z * s
    wx, wy, wz = w * xs, w * ys, w * zs
    xx, xy, xz = x * xs, x * ys, x * zs
    yy, yz, zz = y * ys, y * zs, z * zs
    return np.array([[1.0 - (yy + zz), xy - wz, xz + wy],
                     [xy + wz, 1.0 - (xx + zz), yz - wx],
                     [xz - wy, yz + wx, 1.0 - (xx + yy)]])


def in_frame(i: Sequence[float], frame: Transform) -> np.ndarray:
    """Return inertia ``i`` (given in ``frame``'s axes) with its axes turned to the outer frame."""
    import numpy as np

    r = rotation(frame.q)
    return np.asarray(r @ tensor(i) @ r.T, dtype=float)


def tolerance(i: Sequence[float]) -> float:
    """Return the tolerance libsdformat (ignition-math) allows in its inertia checks."""
    return EPS_FACTOR * abs(i[0] + i[3] + i[5])


class Principal(NamedTuple):
    """Principal moments (ascending) and the proper rotation whose columns are their axes."""

    moments: tuple[float, float, float]
    # A 3x3 numpy array. Any, not np.ndarray: mypyc evaluates a compiled NamedTuple's
    # annotations when the module loads, and numpy is imported only where used (above).
    axes: Any


def principal(i: Sequence[float]) -> Principal:
    """Return the principal moments and axes (a proper rotation) of an inertia tensor.

    Cached: a link's checks, table and box ask for it, and worlds repeat models.
    """
    return _cached(tuple(float(x) for x in i))


def _decompose(i: Sequence[float]) -> Principal:
    import numpy as np

    w, v = np.linalg.eigh(tensor(i))
    if np.linalg.det(v) < 0:
        v[:, 2] = -v[:, 2]
    v.setflags(write=False)
    return Principal((float(w[0]), float(w[1]), float(w[2])), v)


# (The cache takes 0.0 and -0.0 for one key: the writers, whose output must not depend on
# what was asked before, decompose afresh.)
_cached = functools.lru_cache(maxsize=4096)(_decompose)


class PrincipalFrame(NamedTuple):
    """Mass properties as principal moments in a frame of their own: what USD and MJCF store.

    Attributes:
        com: centre of mass in the link frame.
        axes: rotation (w, x, y, z) from the link frame to the principal axes.
        moments: the principal moments of inertia about those axes.
    """

    com: Vec3
    axes: Quat
    moments: Vec3


def principal_frame(inertia: Inertia6, frame: Transform) -> PrincipalFrame:
    """Return the principal moments and axes of ``inertia`` given in inertial frame ``frame``.

    A tensor that is already diagonal keeps ``frame`` and its three numbers
    unchanged (no eigen-solver round-off).

    Args:
        inertia: the tensor in the inertial frame (about the centre of mass).
        frame: the inertial frame in the link frame (``<inertial><pose>``).
    """
    com = frame.p
    ixx, ixy, ixz, iyy, iyz, izz = inertia
    if ixy == 0.0 and ixz == 0.0 and iyz == 0.0:
        return PrincipalFrame(com, normalize_quat(frame.q), (ixx, iyy, izz))
    from transforms3d.quaternions import mat2quat

    p = _decompose(inertia)
    w, x, y, z = (float(v) for v in mat2quat(p.axes))
    q = (Transform(q=frame.q) * Transform(q=normalize_quat((w, x, y, z)))).q
    return PrincipalFrame(com, normalize_quat(q), _without_round_off(p.moments))


def _without_round_off(moments: tuple[float, float, float]) -> Vec3:
    """Return the moments with the eigen-solver's round-off around zero made an exact 0.

    A rank-deficient tensor (e.g. every entry 0.001: one rod-like moment and two zeros)
    decomposes into moments like -3e-19: written as they are, engines read a negative
    moment and discard the whole tensor (Newton: "must have finite, nonnegative components").
    Only values within a few ulps of the largest moment are touched; a truly negative moment
    stays negative (and is reported by the writers).
    """
    scale = max(abs(m) for m in moments)
    eps = 16.0 * 2.220446049250313e-16 * scale  # 16 ulps (DBL_EPSILON) of the largest
    a, b, c = (0.0 if abs(m) <= eps else m for m in moments)
    return (a, b, c)


def composite(parts: Sequence[tuple[float, np.ndarray, np.ndarray]]
              ) -> tuple[float, np.ndarray, np.ndarray]:
    """Return the mass, centre of mass and inertia about it of rigidly joined parts.

    Args:
        parts: ``(mass, centre of mass, inertia tensor)`` of each part, all in
            one frame (the tensors about each part's own centre of mass). At
            least one part.

    Returns:
        The total mass, the common centre of mass (the first part's when the
        total is not positive: masses of 0 add their tensors but move
        nothing), and the tensor about it, in the same frame.
    """
    import numpy as np

    total = float(sum(m for m, _, _ in parts))
    com: np.ndarray = parts[0][1]
    if total > 0.0:
        com = np.sum([m * c for m, c, _ in parts], axis=0) / total
    out = np.zeros((3, 3))
    for m, c, i in parts:
        d = c - com
        out += i + m * (float(d @ d) * np.eye(3) - np.outer(d, d))
    return total, com, out


def combine_inertials(parent: Inertial | None, child: Inertial, x_pc: Transform) -> Inertial:
    """Return the parent's inertial after adding ``child`` (of a link at ``x_pc`` in the parent).

    The result is expressed at the combined centre of mass, in the
    orientation of the parent's inertial frame (identity when the parent
    had none), as libsdformat does. Masses of 0 add their inertia tensors
    but move nothing.
    """
    import numpy as np

    parts = []
    for inertial, place in ((parent, IDENTITY), (child, x_pc)):
        if inertial is None:
            continue
        frame = place * (inertial.pose.value if inertial.pose is not None else IDENTITY)
        parts.append((inertial.mass, np.array(frame.p), in_frame(inertial.inertia, frame)))
    total, com, summed = composite(parts)
    q0 = parent.pose.value.q if parent is not None and parent.pose is not None else IDENTITY.q
    r0 = rotation(q0)
    out = r0.T @ summed @ r0
    inertia = (float(out[0, 0]), float(out[0, 1]), float(out[0, 2]), float(out[1, 1]),
               float(out[1, 2]), float(out[2, 2]))
    pose = RawPose(Transform((float(com[0]), float(com[1]), float(com[2])), q0))
    loc = parent.loc if parent is not None else child.loc
    return Inertial(float(total), inertia, pose, loc)
