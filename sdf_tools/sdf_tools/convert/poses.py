"""Poses that conversions compute: shared by every target format's model preparation.

A converter that moves or merges elements (lumping, root transform, derived
collisions) writes the pose it computed, not text from the input; these
helpers build such poses and test them.
"""
from __future__ import annotations

from sdf_tools.model import RawPose
from sdf_tools.transform import IDENTITY, Transform


def computed_pose(value: Transform, relative_to: str = '') -> RawPose:
    """Return a pose the converter computed (printed from its value, not from text)."""
    return RawPose(value, relative_to)


def is_identity(t: Transform, tol: float = 0.0) -> bool:
    """Return whether ``t`` is the identity (exactly, or within ``tol``)."""
    return (max(abs(v) for v in t.p) <= tol and abs(abs(t.q[0]) - 1.0) <= tol
            and max(abs(v) for v in t.q[1:]) <= tol)


def identity_pose(relative_to: str) -> RawPose:
    """Return the zero pose measured from ``relative_to``."""
    return RawPose(IDENTITY, relative_to)
