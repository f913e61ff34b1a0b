"""Mass properties: adding one body's inertial to another's (fixed-joint lumping).

Shared by the URDF reader (libsdformat judges a URDF's inertia after
lumping) and the URDF -> SDF converter (which lumps).
"""
from __future__ import annotations

import numpy as np
from transforms3d.quaternions import quat2mat

from sdf_tools.model.common import RawPose
from sdf_tools.model.elements import Inertial
from sdf_tools.transform import IDENTITY, Transform


def _rotation(t: Transform) -> np.ndarray:
    return np.asarray(quat2mat(t.q), dtype=float)


def _tensor(i: tuple[float, float, float, float, float, float]) -> np.ndarray:
    ixx, ixy, ixz, iyy, iyz, izz = i
    return np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]], dtype=float)


def combine_inertials(parent: Inertial | None, child: Inertial, x_pc: Transform) -> Inertial:
    """Return the parent's inertial after adding ``child`` (of a link at ``x_pc`` in the parent).

    The result is expressed at the combined centre of mass, in the
    orientation of the parent's inertial frame (identity when the parent
    had none), as libsdformat does. Masses of 0 add their inertia tensors
    but move nothing.
    """
    parts = []
    for inertial, place in ((parent, IDENTITY), (child, x_pc)):
        if inertial is None:
            continue
        frame = place * (inertial.pose.value if inertial.pose is not None else IDENTITY)
        r = _rotation(frame)
        parts.append((inertial.mass, np.array(frame.p), r @ _tensor(inertial.inertia) @ r.T))
    total = float(sum(m for m, _, _ in parts))
    com: np.ndarray = parts[0][1]
    if total > 0.0:
        com = np.sum([m * c for m, c, _ in parts], axis=0) / total
    tensor = np.zeros((3, 3))
    for m, c, i in parts:
        d = c - com
        tensor += i + m * (float(d @ d) * np.eye(3) - np.outer(d, d))
    q0 = parent.pose.value.q if parent is not None and parent.pose is not None else IDENTITY.q
    r0 = _rotation(Transform((0.0, 0.0, 0.0), q0))
    out = r0.T @ tensor @ r0
    inertia = (float(out[0, 0]), float(out[0, 1]), float(out[0, 2]), float(out[1, 1]),
               float(out[1, 2]), float(out[2, 2]))
    pose = RawPose(Transform((float(com[0]), float(com[1]), float(com[2])), q0))
    loc = parent.loc if parent is not None else child.loc
    return Inertial(float(total), inertia, pose, loc)
