"""Principal moments and axes of an inertia tensor, for formats that store them (USD, MJCF).

USD's ``MassAPI`` and MJCF's ``<inertial diaginertia quat>`` hold a
diagonal inertia and the rotation of its principal axes, not the six
numbers of a tensor. Both exporters need the same decomposition, with the
orientation of the inertial frame applied, so it lives here.

A tensor that is already diagonal in its inertial frame keeps that frame
and its three numbers unchanged (no eigen-solver round-off); otherwise the
symmetric eigen-decomposition gives the moments and a right-handed set of
axes.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from transforms3d.quaternions import mat2quat, quat2mat

from sdf_tools.transform import Quat, Transform, Vec3, normalize_quat

Inertia6 = tuple[float, float, float, float, float, float]  # ixx, ixy, ixz, iyy, iyz, izz


class Principal(NamedTuple):
    """Mass properties as principal moments: the form USD and MJCF store.

    Attributes:
        com: centre of mass in the link frame.
        axes: rotation (w, x, y, z) from the link frame to the principal axes.
        moments: the principal moments of inertia about those axes.
    """

    com: Vec3
    axes: Quat
    moments: Vec3


def tensor(i: Inertia6) -> np.ndarray:
    """Return the symmetric 3x3 matrix of ``(ixx, ixy, ixz, iyy, iyz, izz)``."""
    ixx, ixy, ixz, iyy, iyz, izz = i
    return np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]], dtype=float)


def principal(inertia: Inertia6, frame: Transform) -> Principal:
    """Return the principal moments and axes of ``inertia`` given in inertial frame ``frame``.

    Args:
        inertia: the tensor in the inertial frame (about the centre of mass).
        frame: the inertial frame in the link frame (``<inertial><pose>``).
    """
    com = frame.p
    ixx, ixy, ixz, iyy, iyz, izz = inertia
    if ixy == 0.0 and ixz == 0.0 and iyz == 0.0:
        return Principal(com, normalize_quat(frame.q), (ixx, iyy, izz))
    values, vectors = np.linalg.eigh(tensor(inertia))
    if np.linalg.det(vectors) < 0.0:
        vectors[:, 2] = -vectors[:, 2]
    w, x, y, z = (float(v) for v in mat2quat(vectors))
    q = (Transform(q=frame.q) * Transform(q=normalize_quat((w, x, y, z)))).q
    m = (float(values[0]), float(values[1]), float(values[2]))
    return Principal(com, normalize_quat(q), m)


def link_tensor(inertia: Inertia6, frame: Transform) -> np.ndarray:
    """Return ``inertia`` (given in ``frame``) with its axes turned to the link frame."""
    r = np.asarray(quat2mat(frame.q), dtype=float)
    return np.asarray(r @ tensor(inertia) @ r.T, dtype=float)
