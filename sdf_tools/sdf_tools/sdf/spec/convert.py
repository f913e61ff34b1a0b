"""Read an older spec's values as libsdformat reads them: after converting the file.

libsdformat 12 converts a 1.3-1.8 document to 1.9 (its ``.convert`` files rename,
move and remove elements) and only then parses values with the 1.9 spec. So a value
is parsed by its 1.9 type, and one the conversion removes (``use_parent_model_frame``
of 1.6, for one) is never parsed at all: ``yes`` there is no error. We keep checking
the document's structure against its own version (an element 1.6 does not know is
unknown in a 1.6 file) and take each value's type from the 1.9 element at the same
place; where 1.9 has none, the value is not checked. Whether an element is required
comes from 1.9 as well (libsdformat adds or refuses missing ones after converting).
Renames and moves of the conversion are not followed: such an element keeps its own
version's rules.
"""
from __future__ import annotations

from sdf_tools.sdf.spec import AttributeSpec, ElementSpec, derive

__all__ = ['read_as_converted']


def read_as_converted(old: ElementSpec, new: ElementSpec, *, adopt_new: bool = False) -> None:
    """Give the specs under ``old`` the value rules of their counterparts under ``new``.

    ``adopt_new``: an element ``new`` has that ``old`` lacks at the same place is known
    too (libsdformat 13+ reads the converted file against 1.10+, which adds ``<cone>``,
    ``//world/joint`` ...). libsdformat 12 is read without it: its 1.9 adds little, and
    what a 1.3-1.8 file holds of it is reported as unknown, as before.
    """
    seen: dict[int, ElementSpec] = {}
    adopted: set[int] = set()
    stack: list[tuple[ElementSpec, ElementSpec | None]] = [(old, new)]
    while stack:
        o, n = stack.pop()
        if id(o) in seen:
            continue  # shared (an included file): the first place it is met decides
        seen[id(o)] = o
        _adopt(o, n, adopt_new)
        for name, child in o.children.items():
            stack.append((child, n.children.get(name) if n is not None else None))
        if adopt_new and n is not None:
            for name, child in n.children.items():
                if name not in o.children:
                    o.children[name] = child  # shared with ``new``: not walked, not changed
                    adopted.add(id(child))
    for o in seen.values():
        # An adopted child is not added when missing: it may be the new name of an
        # element the file holds under its old one (the conversion renames it).
        o.required_children = tuple(c for c in o.children.values()
                                    if c.required in ('1', '+') and id(c) not in adopted)


def _adopt(o: ElementSpec, n: ElementSpec | None, adopt_new: bool) -> None:
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
        if adopt_new:  # a newer attribute (<inertial auto>) is known after the conversion
            o.attributes.update({k: a for k, a in n.attributes.items() if k not in o.attributes})
    derive(o)
