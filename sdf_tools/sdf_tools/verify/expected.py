"""A resolved description as a :class:`Snapshot`: the source side, and SDFormat/URDF outputs.

The numbers are the resolved description's (:mod:`sdf_tools.resolved`): link
world poses, inertials in the world, joint world frames, axes and limits,
sensor world poses. A ``<frame>`` stands for a link its file no longer holds
(a URDF fixed joint lumped into its parent becomes a frame of the same name), so
an SDFormat output that lumped links still shows where they are and which body
carries their mass.
"""
from __future__ import annotations

import math

from sdf_tools.convert.massless import no_mass_for
from sdf_tools.convert.mjcf.sensor_params import root
from sdf_tools.convert.sdf.gazebo_tags import parse_blocks
from sdf_tools.model import Model
from sdf_tools.resolved import Resolved, ResolvedAxis, ResolvedJoint
from sdf_tools.transform import Transform
from sdf_tools.verify.sensor_values import parameters
from sdf_tools.verify.snapshot import JointState, Snapshot, in_world

# Source joint types -> the kind an engine compares (a universal or revolute2 joint's
# first axis is a hinge in MJCF, part of a D6 joint in USD; see compare.KINDS_AGREE).
KINDS = {'revolute': 'revolute', 'continuous': 'revolute', 'prismatic': 'prismatic',
         'ball': 'ball', 'fixed': 'fixed', 'floating': 'free', 'universal': 'universal',
         'revolute2': 'revolute2', 'screw': 'screw', 'gearbox': 'gearbox', 'planar': 'planar'}
UNLIMITED = 1e16  # SDFormat's default bounds: no limit


def limits(axis: ResolvedAxis | None, kind: str) -> tuple[float, float] | None:
    """Return the position limits of a joint axis (None: unlimited or none)."""
    if axis is None or kind not in ('revolute', 'prismatic'):
        return None
    lo, hi = axis.lower, axis.upper
    if not (math.isfinite(lo) and math.isfinite(hi)) or (abs(lo) >= UNLIMITED and
                                                         abs(hi) >= UNLIMITED):
        return None
    # lower > upper: libsdformat keeps both, and Gazebo's DART, checking the lower bound
    # first, holds the joint at the lower limit (convert/usd/joints.held_range).
    return (lo, lo) if lo > hi else (lo, hi)


def rate(value: float) -> float | None:
    """Return an effort or velocity limit (None: SDFormat's -1, zero or infinite: no limit)."""
    return value if math.isfinite(value) and 0.0 < value < UNLIMITED else None


def scope_of(r: Resolved, model: str | None = None) -> str | None:
    """Return the prefix to strip from names: ``'M::'`` when one model is compared."""
    tops = [m.name for m in r.models if '::' not in m.name]
    if model is not None:
        return f'{model}::' if model in tops else None
    return f'{tops[0]}::' if len(tops) == 1 else ''


def _key(name: str, pre: str) -> str | None:
    if not pre:
        return name
    return name[len(pre):] if name.startswith(pre) else None


def _joint(j: ResolvedJoint, pre: str) -> JointState:
    kind = KINDS.get(j.type, j.type)
    axis = j.axis.xyz if j.axis is not None and kind not in ('fixed', 'ball') else None
    anchor = j.world.p if j.world is not None else None
    parent = 'world' if j.parent == 'world' else (_key(j.parent, pre) or j.parent)
    a = j.axis if kind in ('revolute', 'prismatic') else None
    return JointState(kind, anchor, axis, limits(j.axis, kind), parent,
                      _key(j.child, pre) or j.child, rate(a.effort) if a else None,
                      rate(a.velocity) if a else None)


