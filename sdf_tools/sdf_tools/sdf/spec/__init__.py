"""The SDFormat spec as data: what each element of each version may hold.

The facts come from the spec's own description files, turned into one JSON table
per version by ``tools/gen_sdf_spec.py`` (committed under ``data/``; a test checks
they are current). :func:`spec_for` turns a version's table into linked
:class:`ElementSpec` records, each made when its parent's children are first asked for
and kept for the process, with the lookups validation needs precomputed (children by
name, required attributes and children), so checking an element costs a few dictionary
lookups.
"""
from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sdf_tools.records import fields_eq, fields_repr
from sdf_tools.sdf.spec.values import SCALARS, scalar

__all__ = ['AttributeSpec', 'ElementSpec', 'SPEC_VERSIONS', 'spec_for', 'spec_read_as', 'table']

DATA_DIR = Path(__file__).resolve().parent / 'data'
SPEC_VERSIONS = ('1.0', '1.2', '1.3', '1.4', '1.5', '1.6', '1.7', '1.8', '1.9', '1.10', '1.11', '1.12')
# libsdformat converts a document to the newest version it knows before it reads it
# (readDoc: Converter::Convert(doc, SDF::Version())). The .convert files of 1.3-1.9
# rename and move elements; spec/convert.py reads such a file's values as the newest
# version's. Those of 1.10, 1.11 and 1.12 are empty, so a 1.9-1.11 file is simply
# read against the newest table.
CONVERTED = ('1.3', '1.4', '1.5', '1.6', '1.7', '1.8')
SAME_AFTER_CONVERSION = ('1.9', '1.10', '1.11')
# Where a libsdformat release ships a description of a spec version that differs from
# the committed table (generated from the release tools/gen_sdf_spec.py names), the
# release's own bounds: {libsdformat major: {version: {element id: (min, max)}}}.
# libsdformat 14.9's 1.11 camera.sdf still has 0.1 as the least horizontal_fov; 15.3
# lowered it to 0.001 (gazebosim/sdformat#1563), and our 1.11 table is 15.4's.
RELEASE_BOUNDS: dict[int, dict[str, dict[str, tuple[str | None, str | None]]]] = {
    14: {'1.11': {'camera/horizontal_fov': ('0.1', '6.283186')}},
}


# The two records' methods are written out rather than generated at import
# (sdf_tools/records.py says why).
@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class AttributeSpec:
    """One ``<attribute>`` of the spec."""

    name: str
    type: str
    default: str
    required: bool

    def __init__(self, name: str, type: str, default: str, required: bool) -> None:
        # As a frozen dataclass's generated __init__ sets them.
        object.__setattr__(self, 'name', name)
        object.__setattr__(self, 'type', type)
        object.__setattr__(self, 'default', default)
        object.__setattr__(self, 'required', required)

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)

    def __hash__(self) -> int:
        return hash((self.name, self.type, self.default, self.required))


