"""The ``inspect --json`` view of a resolved description.

Schema (relied on by tests and other tools): ``file``, ``format``, ``version``,
``valid``, ``errors``, ``warnings``, ``models``, ``links``, ``joints``, ``frames``,
``actors``. Poses are ``{"xyz": [...], "quat_xyzw": [...]}`` in the world frame,
except visual and collision poses (in their link's frame) and actor waypoints (as
written). An infinite number (an unlimited effort, a bound written ``inf``) is
null: strict JSON has no infinity.

This is an output format: our own modules read :class:`Resolved`, never this.
"""
from __future__ import annotations

from typing import Any

from sdf_tools.load import LoadResult
from sdf_tools.resolved.build import resolve
from sdf_tools.resolved.records import (
    Resolved,
    ResolvedActor,
    ResolvedAxis,
    ResolvedFrame,
    ResolvedJoint,
    ResolvedLink,
    ResolvedModel,
    ResolvedShape,
    finite,
)
from sdf_tools.transform import Transform

Json = dict[str, Any]


def _pose(t: Transform | None) -> Json | None:
    return None if t is None else t.to_json()


def _shape(s: ResolvedShape) -> Json:
    geom = s.geometry
    gj: Json = {'type': geom.type, **geom.params} if geom is not None else {'type': 'empty'}
    return {'name': s.name, 'pose': _pose(s.pose), 'geometry': gj}


def _link(lk: ResolvedLink) -> Json:
    i = lk.inertial
    return {
        'name': lk.name, 'pose': _pose(lk.world),
        'mass': i.mass, 'inertia': list(i.inertia), 'inertial_pose': _pose(i.world),
        'visuals': [_shape(v) for v in lk.visuals],
        'collisions': [_shape(c) for c in lk.collisions],
    }


def _axis(a: ResolvedAxis | None) -> list[float] | None:
    return None if a is None or a.xyz is None else list(a.xyz)


def _joint(j: ResolvedJoint) -> Json:
    a = j.axis
    return {
        'name': j.name, 'type': j.type, 'parent': j.parent, 'child': j.child,
        'pose': _pose(j.world), 'axis': _axis(a), 'axis2': _axis(j.axis2),
        'limit': None if a is None else {
            'lower': finite(a.lower), 'upper': finite(a.upper),
            'effort': finite(a.effort), 'velocity': finite(a.velocity)},
        'dynamics': None if a is None else {'damping': a.damping, 'friction': a.friction},
    }


def _frame(f: ResolvedFrame) -> Json:
    return {'name': f.name, 'pose': _pose(f.world), 'attached_to': f.attached_to}


def _model(m: ResolvedModel) -> Json:
    return {'name': m.name, 'pose': _pose(m.world), 'canonical_link': m.canonical_link,
            'static': m.static}


def _actor(ra: ResolvedActor) -> Json:
    actor = ra.element
    return {
        'name': ra.name, 'pose': ra.world.to_json(), 'skin': actor.skin_filename,
        'animations': [{'name': a.name, 'filename': a.filename, 'scale': a.scale,
                        'interpolate_x': a.interpolate_x} for a in actor.animations],
        'script': {'loop': actor.loop, 'delay_start': actor.delay_start,
                   'auto_start': actor.auto_start},
        'trajectories': [{'id': t.id, 'type': t.type, 'tension': t.tension,
                          'waypoints': [{'time': w.time, 'pose': w.pose.value.to_json()}
                                        for w in t.waypoints]} for t in actor.trajectories],
    }


def to_json(r: Resolved) -> Json:
    """Return the ``inspect --json`` object of ``r``."""
    return {
        'file': r.file, 'format': r.format, 'version': r.version, 'valid': r.valid,
        'gazebo': r.gazebo.to_json() if r.gazebo is not None else None,
        'errors': [d.to_json() for d in r.errors],
        'warnings': [d.to_json() for d in r.warnings],
        'models': [_model(m) for m in r.models],
        'links': [_link(lk) for lk in r.links],
        'joints': [_joint(j) for j in r.joints],
        'frames': [_frame(f) for f in r.frames],
        'actors': [_actor(a) for a in r.actors],
    }


def inspect_json(result: LoadResult, file: str | None = None) -> Json:
    """Return the ``inspect --json`` object of a load result (``to_json(resolve(...))``)."""
    return to_json(resolve(result, file))
