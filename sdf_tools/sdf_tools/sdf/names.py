"""Name rules shared by every named element (libsdformat's Utils and Load)."""
from __future__ import annotations

from typing import TypeVar

from lxml import etree

from sdf_tools.errors import Diagnostic, ErrorCode, Severity
from sdf_tools.model import Frame, Joint, Link, Model
from sdf_tools.sdf.context import ReadContext


def is_reserved_name(name: str) -> bool:
    """``world`` and any ``__name__`` are reserved for implicit frames."""
    return name == 'world' or (len(name) >= 4 and name.startswith('__') and name.endswith('__'))


def read_name(ctx: ReadContext, el: etree._Element, kind: str, *, reserved_check: bool = True) -> str:
    """Return the ``name`` attribute, reporting it missing or reserved."""
    name = el.get('name')
    if name and name[0] != '_' and name != 'world' and ':' not in name:
        return name  # the usual name: nothing to check (a hot path)
    if name is None:
        ctx.error(ErrorCode.ATTRIBUTE_MISSING,
                  f'Required attribute[name] in element[{el.tag}] is not specified', el)
        return ''
    if reserved_check and is_reserved_name(name):
        ctx.error(ErrorCode.RESERVED_NAME, f'The supplied {kind} name [{name}] is reserved.', el)
    if '::' in name and ctx.version_tuple >= (1, 8):
        ctx.error(ErrorCode.RESERVED_NAME,
                  f"Delimiter '::' found in {kind} name [{name}], which is not allowed "
                  'in SDFormat >= 1.8', el)
    return name


def check_unique(ctx: ReadContext, items: list[tuple[str, etree._Element]], kind: str,
                 owner: str) -> set[int]:
    """Report same-type siblings sharing a name; return indices to drop.

    libsdformat keeps the first element of a name and skips the others.
    """
    seen: set[str] = set()
    drop: set[int] = set()
    for i, (name, el) in enumerate(items):
        if name in seen:
            ctx.error(ErrorCode.DUPLICATE_NAME,
                      f'{kind} with name[{name}] already exists in [{owner}]', el)
            drop.add(i)
        seen.add(name)
    return drop


Named = TypeVar('Named', Link, Joint, Frame, Model)


def unique_by_name(ctx: ReadContext, kind: str, items: list[Named], owner: str) -> list[Named]:
    """Keep the first of same-type siblings sharing a name; report the others.

    libsdformat keeps the first element of a name and skips the others.
    """
    seen: set[str] = set()
    keep: list[Named] = []
    for item in items:
        if item.name in seen:
            loc = item.loc
            ctx.diagnostics.append(Diagnostic(
                ErrorCode.DUPLICATE_NAME, f'{kind} with name[{item.name}] already exists in {owner}',
                loc.file if loc else ctx.file, loc.line if loc else None))
            continue
        seen.add(item.name)
        keep.append(item)
    return keep


def rename_clashes(ctx: ReadContext, kind: str, items: list[Named], suffix: str,
                   taken: set[str], owner: str) -> None:
    """Rename items whose name is taken to ``<name><suffix>`` (then ``...0``, ``...1``).

    libsdformat's rule for name clashes in pre-1.7 models and for world frames
    named like a model; we report each renaming.
    """
    for item in items:
        new = item.name
        if new in taken:
            new, i = item.name + suffix, 0
            while new in taken:
                new, i = f'{item.name}{suffix}{i}', i + 1
            loc = item.loc
            ctx.diagnostics.append(Diagnostic(
                ErrorCode.DUPLICATE_NAME,
                f'{kind} [{item.name}] in {owner} clashes with another name; renamed to [{new}] '
                'as libsdformat does', loc.file if loc else ctx.file, loc.line if loc else None,
                severity=Severity.WARNING))
            item.name = new
        taken.add(new)