@dataclass(slots=True, init=False, repr=False, eq=False)
class ElementSpec:
    """One ``<element>`` of the spec, linked to its children.

    Attributes:
        name: the tag.
        required: ``0``, ``1``, ``*``, ``+`` or ``-1`` (deprecated), as written.
        type: the type of the element's own value (None: it holds no value).
        default: the default of that value.
        value_required: an empty value is refused (libsdformat: ``required="1"``).
        bounds: (min, max) of a scalar value, parsed; None when unbounded.
        copy_data: children are copied as they are, unchecked (``<plugin>``).
        attributes: by name.
        required_attributes: the names of those with ``required="1"``.
        children: by name, the first description of each name (libsdformat's lookup).
        required_children: children with ``required`` ``1`` or ``+``.

    The specs of a table are made as :class:`_Unlinked` and become plain ``ElementSpec``
    records when one of ``children``, ``required_children``, ``leaf_batches`` or
    ``required_tags`` is first read (:meth:`_Table.link`).
    """

    name: str
    required: str
    type: str | None = None
    default: str | None = None
    value_required: bool = False
    bounds: tuple[float | None, float | None] | None = None
    copy_data: bool = False
    attributes: dict[str, AttributeSpec] = field(default_factory=dict)
    required_attributes: tuple[str, ...] = ()
    children: dict[str, ElementSpec] = field(default_factory=dict, repr=False)
    required_children: tuple[ElementSpec, ...] = field(default=(), repr=False)
    # A value without attributes or children: checked inline by its parent (spec/check.py).
    leaf: bool = False
    # Attributes of type string: nothing to parse, only a required one must not be empty.
    plain_attributes: frozenset[str] = frozenset()
    # The batch its texts join when it is a leaf of a plain kind (spec/check.py).
    batch: str | None = None
    # Children that are such leaves, by tag, with their batch; and the required tags.
    leaf_batches: dict[str, str] = field(default_factory=dict, repr=False)
    required_tags: frozenset[str] = frozenset()
    # Verdicts on texts of this element's value (without attributes): values are pure.
    verdicts: dict[str, bool] = field(default_factory=dict, repr=False)
    # Where an _Unlinked spec's children come from: the table and the ids of the
    # children's records, or the id of the element a ``ref`` copy stands for.
    source: _Table | None = field(default=None, repr=False)
    kids: Sequence[str] = field(default=(), repr=False)

    def __init__(self, name: str, required: str, type: str | None = None,
                 default: str | None = None, value_required: bool = False,
                 bounds: tuple[float | None, float | None] | None = None,
                 copy_data: bool = False, attributes: dict[str, AttributeSpec] | None = None,
                 required_attributes: tuple[str, ...] = (),
                 children: dict[str, ElementSpec] | None = None,
                 required_children: tuple[ElementSpec, ...] = (), leaf: bool = False,
                 plain_attributes: frozenset[str] = frozenset(), batch: str | None = None,
                 leaf_batches: dict[str, str] | None = None,
                 required_tags: frozenset[str] = frozenset(),
                 verdicts: dict[str, bool] | None = None, source: _Table | None = None,
                 kids: Sequence[str] = ()) -> None:
        self.name = name
        self.required = required
        self.type = type
        self.default = default
        self.value_required = value_required
        self.bounds = bounds
        self.copy_data = copy_data
        self.attributes = {} if attributes is None else attributes
        self.required_attributes = required_attributes
        self.children = {} if children is None else children
        self.required_children = required_children
        self.leaf = leaf
        self.plain_attributes = plain_attributes
        self.batch = batch
        self.leaf_batches = {} if leaf_batches is None else leaf_batches
        self.required_tags = required_tags
        self.verdicts = {} if verdicts is None else verdicts
        self.source = source
        self.kids = kids

    def __repr__(self) -> str:
        return fields_repr(self)


class _Unlinked(ElementSpec):
    """An :class:`ElementSpec` of a table whose children are not linked yet.

    A small file reaches a handful of the ~600 elements of a version, and building all
    of them was most of ``check``'s start-up (bench/PROFILE.md, session 9). The four
    slots that need the children stay empty until one is read: that calls
    ``__getattr__``, which links them and makes the record a plain ``ElementSpec``.
    Only this class has the hook: a class with ``__getattr__`` reads every attribute
    through it (and CPython does not specialise those reads), which would slow the
    checker's walk over 100,000s of elements.
    """

    __slots__ = ()

    def __init__(self, source: _Table, kids: Sequence[str], name: str, required: str,
                 type: str | None, default: str | None, value_required: bool,
                 bounds: tuple[float | None, float | None] | None, copy_data: bool,
                 attributes: dict[str, AttributeSpec]) -> None:
        self.name, self.required, self.type, self.default = name, required, type, default
        self.value_required, self.bounds, self.copy_data = value_required, bounds, copy_data
        self.attributes = attributes
        self.verdicts = {}
        self.source, self.kids = source, kids

    if not TYPE_CHECKING:  # mypy keeps checking attribute names as declared
        def __getattr__(self, name: str) -> object:
            # Only called while a slot is empty: one of the four linked on first use.
            if name not in _LINKED:
                raise AttributeError(name)
            self.source.link(self)
            return getattr(self, name)


