"""Where in the MJCF files MuJoCo's refusal to compile one points (file and line).

MuJoCo's messages end with ``Element 'joint', line 4`` for an element of the
main file, but give ``line 0`` for one of an included file and no line at all
for an asset it cannot open (``Error opening file 'assets/link0.stl'``: the
usual case of a menagerie model whose meshes were not copied along). This
module finds the element the message is about, in the main file or the files
it includes, so the error cites it as every other diagnostic does.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from lxml import etree

__all__ = ['locate_compile_error']

_LINE = re.compile(r"Element (?:'[^']*'|name '[^']*'(?:, id \d+)?), line (\d+)")
_OPENING = re.compile(r"Error opening file '([^']+)'")
_MAX_INCLUDES = 64  # a bound on <include> chains, which MuJoCo itself refuses to loop


def locate_compile_error(path: Path, message: str) -> tuple[str, int | None]:
    """Return the file and line MuJoCo's ``message`` about compiling ``path`` refers to.

    The file is ``path`` itself unless an asset that cannot be opened is declared in a
    file it includes; the line is None where neither the message nor the files say.
    """
    found = _LINE.search(message)
    if found is not None and int(found.group(1)) > 0:
        return str(path), int(found.group(1))
    missing = _OPENING.search(message)
    if missing is not None:
        wanted = Path(missing.group(1)).as_posix()
        for file, el in _elements(path):
            name = el.get('file')
            if name and (wanted == name or wanted.endswith('/' + name.lstrip('./'))):
                line: object = el.sourceline  # (the stubs type it oddly)
                return str(file), line if isinstance(line, int) else None
    return str(path), None


def _elements(path: Path) -> Iterator[tuple[Path, etree._Element]]:
    """Every element of ``path`` and of the files it includes, with its file."""
    todo: list[Path] = [path]
    seen: set[Path] = set()
    while todo and len(seen) < _MAX_INCLUDES:
        file = todo.pop(0)
        if file in seen:
            continue
        seen.add(file)
        try:
            root = etree.parse(str(file), etree.XMLParser(resolve_entities=False,
                                                          no_network=True)).getroot()
        except (OSError, etree.XMLSyntaxError):
            continue
        for el in root.iter(etree.Element):
            if el.tag == 'include' and el.get('file'):
                todo.append(file.parent / str(el.get('file')))
            else:
                yield file, el
