"""Inertia checks for the report: positive definite, triangle inequality, equivalent box, solids.

The tensor and its principal axes are :mod:`sdf_tools.model.inertia`'s.

The equivalent box is the solid box of uniform density with the link's mass
and principal moments: drawn at the centre of mass, it shows at a glance
whether an inertia fits the link's size. Its sides are
``a = sqrt(6 (I2 + I3 - I1) / m)`` and so on; a negative term (the triangle
inequality broken) has no box.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import trimesh

from sdf_tools.model.inertia import Principal, principal, tensor, tolerance

__all__ = ['Principal', 'Solid', 'equivalent_box', 'positive_definite', 'principal',
           'solid_of', 'tensor', 'tolerance', 'triangle_ok']


def positive_definite(i: Sequence[float]) -> bool:
    """Whether every principal moment is positive (beyond libsdformat's tolerance)."""
    return min(principal(i).moments) > tolerance(i)


def triangle_ok(i: Sequence[float]) -> bool:
    """Whether the principal moments satisfy ``I1 + I2 >= I3`` (libsdformat's tolerance)."""
    a, b, c = principal(i).moments
    eps = tolerance(i)
    return a + b >= c - eps and b + c >= a - eps and a + c >= b - eps


def equivalent_box(mass: float, i: Sequence[float]) -> tuple[float, float, float] | None:
    """Sides of the uniform box with this mass and these principal moments (None if none)."""
    if mass <= 0:
        return None
    a, b, c = principal(i).moments
    terms = (b + c - a, a + c - b, a + b - c)
    if min(terms) < -tolerance(i):
        return None
    s = [float(np.sqrt(max(t, 0.0) * 6.0 / mass)) for t in terms]
    return (s[0], s[1], s[2])


class Solid(NamedTuple):
    """Volume (m^3) and inertia trace per unit density (m^5) of a link's collision geometry."""

    volume: float
    trace_per_density: float


class _Props(NamedTuple):
    volume: float
    centre: np.ndarray
    tensor: np.ndarray  # about the centre, per unit density


def _props(mesh: trimesh.Trimesh) -> _Props | None:
    """Volume, centre and inertia of a mesh (its convex hull when it is not watertight)."""
    m = mesh
    if not m.is_watertight:
        try:
            m = m.convex_hull
        except Exception:  # qhull refuses flat and degenerate point sets (raises its own types)
            return None
    vol = float(m.volume)
    if not math.isfinite(vol) or abs(vol) <= 0:
        return None
    return _Props(abs(vol), np.asarray(m.center_mass, dtype=float),
                  np.asarray(m.moment_inertia, dtype=float) * (abs(vol) / vol))


def _placed(mesh: trimesh.Trimesh, matrix: np.ndarray, cache: dict[int, _Props | None]) -> _Props | None:
    """The properties of ``mesh`` placed by ``matrix``: moved analytically when the scale is uniform."""
    lin = matrix[:3, :3]
    scale = float(np.cbrt(abs(np.linalg.det(lin))))
    if scale > 0 and np.allclose(lin @ lin.T, scale * scale * np.eye(3), rtol=1e-9, atol=0):
        if id(mesh) not in cache:
            cache[id(mesh)] = _props(mesh)
        p = cache[id(mesh)]
        if p is None:
            return None
        r = lin / scale
        return _Props(p.volume * scale ** 3, lin @ p.centre + matrix[:3, 3],
                      scale ** 5 * (r @ p.tensor @ r.T))
    m = mesh.copy()
    m.apply_transform(matrix)
    return _props(m)


def solid_of(parts: Sequence[tuple[trimesh.Trimesh, np.ndarray]],
             cache: dict[int, _Props | None] | None = None) -> Solid | None:
    """Mass properties of meshes placed by 4x4 matrices, filled at density 1.

    A mesh that is not watertight is replaced by its convex hull (its
    "volume" would mean nothing). Overlaps are counted twice: this feeds a
    plausibility check, not a measurement. ``cache`` keeps each mesh's own
    properties between calls (keyed by ``id``: the meshes must outlive it).
    """
    cache = {} if cache is None else cache
    vols: list[float] = []
    centres: list[np.ndarray] = []
    tensors: list[np.ndarray] = []
    for mesh, matrix in parts:
        p = _placed(mesh, matrix, cache)
        if p is None:
            continue
        vols.append(p.volume)
        centres.append(p.centre)
        tensors.append(p.tensor)
    total = sum(vols)
    if total <= 0:
        return None
    com = sum(v * c for v, c in zip(vols, centres, strict=True)) / total
    out = np.zeros((3, 3))
    for v, c, t in zip(vols, centres, tensors, strict=True):
        d = c - com
        out += t + v * (float(d @ d) * np.eye(3) - np.outer(d, d))
    return Solid(total, float(np.trace(out)))
