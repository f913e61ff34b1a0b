"""Point every line of an MJCF import into the MJCF file, not into the intermediate SDFormat.

An import writes the model read from MJCF as SDFormat text and reads that
back (:func:`~sdf_tools.convert.mjcf.from_mjcf.load_mjcf`), so the document
read carries lines of that text (``cassie.xml:1101`` for a 282-line file).
Each element of the model built from MJCF holds the line of the MJCF element
it came from (a body, joint, geom or site); this module maps each line of the
intermediate text to the line of its nearest named element's origin
(:func:`line_map`), and points the document read back and its diagnostics at
those lines (:func:`in_mjcf`), before its frame graphs are built: whatever is
said of the loaded file then names the MJCF file and line.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from lxml import etree

from sdf_tools.convert.conversion_report import ConversionReport
from sdf_tools.errors import Diagnostic
from sdf_tools.model import Document, Loc, Model

Key = tuple[str, ...]
_OWN = ('link', 'joint', 'frame')
_OF_LINK = ('visual', 'collision')
# Entries about the intermediate text itself, not about anything the user wrote.
_INTERMEDIATE = ('sdf/@version',)


def origins(model: Model) -> dict[Key, Loc]:
    """Return the MJCF location of each named element of ``model`` (by tag and name)."""
    out: dict[Key, Loc] = {}
    for link in model.links:
        if link.loc is not None:
            out[('link', link.name)] = link.loc
        for v in link.visuals:
            if v.loc is not None:
                out[('visual', link.name, v.name)] = v.loc
        for c in link.collisions:
            if c.loc is not None:
                out[('collision', link.name, c.name)] = c.loc
    for joint in model.joints:
        if joint.loc is not None:
            out[('joint', joint.name)] = joint.loc
    for frame in model.frames:
        if frame.loc is not None:
            out[('frame', frame.name)] = frame.loc
    return out


def _key(el: etree._Element) -> Key | None:
    name, tag = el.get('name'), el.tag
    if name is None or not isinstance(tag, str):
        return None
    if tag in _OWN:
        return (tag, name)
    parent = el.getparent()
    if tag in _OF_LINK and parent is not None and parent.get('name') is not None:
        return (tag, str(parent.get('name')), name)
    return None


def line_map(sdf_text: str, known: dict[Key, Loc]) -> dict[int, int | None]:
    """Return intermediate line -> MJCF line (None: no element of the MJCF file to cite)."""
    root = etree.fromstring(sdf_text.encode())
    out: dict[int, int | None] = {}
    for el in root.iter():
        line = getattr(el, 'sourceline', None)  # (the stubs type it oddly)
        if not isinstance(line, int) or line in out:
            continue
        got: int | None = None
        for up in (el, *el.iterancestors()):
            key = _key(up)
            if key is not None and key in known:
                got = known[key].line
                break
        out[line] = got
    return out


def _locs(obj: object, seen: set[int]) -> Iterator[Loc]:
    """Yield every location held in a document's records, each once."""
    if isinstance(obj, Loc):
        if id(obj) not in seen:
            seen.add(id(obj))
            yield obj
    elif isinstance(obj, (list, tuple)):
        for item in obj:
            yield from _locs(item, seen)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from _locs(getattr(obj, f.name), seen)


def in_mjcf(doc: Document | None, diagnostics: list[Diagnostic], mjcf_file: str,
            lines: dict[int, int | None]) -> list[Diagnostic]:
    """Point ``doc`` (read from the intermediate text) and ``diagnostics`` into ``mjcf_file``.

    Returns:
        The diagnostics with their intermediate lines made MJCF lines; the
        document's locations are changed in place.
    """
    for loc in _locs(doc, set()) if doc is not None else ():
        if loc.file == mjcf_file and loc.line is not None:
            loc.line = lines.get(loc.line)
    return [dataclasses.replace(d, line=lines.get(d.line) if d.line is not None else None)
            if d.file == mjcf_file else d for d in diagnostics]


def name_mjcf(report: ConversionReport, mjcf_file: str) -> None:
    """Say every entry of a conversion of an MJCF import in ``mjcf_file``; drop those about
    the intermediate text itself."""
    report.entries[:] = [dataclasses.replace(e, file=mjcf_file) for e in report.entries
                         if e.element not in _INTERMEDIATE]
