"""The root of a loaded file: what ``<sdf>`` (or ``<robot>``) held."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sdf_tools.model.common import Loc
from sdf_tools.model.elements import Model, World
from sdf_tools.records import fields_eq, fields_repr

if TYPE_CHECKING:
    from sdf_tools.model.actor import Actor  # made on first use: see model/__init__.py
    from sdf_tools.model.verbatim import Light


@dataclass(init=False, repr=False, eq=False)  # methods written out: sdf_tools/records.py
class Document:
    """One loaded description.

    Attributes:
        file: the path it was read from (None for a string).
        format: ``'sdf'`` or ``'urdf'``.
        version: the ``<sdf version>`` as written; None for URDF.
        worlds: the worlds of the file, in document order.
        model: the lone top-level model, when the root holds one.
        light: the lone top-level light, when the root holds one.
        actor: the lone top-level actor, when the root holds one.
    """

    file: str | None
    format: str
    version: str | None
    worlds: list[World] = field(default_factory=list)
    model: Model | None = None
    light: Light | None = None
    actor: Actor | None = None
    loc: Loc | None = None

    def __init__(self, file: str | None, format: str, version: str | None,
                 worlds: list[World] | None = None, model: Model | None = None,
                 light: Light | None = None, actor: Actor | None = None,
                 loc: Loc | None = None) -> None:
        self.file = file
        self.format = format
        self.version = version
        self.worlds = [] if worlds is None else worlds
        self.model = model
        self.light = light
        self.actor = actor
        self.loc = loc

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)
