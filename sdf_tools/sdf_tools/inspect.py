"""The ``inspect --json`` object: every resolved pose, in the world frame.

Schema (relied on by tests and other tools): ``file``, ``format``,
``version``, ``valid``, ``errors``, ``warnings``, ``models``, ``links``,
``joints``, ``frames``, ``actors``. Poses are
``{"xyz": [...], "quat_xyzw": [...]}`` in the world frame, except visual and
collision poses (in their link's frame) and actor waypoints (as written).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from sdf_tools._perf import no_gc
from sdf_tools.frames import FrameGraphs, Kind, resolve_pose
from sdf_tools.frames.graph import join, prefix
from sdf_tools.frames.resolve import body_name, world_pose
from sdf_tools.load import LoadResult
from sdf_tools.model import Actor, Collision, Joint, JointAxis, Link, Model, Visual
from sdf_tools.model.canonical import canonical_link_relative_name
from sdf_tools.transform import IDENTITY, Transform
from sdf_tools.urdf.conversion import as_written

Json = dict[str, Any]


def _pj(t: Transform | None) -> Json | None:
    return None if t is None else t.to_json()


def _shape(g: FrameGraphs, scope: str, link_vid: int | None, item: Visual | Collision) -> Json:
    p = item.pose
    if p is None or not p.relative_to:
        pose: Json | None = (p.value if p is not None else IDENTITY).to_json()
    else:
        ref = g.find(scope, p.relative_to)
        pose = None if ref is None or link_vid is None else (
            (resolve_pose(g, ref, link_vid) or IDENTITY) * p.value).to_json()
    geom = item.geometry
    gj: Json = {'type': geom.type, **geom.params} if geom is not None else {'type': 'empty'}
    return {'name': item.name, 'pose': pose, 'geometry': gj}


def _link(g: FrameGraphs, scope: str, pre: str, link: Link) -> Json:
    full = pre + link.name
    vid = g.ids.get(full)
    world = world_pose(g, vid)
    inertial = link.inertial
    if inertial is None:
        mass, inertia, ipose = 1.0, [1.0, 0.0, 0.0, 1.0, 0.0, 1.0], IDENTITY
    else:
        mass, inertia = inertial.mass, list(inertial.inertia)
        ipose = inertial.pose.value if inertial.pose is not None else IDENTITY
    return {
        'name': full, 'pose': None if world is None else world.to_json(),
        'mass': mass, 'inertia': inertia,
        'inertial_pose': None if world is None else (world * ipose).to_json(),
        'visuals': [_shape(g, scope, vid, v) for v in link.visuals],
        'collisions': [_shape(g, scope, vid, c) for c in link.collisions],
    }


def _axis(g: FrameGraphs, scope: str, joint_world: Transform | None,
          axis: JointAxis) -> list[float] | None:
    if joint_world is None:
        return None
    frame: Transform | None = joint_world
    if axis.expressed_in:
        vid = g.find(scope, axis.expressed_in)
        frame = resolve_pose(g, vid) if vid is not None else None
    if frame is None:
        return None
    v = frame.rotate(axis.xyz)
    return [v[0] or 0.0, v[1] or 0.0, v[2] or 0.0]  # no -0.0 (see Transform.to_json)


def _joint(g: FrameGraphs, scope: str, pre: str, joint: Joint) -> Json:
    full = pre + joint.name
    world = world_pose(g, g.ids.get(full))
    a, a2 = joint.axis, joint.axis2
    return {
        'name': full, 'type': joint.type,
        # joint_body() of each, with the scope's prefix at hand; a name that
        # resolves to no link (unchecked in nested models) is printed as written
        'parent': 'world' if joint.parent == 'world' else body_name(
            g, g.ids.get(pre + joint.parent), world_scope=False) or pre + joint.parent,
        'child': 'world' if joint.child == 'world' else body_name(
            g, g.ids.get(pre + joint.child), world_scope=False) or pre + joint.child,
        'pose': None if world is None else world.to_json(),
        'axis': None if a is None else _axis(g, scope, world, a),
        'axis2': None if a2 is None else _axis(g, scope, world, a2),
        # A negative effort or velocity means "unlimited" (libsdformat turns
        # it into +inf); strict JSON has no infinity, so we print null, as for
        # a bound written as inf or -inf.
        'limit': None if a is None else {
            'lower': _finite(a.lower), 'upper': _finite(a.upper),
            'effort': _finite(a.effort) if a.effort >= 0 else None,
            'velocity': _finite(a.velocity) if a.velocity >= 0 else None},
        'dynamics': None if a is None else {'damping': a.damping, 'friction': a.friction},
    }


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _frame(g: FrameGraphs, full: str, world_scope: bool) -> Json:
    vid = g.ids.get(full)
    return {'name': full, 'pose': _pj(world_pose(g, vid)), 'attached_to': body_name(g, vid, world_scope)}


def _model(g: FrameGraphs, parent_scope: str, model: Model, out: Json, world_scope: bool,
           written: Callable[[Joint], Joint] | None = None) -> None:
    """Add ``model`` (and its nested models) to ``out``.

    ``written`` gives a URDF joint as libsdformat's conversion writes it
    (``urdf.conversion.as_written``): the joints are reported that way.
    """
    scope = join(parent_scope, model.name)
    pre = prefix(scope)
    # The canonical link by libsdformat's structural rule (first link, else
    # the first nested model's, recursively); null when that is no link.
    rel = canonical_link_relative_name(model)
    vid = g.ids.get(pre + rel) if rel else None
    # A canonical_link written is reported as libsdformat names it, whatever frame it
    # names (sdf/model.py warns when that is no link).
    canon = (pre + rel if vid is not None and (g.kinds[vid] is Kind.LINK or model.canonical_link)
             else None)
    out['models'].append({'name': scope, 'pose': _pj(world_pose(g, g.ids.get(scope))),
                          'canonical_link': canon, 'static': model.static})
    out['links'].extend([_link(g, scope, pre, link) for link in model.links])
    out['joints'].extend([_joint(g, scope, pre, written(j) if written else j)
                          for j in model.joints])
    out['frames'].extend([_frame(g, pre + f.name, world_scope) for f in model.frames])
    for m in model.models:
        _model(g, scope, m, out, world_scope)


def _actor(actor: Actor) -> Json:
    pose = actor.pose.value if actor.pose is not None else IDENTITY
    return {
        'name': actor.name, 'pose': pose.to_json(), 'skin': actor.skin_filename,
        'animations': [{'name': a.name, 'filename': a.filename, 'scale': a.scale,
                        'interpolate_x': a.interpolate_x} for a in actor.animations],
        'script': {'loop': actor.loop, 'delay_start': actor.delay_start,
                   'auto_start': actor.auto_start},
        'trajectories': [{'id': t.id, 'type': t.type, 'tension': t.tension,
                          'waypoints': [{'time': w.time, 'pose': w.pose.value.to_json()}
                                        for w in t.waypoints]} for t in actor.trajectories],
    }


@no_gc
def inspect_result(result: LoadResult, file: str | None = None) -> Json:
    """Turn a load result into the ``inspect --json`` object."""
    doc = result.document
    out: Json = {
        'file': file if file is not None else (doc.file if doc else None),
        'format': doc.format if doc else None,
        'version': doc.version if doc else None,
        'valid': result.valid,
        'errors': [d.to_json() for d in result.errors],
        'warnings': [d.to_json() for d in result.warnings],
        'models': [], 'links': [], 'joints': [], 'frames': [], 'actors': [],
    }
    if doc is None:
        return out
    if doc.model is not None and result.model_graphs is not None:
        written = as_written(doc.model) if doc.format == 'urdf' else None
        _model(result.model_graphs, '', doc.model, out, world_scope=False, written=written)
    for world, g in zip(doc.worlds, result.world_graphs, strict=True):
        for m in world.models:
            _model(g, '', m, out, world_scope=True)
        out['joints'].extend([_joint(g, '', '', j) for j in world.joints])
        out['frames'].extend([_frame(g, f.name, True) for f in world.frames])
        out['actors'].extend([_actor(a) for a in world.actors])
    if doc.actor is not None:
        out['actors'].append(_actor(doc.actor))
    return out


def inspect_file(path: str, xacro_args: dict[str, str] | None = None) -> Json:
    """Load ``path`` and return its ``inspect --json`` object."""
    from sdf_tools.load import load_file
    return inspect_result(load_file(path, xacro_args), path)
