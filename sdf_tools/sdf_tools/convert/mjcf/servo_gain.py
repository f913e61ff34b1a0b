"""Cap a ``<position>`` servo's ``kp`` so that it stays stable at the written timestep.

A servo of stiffness ``kp`` on a joint of effective inertia ``I`` (the
diagonal of the mass matrix at the reference pose, what MuJoCo calls
``dof_M0``: the subtree the joint moves, about the joint's axis, plus the
joint's ``armature``) oscillates at ``w = sqrt(kp / I)``. The cap keeps
``w dt`` at :data:`MAX_OMEGA_DT` = 0.5, with ``dt`` the written timestep.

Why 0.5, and why the exporter then writes ``integrator="implicitfast"``
(``actuators.py``): MuJoCo's default Euler treats the actuator's damping
(``dampratio`` 1 gives ``kv = 2 sqrt(kp I)``) explicitly; for one critically
damped joint its step is unstable from ``w dt`` ~ 0.9 and decays fastest at
0.5. But joints in a chain couple: the modes of the whole chain are faster
than each joint alone (a 3-joint arm of 50 g links capped so has a mode of
``w dt`` 3.2), and Euler blows that arm up even with the cap.
``implicitfast`` takes the actuators' damping implicitly, which damps the
coupled modes; it holds the capped arm, and still not the uncapped one
(so101's effort-derived kp 100 on its 1.6e-5 kg m^2 gripper is ``w dt`` ~ 5),
so both are needed (test_actuators.py shows each failing alone).
"""
from __future__ import annotations

import math

import numpy as np
from lxml import etree

from sdf_tools.transform import Transform, normalize_quat

#: MuJoCo's default ``<option timestep>``.
MUJOCO_TIMESTEP = 0.002
#: The largest natural frequency times timestep a written servo may have (see the module text).
MAX_OMEGA_DT = 0.5


def _vec(el: etree._Element, attr: str, default: tuple[float, ...]) -> tuple[float, ...]:
    text = el.get(attr)
    return tuple(float(v) for v in text.split()) if text else default


def _pose(el: etree._Element) -> Transform:
    p = _vec(el, 'pos', (0.0, 0.0, 0.0))
    q = _vec(el, 'quat', (1.0, 0.0, 0.0, 0.0))
    return Transform((p[0], p[1], p[2]), normalize_quat((q[0], q[1], q[2], q[3])))


def _rotation(t: Transform) -> np.ndarray:
    rows: np.ndarray = np.array([t.rotate((1.0, 0.0, 0.0)), t.rotate((0.0, 1.0, 0.0)),
                                 t.rotate((0.0, 0.0, 1.0))])
    cols: np.ndarray = rows.T  # columns: the rotated unit vectors
    return cols


def _tensor(inertial: etree._Element) -> np.ndarray:
    full = inertial.get('fullinertia')
    if full:
        xx, yy, zz, xy, xz, yz = (float(v) for v in full.split())
        return np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    return np.diag(_vec(inertial, 'diaginertia', (0.0, 0.0, 0.0)))


def _subtree(body: etree._Element, pose: Transform) -> list[tuple[etree._Element, Transform]]:
    out = [(body, pose)]
    for child in body.iterchildren('body'):
        out += _subtree(child, pose * _pose(child))
    return out


def joint_inertia(joint: etree._Element) -> float:
    """Return the effective inertia (or mass) about a written hinge's (slide's) axis at qpos0.

    Args:
        joint: a ``<joint>`` in its ``<body>``; bodies without ``<inertial>`` count as massless.
    """
    body = joint.getparent()
    assert body is not None
    anchor = np.array(_vec(joint, 'pos', (0.0, 0.0, 0.0)))
    axis = np.array(_vec(joint, 'axis', (0.0, 0.0, 1.0)))
    axis = axis / np.linalg.norm(axis)
    slide = joint.get('type') == 'slide'
    total = float(joint.get('armature', '0'))
    for el, pose in _subtree(body, Transform()):
        inertial = el.find('inertial')
        if inertial is None:
            continue
        mass = float(inertial.get('mass', '0'))
        if slide:
            total += mass
            continue
        at = pose * _pose(inertial)
        r = _rotation(at)
        arm = np.cross(np.array(at.p) - anchor, axis)
        total += float(axis @ r @ _tensor(inertial) @ r.T @ axis) + mass * float(arm @ arm)
    return total


def timestep(option: etree._Element) -> float:
    """Return the ``timestep`` of an ``<option>`` (MuJoCo's default when not written)."""
    text = option.get('timestep')
    return float(text) if text else MUJOCO_TIMESTEP


def capped_kp(kp: float, joint: etree._Element, dt: float) -> tuple[float, float | None]:
    """Return (the kp to write, the effective inertia when ``kp`` was capped, else None)."""
    inertia = joint_inertia(joint)
    if inertia <= 0.0:
        return kp, None  # nothing moves: MuJoCo's dampratio has nothing to scale either
    limit = inertia * (MAX_OMEGA_DT / dt) ** 2
    return (limit, inertia) if kp > limit and math.isfinite(limit) else (kp, None)
