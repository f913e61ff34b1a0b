"""``inspect --inertial-stats``: a model's total mass, centre of mass and inertia about it.

As ``gz sdf --inertial-stats`` computes it (libsdformat ``src/cmd/gz.cc``): the
inertials of the model's own links (auto ones computed), in the model frame, summed
with composite centre of mass and parallel axes; links of nested models are left out,
with gz's warning. gz reads only a model file; here each model of a world gets its
block too.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TextIO

import numpy as np

from sdf_tools.model.auto_inertia import MassPart, combine
from sdf_tools.model.inertia import tensor
from sdf_tools.resolved.records import Resolved, ResolvedModel

__all__ = ['ModelInertia', 'model_inertias', 'print_inertial_stats']


@dataclass(frozen=True, slots=True)
class ModelInertia:
    """The summed inertial of one model's own links, in the model frame."""

    model: str
    mass: float
    com: tuple[float, float, float]
    inertia: np.ndarray        # 3x3 about ``com``, model-frame axes
    has_nested: bool


def _top_level(resolved: Resolved) -> list[ResolvedModel]:
    return [m for m in resolved.models if '::' not in m.name]


def model_inertias(resolved: Resolved) -> list[ModelInertia]:
    """Sum each top-level model's own links (None poses: the link is left out)."""
    out = []
    for model in _top_level(resolved):
        parts = []
        if model.world is not None:
            to_model = model.world.inverse()
            for link in resolved.links:
                frame = link.inertial.world
                if link.model != model.name or frame is None:
                    continue
                local = MassPart(link.inertial.mass, (0.0, 0.0, 0.0),
                                 tensor(link.inertial.inertia))
                parts.append(local.moved(to_model * frame))
        total = combine(parts)
        has_nested = any(m.name.startswith(model.name + '::') for m in resolved.models)
        if total is None:
            out.append(ModelInertia(model.name, 0.0, (0.0, 0.0, 0.0), np.zeros((3, 3)), has_nested))
        else:
            out.append(ModelInertia(model.name, total.mass, total.com, total.inertia, has_nested))
    return out


def _g(v: float) -> str:
    """A number as C++'s default stream prints it (6 significant digits)."""
    return f'{v:.6g}'


def print_inertial_stats(resolved: Resolved, out: TextIO | None = None) -> None:
    """Print gz sdf --inertial-stats's block for every top-level model."""
    stream = out or sys.stdout
    for mi in model_inertias(resolved):
        if mi.has_nested:
            print('Warning: Inertial properties of links in nested models will not be included.',
                  file=stream)
        print(f'Inertial statistics for model: {mi.model}', file=stream)
        print('---', file=stream)
        print(f'Total mass of the model: {_g(mi.mass)}', file=stream)
        print('---', file=stream)
        print('Centre of mass in model frame: ', file=stream)
        for axis, v in zip('XYZ', mi.com, strict=True):
            print(f'{axis}: {_g(v)}', file=stream)
        print('---', file=stream)
        print('Moment of inertia matrix: ', file=stream)
        cells = [_g(float(v)) for v in mi.inertia.flatten()]
        width = max(len(c) for c in cells)
        for row in range(3):
            print(''.join(c.ljust(width) + '  ' for c in cells[3 * row:3 * row + 3]), file=stream)
        print('---', file=stream)
