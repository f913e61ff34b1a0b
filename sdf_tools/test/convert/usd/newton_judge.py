"""Judge an exported stage with Newton's own USD importer (``ModelBuilder.add_usd``).

Newton imports the stage, builds its model on the CPU (warp kernels are
compiled once per machine and cached under warp's kernel cache), and its
forward kinematics at the reference configuration (``eval_fk`` with the
imported ``joint_q``) gives every body's pose. Newton keeps bodies and
masses in 32-bit floats, so poses are compared to ``NEWTON_TOL`` (1e-5 m
and 1e-5 in rotation-matrix entries: float32 has a 24-bit mantissa and
the chain composes a few dozen products) and masses to 1e-6 relative.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from sdf_tools.transform import Transform

NEWTON_TOL = 1e-5


def _quiet() -> None:
    import warp as wp
    wp.config.quiet = True  # kernels compile once into warp's cache (~/.cache/warp), then load


def _poses(builder: object) -> tuple[list[str], list[Transform], list[float]]:
    import newton
    labels = getattr(builder, 'body_label', None)
    keys = list(labels if labels is not None else builder.body_key)
    if not keys:
        return [], [], []
    model = builder.finalize(device='cpu')  # type: ignore[attr-defined]
    state = model.state()
    newton.eval_fk(model, model.joint_q, model.joint_qd, state)
    q = state.body_q.numpy()
    poses = [Transform(tuple(float(v) for v in row[:3]),  # type: ignore[arg-type]
                       (float(row[6]), float(row[3]), float(row[4]), float(row[5]))) for row in q]
    masses = [float(m) for m in model.body_mass.numpy()]
    return keys, poses, masses


def newton_usd(path: Path) -> tuple[list[str], list[Transform], list[float]]:
    """Return Newton's body keys (prim paths), poses at the reference configuration and masses."""
    _quiet()
    import newton
    builder = newton.ModelBuilder()
    builder.add_usd(str(path))
    return _poses(builder)


def newton_urdf(path: Path, floating: bool = True) -> tuple[list[str], list[Transform], list[float]]:
    """Return the same for Newton's own URDF importer (``add_urdf``)."""
    _quiet()
    import newton
    builder = newton.ModelBuilder()
    builder.add_urdf(str(path), floating=floating)
    return _poses(builder)


def rel_error(a: float, b: float) -> float:
    return abs(a - b) / max(abs(b), 1e-12)


def max_abs(a: np.ndarray) -> float:
    return float(np.abs(a).max()) if a.size else 0.0
