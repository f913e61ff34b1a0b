"""Parse XML without ever fetching or expanding what a file asks for.

SDFormat and URDF files come from anywhere (downloaded models, robot
descriptions passed over ROS topics). We refuse DTD entity declarations
outright: an entity can point at a local file or a URL, or expand
exponentially ("billion laughs"). Nothing is fetched from the network.
"""
from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

from lxml import etree

from sdf_tools.errors import Diagnostic, ErrorCode

_MAX_BYTES = 256 * 1024 * 1024


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_blank_text=False,
        collect_ids=False,
    )


def _check_dtd(tree: etree._ElementTree, source: str) -> Diagnostic | None:
    dtd: etree.DTD | None = tree.docinfo.internalDTD
    if dtd is None:
        # No DOCTYPE: libxml2 already refuses undeclared entity references.
        return None
    if len(list(dtd.iterentities())) > 0:  # type: ignore[attr-defined]
        return Diagnostic(ErrorCode.XML_UNSAFE,
                          'XML entity declarations are not allowed (they could read '
                          'local files or expand without bound); remove the DOCTYPE',
                          source, 1)
    for node in tree.iter():
        if isinstance(node, etree._Entity):
            return Diagnostic(ErrorCode.XML_UNSAFE,
                              f'undefined XML entity reference [&{node.name};]',
                              source, node.sourceline)
    return None


_DECL = re.compile(rb'^(\s*<\?xml[^>]*?version\s*=\s*["\'])([^"\']*)(["\'])')


def _fix_declaration(data: bytes) -> bytes:
    """Accept what libsdformat's XML parser (tinyxml2) accepts in real files.

    * ``<?xml version="0.0"?>``: tinyxml2 ignores the declared version;
      libxml2 refuses anything but 1.x.
    * Blank lines before the declaration: tinyxml2 skips them; libxml2
      wants the declaration at byte 0. They are moved after it.
    * A NUL byte after the document (a C string terminator written into the
      file): tinyxml2 stops there.
    Line numbers are unchanged.
    """
    nul = data.find(b'\x00')
    if nul > 0 and data[:nul].rstrip().endswith(b'>'):
        data = data[:nul]
    stripped = data.lstrip()
    if stripped.startswith(b'<?xml') and len(stripped) != len(data):
        lead = data[:len(data) - len(stripped)]
        end = stripped.find(b'?>')
        if end > 0:
            data = stripped[:end + 2] + lead + stripped[end + 2:]
    m = _DECL.match(data)
    if m and not m.group(2).startswith(b'1.'):
        return data[:m.start(2)] + b'1.0' + data[m.end(2):]
    return data


# Called with each element named ``tag`` as soon as the parser has read all of it.
OnEnd = tuple[str, Callable[[etree._Element], None]]


def parse_bytes(data: bytes, source: str | None,
                on_end: OnEnd | None = None) -> tuple[etree._Element | None, Diagnostic | None]:
    """Parse XML bytes; return the root element or a diagnostic saying why not.

    With ``on_end = (tag, callback)`` the callback sees each ``tag`` element
    while the rest of the document is still being parsed, and may read it and
    drop its children: a large world then never holds its whole tree at once
    (see ``sdf/stream.py``). It is not called for a document with a DOCTYPE,
    which is checked whole, and its calls are void if a malformed document
    makes the parse fall back to a whole-tree parse: compare the root returned
    with the root the callback saw.
    """
    if not data.strip():
        return None, Diagnostic(ErrorCode.FILE_READ, 'the file is empty', source, None)
    data = _fix_declaration(data)
    if b'\x00' in data[:4096] and not data.startswith((b'\xff\xfe', b'\xfe\xff')):
        return None, Diagnostic(ErrorCode.FILE_READ, 'the file is binary, not XML', source, None)
    if b'<!ENTITY' in data:
        line = data[:data.index(b'<!ENTITY')].count(b'\n') + 1
        return None, Diagnostic(ErrorCode.XML_UNSAFE,
                                'XML entity declarations are not allowed (they could read '
                                'local files or expand without bound); remove the DOCTYPE',
                                source, line)
    if on_end is not None and b'<!DOCTYPE' not in data:
        root = _parse_streaming(data, *on_end)
        if root is not None:
            return root, None
        # Malformed: the whole-tree parse below gives libxml2's own message
        # and line (iterparse reports some errors as "no element found").
    try:
        tree = etree.ElementTree(etree.fromstring(data, _parser()))
    except etree.XMLSyntaxError as err:
        line = err.position[0] if err.position else None
        return None, Diagnostic(ErrorCode.XML_INVALID, f'malformed XML: {err.msg}', source, line)
    except ValueError as err:  # e.g. encoding declaration issues
        return None, Diagnostic(ErrorCode.XML_INVALID, f'malformed XML: {err}', source, None)
    bad = _check_dtd(tree, source or '<string>')
    if bad is not None:
        return None, Diagnostic(bad.code, bad.message, source, bad.line)
    return tree.getroot(), None


def _parse_streaming(data: bytes, tag: str,
                     callback: Callable[[etree._Element], None]) -> etree._Element | None:
    """Parse with ``iterparse``, calling back on each ``tag``; None when malformed."""
    events = etree.iterparse(
        io.BytesIO(data), events=('end',), tag=tag, resolve_entities=False, no_network=True,
        load_dtd=False, dtd_validation=False, huge_tree=False, remove_blank_text=False,
        collect_ids=False)
    try:
        for _, el in events:
            callback(el)
    except (etree.XMLSyntaxError, ValueError):
        return None
    root: etree._Element = events.root
    return root


def parse_file(path: str | Path,
               on_end: OnEnd | None = None) -> tuple[etree._Element | None, Diagnostic | None]:
    """Read and parse an XML file (size-capped); never raises for bad input."""
    source = str(path)
    try:
        p = Path(path)
        if p.is_dir():
            return None, Diagnostic(ErrorCode.FILE_READ, f'[{source}] is a directory, not a file', source)
        if p.stat().st_size > _MAX_BYTES:
            return None, Diagnostic(ErrorCode.FILE_READ, 'the file is larger than 256 MiB', source)
        data = p.read_bytes()
    except OSError as err:
        return None, Diagnostic(ErrorCode.FILE_READ, f'cannot read file: {err.strerror}', source)
    return parse_bytes(data, source, on_end)


def line_of(el: etree._Element) -> int | None:
    """Return the source line of an element (None when lxml has none)."""
    line: object = el.sourceline
    return line if isinstance(line, int) else None


def element_text(el: etree._Element) -> str:
    """Return an element's own text ('' when absent)."""
    return el.text or ''


def to_xml(el: etree._Element) -> str:
    """Serialise one element verbatim (for plugins and unknown elements)."""
    return etree.tostring(el, encoding='unicode', with_tail=False)
