"""Valid, unique USD prim names for SDFormat names, the original kept on the prim.

USD prim names are identifiers (letters, digits, ``_``; not starting with a
digit). SDFormat names are free text (``arm::gripper``, ``link-1``, ``2nd``),
so each one is made valid with ``Tf.MakeValidIdentifier`` and made unique
among its siblings; the original scoped name stays on the prim as its
``displayName`` and as the custom string attribute ``sdf_tools:name``,
which the reader uses to give the names back. World, model and link prims also
carry ``sdf_tools:kind``, so that one holding nothing else still comes back.
"""
from __future__ import annotations

from pxr import Sdf, Tf, Usd

#: The custom attribute holding an element's original (scoped) name.
NAME_ATTR = 'sdf_tools:name'
#: The custom attribute saying what a prim is: 'world', 'model' or 'link'.
KIND_ATTR = 'sdf_tools:kind'


class Siblings:
    """Unique valid names among the children of one prim."""

    def __init__(self, taken: set[str] | None = None) -> None:
        self.taken: set[str] = set(taken or ())

    def take(self, wanted: str) -> str:
        """Return a valid identifier for ``wanted`` not used by an earlier sibling."""
        base = Tf.MakeValidIdentifier(wanted) if wanted else '_'
        name, i = base, 2
        while name in self.taken:
            name, i = f'{base}_{i}', i + 1
        self.taken.add(name)
        return name


def keep_name(prim: Usd.Prim, original: str) -> None:
    """Record ``original`` on ``prim`` (displayName and ``sdf_tools:name``)."""
    prim.SetDisplayName(original)
    prim.CreateAttribute(NAME_ATTR, Sdf.ValueTypeNames.String, custom=True).Set(original)


def original_name(prim: Usd.Prim) -> str:
    """Return the name ``keep_name`` recorded, else the display name, else the prim name."""
    attr = prim.GetAttribute(NAME_ATTR)
    if attr and attr.HasAuthoredValue():
        return str(attr.Get())
    shown = prim.GetDisplayName()
    return str(shown) if shown else str(prim.GetName())


def mark(prim: Usd.Prim, kind: str) -> None:
    """Record what a prim is ('world', 'model', 'link'): a link without geometry or body, or a
    world without models, has nothing else a reader could find it by."""
    prim.CreateAttribute(KIND_ATTR, Sdf.ValueTypeNames.Token, custom=True).Set(kind)


def kind_of(prim: Usd.Prim) -> str:
    """Return what :func:`mark` recorded on ``prim`` ('' when nothing)."""
    attr = prim.GetAttribute(KIND_ATTR)
    return str(attr.Get()) if attr and attr.HasAuthoredValue() else ''
