"""The SDFormat spec as data: what each element of each version may hold.

The facts come from the spec's own description files, turned into one JSON table
per version by ``tools/gen_sdf_spec.py`` (committed under ``data/``; a test checks
they are current). :func:`spec_for` turns a version's table into linked
:class:`ElementSpec` records once per process, with the lookups validation needs
precomputed (children by name, required attributes and children), so checking an
element costs a few dictionary lookups.
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path

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


@dataclass(frozen=True, slots=True)
class AttributeSpec:
    """One ``<attribute>`` of the spec."""

    name: str
    type: str
    default: str
    required: bool


@dataclass(eq=False, slots=True)
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
    made: dict[str, ElementSpec] = {}
    for eid, rec in records.items():
        name, req, typ, default, lo, hi, copy, _ref, attrs, _kids, _inc = rec
        if eid in own:
            lo, hi = own[eid]
        attributes = {str(a[0]): AttributeSpec(str(a[0]), str(a[1]), str(a[2] or ''), a[3] == '1')
                      for a in attrs}  # type: ignore[attr-defined]
        made[eid] = ElementSpec(
            str(name), str(req), typ if isinstance(typ, str) else None,
            default if isinstance(default, str) else None, req == '1',
            _bounds(typ if isinstance(typ, str) else None, lo, hi),  # type: ignore[arg-type]
            bool(copy), attributes, tuple(n for n, a in attributes.items() if a.required))
    # Twice: a ref child copies its target's children, complete after the first pass. What
    # derive() computes does not change in the second (the same number of children, resolved).
    copies: list[tuple[ElementSpec, ElementSpec]] = []
    for eid, rec in records.items():
        _link(made[eid], [made[cid] for cid in rec[9]])  # type: ignore[attr-defined]
        derive(made[eid])
    for eid, rec in records.items():
        _link(made[eid], [_resolved(made, records, cid, copies)
                          for cid in rec[9]])  # type: ignore[attr-defined]
    # A copy made before its target was linked the second time holds the target's first
    # children, whose own ref children are still empty stubs: a model nested two deep would
    # then know no children. Point every copy at its target's final children, so refs nest
    # to any depth (<model> in <model> in <model> ...).
    for copy, target in copies:
        copy.children, copy.required_children = target.children, target.required_children
    root = made[str(data['root'])]
    adopted: set[int] = set()
    if converted_to is not None:
        from sdf_tools.sdf.spec.convert import read_as_converted
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


def derive_children(spec: ElementSpec) -> None:
    """Compute the lookups of ``spec`` that follow from its children's own."""
    spec.required_tags = frozenset(c.name for c in spec.required_children)
    spec.leaf_batches = {name: c.batch for name, c in spec.children.items()
                         if c.batch is not None and c.required != '-1'}


def derive(spec: ElementSpec) -> None:
    """Compute the lookups of ``spec`` that follow from its own fields and children."""
    spec.required_attributes = tuple(n for n, a in spec.attributes.items() if a.required)
    spec.plain_attributes = frozenset(n for n, a in spec.attributes.items() if a.type == 'string')
    spec.leaf = (spec.type is not None and not spec.children and not spec.copy_data
                 and spec.required != '-1' and not spec.required_attributes)
    plain = spec.leaf and spec.bounds is None  # an empty required value fails the batch
    spec.batch = spec.type if plain and spec.type in ('double', 'pose', 'vector3') else None


def _resolved(made: dict[str, ElementSpec], records: dict[str, list[object]], cid: str,
              copies: list[tuple[ElementSpec, ElementSpec]]) -> ElementSpec:
    """A child as met in a document: a ``ref`` child reads as the element it refers to.

    libsdformat replaces the description of ``<element ref="model_state">`` with a copy
    of ``model_state.sdf``'s element when it meets one; the ``required`` of the child
    (checked before) stays the referring one.
    """
    ref = records[cid][7]
    if not isinstance(ref, str) or ref not in made:
        return made[cid]
    target, own = made[ref], made[cid]
    copy = ElementSpec(own.name, own.required, target.type, target.default, target.value_required,
                       target.bounds, target.copy_data, target.attributes,
                       target.required_attributes, target.children, target.required_children,
                       target.leaf, target.plain_attributes, target.batch)
    copies.append((copy, target))
    return copy
