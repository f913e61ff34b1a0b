"""``resolve``: turn a load result into the resolved description, once.

The frame graphs already know every pose and every attached-to sink; this walks
the document in order (a lone model, then each world's models, joints, frames and
actors, nested models after their parent's own elements) and records what each
element resolves to. The order is the one ``inspect --json`` has always printed.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeVar

from sdf_tools._perf import no_gc
from sdf_tools.frames import FrameGraphs, Kind, resolve_attached_body, resolve_pose
from sdf_tools.frames.graph import join, prefix
from sdf_tools.frames.resolve import body_name, world_pose
from sdf_tools.gazebo import using
from sdf_tools.load import LoadResult
from sdf_tools.model import Actor, Collision, Frame, Joint, JointAxis, Link, Model, Sensor, Visual
from sdf_tools.model.canonical import canonical_link_relative_name
from sdf_tools.model.elements import UNIT_INERTIA
from sdf_tools.resolved.records import (
    Resolved,
    ResolvedActor,
    ResolvedAxis,
    ResolvedFrame,
    ResolvedInertial,
    ResolvedJoint,
    ResolvedLink,
    ResolvedModel,
    ResolvedSensor,
    ResolvedShape,
)
from sdf_tools.transform import IDENTITY, Transform, Vec3
from sdf_tools.urdf.conversion import as_written
from sdf_tools.urdf.lumped_frames import lumped_frames

_FIXED_KINDS = (Kind.WORLD, Kind.STATIC_MODEL, Kind.ROOT)  # a body that never moves
_Named = TypeVar('_Named', ResolvedModel, ResolvedLink, ResolvedJoint)


class _Collector:
    """The records of one document, in order, and the graphs of the scope at hand."""

    def __init__(self) -> None:
        self.models: list[ResolvedModel] = []
        self.links: list[ResolvedLink] = []
        self.joints: list[ResolvedJoint] = []
        self.frames: list[ResolvedFrame] = []
        self.sensors: list[ResolvedSensor] = []
        self.actors: list[ResolvedActor] = []


def _in_link(g: FrameGraphs, scope: str, link_vid: int | None,
             pose_value: Transform | None, relative_to: str) -> Transform | None:
    """A pose written in a link (visual, collision, sensor) in that link's frame."""
    value = pose_value if pose_value is not None else IDENTITY
    if not relative_to:
        return value
    ref = g.find(scope, relative_to)
    if ref is None or link_vid is None:
        return None
    return (resolve_pose(g, ref, link_vid) or IDENTITY) * value


def _shape(g: FrameGraphs, scope: str, link_vid: int | None,
           item: Visual | Collision) -> ResolvedShape:
    p = item.pose
    pose = _in_link(g, scope, link_vid, p.value if p else None, p.relative_to if p else '')
    return ResolvedShape(item.name, pose, item.geometry, item)


def _sensor(g: FrameGraphs, scope: str, parent: str, parent_vid: int | None,
            parent_world: Transform | None, sensor: Sensor) -> ResolvedSensor:
    p = sensor.pose
    local = _in_link(g, scope, parent_vid, p.value if p else None, p.relative_to if p else '')
    world = None if parent_world is None or local is None else parent_world * local
    return ResolvedSensor(f'{parent}::{sensor.name}', parent, world, sensor)


def _inertial(link: Link, world: Transform | None) -> ResolvedInertial:
    i = link.inertial
    pose = i.pose.value if i is not None and i.pose is not None else IDENTITY
    at = None if world is None else world * pose
    if i is None:  # libsdformat's default: 1 kg, unit inertia, at the link origin
        return ResolvedInertial(1.0, UNIT_INERTIA, pose, at, False)
    return ResolvedInertial(i.mass, i.inertia, pose, at, True)


