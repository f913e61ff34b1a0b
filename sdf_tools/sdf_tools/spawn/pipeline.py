"""Spawn, delete, move and list entities, and check in the world that it really happened.

Gazebo's services answer "queued" before they do anything, so every
operation here looks at the world before and after:

* spawn: prepare the model (:mod:`~sdf_tools.spawn.prepare`), find the world
  (the first running one unless named), refuse a taken name unless renaming
  is allowed (then predict Gazebo's ``name_0``, ``name_1``... rule), turn a
  pose given relative to an entity into a world pose, send, then wait until
  a new entity of that name is in the world and return its real name;
* delete: the top-level entity must exist, then must be gone;
* set_pose: the top-level model must exist, then must be at the new pose.

Every function returns an :class:`~sdf_tools.spawn.result.Outcome` and never
raises for bad input or an absent simulator.

An answer can be lost although the request arrived. gz-transport's responder
remembers every requester address it ever answered and connects only to new
ones; when a new requester (each ``gz service`` call is a new process) binds
the port of an earlier one, its answer is dropped. With one command-line call
per request this happens to a few calls in a hundred to a long-running
Gazebo, more the longer it runs. So a time-out from a Gazebo that answered
before is not taken as "Gazebo is gone": a read (the worlds, the scene) is
asked again, and a command (create, remove, set_pose), which arrived, is
judged by the scene like any other and never sent twice.
"""
from __future__ import annotations

import contextlib
import math
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from sdf_tools.spawn.assets import URI_MODES
from sdf_tools.spawn.errors import BackendError, BackendTimeoutError
from sdf_tools.spawn.naming import entity_name_problem, namespace_problem
from sdf_tools.spawn.prepare import WORLD_POSE_NOTE, ModelSource, prepare_model
from sdf_tools.spawn.result import Outcome, ResultCode, SpawnError
from sdf_tools.spawn.simulator import CreateRequest, EntityInfo, SimulatorBackend
from sdf_tools.transform import Transform, normalize_quat

WORLD_FRAMES = ('', 'world')
POSE_TOLERANCE = 1e-4  # m and rad: how close a confirmed pose must be
_T = TypeVar('_T')


@dataclass(frozen=True)
class SpawnRequest:
    """Everything a spawn needs besides the simulator.

    Attributes:
        source: the model (file/URI or text, format, xacro arguments).
        name: the entity name; '' takes the model's own name.
        allow_renaming: take ``name_0``, ``name_1``... when the name is taken.
        world: the world; '' is the first one Gazebo runs.
        pose: the initial pose; None keeps the model's own ``<pose>``.
        relative_to: frame of ``pose``: '' or 'world', or an entity of the
            world (scoped names such as ``robot::base_link`` allowed).
        namespace: ROS namespace for the model's ROS plugins ('' for none).
        uris: how mesh/include URIs are made resolvable: 'file', 'model', 'keep'.
    """

    source: ModelSource
    name: str = ''
    allow_renaming: bool = False
    world: str = ''
    pose: Transform | None = None
    relative_to: str = ''
    namespace: str = ''
    uris: str = 'file'


def check_pose(pose: Transform) -> Transform:
    """Return ``pose`` with a unit quaternion; raise INVALID_POSE for NaN, inf or a zero quaternion."""
    values = [*pose.p, *pose.q]
    if not all(math.isfinite(v) for v in values):
        raise SpawnError(ResultCode.INVALID_POSE, f'pose has non-finite values: {values}')
    if math.sqrt(sum(v * v for v in pose.q)) < 1e-9:
        raise SpawnError(ResultCode.INVALID_POSE, 'pose orientation is a zero quaternion')
    return Transform(pose.p, normalize_quat(pose.q))


def world_pose(pose: Transform, relative_to: str, entities: list[EntityInfo], world: str) -> Transform:
    """Return ``pose`` (given in frame ``relative_to``) in the world frame."""
    pose = check_pose(pose)
    if relative_to in WORLD_FRAMES:
        return pose
    for e in entities:
        if e.name == relative_to:
            return e.world_pose * pose
    raise SpawnError(ResultCode.INVALID_POSE,
                     f'frame [{relative_to}] is neither "world" nor an entity of world [{world}]')


