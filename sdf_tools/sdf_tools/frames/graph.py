"""The two frame graphs, stored together with scoped vertex names.

Every vertex has a full name (``outer::inner::link``); a *scope* is a
prefix, and a name written in a file is looked up as ``prefix::name``, so
``relative_to="inner::link"`` reaches into a nested model exactly as the
spec's ``::`` scoping says. Each model scope has an implicit ``__model__``
vertex; a nested model also has a vertex under its own name, tied to its
``__model__`` by an identity "alias" edge (as libsdformat does), so a
frame can be relative to or attached to a nested model by its name.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

from sdf_tools.errors import Diagnostic
from sdf_tools.model.common import Loc
from sdf_tools.records import fields_eq, fields_repr
from sdf_tools.transform import Transform


class Kind(enum.Enum):
    """What a vertex stands for."""

    WORLD = 'world'
    MODEL = 'model'
    STATIC_MODEL = 'static_model'
    LINK = 'link'
    JOINT = 'joint'
    FRAME = 'frame'
    ROOT = 'root'


def join(scope: str, name: str) -> str:
    """Scope ``name`` under ``scope`` (the empty scope is the top level)."""
    return f'{scope}::{name}' if scope else name


def prefix(scope: str) -> str:
    """Return what ``join(scope, name)`` puts before ``name``.

    Hot loops look many names up in one scope; ``prefix(scope) + name`` is
    the same string as ``join(scope, name)`` for a fraction of the cost.
    """
    return f'{scope}::' if scope else ''


# Methods written out rather than generated at import (sdf_tools/records.py says why).
@dataclass(slots=True, init=False, repr=False, eq=False)
class PoseEdge:
    """A pose-relative-to in-edge: the parent vertex and the pose in it."""

    parent: int
    value: Transform

    def __init__(self, parent: int, value: Transform) -> None:
        self.parent = parent
        self.value = value

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)


@dataclass(init=False, repr=False, eq=False)
class FrameGraphs:
    """Vertices plus pose-relative-to in-edges and attached-to out-edges."""

    names: list[str] = field(default_factory=list)
    kinds: list[Kind] = field(default_factory=list)
    ids: dict[str, int] = field(default_factory=dict)
    pose_in: list[list[PoseEdge]] = field(default_factory=list)
    # Attached-to out-edges as (target id, is_alias).
    attached_out: list[list[tuple[int, bool]]] = field(default_factory=list)
    locs: dict[int, Loc] = field(default_factory=dict)
    # id() of each model whose vertices were added (a clashing name is not).
    added_models: set[int] = field(default_factory=set)
    root: int = -1  # the vertex every pose is finally resolved against
    errors: list[Diagnostic] = field(default_factory=list)
    # Vertices whose full name a later vertex took (only an implicit
    # ``__model__`` can: a link ``m::__model__`` beside a nested model ``m``,
    # where ``::`` in names is allowed); looking their name up finds the other.
    shadowed: set[int] = field(default_factory=set)
    # Per vertex, filled by validation so that later queries walk nothing
    # (lists, not dicts: a quarter of the memory, and quicker to index):
    # the pose relative to ``root`` once resolved, else None;
    _poses: list[Transform | None] = field(default_factory=list, repr=False)
    # the attached-to sink once a walk succeeded, else -1 (failures are not kept).
    _sink: list[int] = field(default_factory=list, repr=False)

    def __init__(self, names: list[str] | None = None, kinds: list[Kind] | None = None,
                 ids: dict[str, int] | None = None, pose_in: list[list[PoseEdge]] | None = None,
                 attached_out: list[list[tuple[int, bool]]] | None = None,
                 locs: dict[int, Loc] | None = None, added_models: set[int] | None = None,
                 root: int = -1, errors: list[Diagnostic] | None = None,
                 shadowed: set[int] | None = None, _poses: list[Transform | None] | None = None,
                 _sink: list[int] | None = None) -> None:
        self.names = [] if names is None else names
        self.kinds = [] if kinds is None else kinds
        self.ids = {} if ids is None else ids
        self.pose_in = [] if pose_in is None else pose_in
        self.attached_out = [] if attached_out is None else attached_out
        self.locs = {} if locs is None else locs
        self.added_models = set() if added_models is None else added_models
        self.root = root
        self.errors = [] if errors is None else errors
        self.shadowed = set() if shadowed is None else shadowed
        self._poses = [] if _poses is None else _poses
        self._sink = [] if _sink is None else _sink

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)

    def add(self, full_name: str, kind: Kind, loc: Loc | None = None) -> int:
        vid = len(self.names)
        if loc is not None:
            self.locs[vid] = loc
        self.names.append(full_name)
        self.kinds.append(kind)
        old = self.ids.get(full_name)
        if old is not None:
            self.shadowed.add(old)
        self.ids[full_name] = vid
        self.pose_in.append([])
        self.attached_out.append([])
        self._poses.append(None)
        self._sink.append(-1)
        return vid

    def find(self, scope: str, name: str) -> int | None:
        """Look up ``name`` as written in ``scope``."""
        return self.ids.get(join(scope, name))

    def has(self, scope: str, name: str) -> bool:
        return join(scope, name) in self.ids

    def add_pose_edge(self, parent: int, child: int, value: Transform) -> None:
        self.pose_in[child].append(PoseEdge(parent, value))

    def add_attached_edge(self, source: int, target: int, *, alias: bool = False) -> None:
        self.attached_out[source].append((target, alias))
