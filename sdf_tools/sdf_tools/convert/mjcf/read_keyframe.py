"""An MJCF ``<keyframe>`` back to SDFormat: where each joint starts, as ``//axis/initial_position``.

The key named ``initial`` (what the MJCF export writes, convert/mjcf/keyframe.py),
else the first key, gives each hinge and slide its starting position: its
``qpos`` minus ``qpos0`` (the joint's ``ref``: position 0 of the SDFormat joint is
where the links are placed, see reader._ref). A free or ball joint's position in
the key, the key's velocities, controls and mocap poses, and every other key
have no place in SDFormat: reported.
"""
from __future__ import annotations

import numpy as np

from sdf_tools.convert.conversion_report import ReportKind
from sdf_tools.convert.mjcf.reader import _FREE, _HINGE, _SLIDE, MjcfSource, element_name
from sdf_tools.model import Joint

KEY = 'initial'


def _chosen(src: MjcfSource) -> int | None:
    m = src.model
    if not m.nkey:
        return None
    return next((k for k in range(m.nkey) if m.key(k).name == KEY), 0)


def _unused_parts(src: MjcfSource, k: int) -> list[str]:
    """The parts of key ``k`` other than joint positions that hold something."""
    m = src.model
    parts = [('qvel', m.key_qvel[k], 0.0), ('act', m.key_act[k], 0.0),
             ('ctrl', m.key_ctrl[k], 0.0), ('time', [m.key_time[k]], 0.0)]
    return [name for name, values, zero in parts if np.any(np.asarray(values) != zero)]


def read_initial_key(src: MjcfSource, joints: dict[str, Joint]) -> int | None:
    """Set ``initial_position`` of ``joints`` (by MJCF name) from the key; return its index."""
    k = _chosen(src)
    if k is None:
        return None
    m = src.model
    qpos, set_, dropped = m.key_qpos[k], [], []
    for j in range(m.njnt):
        adr, jt = int(m.jnt_qposadr[j]), int(m.jnt_type[j])
        name = element_name(src, 'joint', j, f'joint{j}')
        if jt in (_HINGE, _SLIDE):
            q = float(qpos[adr]) - float(m.qpos0[adr])
            joint = joints.get(name)
            if q and joint is not None and joint.axis is not None:
                joint.axis.initial_position = q
                set_.append(name)
            continue
        width = 7 if jt == _FREE else 4
        if np.any(np.asarray(qpos[adr:adr + width]) != np.asarray(m.qpos0[adr:adr + width])):
            dropped.append(name)
    key = m.key(k).name or str(k)
    where = src.where('key', m.key(k).name)
    src.report.add(ReportKind.REWRITTEN, f'key[{key}]', f'qpos read as the '
                   f'//axis/initial_position of {len(set_)} joint(s)'
                   + (f': {", ".join(set_)}' if set_ else ''), *where)
    for name in dropped:
        src.report.add(ReportKind.DROPPED, f'key[{key}]/joint[{name}]', 'a free or ball '
                       "joint's position in the key: SDFormat has no starting pose for it", *where)
    unused = _unused_parts(src, k)
    if unused:
        src.report.add(ReportKind.DROPPED, f'key[{key}]', f'{", ".join(unused)} of the key: '
                       'SDFormat holds only joint positions', *where)
    return k
