"""Read an older spec as libsdformat reads it: after converting the file.

Every libsdformat converts a 1.3+ document to the newest version it knows (12.3: 1.9;
its ``.convert`` files rename, move and remove elements) and only then reads it against
that version's table. So a value is parsed by its newest type, one the conversion removes
(``use_parent_model_frame`` of 1.6, for one) is never parsed at all (``yes`` there is no
error), what the newer versions added is known (a 1.6 file's ``<enable_metrics>`` for
12.3, a ``<cone>`` for 14+), and an element of the file's version that the newest lacks
is unknown (warned and copied, as 14.9 and 16.1 do with a 1.7 file's
``//axis/initial_position``) unless a conversion removes or moves it
(:data:`CONVERTED_AWAY`). Whether an element is required comes from the newest table as
well (libsdformat adds or refuses missing ones after converting). Renames and moves of the
conversion are not followed: such an element keeps its own version's rules.
"""
from __future__ import annotations

from sdf_tools.sdf.spec import AttributeSpec, ElementSpec, derive

__all__ = ['CONVERTED_AWAY', 'read_as_converted']

#: The elements each conversion removes or moves away from where they were (the last
#: part of each ``<remove element>`` and ``<move>``/``<map>`` ``<from element>`` of
#: libsdformat's ``sdf/1.x/1_y.convert``), by the version it converts from. The 1.7 -> 1.8
#: conversion only unflattens names; the 1.8 -> 1.12 ones are empty.
CONVERTED_AWAY: dict[str, frozenset[str]] = {
    '1.3': frozenset({'dt', 'update_rate'}),                 # //physics timing
    '1.4': frozenset(),                                      # //model/@static -> <static>
    '1.5': frozenset({'noise', 'gravity', 'magnetic_field'}),  # imu noise, world physics
    '1.6': frozenset({'use_parent_model_frame'}),            # -> //axis/xyz/@expressed_in
    '1.7': frozenset(),
}


def converted_away(version: str) -> frozenset[str]:
    """The element names the conversions from ``version`` to 1.8 remove or move."""
    names: set[str] = set()
    for start, gone in CONVERTED_AWAY.items():
        if tuple(map(int, start.split('.'))) >= tuple(map(int, version.split('.'))):
            names |= gone
    return frozenset(names)


def read_as_converted(old: ElementSpec, new: ElementSpec, *,
                      version: str = '') -> set[int]:
    """Give the specs under ``old`` the value rules of their counterparts under ``new``.

    An element ``new`` has that ``old`` lacks at the same place is known too (libsdformat
    reads the converted file against its newest table: 1.9 adds ``<enable_metrics>``,
    1.10+ ``<cone>``, ``//world/joint`` ...), and an element of ``version`` that ``new``
    lacks where no conversion removes it is unknown.

    Returns:
        The ids of the children taken from ``new`` (their lookups are final already).
    """
    gone = converted_away(version)
    seen: dict[int, ElementSpec] = {}
    adopted: set[int] = set()
    stack: list[tuple[ElementSpec, ElementSpec | None]] = [(old, new)]
    while stack:
        o, n = stack.pop()
        if id(o) in seen:
            continue  # shared (an included file): the first place it is met decides
        seen[id(o)] = o
        _adopt(o, n)
        for name, child in list(o.children.items()):
            counterpart = n.children.get(name) if n is not None else None
            if n is not None and counterpart is None and name not in gone:
                del o.children[name]  # unknown after the conversion
                continue
            stack.append((child, counterpart))
        if n is not None:
            for name, child in n.children.items():
                if name not in o.children:
                    o.children[name] = child  # shared with ``new``: not walked, not changed
                    adopted.add(id(child))
    for o in seen.values():
        # An adopted child is not added when missing: it may be the new name of an
        # element the file holds under its old one (the conversion renames it).
        o.required_children = tuple(c for c in o.children.values()
                                    if c.required in ('1', '+') and id(c) not in adopted)
    return adopted


def _adopt(o: ElementSpec, n: ElementSpec | None) -> None:
    if n is None:
        # Converted away: neither parsed nor added with a default.
        o.type, o.bounds, o.value_required = None, None, False
        o.required = '0' if o.required in ('1', '+') else o.required
        o.attributes = {k: AttributeSpec(k, 'string', a.default, False) for k, a in o.attributes.items()}
    else:
        o.type, o.default, o.bounds, o.value_required = n.type, n.default, n.bounds, n.value_required
        # Whether it must be there is judged after the conversion too: a 1.4 <joint>
        # without <axis> (required in 1.4, not in 1.9) is read as libsdformat reads it.
        o.required = n.required
        o.attributes = {k: n.attributes.get(k) or AttributeSpec(k, 'string', a.default, False)
                        for k, a in o.attributes.items()}
        # A newer attribute (<inertial auto>) is known after the conversion.
        o.attributes.update({k: a for k, a in n.attributes.items() if k not in o.attributes})
    derive(o)
