"""What the page's script needs to draw and move the model, in plain numbers.

Everything is placed at zero joint positions, as ``resolve`` places it:
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

from sdf_tools.lint import inertia as inr
from sdf_tools.resolved import Resolved, ResolvedAxis, ResolvedJoint, ResolvedLink
from sdf_tools.transform import IDENTITY, Transform

#: The page's data, as JSON objects (this module writes an output format).
PageData = dict[str, Any]
Pose7 = list[float]  # x y z qx qy qz qw

MOVING = {'revolute': 1, 'continuous': 1, 'prismatic': 1, 'screw': 1, 'universal': 2,
          'revolute2': 2}
#: The unit a joint's slider shows its value in (a screw joint turns).
UNITS = {'prismatic': 'm'}
_UNBOUNDED = 1e16


def pose7(t: Transform) -> Pose7:
    """``[x, y, z, qx, qy, qz, qw]`` of a transform, rounded for the page."""
    w, x, y, z = t.q
    return [round(v, 9) for v in (*t.p, x, y, z, w)]


def _quat_of(r: np.ndarray) -> tuple[float, float, float, float]:
    w, x, y, z = (float(v) for v in mat2quat(r))
    return (w, x, y, z)


def _inertial(link: ResolvedLink, world: Transform) -> PageData | None:
    i = link.inertial
    if i.world is None:
        return None
    local = world.inverse() * i.world
    box = inr.equivalent_box(i.mass, i.inertia)
    out: PageData = {'mass': i.mass, 'com': pose7(local), 'box': None}
    if box is not None:
        r = np.asarray(quat2mat(local.q), dtype=float) @ inr.principal(i.inertia).axes
        out['box'] = {'size': [round(s, 9) for s in box],
                      'pose': pose7(Transform(local.p, _quat_of(r)))}
    return out


def _range(lower: float, upper: float, kind: str) -> tuple[float | None, float | None]:
    """Slider range: the limits when finite, else null (the page picks one)."""
    if (kind == 'continuous' or not math.isfinite(lower) or not math.isfinite(upper)
            or lower <= -_UNBOUNDED or upper >= _UNBOUNDED or lower > upper):
        return None, None
    return lower, upper


def _tree_order(joints: list[PageData], n_links: int) -> list[int]:
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


def _axis(axis: ResolvedAxis, kind: str, initial: float | None) -> PageData:
    xyz = axis.xyz or (0.0, 0.0, 0.0)
    lo, hi = _range(axis.lower, axis.upper, kind)
    start = axis.initial_position if initial is None else initial
    return {'xyz': [round(v, 9) for v in xyz], 'lower': lo, 'upper': hi,
            'initial': start if math.isfinite(start) else 0.0}


def _joint(j: ResolvedJoint, index: dict[str, int], worlds: list[Transform | None],
           initial: dict[str, float]) -> PageData:
    child = index.get(j.child, -1)
    jw = j.world
    cw = worlds[child] if child >= 0 else None
    # The file's type for a URDF joint (continuous), libsdformat's for the motion.
    written = j.element.type
    out: PageData = {'name': j.name, 'type': j.type, 'parent': index.get(j.parent, -1),
                     'child': child, 'origin': None if jw is None else [round(v, 9) for v in jw.p],
                     'local': pose7(cw.inverse() * jw) if jw is not None and cw is not None else None,
                     'axes': [], 'dofs': MOVING.get(j.type, 0),
                     'unit': UNITS.get(j.type, 'rad')}
    for k, axis in enumerate((j.axis, j.axis2)):
        if axis is not None:
            out['axes'].append(_axis(axis, written, initial.get(j.name if k == 0 else f'{j.name}/2')))
    return out


def _mimics(joints: tuple[ResolvedJoint, ...], out: list[PageData]) -> None:
    """Mark joints that follow another (``<mimic>``): ``q = multiplier * q_leader + offset``.

    The page gives them no slider and moves them with their leader, as
    robot_state_publisher and Gazebo's mimic constraint do.
    """
    by_name = {j.name: k for k, j in enumerate(joints)}
    for k, j in enumerate(joints):
        axis = j.element.axis
        if axis is None or not axis.mimic_joint:
            continue
        scope = j.name[:len(j.name) - len(j.element.name)]
        leader = by_name.get(scope + axis.mimic_joint)
        if leader is not None and leader != k:
            out[k]['mimic'] = {'joint': leader, 'multiplier': axis.mimic_multiplier,
                               'offset': axis.mimic_offset}


def kinematics(resolved: Resolved, initial: dict[str, float] | None = None) -> PageData:
    """The ``links``, ``joints``, ``frames`` and joint ``order`` the page's script reads.

    ``initial``: joint positions by scoped name, over the files' own
    ``<initial_position>`` (``NAME/2``: the second axis).
    """
    index = {lk.name: i for i, lk in enumerate(resolved.links)}
    worlds = [lk.world for lk in resolved.links]
    out_links = [{'name': lk.name, 'world': None if w is None else pose7(w),
                  'inertial': None if w is None else _inertial(lk, w)}
                 for lk, w in zip(resolved.links, worlds, strict=True)]
    out_joints = [_joint(j, index, worlds, initial or {}) for j in resolved.joints]
    _mimics(resolved.joints, out_joints)
    out_frames: list[PageData] = []
    for f in resolved.frames:
        link = index.get(f.moves_with or '', -1)
        base = worlds[link] if link >= 0 else IDENTITY
        if f.world is None or base is None:
            continue
        out_frames.append({'name': f.name, 'link': link, 'local': pose7(base.inverse() * f.world)})
    return {'links': out_links, 'joints': out_joints, 'frames': out_frames,
            'order': _tree_order(out_joints, len(resolved.links))}
