"""What the page's script needs to draw and move the model, in plain numbers.

Everything is placed at zero joint positions, as ``inspect`` resolves it:
links by their world poses; shapes, centres of mass, inertia boxes, joint
frames and ``<frame>``s in the frame of the link they move with. A joint
moves its child's subtree about its own axis through its origin (both in
world coordinates at zero), so the script's forward kinematics is a product
of such motions along the tree: ``X_L(q) = M_J1(q1) ... M_Jn(qn) X_L(0)``.
Joints are listed parents first; a joint that closes a loop moves nothing.
"""
from __future__ import annotations

import math
from collections import deque
from typing import Any

import numpy as np
from transforms3d.quaternions import mat2quat, quat2mat

from sdf_tools.report import inertia as inr
from sdf_tools.report.walk import JointEntry, LinkEntry
from sdf_tools.transform import IDENTITY, Transform

Json = dict[str, Any]
Pose7 = list[float]  # x y z qx qy qz qw

MOVING = {'revolute': 1, 'continuous': 1, 'prismatic': 1, 'screw': 1, 'universal': 2,
          'revolute2': 2}
_UNBOUNDED = 1e16


def from_json(pose: Json | None) -> Transform | None:
    """The Transform of an ``inspect`` pose object."""
    if pose is None:
        return None
    return Transform.from_xyz_quat_xyzw(tuple(pose['xyz']), tuple(pose['quat_xyzw']))


def pose7(t: Transform) -> Pose7:
    """``[x, y, z, qx, qy, qz, qw]`` of a transform, rounded for the page."""
    w, x, y, z = t.q
    return [round(v, 9) for v in (*t.p, x, y, z, w)]


def _quat_of(r: np.ndarray) -> tuple[float, float, float, float]:
    w, x, y, z = (float(v) for v in mat2quat(r))
    return (w, x, y, z)


def _inertial(entry: LinkEntry, world: Transform) -> Json | None:
    ipose = from_json(entry.data['inertial_pose'])
    if ipose is None:
        return None
    local = world.inverse() * ipose
    mass, inertia = entry.data['mass'], entry.data['inertia']
    box = inr.equivalent_box(mass, inertia)
    out: Json = {'mass': mass, 'com': pose7(local), 'box': None}
    if box is not None:
        r = np.asarray(quat2mat(local.q), dtype=float) @ inr.principal(inertia).axes
        out['box'] = {'size': [round(s, 9) for s in box],
                      'pose': pose7(Transform(local.p, _quat_of(r)))}
    return out


def _range(lower: float, upper: float, kind: str) -> tuple[float | None, float | None]:
    """Slider range: the limits when finite, else null (the page picks one)."""
    if kind == 'continuous' or lower <= -_UNBOUNDED or upper >= _UNBOUNDED or lower > upper:
        return None, None
    return lower, upper


def _tree_order(joints: list[Json], n_links: int) -> list[int]:
    """Joints parents first (breadth-first from links no joint moves); loops left out."""
    by_parent: dict[int, list[int]] = {}
    has_parent = [False] * n_links
    for k, j in enumerate(joints):
        if j['child'] >= 0:
            has_parent[j['child']] = True
        by_parent.setdefault(j['parent'], []).append(k)
    queue = deque([-1, *(i for i in range(n_links) if not has_parent[i])])
    seen = set(queue)
    order: list[int] = []
    while queue:
        for k in by_parent.get(queue.popleft(), []):
            child = joints[k]['child']
            if child >= 0 and child not in seen:
                seen.add(child)
                order.append(k)
                queue.append(child)
    return order


def _joint(entry: JointEntry, index: dict[str, int], worlds: list[Transform | None]) -> Json:
    d, j = entry.data, entry.joint
    child = index.get(d['child'], -1)
    jw = from_json(d['pose'])
    cw = worlds[child] if child >= 0 else None
    out: Json = {'name': entry.name, 'type': d['type'], 'parent': index.get(d['parent'], -1),
                 'child': child, 'origin': None if jw is None else [round(v, 9) for v in jw.p],
                 'local': pose7(cw.inverse() * jw) if jw is not None and cw is not None else None,
                 'axes': [], 'dofs': MOVING.get(d['type'], 0)}
    for axis_json, axis in ((d['axis'], j.axis), (d['axis2'], j.axis2)):
        if axis_json is None or axis is None:
            continue
        norm = math.sqrt(sum(v * v for v in axis_json))
        unit = [v / norm for v in axis_json] if norm > 0 else [0.0, 0.0, 0.0]
        lo, hi = _range(axis.lower, axis.upper, d['type'])
        out['axes'].append({'xyz': [round(v, 9) for v in unit], 'lower': lo, 'upper': hi})
    return out


def _mimics(joints: list[JointEntry], out: list[Json]) -> None:
    """Mark joints that follow another (``<mimic>``): ``q = multiplier * q_leader + offset``.

    The page gives them no slider and moves them with their leader, as
    robot_state_publisher and Gazebo's mimic constraint do.
    """
    by_name = {j.name: k for k, j in enumerate(joints)}
    for k, j in enumerate(joints):
        axis = j.joint.axis
        if axis is None or not axis.mimic_joint:
            continue
        prefix = j.name[:len(j.name) - len(j.joint.name)]
        leader = by_name.get(prefix + axis.mimic_joint)
        if leader is not None and leader != k:
            out[k]['mimic'] = {'joint': leader, 'multiplier': axis.mimic_multiplier,
                               'offset': axis.mimic_offset}


def kinematics(links: list[LinkEntry], joints: list[JointEntry], frames: list[Json]) -> Json:
    """The ``links``, ``joints``, ``frames`` and joint ``order`` the page's script reads."""
    index = {e.name: i for i, e in enumerate(links)}
    worlds = [from_json(e.data['pose']) for e in links]
    out_links = [{'name': e.name, 'world': None if w is None else pose7(w),
                  'inertial': None if w is None else _inertial(e, w)}
                 for e, w in zip(links, worlds, strict=True)]
    out_joints = [_joint(j, index, worlds) for j in joints]
    _mimics(joints, out_joints)
    out_frames: list[Json] = []
    for f in frames:
        fw = from_json(f['pose'])
        link = index.get(f['attached_to'] or '', -1)
        base = worlds[link] if link >= 0 else IDENTITY
        if fw is None or base is None:
            continue
        out_frames.append({'name': f['name'], 'link': link, 'local': pose7(base.inverse() * fw)})
    return {'links': out_links, 'joints': out_joints, 'frames': out_frames,
            'order': _tree_order(out_joints, len(links))}
