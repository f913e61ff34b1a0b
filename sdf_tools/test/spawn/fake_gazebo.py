"""An in-memory Gazebo for the pipeline's unit tests: gz-sim's rules, no transport.

Like gz-sim, it answers every request at once and applies it at the next
"step" (here: the next ``list_entities``), refusing silently what gz-sim
refuses (a taken name without renaming, an unknown entity). ``lose`` drops
answers the way gz-transport can: the request is carried out, the answer
never comes (a time-out).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from sdf_tools.spawn.errors import BackendTimeoutError
from sdf_tools.spawn.simulator import CreateRequest, EntityInfo
from sdf_tools.transform import IDENTITY, Transform


@dataclass
class FakeGazebo:
    worlds: dict[str, list[EntityInfo]] = field(default_factory=lambda: {'default': []})
    running: bool = True
    refuse_all: bool = False  # accept requests but never apply them (a Gazebo that fails)
    max_inline_sdf: int | None = None
    lose: dict[str, int] = field(default_factory=dict)  # method name -> answers to drop
    created: list[CreateRequest] = field(default_factory=list)
    _pending: list[Callable[[], None]] = field(default_factory=list)
    _next_id: int = 2

    def _answer(self, method: str) -> None:
        """Raise a time-out if this answer is one to lose (after the request was carried out)."""
        if self.lose.get(method, 0) > 0:
            self.lose[method] -= 1
            raise BackendTimeoutError(f'no answer to {method} (lost)')

    def _check(self, world: str) -> list[EntityInfo]:
        if not self.running or world not in self.worlds:
            raise BackendTimeoutError(f'no answer on /world/{world}')
        return self.worlds[world]

    def world_names(self) -> list[str]:
        if not self.running:
            raise BackendTimeoutError('no answer on /gazebo/worlds')
        self._answer('world_names')
        return list(self.worlds)

    def create(self, world: str, request: CreateRequest) -> None:
        entities = self._check(world)
        self.created.append(request)
        sdf = request.sdf or Path(request.sdf_filename).read_text(encoding='utf-8')
        model_name = etree.fromstring(sdf.encode()).find('model').get('name')

        def apply() -> None:
            name = request.name or model_name
            taken = {e.name for e in entities if e.top_level}
            if name in taken:
                if not request.allow_renaming:
                    return
                base, i = name, 0
                while name in taken:
                    name, i = f'{base}_{i}', i + 1
            pose = request.pose or IDENTITY
            entities.append(EntityInfo(name, self._next_id, 'model', pose, pose))
            entities.append(EntityInfo(f'{name}::base', self._next_id + 1, 'link', IDENTITY, pose,
                                       name))
            self._next_id += 2
        self._pending.append(apply)
        self._answer('create')

    def remove(self, world: str, name: str, kind: str = 'model') -> None:
        entities = self._check(world)

        def apply() -> None:
            entities[:] = [e for e in entities if e.name != name and e.parent != name]
        self._pending.append(apply)
        self._answer('remove')

    def set_pose(self, world: str, name: str, pose: Transform) -> None:
        entities = self._check(world)

        def apply() -> None:
            for i, e in enumerate(entities):
                if e.name == name:
                    entities[i] = EntityInfo(e.name, e.id, e.kind, pose, pose)
        self._pending.append(apply)
        self._answer('set_pose')

    def list_entities(self, world: str, *, live_poses: bool = True) -> list[EntityInfo]:
        entities = self._check(world)
        if not self.refuse_all:
            for apply in self._pending:
                apply()
        self._pending.clear()
        self._answer('list_entities')
        return list(entities)