_LINKED = frozenset({'children', 'required_children', 'leaf_batches', 'required_tags'})


class _Table:
    """One version's records, made into :class:`ElementSpec` records on first use."""

    __slots__ = ('made', 'own', 'records')

    def __init__(self, records: dict[str, list[object]],
                 own: dict[str, tuple[str | None, str | None]]) -> None:
        self.records = records
        self.own = own  # a release's own bounds, by element id
        self.made: dict[str, ElementSpec] = {}

    def spec(self, eid: str) -> ElementSpec:
        """The element of record ``eid`` (made once; its children linked on first use)."""
        made = self.made.get(eid)
        if made is not None:
            return made
        name, req, typ, default, lo, hi, copy, _ref, attrs, kids, _inc = self.records[eid]
        if eid in self.own:
            lo, hi = self.own[eid]
        attributes = {str(a[0]): AttributeSpec(str(a[0]), str(a[1]), str(a[2] or ''), a[3] == '1')
                      for a in attrs}  # type: ignore[attr-defined]
        made = _Unlinked(
            self, kids, str(name), str(req), typ if isinstance(typ, str) else None,  # type: ignore[arg-type]
            default if isinstance(default, str) else None, req == '1',
            _bounds(typ if isinstance(typ, str) else None, lo, hi),  # type: ignore[arg-type]
            bool(copy), attributes)
        _derive_own(made, bool(kids))
        self.made[eid] = made
        return made

    def child(self, cid: str) -> ElementSpec:
        """A child as met in a document: a ``ref`` child reads as the element it refers to.

        libsdformat replaces the description of ``<element ref="model_state">`` with a copy
        of ``model_state.sdf``'s element when it meets one; the ``required`` of the child
        (checked before) stays the referring one. The copy's children are its target's
        (the same dictionary), so refs nest to any depth (<model> in <model> ...).
        """
        ref = self.records[cid][7]
        if not isinstance(ref, str) or ref not in self.records:
            return self.spec(cid)
        target, own = self.spec(ref), self.spec(cid)
        copy = _Unlinked(self, ref, own.name, own.required, target.type, target.default,
                         target.value_required, target.bounds, target.copy_data,
                         target.attributes)
        copy.required_attributes, copy.leaf = target.required_attributes, target.leaf
        copy.plain_attributes, copy.batch = target.plain_attributes, target.batch
        return copy

    def link(self, spec: ElementSpec) -> None:
        """Link ``spec``'s children and the lookups that follow from them."""
        if isinstance(spec.kids, str):  # a ref copy: its target's children
            target = self.spec(spec.kids)
            spec.children, spec.required_children = target.children, target.required_children
            derive_children(spec)
        else:
            _link(spec, [self.child(cid) for cid in spec.kids])
        spec.__class__ = ElementSpec  # reads as any other spec from now on


@functools.cache
def table(version: str) -> dict[str, object]:
    """Return the generated table of one spec version (see ``tools/gen_sdf_spec.py``)."""
    path = DATA_DIR / f'{version.replace(".", "_")}.json'
    data: dict[str, object] = json.loads(path.read_text(encoding='utf-8'))
    return data


def _bounds(type_name: str | None, lo: str | None, hi: str | None
            ) -> tuple[float | None, float | None] | None:
    if type_name not in SCALARS or (lo is None and hi is None):
        return None
    assert type_name is not None
    return (scalar(type_name, lo.strip()) if lo else None,
            scalar(type_name, hi.strip()) if hi else None)


def _key(version: str) -> tuple[int, int]:
    major, minor = version.split('.')
    return int(major), int(minor)