def _read(call: Callable[[], _T], attempts: int = 2) -> _T:
    """Ask ``call`` up to ``attempts`` times while its answer is lost (see the module doc)."""
    for _ in range(attempts - 1):
        try:
            return call()
        except BackendTimeoutError:
            pass
    return call()


def _command(call: Callable[[], None]) -> BackendTimeoutError | None:
    """Send a command; return its time-out, if it had one, for the scene to judge."""
    try:
        call()
    except BackendTimeoutError as err:
        return err
    return None


def _worlds(backend: SimulatorBackend) -> list[str]:
    try:
        return _read(backend.world_names)
    except BackendTimeoutError as err:
        raise SpawnError(ResultCode.TIMEOUT,
                         f'no Gazebo answered ({err}): is Gazebo running, in the same '
                         'GZ_PARTITION/IGN_PARTITION, with discovery reaching this machine '
                         '(GZ_IP/IGN_IP)?') from err


def find_world(backend: SimulatorBackend, world: str, *,
               live_poses: bool = True) -> tuple[str, list[EntityInfo]]:
    """Return the world to use ('' = the first running one) and its entities."""
    if not world:
        names = _worlds(backend)
        if not names:
            raise SpawnError(ResultCode.OPERATION_FAILED, 'Gazebo runs no world')
        world = names[0]
    try:
        return world, backend.list_entities(world, live_poses=live_poses)
    except BackendTimeoutError:
        names = _worlds(backend)
    if world not in names:
        running = ', '.join(f'[{n}]' for n in names) or 'none'
        raise SpawnError(ResultCode.NOT_FOUND, f'world [{world}] not found: Gazebo runs {running}')
    try:  # the world runs: its answer was lost (see the module doc)
        return world, _read(lambda: backend.list_entities(world, live_poses=live_poses))
    except BackendTimeoutError:
        raise SpawnError(ResultCode.TIMEOUT, f'world [{world}] did not answer in time') from None


