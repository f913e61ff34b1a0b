"""The ``inspect --json`` object: every resolved pose, in the world frame.

Schema (relied on by tests and other tools): ``file``, ``format``,
``version``, ``valid``, ``errors``, ``warnings``, ``models``, ``links``,
``joints``, ``frames``, ``actors``. Poses are
``{"xyz": [...], "quat_xyzw": [...]}`` in the world frame, except visual and
collision poses (in their link's frame) and actor waypoints (as written).
"""
from __future__ import annotations

from typing import Any

from sdf_tools._perf import no_gc
from sdf_tools.frames import FrameGraphs, Kind, resolve_attached_body, resolve_pose
from sdf_tools.frames.checks import joint_body
from sdf_tools.frames.graph import join
from sdf_tools.load import LoadResult
from sdf_tools.model import Actor, Collision, Joint, JointAxis, Link, Model, Visual
from sdf_tools.model.canonical import canonical_link_relative_name
from sdf_tools.transform import IDENTITY, Transform

Json = dict[str, Any]


def _pose(g: FrameGraphs, full: str) -> Transform | None:
    vid = g.ids.get(full)
    return None if vid is None else resolve_pose(g, vid)


def _pj(t: Transform | None) -> Json | None:
    return None if t is None else t.to_json()


def _body_name(g: FrameGraphs, vid: int, world_scope: bool) -> str | None:
    body, err = resolve_attached_body(g, vid, world_scope)
    if err is not None or body is None:
        return None
    if g.kinds[body] is Kind.WORLD:
        return 'world'
    return g.names[body]


def _shape(g: FrameGraphs, scope: str, link_full: str, item: Visual | Collision) -> Json:
    raw = item.pose.value if item.pose is not None else IDENTITY
    pose: Transform | None = raw
    if item.pose is not None and item.pose.relative_to:
        ref, lv = g.find(scope, item.pose.relative_to), g.ids.get(link_full)
        pose = None if ref is None or lv is None else (
            (resolve_pose(g, ref, lv) or IDENTITY) * raw)
    geom = item.geometry
    gj: Json = {'type': geom.type, **geom.params} if geom is not None else {'type': 'empty'}
    return {'name': item.name, 'pose': _pj(pose), 'geometry': gj}


def _link(g: FrameGraphs, scope: str, link: Link) -> Json:
    full = join(scope, link.name)
    world = _pose(g, full)
    inertial = link.inertial
    mass = inertial.mass if inertial else 1.0
    inertia = list(inertial.inertia) if inertial else [1.0, 0.0, 0.0, 1.0, 0.0, 1.0]
    ipose = inertial.pose.value if inertial and inertial.pose else IDENTITY
    return {
        'name': full, 'pose': _pj(world), 'mass': mass, 'inertia': inertia,
        'inertial_pose': _pj(world * ipose if world is not None else None),
        'visuals': [_shape(g, scope, full, v) for v in link.visuals],
        'collisions': [_shape(g, scope, full, c) for c in link.collisions],
    }


def _axis(g: FrameGraphs, scope: str, joint_world: Transform | None,
          axis: JointAxis | None) -> list[float] | None:
    if axis is None or joint_world is None:
        return None
    frame: Transform | None = joint_world
    if axis.expressed_in:
        vid = g.find(scope, axis.expressed_in)
        frame = resolve_pose(g, vid) if vid is not None else None
    if frame is None:
        return None
    v = frame.rotate(axis.xyz)
    return [v[0] + 0.0, v[1] + 0.0, v[2] + 0.0]


def _joint(g: FrameGraphs, scope: str, joint: Joint) -> Json:
    full = join(scope, joint.name)
    world = _pose(g, full)
    a = joint.axis
    return {
        'name': full, 'type': joint.type,
        'parent': joint_body(g, scope, joint.parent),
        'child': joint_body(g, scope, joint.child),
        'pose': _pj(world),
        'axis': _axis(g, scope, world, joint.axis),
        'axis2': _axis(g, scope, world, joint.axis2),
        # A negative effort or velocity means "unlimited" (libsdformat turns
        # it into +inf); strict JSON has no infinity, so we print null.
        'limit': None if a is None else {'lower': a.lower, 'upper': a.upper,
                                         'effort': a.effort if a.effort >= 0 else None,
                                         'velocity': a.velocity if a.velocity >= 0 else None},
        'dynamics': None if a is None else {'damping': a.damping, 'friction': a.friction},
    }


def _model(g: FrameGraphs, parent_scope: str, model: Model, out: Json, world_scope: bool) -> None:
    scope = join(parent_scope, model.name)
    # The canonical link by libsdformat's structural rule (first link, else
    # the first nested model's, recursively); null when that is no link.
    rel = canonical_link_relative_name(model)
    vid = g.ids.get(join(scope, rel)) if rel else None
    canon = join(scope, rel) if vid is not None and g.kinds[vid] is Kind.LINK else None
    out['models'].append({'name': scope, 'pose': _pj(_pose(g, scope)),
                          'canonical_link': canon, 'static': model.static})
    out['links'].extend(_link(g, scope, link) for link in model.links)
    out['joints'].extend(_joint(g, scope, j) for j in model.joints)
    for f in model.frames:
        full = join(scope, f.name)
        vid = g.ids.get(full)
        out['frames'].append({'name': full, 'pose': _pj(_pose(g, full)),
                              'attached_to': None if vid is None else _body_name(g, vid, world_scope)})
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
        _model(result.model_graphs, '', doc.model, out, world_scope=False)
    for world, g in zip(doc.worlds, result.world_graphs, strict=True):
        for m in world.models:
            _model(g, '', m, out, world_scope=True)
        for f in world.frames:
            vid = g.ids.get(f.name)
            out['frames'].append({'name': f.name, 'pose': _pj(_pose(g, f.name)),
                                  'attached_to': None if vid is None else _body_name(g, vid, True)})
        out['actors'].extend(_actor(a) for a in world.actors)
    if doc.actor is not None:
        out['actors'].append(_actor(doc.actor))
    return out


def inspect_file(path: str, xacro_args: dict[str, str] | None = None) -> Json:
    """Load ``path`` and return its ``inspect --json`` object."""
    from sdf_tools.load import load_file
    return inspect_result(load_file(path, xacro_args), path)