def spec_read_as(version: str, newest: str = '1.9', release: int = 12) -> ElementSpec:
    """Return the spec a file of ``version`` is checked against by a libsdformat.

    ``newest`` is the newest version that libsdformat knows (12: 1.9, 14: 1.11, 15 and
    16: 1.12) and ``release`` its major version. A 1.9-1.11 file older than ``newest``
    is read against ``newest``'s table (their conversions are empty); a 1.3-1.8 file
    keeps its own structure with ``newest``'s values (spec/convert.py); any other is
    read against its own table.
    """
    older = _key(version) < _key(newest)
    if older and version in SAME_AFTER_CONVERSION:
        version = newest
    converted_to = newest if older and version in CONVERTED else None
    patched = RELEASE_BOUNDS.get(release, {})
    own_bounds = version in patched or (converted_to is not None and converted_to in patched)
    return _spec(version, converted_to, release if own_bounds else None)


def spec_for(version: str) -> ElementSpec:
    """Return the root element of a spec version (``<sdf>``; ``<gazebo>`` before 1.3).

    A 1.3-1.8 table is the one libsdformat 12 reads such a file with: values as 1.9's.
    """
    return _spec(version, '1.9' if version in CONVERTED else None, None)


@functools.cache
def _spec(version: str, converted_to: str | None, release: int | None) -> ElementSpec:
    """Build the spec of ``version``, read after converting to ``converted_to``.

    ``release``: take that libsdformat's own bounds where they differ from the table's
    (:data:`RELEASE_BOUNDS`).
    """
    data = table(version)
    records: dict[str, list[object]] = data['elements']  # type: ignore[assignment]
    own = RELEASE_BOUNDS.get(release, {}).get(version, {}) if release is not None else {}
    made = _Table(records, own)
    root = made.spec(str(data['root']))
    if converted_to is not None:
        from sdf_tools.sdf.spec.convert import read_as_converted
        # The conversion changes the specs it walks: link every one first, from the
        # table as it is, so that no copy is made of an element already converted.
        _derive_all(root)
        # Every libsdformat reads the converted document against its newest table
        # (12.3's readDoc too: sdf::init is 1.9's), so what 1.7+ added is known in a 1.6
        # file (its <enable_metrics> for Fortress, a <cone> for Harmonic on).
        adopted = read_as_converted(root, _spec(converted_to, None, release), version=version)
        _derive_all(root, adopted)
    return root


def _derive_all(root: ElementSpec, done: set[int] | None = None) -> None:
    """Compute every spec's child lookups, once all of them are final (``done``: ids of
    subtrees whose lookups are final already)."""
    seen: set[int] = set(done or ())
    stack = [root]
    while stack:
        spec = stack.pop()
        if id(spec) in seen:
            continue
        seen.add(id(spec))
        derive_children(spec)
        stack.extend(spec.children.values())


def _link(spec: ElementSpec, kids: list[ElementSpec]) -> None:
    children: dict[str, ElementSpec] = {}
    for child in kids:
        children.setdefault(child.name, child)
    spec.children = children
    spec.required_children = tuple(c for c in kids if c.required in ('1', '+'))
    derive_children(spec)


def derive_children(spec: ElementSpec) -> None:
    """Compute the lookups of ``spec`` that follow from its children's own."""
    spec.required_tags = frozenset(c.name for c in spec.required_children)
    spec.leaf_batches = {name: c.batch for name, c in spec.children.items()
                         if c.batch is not None and c.required != '-1'}


def derive(spec: ElementSpec) -> None:
    """Compute the lookups of ``spec`` that follow from its own fields and children."""
    _derive_own(spec, bool(spec.children))


def _derive_own(spec: ElementSpec, has_children: bool) -> None:
    spec.required_attributes = tuple(n for n, a in spec.attributes.items() if a.required)
    spec.plain_attributes = frozenset(n for n, a in spec.attributes.items() if a.type == 'string')
    spec.leaf = (spec.type is not None and not has_children and not spec.copy_data
                 and spec.required != '-1' and not spec.required_attributes)
    plain = spec.leaf and spec.bounds is None  # an empty required value fails the batch
    spec.batch = spec.type if plain and spec.type in ('double', 'pose', 'vector3') else None
