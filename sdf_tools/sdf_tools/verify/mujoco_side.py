"""An MJCF file as MuJoCo compiles it, at ``qpos0`` after ``mj_kinematics``, as a :class:`Snapshot`.

Bodies by name (a link merged away, or collapsed, is the ``<site>`` of its
name), their world poses (``xpos``/``xquat``) and mass properties (``xipos``,
``ximat``, ``body_inertia``); joints by name (``xanchor``, ``xaxis``,
``jnt_range`` where ``jnt_limited`` (a joint its own ``<equality><joint>`` holds still:
that position, as lower and upper), the effort limit ``jnt_actfrcrange`` where
``jnt_actfrclimited``, the velocity limit the ``<custom>`` numeric
``velocity_limit:<joint>``: MuJoCo has none); actuators on joints with their
``ctrlrange``/``forcerange`` where limited; a body without a joint is welded to
its parent; sensors are the sites named ``<link>/<sensor>``
(:func:`sdf_tools.convert.mjcf.sensors.site_name`), their parameters what MuJoCo
compiled: the camera's ``cam_fovy`` and ``cam_resolution`` (the horizontal field
of view), the rangefinders' ``sensor_cutoff`` (range max), the ``<custom>``
update rate and noise (:mod:`sdf_tools.convert.mjcf.sensors`).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
from lxml import etree

from sdf_tools.transform import Transform
from sdf_tools.verify.sensor_values import noise_fields
from sdf_tools.verify.snapshot import ActuatorState, JointState, MassProps, Snapshot

WORLD = 'world'
LACKS = {'clip_near': 'MuJoCo clips with <visual><map znear zfar>, not per camera',
         'clip_far': 'MuJoCo clips with <visual><map znear zfar>, not per camera',
         'range_min': "MuJoCo's rangefinder has no minimum range"}


def _transform(pos: Any, quat: Any) -> Transform:
    return Transform(tuple(float(v) for v in pos),  # type: ignore[arg-type]
                     tuple(float(v) for v in quat))  # type: ignore[arg-type]


def _kinds(mujoco: Any) -> dict[int, str]:
    t = mujoco.mjtJoint
    return {int(t.mjJNT_HINGE): 'revolute', int(t.mjJNT_SLIDE): 'prismatic',
            int(t.mjJNT_BALL): 'ball', int(t.mjJNT_FREE): 'free'}


def _bodies(mujoco: Any, m: Any, d: Any, snap: Snapshot) -> None:
    texts = _texts(mujoco, m)
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
            snap.sensor_params[f'{link}::{sensor}'] = _sensor_params(mujoco, m, name, texts)
        # A link merged away whose own name holds a '/' (Menagerie's aloha: left/gripper_base,
        # collapsed) is a site of that name too: only the source's names are looked up.
        if name not in snap.poses:
            snap.poses[name] = pose
            body = int(m.site_bodyid[s])
            if body > 0:
                snap.members[name] = m.body(body).name


def _locked(mujoco: Any, m: Any) -> dict[int, float]:
    """Joints an active ``<equality><joint>`` of their own holds still, and where.

    The export writes a joint whose limits are equal (lower = upper) so, MuJoCo taking no
    empty range: ``q - q0 = polycoef[0]``, with no second joint and no other coefficient.
    """
    out: dict[int, float] = {}
    for e in range(m.neq):
        if int(m.eq_type[e]) != int(mujoco.mjtEq.mjEQ_JOINT) or m.eq_obj2id[e] >= 0 \
                or not m.eq_active0[e] or any(float(v) for v in m.eq_data[e][1:5]):
            continue
        j = int(m.eq_obj1id[e])
        out[j] = float(m.qpos0[m.jnt_qposadr[j]]) + float(m.eq_data[e][0])
    return out


def _joints(mujoco: Any, m: Any, d: Any, snap: Snapshot) -> None:
    kinds = _kinds(mujoco)
    locked = _locked(mujoco, m)
    for j in range(m.njnt):
        name = m.joint(j).name
        kind = kinds.get(int(m.jnt_type[j]), 'other')
        axis = tuple(float(v) for v in d.xaxis[j]) if kind in ('revolute', 'prismatic') else None
        limited = bool(m.jnt_limited[j]) and kind in ('revolute', 'prismatic')
        lim = (float(m.jnt_range[j][0]), float(m.jnt_range[j][1])) if limited else None
        if lim is None and j in locked and kind in ('revolute', 'prismatic'):
            lim = (locked[j], locked[j])
        if kind == 'free':
            snap.free.add(m.body(int(m.jnt_bodyid[j])).name)
        effort = None
        if m.jnt_actfrclimited[j]:
            effort = max(abs(float(v)) for v in m.jnt_actfrcrange[j])
        snap.joints[name] = JointState(kind, tuple(float(v) for v in d.xanchor[j]),  # type: ignore[arg-type]
                                       axis, lim, effort=effort,  # type: ignore[arg-type]
                                       velocity=_numeric(mujoco, m, f'velocity_limit:{name}'))


def _numeric(mujoco: Any, m: Any, name: str) -> float | None:
    i = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_NUMERIC, name)
    return float(m.numeric_data[m.numeric_adr[i]]) if i >= 0 and m.numeric_size[i] else None


def _actuator_kind(mujoco: Any, m: Any, a: int) -> str:
    bias = int(m.actuator_biastype[a])
    if bias == int(mujoco.mjtBias.mjBIAS_NONE):
        return 'motor'
    if bias == int(mujoco.mjtBias.mjBIAS_AFFINE) and m.actuator_biasprm[a][1] < 0:
        return 'position'
    if bias == int(mujoco.mjtBias.mjBIAS_AFFINE) and m.actuator_biasprm[a][2] < 0:
        return 'velocity'
    return 'other'


def _actuators(mujoco: Any, m: Any, snap: Snapshot) -> None:
    for a in range(m.nu):
        if int(m.actuator_trntype[a]) != int(mujoco.mjtTrn.mjTRN_JOINT):
            continue
        ctrl = tuple(float(v) for v in m.actuator_ctrlrange[a]) if m.actuator_ctrllimited[a] \
            else None
        force = tuple(float(v) for v in m.actuator_forcerange[a]) \
            if m.actuator_forcelimited[a] else None
        snap.actuators[m.actuator(a).name or f'actuator {a}'] = ActuatorState(
            m.joint(int(m.actuator_trnid[a][0])).name, _actuator_kind(mujoco, m, a),
            ctrl, force, float(m.actuator_gear[a][0]))  # type: ignore[arg-type]


def _texts(mujoco: Any, m: Any) -> dict[str, str]:
    raw = bytes(m.text_data)
    return {mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_TEXT, i):
            raw[m.text_adr[i]:m.text_adr[i] + m.text_size[i]].rstrip(b'\0').decode()
            for i in range(m.ntext)}


def _sensor_params(mujoco: Any, m: Any, site: str, texts: dict[str, str]) -> dict[str, float]:
    out: dict[str, float] = {}
    rate = _numeric(mujoco, m, f'sensor_update_rate:{site}')
    if rate is not None:
        out['update_rate'] = rate
    c = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_CAMERA, site)
    if c >= 0:
        w, h = (float(v) for v in m.cam_resolution[c])
        half = math.tan(math.radians(float(m.cam_fovy[c])) / 2.0)
        out['horizontal_fov'] = 2.0 * math.atan(half * w / h)
    cutoffs = {float(m.sensor_cutoff[s]) for s in range(m.nsensor)
               if int(m.sensor_type[s]) == int(mujoco.mjtSensor.mjSENS_RANGEFINDER)
               and (m.sensor(s).name or '').startswith(f'{site}:ray')}
    if cutoffs:  # one per ray: they agree, or the parameter is not one value
        out['range_max'] = cutoffs.pop() if len(cutoffs) == 1 else math.nan
    for key, text in texts.items():
        if key.startswith(f'sensor_noise:{site}:'):
            path = key[len(f'sensor_noise:{site}:'):]
            out.update({f'noise {path} {k}': v for k, v in noise_fields(text).items()})
    return out


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
    snap = Snapshot(f'MuJoCo {mujoco.__version__}', sensor_lacks=dict(LACKS),
                    balances_inertia=_balances_inertia(path))
    _bodies(mujoco, m, d, snap)
    _joints(mujoco, m, d, snap)
    _actuators(mujoco, m, snap)
    return snap


def _balances_inertia(path: str) -> bool:
    """Whether the file's ``<compiler balanceinertia>`` is true (MjModel does not keep it)."""
    try:
        root = etree.parse(path, etree.XMLParser(resolve_entities=False, no_network=True)).getroot()
    except (OSError, etree.XMLSyntaxError):
        return False
    return any(c.get('balanceinertia') == 'true' for c in root.iter('compiler'))
