"""Expand a xacro file to URDF bytes with the ``xacro`` library, quietly and safely.

xacro is a command-line tool at heart: it prints warnings to stderr, calls
``sys.exit`` on some errors, keeps its state in module globals, and looks
ROS packages up through ``ament_index_python``. Here it runs under a lock
with stdout and stderr captured (warnings become diagnostics), every file
it opens is first checked by :mod:`sdf_tools.xmlsafe` (no entities, no
malformed XML: those are reported with file and line), ``SystemExit`` is
caught, and ``$(find pkg)`` is answered from ``AMENT_PREFIX_PATH``
(``<prefix>/share/<pkg>``) without needing a ROS installation.
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import threading
import xml.parsers.expat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from sdf_tools.errors import Diagnostic, ErrorCode, Severity
from sdf_tools.xmlsafe import parse_file

_LOCK = threading.Lock()  # xacro keeps its state in module globals
_LOCATION = re.compile(r'^(when processing file|in file|included from|when instantiating macro|'
                       r'instantiated from):\s*(.*)$')


class _FindError(Exception):
    """``$(find pkg)`` named a package that is not installed."""


class _UnsafeIncludeError(Exception):
    """A file xacro was about to parse is unsafe or malformed XML."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def find_package_share(package: str) -> Path | None:
    """Return ``<prefix>/share/<package>`` for the first ``AMENT_PREFIX_PATH`` prefix having it."""
    for prefix in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep):
        if prefix:
            share = Path(prefix) / 'share' / package
            if share.is_dir():
                return share
    return None


def _find(package: str) -> str:
    share = find_package_share(package)
    if share is None:
        raise _FindError(
            f'$(find {package}): package [{package}] not found: no AMENT_PREFIX_PATH entry has '
            f'share/{package} (source the ROS workspace that provides it, or add its install '
            'prefix to AMENT_PREFIX_PATH)', package)
    return str(share)


@contextlib.contextmanager
def _patched(xacro: Any) -> Iterator[None]:
    """Route xacro's ``$(find)`` and file parsing through our own functions.

    Only what this xacro version has is replaced, and everything is put back
    (with xacro's argument table and include list emptied) on the way out.
    """
    subst = xacro.substitution_args
    original_parse: Callable[..., Any] = xacro.parse

    def safe_parse(inp: Any, filename: str | None = None) -> Any:
        if inp is None and filename is not None:
            _, bad = parse_file(os.path.join(xacro.root_dir, filename))
            if bad is not None and bad.code in (ErrorCode.XML_INVALID, ErrorCode.XML_UNSAFE):
                raise _UnsafeIncludeError(bad)
        return original_parse(inp, filename)

    eval_dict = vars(subst).get('_eval_dict')
    targets: list[tuple[Any, str, Any]] = [(vars(xacro), 'parse', safe_parse),
                                           (vars(subst), '_eval_find', _find)]
    if isinstance(eval_dict, dict):
        targets.append((eval_dict, 'find', _find))
    saved = [(table, key, table[key]) for table, key, _ in targets if key in table]
    for table, key, value in targets:
        if key in table:
            table[key] = value
    try:
        yield
    finally:
        for table, key, value in saved:
            table[key] = value
        context = vars(xacro).get('substitution_args_context')
        if isinstance(context, dict):
            context['arg'] = {}
        if isinstance(vars(xacro).get('all_includes'), list):
            xacro.all_includes = []


def _where(xacro: Any, source: str) -> tuple[str, str, str | None]:
    """Return the innermost file, the macro call chain, and the innermost macro's file."""
    files = [f for f in (getattr(xacro, 'filestack', None) or []) if f]
    stack = [m for m in (getattr(xacro, 'macrostack', None) or []) if hasattr(m, 'body')]
    chain = ' <- '.join(f'[{m.body.getAttribute("name")}]' for m in reversed(stack))
    history = getattr(stack[-1], 'history', None) if stack else None
    macro_file = history[-1][-1] if history and history[-1] else None
    return (_as_given(files[-1] if files else source, source),
            f' (in macro {chain})' if chain else '', macro_file)


def _as_given(file: str, source: str) -> str:
    """Name the top file as the caller did (xacro is given its absolute path)."""
    return source if file == os.path.abspath(source) else file


