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

__all__ = ['locate_compile_error', 'lfs_pointer']

_LINE = re.compile(r"Element (?:'[^']*'|name '[^']*'(?:, id \d+)?), line (\d+)")
_OPENING = re.compile(r"Error opening file '([^']+)'")
# A compile-time error names the element but gives no line: "Error: keyframe 'home': invalid
# qpos size, expected 0, got 16 Element name 'home', id 0" (Menagerie's aloha/keyframe_ctrl.xml).
_NAMED = re.compile(r"Element name '([^']+)', id \d+")
_KIND = re.compile(r"Error: (\w+) '")
_TAGS = {'keyframe': 'key'}  # MuJoCo's word for an object where it is not the tag
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
    named = _NAMED.search(message)
    if named is not None:
        return _named(path, named.group(1), _KIND.search(message))
    return str(path), None


def _named(path: Path, name: str, kind: re.Match[str] | None) -> tuple[str, int | None]:
    """The element called ``name`` (of the kind the message names, when several are)."""
    every = list(_elements(path))
    found = [(file, el) for file, el in every if el.get('name') == name]
    if not found:  # an asset without a name is called after its file (Menagerie's stretch.xml)
        found = [(file, el) for file, el in every if el.tag in _DIRS and el.get('name') is None
                 and Path(str(el.get('file') or '')).stem == name]
    if len(found) > 1 and kind is not None:
        tag = _TAGS.get(kind.group(1), kind.group(1))
        found = [(file, el) for file, el in found if el.tag == tag]
    if len(found) != 1:
        return str(path), None
    file, el = found[0]
    line: object = el.sourceline
    return str(file), _start(file, el.tag, line) if isinstance(line, int) else None


def _start(file: Path, tag: str, line: int) -> int:
    """The line of ``<tag``: libxml2 gives the one where a start tag spanning lines ends."""
    lines = file.read_text(errors='replace').splitlines()
    for k in range(min(line, len(lines)), 0, -1):
        if f'<{tag}' in lines[k - 1]:
            return k
    return line


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


_LFS = b'version https://git-lfs.github.com/spec/'
_DIRS = {'mesh': 'meshdir', 'hfield': 'meshdir', 'skin': 'meshdir', 'texture': 'texturedir'}


def lfs_pointer(path: Path) -> tuple[str, int | None, str] | None:
    """The first asset of ``path`` whose file is a Git LFS pointer: (file, line, asset path).

    A Menagerie checkout without ``git lfs pull`` has pointers for meshes, which MuJoCo
    refuses with a message about the mesh ("at least 4 vertices required"), not the file.
    """
    compiler: dict[str, str] = {}
    for file, el in _elements(path):
        if el.tag == 'compiler':
            compiler.update({str(k): str(v) for k, v in el.attrib.items()})
            continue
        name = el.get('file')
        if el.tag not in _DIRS or not name:
            continue
        folder = compiler.get(_DIRS[el.tag]) or compiler.get('assetdir') or ''
        asset = path.parent / folder / str(name)
        try:
            with asset.open('rb') as f:
                head = f.read(len(_LFS))
        except OSError:
            continue
        if head == _LFS:
            line: object = el.sourceline
            return str(file), line if isinstance(line, int) else None, str(asset)
    return None