def _gearboxes(r: Resolved, pre: str, snap: Snapshot) -> None:
    """Each gearbox as the coupling of the joints holding its child and its parent, with
    ODE's sign (the USD and MJCF exporters write it so: convert/usd/couplings.py)."""
    hinges = {j.child: j.name for j in r.joints if j.type in ('revolute', 'continuous')}
    for j in r.joints:
        if j.type != 'gearbox':
            continue
        k, follower, leader = _key(j.name, pre), hinges.get(j.child), hinges.get(j.parent)
        if k is None or follower is None or leader is None:
            continue
        f, lead = _key(follower, pre), _key(leader, pre)
        ratio = j.element.gearbox_ratio if j.element.gearbox_ratio is not None else 1.0
        if f is not None and lead is not None:
            snap.gearboxes[k] = (f, lead, -ratio)


def snapshot(r: Resolved, engine: str, model: str | None = None,
             target: str | None = None) -> Snapshot:
    """Return the snapshot of a resolved description (one model of it, if ``model``).

    ``target`` is the output's format ('sdf', 'urdf', 'mjcf', 'usd'): a link whose
    mass that format reads as none (:func:`sdf_tools.convert.massless.no_mass_for`, the
    converters' own rule) gets the converter's mass, so it is left out of the
    mass comparison (a note says so), as is a URDF link without ``<inertial>``.
    """
    snap = Snapshot(engine)
    pre = scope_of(r, model)
    if pre is None:
        snap.notes.append(f'no model [{model}]')
        return snap
    urdf = r.format == 'urdf'
    for link in r.links:
        k = _key(link.name, pre)
        if k is None or link.world is None:
            continue
        snap.poses[k] = link.world
        snap.members[k] = k
        i = link.inertial
        if i.world is not None:
            snap.link_masses[k] = snap.masses[k] = in_world(i.mass, i.world, i.inertia)
        no_mass = no_mass_for(link.element.inertial, target) if target else i.mass <= 0.0
        if no_mass or (urdf and not i.written):
            snap.massless.add(k)
            if i.written and i.mass == 0.0:
                snap.zero_mass.add(k)
    for f in r.frames:
        k = _key(f.name, pre)
        if k is None or f.world is None or k in snap.poses:
            continue
        snap.poses[k] = f.world
        if f.moves_with not in (None, 'world'):
            body = _key(f.moves_with or '', pre)
            if body is not None:
                snap.members[k] = body
    for j in r.joints:
        k = _key(j.name, pre)
        if k is None:
            continue
        snap.joints[k] = _joint(j, pre)
        if j.element.file_name:
            snap.joint_aliases[j.element.file_name] = k
    _gearboxes(r, pre, snap)
    held = {j.child for j in r.joints}
    snap.free = {k for k in snap.link_masses if f'{pre}{k}' not in held and
                 not r.models_by_name[r.links_by_name[f'{pre}{k}'].model].static}
    for s in r.sensors:
        k = _key(s.name, pre)
        if k is not None and s.world is not None:
            snap.sensors[k] = s.world
            snap.sensor_params[k] = parameters(s.element.type, root(s.element))
    if urdf:
        for m in r.models:
            _gazebo_sensors(m.element, snap)
    return snap


def _gazebo_sensors(model: Model, snap: Snapshot) -> None:
    """A URDF's ``<gazebo reference="LINK"><sensor>``: at its ``<pose>`` in the link, by ``LINK::NAME``.

    A reference to a joint places the sensor in the joint frame, which is the
    joint's child link frame in URDF.

    libsdformat moves such a sensor into the link a fixed joint lumps LINK into,
    where the exporters' outputs have it too; the comparison finds it there
    through the output's ``members`` (compare._sensors).
    """
    for block in parse_blocks(model.extras):
        joint = snap.joints.get(block.reference)  # a joint's frame is its child link's in URDF
        link = snap.poses.get(joint.child if joint is not None else block.reference)
        for el in block.blobs:
            if el.tag != 'sensor' or not el.get('name') or link is None:
                continue
            v = [float(x) for x in (el.findtext('pose') or '0 0 0 0 0 0').split()[:6]]
            pose = Transform.from_xyz_rpy((v[0], v[1], v[2]), (v[3], v[4], v[5])) \
                if len(v) == 6 else Transform()
            key = f'{block.reference}::{el.get("name")}'
            snap.sensors[key] = link * pose
            snap.sensor_params[key] = parameters(el.get('type') or '', el)
