"""An MJCF file as MuJoCo compiles it, at ``qpos0`` after ``mj_kinematics``, as a :class:`Snapshot`.

Bodies by name (a link merged away, or collapsed, is the ``<site>`` of its
name), their world poses (``xpos``/``xquat``) and mass properties (``xipos``,
``ximat``, ``body_inertia``); joints by name (``xanchor``, ``xaxis``,
``jnt_range`` where ``jnt_limited``); a body without a joint is welded to its
parent; sensors are the sites named ``<link>/<sensor>``
(:func:`sdf_tools.convert.mjcf.sensors.site_name`).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from sdf_tools.transform import Transform
from sdf_tools.verify.snapshot import JointState, MassProps, Snapshot

WORLD = 'world'


def _transform(pos: Any, quat: Any) -> Transform:
    return Transform(tuple(float(v) for v in pos),  # type: ignore[arg-type]
                     tuple(float(v) for v in quat))  # type: ignore[arg-type]


def _kinds(mujoco: Any) -> dict[int, str]:
    t = mujoco.mjtJoint
    return {int(t.mjJNT_HINGE): 'revolute', int(t.mjJNT_SLIDE): 'prismatic',
            int(t.mjJNT_BALL): 'ball', int(t.mjJNT_FREE): 'free'}


def _bodies(mujoco: Any, m: Any, d: Any, snap: Snapshot) -> None:
    for b in range(1, m.nbody):
        name = m.body(b).name
        snap.poses[name] = _transform(d.xpos[b], d.xquat[b])
        snap.members[name] = name
        r = np.asarray(d.ximat[b], dtype=float).reshape(3, 3)
        snap.masses[name] = MassProps(float(m.body_mass[b]), np.asarray(d.xipos[b], dtype=float),
                                      r @ np.diag(m.body_inertia[b]) @ r.T)
        if int(m.body_jntnum[b]) == 0:
            parent = int(m.body_parentid[b])
            snap.welded[name] = WORLD if parent == 0 else m.body(parent).name
    for s in range(m.nsite):
        name = m.site(s).name
        quat = np.zeros(4)
        mujoco.mju_mat2Quat(quat, np.asarray(d.site_xmat[s], dtype=float))
        pose = _transform(d.site_xpos[s], quat)
        if '/' in name:
            link, _, sensor = name.rpartition('/')
            snap.sensors[f'{link}::{sensor}'] = pose
        elif name not in snap.poses:
            snap.poses[name] = pose
            body = int(m.site_bodyid[s])
            if body > 0:
                snap.members[name] = m.body(body).name


def _joints(mujoco: Any, m: Any, d: Any, snap: Snapshot) -> None:
    kinds = _kinds(mujoco)
    for j in range(m.njnt):
        name = m.joint(j).name
        kind = kinds.get(int(m.jnt_type[j]), 'other')
        axis = tuple(float(v) for v in d.xaxis[j]) if kind in ('revolute', 'prismatic') else None
        limited = bool(m.jnt_limited[j]) and kind in ('revolute', 'prismatic')
        lim = (float(m.jnt_range[j][0]), float(m.jnt_range[j][1])) if limited else None
        if kind == 'free':
            snap.free.add(m.body(int(m.jnt_bodyid[j])).name)
        snap.joints[name] = JointState(kind, tuple(float(v) for v in d.xanchor[j]),  # type: ignore[arg-type]
                                       axis, lim)  # type: ignore[arg-type]


def mujoco_snapshot(path: str) -> Snapshot:
    """Compile ``path`` with MuJoCo and return what it holds at ``qpos0``.

    Raises:
        ValueError: MuJoCo cannot compile the file (its message).
        ImportError: MuJoCo is not installed.
    """
    import mujoco
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    mujoco.mj_kinematics(m, d)
    mujoco.mj_comPos(m, d)
    snap = Snapshot(f'MuJoCo {mujoco.__version__}')
    _bodies(mujoco, m, d, snap)
    _joints(mujoco, m, d, snap)
    return snap
