"""Read a shape's parameters and orient it: what every shape writer (URDF, MJCF, USD) needs.

The reader keeps each ``<geometry>`` shape's fields as a dict of numbers and number
lists (:class:`sdf_tools.model.Geometry` ``params``); a writer asks for one field with
the spec's default when it is missing or not what the spec says it is.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from sdf_tools.transform import IDENTITY, Transform


def param_float(params: dict[str, object], key: str, default: float) -> float:
    """Return the number ``params[key]``, or ``default`` when it is missing or not a number."""
    value = params.get(key, default)
    return float(value) if isinstance(value, (int, float)) else default


def param_vector(params: dict[str, object], key: str, default: Sequence[float]) -> list[float]:
    """Return the list ``params[key]`` (as floats), or ``default`` when missing or another length."""
    value = params.get(key)
    if isinstance(value, (list, tuple)) and len(value) == len(default):
        return [float(x) for x in value]
    return list(default)


def rotation_z_to(n: Sequence[float]) -> Transform:
    """Return the shortest rotation taking +z to the direction ``n`` (a plane's normal).

    Antiparallel: half a turn about x. A zero vector is read as +z.
    """
    norm = math.sqrt(sum(c * c for c in n)) or 1.0
    nx, ny, nz = (c / norm for c in n)
    if nz > 1 - 1e-15:
        return IDENTITY
    if nz < -1 + 1e-15:
        return Transform((0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0))
    angle = math.acos(nz)
    s = math.sin(angle / 2) / math.hypot(nx, ny)
    return Transform((0.0, 0.0, 0.0), (math.cos(angle / 2), -ny * s, nx * s, 0.0))
