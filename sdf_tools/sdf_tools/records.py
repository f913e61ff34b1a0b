"""``__repr__`` and ``__eq__`` for dataclasses that write their methods out.

``@dataclass`` makes a class's ``__init__``, ``__repr__`` and ``__eq__`` by compiling
source text at import: 0.2-0.3 ms a class, about 2 M instructions, two thirds of what
``sdf_tools check small.sdf`` spends on the two dozen records it makes beyond
``import lxml.etree`` (bench/PROFILE.md, session 10). The model's records, ``Diagnostic``
and ``Transform`` therefore say ``@dataclass(init=False, repr=False, eq=False)`` and write
an ``__init__`` of their own (the same parameters and defaults as their fields: the
reader builds ~100,000 of them for a 10,000-link world, so it stays code of its own),
with ``__repr__`` and ``__eq__`` from here, which give what the generated ones give.
``dataclasses.fields``, ``replace``, ``asdict`` and ``__match_args__`` work as before:
the fields are still the decorator's. ``test/test_records.py`` holds every such class
to the dataclass the same fields make.

Each class names the two functions in two short methods rather than inheriting them from
a base class: the opt-in compiled build (``sdf_tools/_native.py``) cannot compile a
slotted dataclass whose base class is interpreted, and ``errors.py`` and ``load.py``,
which hold such classes too, stay interpreted.
"""
from __future__ import annotations

import reprlib
from dataclasses import fields
from typing import Any

__all__ = ['fields_eq', 'fields_repr']


@reprlib.recursive_repr()
def fields_repr(obj: Any) -> str:
    """``Name(field=value, ...)`` as a generated ``__repr__`` writes it."""
    shown = ', '.join(f'{f.name}={getattr(obj, f.name)!r}' for f in fields(obj) if f.repr)
    return f'{obj.__class__.__qualname__}({shown})'


def fields_eq(obj: Any, other: Any) -> bool:
    """A generated ``__eq__``: the tuples of compared fields, for the same class only."""
    if other.__class__ is not obj.__class__:
        return _NOT_IMPLEMENTED
    names = [f.name for f in fields(obj) if f.compare]
    return (tuple([getattr(obj, n) for n in names])
            == tuple([getattr(other, n) for n in names]))


# What an ``__eq__`` returns for another class (typed as what it stands in for).
_NOT_IMPLEMENTED: bool = NotImplemented
