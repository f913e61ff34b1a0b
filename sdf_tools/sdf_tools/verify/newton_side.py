"""A USD stage as Newton's importer (``ModelBuilder.add_usd``) reads it, as a :class:`Snapshot`.

Newton reads the stage with its own schema resolver first and PhysX's second
(``newton:*``, then ``physxJoint:*`` and the joint state: what a stage made for
Isaac Sim carries), then builds its model on the CPU. Bodies are placed by
Newton's forward kinematics (``eval_fk``) at the reference configuration (every
hinge, slide and D6 coordinate at 0, ball joints at rest, free joints where the
stage puts them), so a joint frame that disagrees with the bodies it connects
shows as a body pose difference. Masses, centres of mass and inertias are
Newton's (``body_mass``, ``body_com``, ``body_inertia`` in the body frame);
joints its ``joint_type``, frames (``joint_X_p`` on the parent body), axes,
limits, effort and velocity limits (Newton's defaults, unlimited, count as no
limit). Objects are named as usd-core's side names them (by prim path).

Tolerances: Newton keeps everything in 32-bit floats (a 24-bit mantissa,
about 6e-8 relative) and composes body poses through a chain of float32
transform products, so poses, anchors, axes and centres of mass are compared to
:data:`NEWTON_TOL` = 1e-5 (m and rotation-matrix entries; a few dozen float32
products on metre-sized robots stay well inside), masses, limits and rates to
1e-6 relative (one rounding, plus the degrees-to-radians conversion Newton
makes in float32), inertia to 1e-5 relative to its largest entry (turned into
the world by float32 rotations). Newton imports no sensors: usd-core's side
compares them.
"""
from __future__ import annotations

import contextlib
import math
import sys
from typing import Any

import numpy as np

from sdf_tools.transform import Transform
from sdf_tools.verify.snapshot import JointState, MassProps, Snapshot, rotation

NEWTON_TOL = 1e-5
TOLERANCES = {'body pose': NEWTON_TOL, 'joint anchor': NEWTON_TOL, 'joint axis': NEWTON_TOL,
              'joint limits': 1e-6, 'effort limit': 1e-6, 'velocity limit': 1e-6, 'mass': 1e-6,
              'centre of mass': NEWTON_TOL, 'inertia': NEWTON_TOL}
NO_SENSORS = "Newton's add_usd imports no sensors (usd-core's side compares them)"
UNLIMITED = 1e9  # Newton's default position limits are +-1e10
_KINDS = {'PRISMATIC': 'prismatic', 'REVOLUTE': 'revolute', 'BALL': 'ball', 'FIXED': 'fixed',
          'FREE': 'free', 'D6': 'd6'}


def _transform(row: Any) -> Transform:
    x = [float(v) for v in row]  # Newton: px py pz qx qy qz qw
    return Transform((x[0], x[1], x[2]), (x[6], x[3], x[4], x[5]))


def _reference_q(b: Any, kinds: list[str]) -> np.ndarray:
    """Newton's joint_q with every hinge, slide and D6 coordinate at 0, balls at rest."""
    q = np.asarray(b.joint_q, dtype=np.float32)
    ends = [*b.joint_q_start[1:], len(q)]
    for j, kind in enumerate(kinds):
        start, end = b.joint_q_start[j], ends[j]
        if kind in ('revolute', 'prismatic', 'd6'):
            q[start:end] = 0.0
        elif kind == 'ball':
            q[start:end] = (0.0, 0.0, 0.0, 1.0)
    return q


def _import(path: str) -> tuple[Any, np.ndarray, str]:
    """Import the stage; return the builder, the bodies' poses at the reference q, the version."""
    with contextlib.redirect_stdout(sys.stderr):  # warp announces itself on stdout
        import warp as wp
        wp.config.quiet = True  # type: ignore[attr-defined]
        import newton
        from newton._src.usd.schemas import SchemaResolverNewton, SchemaResolverPhysx
        b = newton.ModelBuilder()
        b.add_usd(path, schema_resolvers=[SchemaResolverNewton(), SchemaResolverPhysx()])
        kinds = [_KINDS.get(getattr(t, 'name', str(t)), 'other') for t in b.joint_type]
        if not b.body_count:
            return b, np.zeros((0, 7)), newton.__version__
        model: Any = b.finalize(device='cpu')
        model.joint_q.assign(_reference_q(b, kinds))
        state: Any = model.state()
        newton.eval_fk(model, model.joint_q, model.joint_qd, state)
        return b, state.body_q.numpy(), newton.__version__


def _labels(b: Any, kind: str) -> list[str]:
    """The builder's body or joint names: ``*_label`` in Newton 1.x, ``*_key`` before."""
    labels = getattr(b, f'{kind}_label', None)  # an empty list (a static model) is an answer
    return list(getattr(b, f'{kind}_key') if labels is None else labels)