def _link(g: FrameGraphs, c: _Collector, scope: str, pre: str, link: Link) -> None:
    full = pre + link.name
    vid = g.ids.get(full)
    world = world_pose(g, vid)
    c.links.append(ResolvedLink(
        full, scope, world, _inertial(link, world),
        tuple(_shape(g, scope, vid, v) for v in link.visuals),
        tuple(_shape(g, scope, vid, k) for k in link.collisions), link))
    c.sensors.extend(_sensor(g, scope, full, vid, world, s) for s in link.sensors)


def _axis(g: FrameGraphs, scope: str, joint_world: Transform | None,
          axis: JointAxis) -> ResolvedAxis:
    return ResolvedAxis(
        _axis_in_world(g, scope, joint_world, axis), axis.lower, axis.upper,
        # A negative effort or velocity means "unlimited": libsdformat makes it +inf.
        axis.effort if axis.effort >= 0 else math.inf,
        axis.velocity if axis.velocity >= 0 else math.inf,
        axis.damping, axis.friction, axis, axis.initial_position)


def _axis_in_world(g: FrameGraphs, scope: str, joint_world: Transform | None,
                   axis: JointAxis) -> Vec3 | None:
    if joint_world is None:
        return None
    frame: Transform | None = joint_world
    if axis.expressed_in:
        vid = g.find(scope, axis.expressed_in)
        frame = resolve_pose(g, vid) if vid is not None else None
    if frame is None:
        return None
    v = frame.rotate(axis.xyz)
    return (v[0] or 0.0, v[1] or 0.0, v[2] or 0.0)  # no -0.0 (see Transform.to_json)


def _moves_with(g: FrameGraphs, vid: int | None, world_scope: bool) -> str | None:
    """The link ``vid`` moves with, ``world`` if it never moves, None if unresolvable."""
    if vid is None:
        return None
    sink, err = resolve_attached_body(g, vid, world_scope)
    if err is not None or sink is None:
        return None
    return 'world' if g.kinds[sink] in _FIXED_KINDS else g.names[sink]


def _end_moves_with(g: FrameGraphs, pre: str, name: str, world_scope: bool) -> str | None:
    return 'world' if name == 'world' else _moves_with(g, g.ids.get(pre + name), world_scope)


def _end(g: FrameGraphs, pre: str, name: str) -> str:
    """A joint's parent or child as the body it names; as written if it names none.

    libsdformat leaves a nested model's joint ends unchecked, so such a name may
    resolve to nothing.
    """
    if name == 'world':
        return 'world'
    return body_name(g, g.ids.get(pre + name), world_scope=False) or pre + name


def _joint(g: FrameGraphs, c: _Collector, scope: str, pre: str, element: Joint,
           world_scope: bool, joint: Joint | None = None) -> None:
    """Record ``element``; its type and axes are those of ``joint`` (as libsdformat reads it)."""
    joint = joint or element
    full = pre + joint.name
    vid = g.ids.get(full)
    world = world_pose(g, vid)
    a, a2 = joint.axis, joint.axis2
    c.joints.append(ResolvedJoint(
        full, scope, joint.type, _end(g, pre, joint.parent), _end(g, pre, joint.child), world,
        _end_moves_with(g, pre, joint.parent, world_scope),
        _end_moves_with(g, pre, joint.child, world_scope),
        None if a is None else _axis(g, scope, world, a),
        None if a2 is None else _axis(g, scope, world, a2), element))
    c.sensors.extend(_sensor(g, scope, full, vid, world, s) for s in element.sensors)


