"""transform.py's own arithmetic against transforms3d, bit for bit."""
from __future__ import annotations

import math
import random
from collections.abc import Iterable

from transforms3d.euler import euler2quat

from sdf_tools.transform import rpy_quat


def _bits(values: Iterable[float]) -> list[str]:
    return [float(v).hex() for v in values]


def test_rpy_quat_is_transforms3d_euler2quat_sxyz() -> None:
    rng = random.Random(20261203)
    special = [0.0, -0.0, math.pi, -math.pi, math.pi / 2, -math.pi / 2, 1e-300, -1e-17,
               2 * math.pi, 1e6, -7.5, 3.0]
    angles = [(a, b, c) for a in special for b in special[:6] for c in special[:4]]
    angles += [tuple(rng.uniform(-10.0, 10.0) for _ in range(3)) for _ in range(20000)]
    angles += [tuple(rng.choice(special) * rng.random() for _ in range(3)) for _ in range(2000)]
    for r, p, y in angles:
        assert _bits(rpy_quat(r, p, y)) == _bits(euler2quat(r, p, y, 'sxyz').tolist()), (r, p, y)