def _snippet(exc: BaseException, xacro: Any) -> str | None:
    """Return the source text an error is about (``${expr}``, ``$(arg x)``), if known."""
    expr = re.search(r"when evaluating expression '(.*)'", str(getattr(exc, 'suffix', '') or ''))
    if expr:
        return '${' + expr.group(1) + '}'
    inner = getattr(exc, 'exc', None)
    if isinstance(inner, getattr(xacro.substitution_args, 'ArgException', ())):
        return f'$(arg {inner})'
    if isinstance(inner, _FindError):
        return f'$(find {inner.args[1]})'
    if isinstance(inner, OSError) and inner.filename:
        return os.path.basename(str(inner.filename))  # an <xacro:include> that is missing
    return None


def _line_of(snippet: str | None, file: str) -> int | None:
    """Return the line holding ``snippet`` when exactly one line of ``file`` does."""
    if not snippet:
        return None
    try:
        lines = Path(file).read_text(encoding='utf-8', errors='replace').splitlines()
    except OSError:
        return None
    hits = [i for i, text in enumerate(lines, start=1) if snippet in text]
    return hits[0] if len(hits) == 1 else None


def _diagnose(exc: BaseException, xacro: Any, source: str) -> Diagnostic:
    if isinstance(exc, _UnsafeIncludeError):
        return exc.diagnostic
    file, macros, macro_file = _where(xacro, source)
    if isinstance(exc, xml.parsers.expat.ExpatError):
        return Diagnostic(ErrorCode.XACRO_ERROR, f'xacro: malformed XML: {exc}', file, exc.lineno)
    if isinstance(exc, SystemExit):
        return Diagnostic(ErrorCode.XACRO_ERROR,
                          f'xacro stopped with exit status {exc.code}{macros}', file)
    inner = getattr(exc, 'exc', None)
    if isinstance(inner, _FindError):
        text = str(inner.args[0])
    else:
        text = ' '.join((str(exc) or type(exc).__name__).split())
        if not isinstance(exc, getattr(xacro, 'XacroException', ())):
            text = f'{type(exc).__name__}: {text}'
    # The expression of a macro body is written where the macro was defined.
    where = _as_given(macro_file, source) if macro_file else file
    line = _line_of(_snippet(exc, xacro), where)
    return Diagnostic(ErrorCode.XACRO_ERROR, f'xacro: {text}{macros}',
                      where if line is not None else file, line)


def _warnings(text: str, source: str) -> list[Diagnostic]:
    """Turn what xacro printed into warnings, one per message, with its file and macro."""
    found: list[dict[str, str]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        loc = _LOCATION.match(line)
        if loc is None or not found:
            msg = line[len('warning: '):] if line.startswith('warning: ') else line
            found.append({'msg': msg})
            continue
        what, value = loc.groups()
        if what in ('when processing file', 'in file'):
            found[-1].setdefault('file', value)
        elif what == 'when instantiating macro':
            found[-1].setdefault('macro', value.split(' ')[0])
    return [Diagnostic(ErrorCode.XACRO_WARNING,
                       f'xacro: {w["msg"]}' + (f' (in macro [{w["macro"]}])' if 'macro' in w else ''),
                       _as_given(w.get('file', source), source), severity=Severity.WARNING)
            for w in found]


def expand_xacro(path: str | Path, args: dict[str, str]) -> tuple[bytes | None, list[Diagnostic]]:
    """Expand a xacro file with ``name:=value`` arguments; return URDF bytes or None.

    Never raises for bad input and prints nothing: xacro's errors become a
    XACRO_ERROR diagnostic with the innermost file and, where it can be
    told, the line (malformed XML; the one line holding the failing
    ``${expr}``, ``$(arg)``, ``$(find)`` or missing include), its warnings
    WARNING diagnostics. The result is what the ``xacro`` command prints, so
    line numbers in it are those of ``xacro FILE > out.urdf``, not of the
    xacro source.
    """
    source = str(path)
    parsed, bad = parse_file(path)
    if parsed is None:  # with a root, ``bad`` is only a warning (XML tinyxml2 tolerates)
        return None, [bad] if bad is not None else []
    try:
        import xacro
        import xacro.substitution_args
    except ImportError as err:
        return None, [Diagnostic(ErrorCode.XACRO_ERROR,
                                 f'cannot expand xacro: the xacro package is missing ({err})',
                                 source)]
    captured = io.StringIO()
    diagnostics: list[Diagnostic] = []
    data: bytes | None = None
    with (_LOCK, contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured),
          _patched(xacro)):
        try:
            doc = xacro.process_file(os.path.abspath(source), mappings=dict(args))
            data = doc.toprettyxml(indent='  ', encoding='utf-8')
        except (Exception, SystemExit) as exc:  # xacro raises anything; never let it out
            diagnostics.append(_diagnose(exc, xacro, source))
    return data, [*_warnings(captured.getvalue(), source), *diagnostics]