def _model(g: FrameGraphs, c: _Collector, parent_scope: str, model: Model, world_scope: bool,
           written: Callable[[Joint], Joint] | None = None) -> None:
    """Record ``model``, then its nested models.

    ``written`` gives a URDF joint as libsdformat's conversion writes it
    (``urdf.conversion.as_written``): the joints are recorded that way.
    """
    scope = join(parent_scope, model.name)
    pre = prefix(scope)
    # The canonical link by libsdformat's structural rule (first link, else the
    # first nested model's, recursively); None when that is no link. A
    # canonical_link written is kept as libsdformat names it, whatever frame it
    # names (sdf/model.py warns when that is no link).
    rel = canonical_link_relative_name(model)
    vid = g.ids.get(pre + rel) if rel else None
    canon = (pre + rel if vid is not None and (g.kinds[vid] is Kind.LINK or model.canonical_link)
             else None)
    mv = g.ids.get(scope)
    c.models.append(ResolvedModel(scope, world_pose(g, mv), canon, model.static,
                                  _moves_with(g, mv, world_scope), model))
    for link in model.links:
        _link(g, c, scope, pre, link)
    for joint in model.joints:
        _joint(g, c, scope, pre, joint, world_scope, written(joint) if written else None)
    for f in model.frames:
        _frame(g, c, scope, pre + f.name, f, world_scope)
    for m in model.models:
        _model(g, c, scope, m, world_scope)


def _frame(g: FrameGraphs, c: _Collector, scope: str, full: str, frame: Frame,
           world_scope: bool) -> None:
    vid = g.ids.get(full)
    c.frames.append(ResolvedFrame(full, scope, world_pose(g, vid), body_name(g, vid, world_scope),
                                  _moves_with(g, vid, world_scope), frame))


def _lumped_frames(result: LoadResult, c: _Collector, model: Model) -> None:
    """Record the frames libsdformat's conversion leaves for lumped joints and links (13.1+).

    Each is where its joint is (a URDF child link's frame is its joint's), attached to the
    link everything was lumped into; unplaced when libsdformat does not write that link.
    """
    g, walk = result.model_graphs, result.urdf_walk
    if g is None or walk is None:
        return
    with using(result.gazebo):  # the target the model was read for
        frames = lumped_frames(walk)
    pre = prefix(model.name)
    for lf in frames:
        body = pre + lf.body if lf.written else None
        world = world_pose(g, g.ids.get(pre + lf.joint.name)) if lf.written else None
        c.frames.append(ResolvedFrame(pre + lf.frame.name, model.name, world, body, body,
                                      lf.frame, lumped=True))


def _actor(actor: Actor) -> ResolvedActor:
    return ResolvedActor(actor.name, actor.pose.value if actor.pose is not None else IDENTITY,
                         actor)


@no_gc
def resolve(result: LoadResult, file: str | None = None) -> Resolved:
    """Resolve every element of a loaded document.

    Args:
        result: what ``load_file``/``load_string`` returned.
        file: the name to record as the source (default: the document's file).
    """
    doc = result.document
    c = _Collector()
    if doc is not None:
        if doc.model is not None and result.model_graphs is not None:
            written = as_written(doc.model, result.gazebo) if doc.format == 'urdf' else None
            _model(result.model_graphs, c, '', doc.model, world_scope=False, written=written)
            if doc.format == 'urdf':
                _lumped_frames(result, c, doc.model)
        for world, g in zip(doc.worlds, result.world_graphs, strict=True):
            for m in world.models:
                _model(g, c, '', m, world_scope=True)
            for j in world.joints:
                _joint(g, c, '', '', j, True)
            for f in world.frames:
                _frame(g, c, '', f.name, f, True)
            c.actors.extend(_actor(a) for a in world.actors)
        if doc.actor is not None:
            c.actors.append(_actor(doc.actor))
    return Resolved(
        file if file is not None else (doc.file if doc else None),
        doc.format if doc else None, doc.version if doc else None, result.usable,
        tuple(result.diagnostics), doc,
        tuple(c.models), tuple(c.links), tuple(c.joints), tuple(c.frames), tuple(c.sensors),
        tuple(c.actors),
        _first_by_name(c.models), _first_by_name(c.links), _first_by_name(c.joints),
        result.gazebo, result.urdf_walk)


def _first_by_name(items: list[_Named]) -> dict[str, _Named]:
    out: dict[str, _Named] = {}
    for x in items:
        out.setdefault(x.name, x)
    return out
