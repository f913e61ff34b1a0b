"""Gazebo (gz-sim, Fortress to Jetty) over gz-transport, whatever carries the messages.

gz-sim offers, per world ``<w>``:

========================  ===========================  ===================================
``/gazebo/worlds``        Empty -> StringMsg_V         names of the running worlds
``/world/<w>/create``     EntityFactory -> Boolean     queue an entity to create
``/world/<w>/remove``     Entity -> Boolean            queue a top-level model/light removal
``/world/<w>/set_pose``   Pose -> Boolean              queue a move of a top-level model
``/world/<w>/scene/info``  Empty -> Scene              entity tree (poses at creation)
``/world/<w>/pose/info``  topic, Pose_V                current poses (relative to parent)
========================  ===========================  ===================================

The ``Boolean`` answers only say "queued": gz-sim runs the command at its
next step and logs failures, which is why the pipeline looks at the scene
afterwards. :class:`GzBackend` builds and reads these messages as text
format (:mod:`sdf_tools.spawn.textproto`) and hands them to a
:class:`GzTransport`: the ``gz``/``ign`` command-line tools
(:mod:`~sdf_tools.spawn.gz_cli`) or the Python bindings
(:mod:`~sdf_tools.spawn.gz_python`).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from sdf_tools.spawn.errors import BackendError
from sdf_tools.spawn.simulator import CreateRequest, EntityInfo
from sdf_tools.spawn.textproto import Enum, TextMessage, encode, first
from sdf_tools.transform import IDENTITY, Transform


class GzTransport(Protocol):
    """Sends one gz-transport request or reads one topic message, as text format."""

    #: Largest request text this transport can carry (None: no limit).
    max_request: int | None

    def request(self, service: str, req_type: str, rep_type: str, request: str) -> TextMessage:
        """Call ``service``; return the reply. ``req_type`` is e.g. 'EntityFactory'."""
        ...

    def echo_one(self, topic: str, msg_type: str) -> TextMessage:
        """Return the next message published on ``topic``."""
        ...


def pose_message(pose: Transform) -> dict[str, Any]:
    """Return a ``Pose`` message body (position and orientation) for ``pose``."""
    w, x, y, z = pose.q
    return {'position': {'x': float(pose.p[0]), 'y': float(pose.p[1]), 'z': float(pose.p[2])},
            'orientation': {'x': float(x), 'y': float(y), 'z': float(z), 'w': float(w)}}


def read_pose(message: Mapping[str, list[Any]] | None) -> Transform:
    """Read a ``Pose`` message (proto3: absent fields are 0; no orientation is identity)."""
    if not message:
        return IDENTITY
    pos = first(message, 'position', {})
    ori = first(message, 'orientation')
    xyz = (float(first(pos, 'x', 0.0)), float(first(pos, 'y', 0.0)), float(first(pos, 'z', 0.0)))
    if not ori:
        return Transform(xyz)
    q = (float(first(ori, 'w', 0.0)), float(first(ori, 'x', 0.0)),
         float(first(ori, 'y', 0.0)), float(first(ori, 'z', 0.0)))
    return Transform(xyz, q if any(q) else IDENTITY.q)


def _check_boolean(reply: TextMessage, what: str) -> None:
    if first(reply, 'data', False) is not True:
        raise BackendError(f'Gazebo answered false to {what}')


def _walk_model(model: Mapping[str, list[Any]], parent: str, parent_pose: Transform,
                parent_static: bool, poses: Mapping[int, Transform]) -> Iterable[EntityInfo]:
    name = str(first(model, 'name', ''))
    scoped = f'{parent}::{name}' if parent else name
    eid = int(first(model, 'id', 0))
    pose = poses.get(eid, read_pose(first(model, 'pose')))
    world_pose = parent_pose * pose
    static = bool(first(model, 'is_static', False)) or parent_static
    yield EntityInfo(scoped, eid, 'model', pose, world_pose, parent, static)
    for link in model.get('link', []):
        lid = int(first(link, 'id', 0))
        lpose = poses.get(lid, read_pose(first(link, 'pose')))
        yield EntityInfo(f'{scoped}::{first(link, "name", "")}', lid, 'link', lpose,
                         world_pose * lpose, scoped, static)
    for nested in model.get('model', []):
        yield from _walk_model(nested, scoped, world_pose, static, poses)


def entities_from_scene(scene: TextMessage, poses: Mapping[int, Transform]) -> list[EntityInfo]:
    """Flatten a ``Scene`` into entities; ``poses`` (by id) overrides the scene's poses."""
    out: list[EntityInfo] = []
    for model in scene.get('model', []):
        out.extend(_walk_model(model, '', IDENTITY, False, poses))
    for light in scene.get('light', []):
        lid = int(first(light, 'id', 0))
        pose = poses.get(lid, read_pose(first(light, 'pose')))
        out.append(EntityInfo(str(first(light, 'name', '')), lid, 'light', pose, pose))
    return out


class GzBackend:
    """A :class:`~sdf_tools.spawn.simulator.SimulatorBackend` for gz-sim over a transport.

    Current poses come from ``pose/info`` (gz-sim's scene keeps the poses
    entities had when created); when nobody publishes there in time, the
    scene's poses are used.

    Args:
        transport: carries the messages (CLI tools or Python bindings).
    """

    def __init__(self, transport: GzTransport) -> None:
        self.transport = transport
        self.max_inline_sdf = transport.max_request

    def world_names(self) -> list[str]:
        reply = self.transport.request('/gazebo/worlds', 'Empty', 'StringMsg_V', '')
        return [str(name) for name in reply.get('data', [])]

    def create(self, world: str, request: CreateRequest) -> None:
        body: dict[str, Any] = {}
        if request.sdf_filename:
            body['sdf_filename'] = request.sdf_filename
        else:
            body['sdf'] = request.sdf
        if request.pose is not None:
            body['pose'] = pose_message(request.pose)
        if request.name:
            body['name'] = request.name
        if request.allow_renaming:
            body['allow_renaming'] = True
        if request.relative_to:
            body['relative_to'] = request.relative_to
        reply = self.transport.request(f'/world/{world}/create', 'EntityFactory', 'Boolean',
                                       encode(body))
        _check_boolean(reply, f'/world/{world}/create')

    def remove(self, world: str, name: str, kind: str = 'model') -> None:
        body = {'name': name, 'type': Enum('LIGHT' if kind == 'light' else 'MODEL')}
        reply = self.transport.request(f'/world/{world}/remove', 'Entity', 'Boolean', encode(body))
        _check_boolean(reply, f'/world/{world}/remove')

    def set_pose(self, world: str, name: str, pose: Transform) -> None:
        body = {'name': name, **pose_message(pose)}
        reply = self.transport.request(f'/world/{world}/set_pose', 'Pose', 'Boolean', encode(body))
        _check_boolean(reply, f'/world/{world}/set_pose')

    def list_entities(self, world: str, *, live_poses: bool = True) -> list[EntityInfo]:
        scene = self.transport.request(f'/world/{world}/scene/info', 'Empty', 'Scene', '')
        poses: dict[int, Transform] = {}
        if live_poses and scene.get('model'):
            try:
                msg = self.transport.echo_one(f'/world/{world}/pose/info', 'Pose_V')
            except BackendError:
                msg = {}
            for pose in msg.get('pose', []):
                poses[int(first(pose, 'id', 0))] = read_pose(pose)
        return entities_from_scene(scene, poses)
