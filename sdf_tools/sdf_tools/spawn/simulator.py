"""The plug-in point to a simulator: a small Protocol and the records it exchanges.

A backend does what the simulator offers and no more: it sends a request and
reports the simulator's answer, raising :class:`~sdf_tools.spawn.errors.BackendError`
(or ``BackendTimeoutError``) when there is none. Checking names, validating
models and confirming that an entity really exists is the pipeline's job
(:mod:`sdf_tools.spawn.pipeline`), so a new simulator (Gazebo Classic's
``/spawn_entity``, Isaac, O3DE...) needs only these five methods.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from sdf_tools.transform import IDENTITY, Transform


@dataclass(frozen=True)
class CreateRequest:
    """One entity to create, as Gazebo's ``EntityFactory`` message holds it.

    Exactly one of ``sdf`` (the SDFormat text) and ``sdf_filename`` (a file
    the simulator can read) is set. ``pose`` None keeps the model's own pose.
    """

    sdf: str = ''
    sdf_filename: str = ''
    name: str = ''
    allow_renaming: bool = False
    pose: Transform | None = None
    relative_to: str = ''


@dataclass(frozen=True)
class EntityInfo:
    """One entity of a world.

    Attributes:
        name: scoped name, e.g. ``robot`` or ``robot::arm::forearm``.
        id: the simulator's entity id.
        kind: 'model', 'link' or 'light'.
        pose: pose relative to the parent entity (the world for top-level ones).
        world_pose: pose in the world frame.
        parent: scoped name of the parent entity ('' for top-level entities).
        static: the model (or its parent model) is static.
    """

    name: str
    id: int
    kind: str
    pose: Transform = IDENTITY
    world_pose: Transform = IDENTITY
    parent: str = ''
    static: bool = False

    @property
    def top_level(self) -> bool:
        return not self.parent


@runtime_checkable
class SimulatorBackend(Protocol):
    """What the spawn pipeline needs from a simulator."""

    #: Largest SDF text sent inline; bigger models go through a temporary file
    #: (``CreateRequest.sdf_filename``). None: no limit.
    max_inline_sdf: int | None

    def world_names(self) -> list[str]:
        """Return the names of the running worlds, the default one first."""
        ...

    def create(self, world: str, request: CreateRequest) -> None:
        """Ask the simulator to create an entity (it may still refuse it later)."""
        ...

    def remove(self, world: str, name: str, kind: str = 'model') -> None:
        """Ask the simulator to remove the top-level entity ``name``."""
        ...

    def set_pose(self, world: str, name: str, pose: Transform) -> None:
        """Ask the simulator to move the top-level entity ``name`` to ``pose`` (world frame)."""
        ...

    def list_entities(self, world: str, *, live_poses: bool = True) -> list[EntityInfo]:
        """Return every model, link and light of ``world``.

        With ``live_poses`` False the poses may be those the entities had when
        created (cheaper: enough to know what exists).
        """
        ...