def _wait_for(backend: SimulatorBackend, world: str, test: Callable[[list[EntityInfo]], object],
              timeout: float, *, live_poses: bool = False) -> object:
    """Poll the world's entities until ``test`` returns something truthy (None on time-out)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            found = test(backend.list_entities(world, live_poses=live_poses))
        except BackendTimeoutError:
            # The world answered before: a lost answer (see the module doc). Poll on, and
            # at least once more when the lost answer took us past the deadline.
            if time.monotonic() < deadline:
                continue
            return test(backend.list_entities(world, live_poses=live_poses)) or None
        if found or time.monotonic() >= deadline:
            return found or None
        time.sleep(0.05)


def _top(entities: list[EntityInfo], name: str) -> EntityInfo | None:
    return next((e for e in entities if e.top_level and e.name == name), None)


def _outcome(fn: Callable[[], Outcome], world: str = '') -> Outcome:
    try:
        return fn()
    except SpawnError as err:
        return Outcome(err.code, err.message, world=err.world or world,
                       diagnostics=err.diagnostics)
    except BackendTimeoutError as err:
        return Outcome(ResultCode.TIMEOUT, f'no answer from Gazebo: {err}', world=world)
    except BackendError as err:
        return Outcome(ResultCode.OPERATION_FAILED, str(err), world=world)


def _check_request(request: SpawnRequest) -> None:
    if request.name and (problem := entity_name_problem(request.name)):
        raise SpawnError(ResultCode.NAME_INVALID, problem)
    if problem := namespace_problem(request.namespace):
        raise SpawnError(ResultCode.NAMESPACE_INVALID, problem)
    if request.uris not in URI_MODES:
        raise SpawnError(ResultCode.FEATURE_UNSUPPORTED,
                         f'uris mode [{request.uris}] is not one of {", ".join(URI_MODES)}')
    if request.pose is not None:
        check_pose(request.pose)


@contextlib.contextmanager
def _sent(backend: SimulatorBackend, world: str, sdf: str,
          create: CreateRequest) -> Iterator[BackendTimeoutError | None]:
    """Send ``sdf`` inline, or as a temporary file when it is too long for the backend.

    Yields the create's time-out, if it had one (:func:`_command`). A temporary
    file is removed when the caller is done waiting: Gazebo reads it at its
    next step.
    """
    limit = backend.max_inline_sdf
    path = None
    if limit is None or len(sdf.encode('utf-8')) <= limit:
        request = CreateRequest(sdf, '', create.name, create.allow_renaming, create.pose)
    else:
        fd, path = tempfile.mkstemp(prefix='sdf_tools_spawn_', suffix='.sdf')
        with os.fdopen(fd, 'w', encoding='utf-8') as out:
            out.write(sdf)
        request = CreateRequest('', path, create.name, create.allow_renaming, create.pose)
    try:
        yield _command(lambda: backend.create(world, request))
    finally:
        if path is not None:
            os.unlink(path)


def _unanswered(lost: BackendTimeoutError | None, what: str, world: str) -> None:
    """Raise TIMEOUT when a command had no answer and the scene does not show it done either."""
    if lost is not None:
        raise SpawnError(ResultCode.TIMEOUT, f'no answer from Gazebo: {lost}, and {what}',
                         world=world)


def _spawn(backend: SimulatorBackend, request: SpawnRequest, timeout: float) -> Outcome:
    _check_request(request)
    model = prepare_model(request.source, namespace=request.namespace, uris=request.uris)
    name = request.name or model.model_name
    if problem := entity_name_problem(name):
        raise SpawnError(ResultCode.NAME_INVALID, problem)
    world, before = find_world(backend, request.world,
                               live_poses=request.relative_to not in WORLD_FRAMES)
    if _top(before, name) is not None and not request.allow_renaming:
        raise SpawnError(ResultCode.NAME_NOT_UNIQUE,
                         f'an entity named [{name}] already exists in world [{world}]: '
                         'choose another name or allow renaming', world=world)
    pose = None if request.pose is None else world_pose(request.pose, request.relative_to, before, world)
    known = {e.id for e in before}
    renamed = re.compile(re.escape(name) + r'(_\d+)?')

    def created(entities: list[EntityInfo]) -> EntityInfo | None:
        return next((e for e in entities if e.top_level and e.id not in known
                     and renamed.fullmatch(e.name) and e.kind == 'model'), None)

    with _sent(backend, world, model.sdf, CreateRequest(
            name=name, allow_renaming=request.allow_renaming, pose=pose)) as lost:
        entity = _wait_for(backend, world, created, timeout)
    if not isinstance(entity, EntityInfo):
        _unanswered(lost, f'no entity [{name}] appeared in world [{world}] within {timeout:g} s',
                    world)
        raise SpawnError(ResultCode.OPERATION_FAILED,
                         f'Gazebo accepted [{name}] but no such entity appeared in world [{world}] '
                         f'within {timeout:g} s: Gazebo refused the model (see its log)',
                         world=world)
    notes = list(model.notes)
    if request.pose is not None:  # the request's pose, not the world's
        notes = [n.replace(f', at the pose {WORLD_POSE_NOTE}', ', at the pose requested')
                 for n in notes]
    if entity.name != name:
        notes.append(f'[{name}] was taken: Gazebo named the entity [{entity.name}]')
    # The pose Gazebo created it at (gz-sim's scene keeps it; physics may move it later).
    return Outcome(ResultCode.OK, f'spawned [{entity.name}] in world [{world}]', entity.name, world,
                   entity.world_pose, model.warnings, notes)


def spawn(backend: SimulatorBackend, request: SpawnRequest, *, timeout: float = 5.0) -> Outcome:
    """Spawn a model and confirm it exists; ``timeout`` bounds the wait for it to appear."""
    return _outcome(lambda: _spawn(backend, request, timeout), request.world)


def _name_given(name: str, what: str) -> None:
    if not name.strip():
        raise SpawnError(ResultCode.NAME_INVALID, f'the name of the entity to {what} is empty')


def _delete(backend: SimulatorBackend, world: str, name: str, timeout: float) -> Outcome:
    _name_given(name, 'delete')
    world, before = find_world(backend, world, live_poses=False)
    entity = _top(before, name)
    if entity is None:
        nested = any(e.name == name for e in before)
        code = ResultCode.OPERATION_FAILED if nested else ResultCode.NOT_FOUND
        why = 'is not top-level: Gazebo removes whole top-level models and lights only' if nested \
            else 'does not exist'
        raise SpawnError(code, f'entity [{name}] of world [{world}] {why}', world=world)
    lost = _command(lambda: backend.remove(world, name, entity.kind))
    if _wait_for(backend, world, lambda es: all(e.id != entity.id for e in es), timeout) is None:
        _unanswered(lost, f'[{name}] is still in world [{world}] after {timeout:g} s', world)
        raise SpawnError(ResultCode.OPERATION_FAILED,
                         f'Gazebo accepted the removal of [{name}] but it is still in world '
                         f'[{world}] after {timeout:g} s', world=world)
    return Outcome(ResultCode.OK, f'deleted [{name}] from world [{world}]', name, world)


def delete(backend: SimulatorBackend, name: str, *, world: str = '', timeout: float = 5.0) -> Outcome:
    """Remove a top-level entity and confirm it is gone."""
    return _outcome(lambda: _delete(backend, world, name, timeout), world)


def _close(a: Transform, b: Transform) -> bool:
    dot = abs(sum(x * y for x, y in zip(a.q, b.q, strict=True)))
    angle = 2.0 * math.acos(min(1.0, dot))
    return math.dist(a.p, b.p) <= POSE_TOLERANCE and angle <= POSE_TOLERANCE


def _set_pose(backend: SimulatorBackend, world: str, name: str, pose: Transform, relative_to: str,
              timeout: float) -> Outcome:
    _name_given(name, 'move')
    pose = check_pose(pose)
    world, before = find_world(backend, world)
    entity = _top(before, name)
    if entity is None or entity.kind != 'model':
        exists = any(e.name == name for e in before)
        why = ('is not a top-level model: Gazebo moves top-level models only' if exists
               else 'does not exist')
        raise SpawnError(ResultCode.OPERATION_FAILED if exists else ResultCode.NOT_FOUND,
                         f'entity [{name}] of world [{world}] {why}', world=world)
    target = world_pose(pose, relative_to, before, world)
    lost = _command(lambda: backend.set_pose(world, name, target))

    def moved(entities: list[EntityInfo]) -> EntityInfo | None:
        now = _top(entities, name)
        return now if now is not None and _close(now.world_pose, target) else None

    found = _wait_for(backend, world, moved, timeout, live_poses=True)
    if not isinstance(found, EntityInfo):
        _unanswered(lost, f'[{name}] is not at the new pose after {timeout:g} s', world)
        raise SpawnError(ResultCode.OPERATION_FAILED,
                         f'Gazebo accepted the new pose of [{name}] but the entity is not there '
                         f'after {timeout:g} s')
    return Outcome(ResultCode.OK, f'moved [{name}] in world [{world}]', name, world, found.world_pose)


def set_pose(backend: SimulatorBackend, name: str, pose: Transform, *, relative_to: str = '',
             world: str = '', timeout: float = 5.0) -> Outcome:
    """Move a top-level model to ``pose`` (in frame ``relative_to``) and confirm it got there."""
    return _outcome(lambda: _set_pose(backend, world, name, pose, relative_to, timeout), world)


def list_entities(backend: SimulatorBackend, *, world: str = '') -> tuple[Outcome, list[EntityInfo]]:
    """Return the outcome and every model, link and light of ``world`` (the running one if '')."""
    found: list[EntityInfo] = []

    def run() -> Outcome:
        name, entities = find_world(backend, world)
        found.extend(entities)
        return Outcome(ResultCode.OK, f'{len(entities)} entities in world [{name}]', world=name)

    return _outcome(run, world), found