def _bodies(b: Any, body_q: np.ndarray, names: dict[str, str], snap: Snapshot) -> None:
    labels = _labels(b, 'body')
    for i, label in enumerate(labels):
        key = names.get(str(label))
        if key is None:
            continue
        x = _transform(body_q[i])
        snap.poses[key] = x
        snap.members[key] = key
        r = rotation(x)
        com = x * Transform(tuple(float(v) for v in b.body_com[i]))  # type: ignore[arg-type]
        inertia = np.asarray(b.body_inertia[i], dtype=float).reshape(3, 3)
        snap.masses[key] = MassProps(float(b.body_mass[i]), np.asarray(com.p, dtype=float),
                                     r @ inertia @ r.T)


def _rate(value: float, default: float) -> float | None:
    return None if value == default or not math.isfinite(value) else float(value)


def _joints(b: Any, body_q: np.ndarray, names: dict[str, str], snap: Snapshot) -> None:
    labels = _labels(b, 'joint')
    body_keys = _labels(b, 'body')
    cfg = b.default_joint_cfg
    for j, label in enumerate(labels):
        kind = _KINDS.get(getattr(b.joint_type[j], 'name', ''), 'other')
        child = names.get(str(body_keys[b.joint_child[j]]))
        if kind == 'free' and child is not None:
            snap.free.add(child)
        key = names.get(str(label))
        if key is None:
            continue
        parent = b.joint_parent[j]
        x_wp = _transform(body_q[parent]) if parent >= 0 else Transform()
        x_wj = x_wp * _transform(b.joint_X_p[j])
        axis = limits = effort = velocity = None
        if kind in ('revolute', 'prismatic'):
            dof = b.joint_qd_start[j]
            a = rotation(x_wj) @ np.asarray(b.joint_axis[dof], dtype=float)
            axis = tuple(float(v) for v in a / (np.linalg.norm(a) or 1.0))
            lo, hi = float(b.joint_limit_lower[dof]), float(b.joint_limit_upper[dof])
            limits = None if abs(lo) >= UNLIMITED and abs(hi) >= UNLIMITED else (lo, hi)
            effort = _rate(float(b.joint_effort_limit[dof]), cfg.effort_limit)
            velocity = _rate(float(b.joint_velocity_limit[dof]), cfg.velocity_limit)
        snap.joints[key] = JointState(kind, x_wj.p, axis, limits,  # type: ignore[arg-type]
                                      effort=effort, velocity=velocity)
    snap.couplings = _couplings(b, labels, names)


def _couplings(b: Any, labels: list[str], names: dict[str, str]) -> dict[str, tuple[str, float]]:
    """Newton's mimic couplings (follower -> (leader, multiplier))."""
    out: dict[str, tuple[str, float]] = {}
    leaders = getattr(b, 'joint_mimic_joint', None)
    if leaders is None:
        return out
    for j, leader in enumerate(leaders):
        follower = names.get(str(labels[j]))
        if leader < 0 or follower is None:
            continue
        lead = names.get(str(labels[leader]))
        if lead is not None:
            out[follower] = (lead, float(b.joint_mimic_coeffs[j][1]))
    return out


def newton_snapshot(path: str, usd: Snapshot) -> Snapshot | str:
    """Import ``path`` with Newton; name its objects as usd-core's snapshot ``usd`` does.

    Returns:
        The snapshot, or why Newton cannot import the stage.

    Raises:
        ImportError: Newton is not installed.
    """
    try:
        b, body_q, version = _import(path)
    except ImportError:
        raise
    except Exception as exc:  # Newton raises anything on a stage it cannot take
        return f'Newton cannot import [{path}]: {type(exc).__name__}: {exc}'
    snap = Snapshot(f'Newton {version} add_usd', tolerances=dict(TOLERANCES),
                    optional=dict(usd.optional),
                    lacks={'sensor pose': NO_SENSORS, 'sensor parameters': NO_SENSORS},
                    unlimited_beyond=UNLIMITED)
    snap.static = set(usd.static)  # Newton attaches their shapes to the world (body -1)
    _bodies(b, body_q, usd.paths, snap)
    _merged(usd, snap)
    _joints(b, body_q, usd.paths, snap)
    return snap


def _merged(usd: Snapshot, snap: Snapshot) -> None:
    """Links merged into a body (collapse_fixed_joints): where Newton puts that body, times
    where the stage holds the link's frame in it."""
    for k, body in usd.members.items():
        if k != body and k not in snap.poses and body in snap.poses and body in usd.poses:
            snap.poses[k] = snap.poses[body] * (usd.poses[body].inverse() * usd.poses[k])
            snap.members[k] = body
