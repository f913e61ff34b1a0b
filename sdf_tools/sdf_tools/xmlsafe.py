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

from sdf_tools.errors import Diagnostic, ErrorCode, Severity

_MAX_BYTES = 256 * 1024 * 1024


def _parser(*, recover: bool = False) -> etree.XMLParser:
    return etree.XMLParser(
        recover=recover,
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

    With a root, the diagnostic (if any) is a warning about what was tolerated as
    libsdformat tolerates it (undeclared namespace prefixes, elements after the root).

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
    data, text_line = _without_text_before_root(data)
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
            return _with_text_note(root, None, text_line, source)
        # Malformed: the whole-tree parse below gives libxml2's own message
        # and line (iterparse reports some errors as "no element found").
    note: Diagnostic | None = None
    parser = _parser()
    try:
        tree = etree.ElementTree(etree.fromstring(data, parser))
    except etree.XMLSyntaxError as err:
        # The parser's own log: the exception's may hold entries of earlier parses.
        tolerated = _tolerated(data, parser.error_log, source)
        if not isinstance(tolerated, tuple):
            # What is wrong once the tolerated part is set aside, if something was.
            why = tolerated if isinstance(tolerated, etree.XMLSyntaxError) else err
            line = why.position[0] if why.position else None
            return None, Diagnostic(ErrorCode.XML_INVALID, f'malformed XML: {why.msg}', source, line)
        tree, note = tolerated
    except ValueError as err:  # e.g. encoding declaration issues
        return None, Diagnostic(ErrorCode.XML_INVALID, f'malformed XML: {err}', source, None)
    bad = _check_dtd(tree, source or '<string>')
    if bad is not None:
        return None, Diagnostic(bad.code, bad.message, source, bad.line)
    return _with_text_note(tree.getroot(), note, text_line, source)


# What may come before the root element: blanks, comments, processing instructions.
_PROLOG_ITEM = re.compile(rb'\s+|<!--.*?-->|<\?.*?\?>', re.DOTALL)


def _without_text_before_root(data: bytes) -> tuple[bytes, int | None]:
    """Blank out text outside any element before the root, as tinyxml2 skips it.

    tinyxml2 (libsdformat's XML parser) reads text at the document level as a text node
    ending at the next ``<`` and libsdformat ignores it (e.g. a declaration that lost its
    ``<``: ``?xml version="1.0"?>``); libxml2 refuses it. Text with no ``<`` after it
    stays an error (tinyxml2 refuses it too). Returns the bytes, line numbers unchanged,
    and the line of the first text blanked (None when there was none).
    """
    if data.startswith((b'\xff\xfe', b'\xfe\xff')):
        return data, None
    pos = 3 if data.startswith(b'\xef\xbb\xbf') else 0
    first: int | None = None
    out: bytearray | None = None  # a copy only when there is text to blank (13 MB: ~10 ms)
    while pos < len(data):
        m = _PROLOG_ITEM.match(data, pos)
        if m:
            pos = m.end()
            continue
        if data[pos:pos + 1] == b'<':
            break  # the root element (or a DOCTYPE): libxml2 takes it from here
        nxt = data.find(b'<', pos)
        if nxt < 0:
            break
        if out is None:
            first = data.count(b'\n', 0, pos) + 1
            out = bytearray(data)
        out[pos:nxt] = bytes(b if b in b'\r\n' else 0x20 for b in data[pos:nxt])
        pos = nxt
    return (bytes(out), first) if out is not None else (data, None)


def _with_text_note(root: etree._Element, note: Diagnostic | None, line: int | None,
                    source: str | None) -> tuple[etree._Element | None, Diagnostic | None]:
    """Add the warning about text skipped before the root to the parse's own note.

    A URDF (``<robot>``) with such text is refused: libsdformat hands it to urdfdom,
    whose parser does not skip it.
    """
    if line is None:
        return root, note
    if root.tag == 'robot':
        return None, Diagnostic(ErrorCode.XML_INVALID, 'malformed XML: text before the root '
                                'element <robot> (urdfdom refuses it)', source, line)
    text = "text before the root element is ignored (as libsdformat's XML parser ignores it)"
    if note is not None:
        text = f'{text}; {note.message}'
    return root, Diagnostic(ErrorCode.XML_TEXT_OUTSIDE_ROOT, text, source, line,
                            severity=Severity.WARNING)


def _tolerated(data: bytes, log: etree._ListErrorLog, source: str | None
               ) -> tuple[etree._ElementTree, Diagnostic] | etree.XMLSyntaxError | None:
    """Read what libsdformat's XML parser (tinyxml2) reads but libxml2 refuses.

    * A namespace prefix that is never declared (``<gazebo:x>``, ``foo:bar="1"``):
      tinyxml2 does not check namespaces, libsdformat copies such custom elements and
      attributes. libxml2's recover mode keeps them with their prefixed names.
    * Elements after the root element: tinyxml2 reads them as siblings and libsdformat
      ignores them. Text there is skipped too, but text that ends the file stays an
      error, as tinyxml2 refuses it.
    * ``--`` inside a comment (often a comment opened twice, ``<!-- a <!-- b -->``):
      tinyxml2 ends a comment at the first ``-->`` and accepts anything before it;
      libxml2 follows XML, which forbids ``--`` there. The hyphens are spaced out
      (``- -``) in the comment's text only.
    Returns the tree and a warning, or None when anything else is wrong (or the parse
    error of the document with its comments fixed, which names that). Line numbers
    are unchanged (the tail is cut off, comments keep their line breaks).
    """
    fixed: etree.XMLSyntaxError | None = None
    entries: list[etree._LogEntry] = list(log)
    hyphens = [e for e in entries if e.type == etree.ErrorTypes.ERR_HYPHEN_IN_COMMENT]
    if hyphens:  # libxml2 stops there: fix the comments, then see what else is wrong
        data = re.sub(_COMMENT, _spaced_hyphens, data, flags=re.DOTALL)
        parser = _parser()
        try:  # the comments fixed, what else is wrong (if anything) shows now
            etree.fromstring(data, parser)
            entries = []
        except etree.XMLSyntaxError as err:
            entries, fixed = list(parser.error_log), err
    elif not entries:
        return None
    ns = [e for e in entries if e.domain == etree.ErrorDomains.NAMESPACE]
    end = [e for e in entries if e.type == etree.ErrorTypes.ERR_DOCUMENT_END]
    if len(ns) + len(end) != len(entries):
        return fixed
    notes: list[str] = []
    if hyphens:
        notes.append('"--" inside a comment: the comment is read to its first "-->" '
                     "(as libsdformat's XML parser does)")
    if end:
        cut = _end_of_root(data, end[0].line, end[0].column)
        if cut is None:
            return fixed
        data = data[:cut]
        notes.append('content after the root element is ignored (as libsdformat ignores it)')
    if ns:
        notes.insert(0, f'{ns[0].message.strip()}: kept as a custom element or attribute '
                     '(libsdformat does not check namespaces)')
    try:
        tree = etree.ElementTree(etree.fromstring(data, _parser(recover=bool(ns))))
    except etree.XMLSyntaxError:
        return fixed
    line = (ns or end or hyphens)[0].line
    return tree, Diagnostic(ErrorCode.XML_MALFORMED_TOLERATED, '; '.join(notes), source, line,
                            severity=Severity.WARNING)


# A comment as tinyxml2 reads it: to the first "-->", whatever it holds. This pattern and
# _TAG are compiled on first use (re's cache keeps them): only malformed files need them.
_COMMENT = rb'<!--(.*?)-->'


def _spaced_hyphens(m: re.Match[bytes]) -> bytes:
    body = m.group(1)
    if b'--' not in body and not body.endswith(b'-'):
        return m.group(0)
    while b'--' in body:
        body = body.replace(b'--', b'- -')
    if body.endswith(b'-'):
        body += b' '  # "--->" would end the comment with "--" too
    return b'<!--' + body + b'-->'


_TAG = rb'<(/?)([A-Za-z_][\w:.-]*)[^<>]*?(/?)>'


def _without_stray_end_tags(tail: bytes) -> bytes:
    """Drop end tags that close nothing opened in ``tail`` (``</sdf>`` twice)."""
    out: list[bytes] = []
    stack: list[bytes] = []
    pos = 0
    for m in re.finditer(_TAG, tail):
        if not m.group(1):
            if not m.group(3):
                stack.append(m.group(2))
        elif stack and stack[-1] == m.group(2):
            stack.pop()
        else:
            out.append(tail[pos:m.start()])
            pos = m.end()
    out.append(tail[pos:])
    return b''.join(out)


def _end_of_root(data: bytes, line: int, column: int) -> int | None:
    """The offset just past the root element, when only elements and comments follow it."""
    starts = [0]
    for _ in range(line - 1):
        starts.append(data.index(b'\n', starts[-1]) + 1)
    cut = data.rfind(b'>', 0, starts[-1] + max(column - 1, 0)) + 1
    # Stray end tags there (a second </sdf>) are skipped by tinyxml2 too.
    tail = _without_stray_end_tags(data[cut:])
    parser = _parser(recover=False)
    try:
        rest = etree.fromstring(b'<r>' + tail + b'</r>', parser)
    except etree.XMLSyntaxError:
        log: list[etree._LogEntry] = list(parser.error_log)
        if any(e.domain != etree.ErrorDomains.NAMESPACE for e in log):
            return None
        rest = etree.fromstring(b'<r>' + tail + b'</r>', _parser(recover=True))
    # Text there is skipped up to the next '<' (tinyxml2); text that ends the file is refused.
    last = rest[-1].tail if len(rest) else rest.text
    if (last or '').strip():
        return None
    return cut


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


def read_file(path: str | Path) -> tuple[bytes | None, Diagnostic | None]:
    """Read an XML file's bytes (size-capped); never raises for bad input."""
    source = str(path)
    try:
        p = Path(path)
        if p.is_dir():
            return None, Diagnostic(ErrorCode.FILE_READ, f'[{source}] is a directory, not a file', source)
        if p.stat().st_size > _MAX_BYTES:
            return None, Diagnostic(ErrorCode.FILE_READ, 'the file is larger than 256 MiB', source)
        return p.read_bytes(), None
    except OSError as err:
        return None, Diagnostic(ErrorCode.FILE_READ, f'cannot read file: {err.strerror}', source)


def parse_file(path: str | Path,
               on_end: OnEnd | None = None) -> tuple[etree._Element | None, Diagnostic | None]:
    """Read and parse an XML file (size-capped); never raises for bad input."""
    data, bad = read_file(path)
    if data is None:
        return None, bad
    return parse_bytes(data, str(path), on_end)


def line_of(el: etree._Element) -> int | None:
    """Return the source line of an element (None when lxml has none)."""
    line: object = el.sourceline
    return line if isinstance(line, int) else None


def to_xml(el: etree._Element) -> str:
    """Serialise one element verbatim (for plugins and unknown elements)."""
    return etree.tostring(el, encoding='unicode', with_tail=False)


def parse_kept(xml: str | bytes) -> etree._Element:
    """Parse an element :func:`to_xml` kept, even with a namespace prefix it never declared.

    libsdformat reads ``<fdir1 gz:expressed_in="chassis">`` in a file that declares no
    ``gz`` namespace (gz-sim's skid_steer_mecanum.sdf), and so do we (libxml2's recover
    mode keeps the prefixed name); the element kept verbatim then holds that undeclared
    prefix (or a name such as ``gz::system_priority``), which a strict parse refuses.
    Anything else malformed still raises
    ``XMLSyntaxError``.
    """
    data = xml.encode('utf-8') if isinstance(xml, str) else xml
    parser = _parser()
    try:
        return etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        # What the reader tolerates (_tolerated): namespace errors only, which include a
        # name with two colons (gz-sim's sensors.sdf: <gz::system_priority>).
        log = list(parser.error_log)
        if not log or any(e.domain != etree.ErrorDomains.NAMESPACE for e in log):
            raise
        return etree.fromstring(data, _parser(recover=True))
