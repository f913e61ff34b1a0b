#!/usr/bin/env python3
"""Generate the table of the SDFormat description that the reader validates against.

The SDFormat spec is written as description files (``root.sdf``, ``joint.sdf`` ...,
one directory per spec version): ``<element>`` and ``<attribute>`` records with a name,
``required`` (``0``/``1``/``*``/``+``/``-1``), type, default, min/max, ``copy_data``,
``<include filename=...>`` of other files and ``ref`` to other files. This script reads
those records, drops the prose (``<description>``), and writes one compact JSON file per
version into ``sdf_tools/sdf_tools/sdf/spec/data/``. It copies no code: the facts are
read the way libsdformat's ``initXml`` reads them (inline elements first, then includes;
an include takes the ``required`` of the included file's own element).

Sources:
  * Debian's ``sdformat-sdf`` (``/usr/share/sdformat12/<version>``) for 1.0-1.9;
  * a libsdformat git directory (``--git-dir``, e.g. what ``fetch github:gazebosim/sdformat``
    brings) for what Debian lacks: ``navsat.sdf`` of 1.7-1.9 (from ``--old-rev``, the
    libsdformat 12 release Debian packages), the 1.10/1.11 directories (``--new-rev``) and
    1.12 (``--newest-rev``, libsdformat 16).

Usage::

    python tools/gen_sdf_spec.py --git-dir /path/to/sdformat/.git     # all versions
    python tools/gen_sdf_spec.py --versions 1.9 --out /tmp/spec         # Debian's only

Record layout (JSON arrays, to keep the files small):
  element = [name, required, type, default, min, max, copy_data, ref,
             attributes, children, includes]
  attribute = [name, type, default, required]
  ``children`` lists element ids in libsdformat's lookup order; an id is the stem of the
  file an element heads (``joint``) or that id plus ``/name`` for an inline element
  (``joint/axis/xyz``). ``includes`` keeps each ``<include>`` as ``[filename, required]``.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

DEBIAN_DIR = Path('/usr/share/sdformat12')
OLD_VERSIONS = ('1.0', '1.2', '1.3', '1.4', '1.5', '1.6', '1.7', '1.8', '1.9')
NEW_VERSIONS = ('1.10', '1.11')
OLD_REV = 'sdformat12_12.3.0'   # what Debian's libsdformat 12 (12.3.0+ds) is built from
NEW_REV = 'sdformat15_15.4.0'   # newest libsdformat release whose newest spec is 1.11
NEWEST_VERSIONS = ('1.12',)
NEWEST_REV = 'sdformat16_16.1.0'  # libsdformat 16 (Gazebo Jetty): spec 1.12
OUT_DIR = Path(__file__).resolve().parents[1] / 'sdf_tools' / 'sdf_tools' / 'sdf' / 'spec' / 'data'

Reader = Callable[[str], str | None]
Element = list[object]


def _attr(el: ET.Element, key: str) -> str | None:
    return el.get(key)


class _Builder:
    """Turn one version's description files into ``{id: element record}``."""

    def __init__(self, read: Reader) -> None:
        self.read = read
        self.elements: dict[str, Element] = {}
        self.missing: list[str] = []

    def file(self, filename: str) -> str | None:
        """Record the element a file heads; return its id (None when the file is absent)."""
        stem = filename.removesuffix('.sdf')
        if stem in self.elements:
            return stem
        text = self.read(filename)
        if text is None:
            self.missing.append(filename)
            return None
        root = ET.fromstring(text)
        self.elements[stem] = []  # reserve the id: files include each other
        self.element(root, stem)
        return stem

    def element(self, el: ET.Element, eid: str) -> None:
        attrs = [[a.get('name'), a.get('type'), a.get('default'), (a.get('required') or '').strip()]
                 for a in el.findall('attribute')]
        children: list[str] = []
        copy_data = False
        for c in el.findall('element'):
            if (c.get('copy_data') or '') in ('true', '1'):
                copy_data = True
                continue
            cid = f'{eid}/{c.get("name")}'
            n = 2
            while cid in self.elements:
                cid = f'{eid}/{c.get("name")}#{n}'
                n += 1
            self.elements[cid] = []
            self.element(c, cid)
            children.append(cid)
        includes: list[list[str | None]] = []
        for inc in el.findall('include'):
            filename = inc.get('filename') or ''
            includes.append([filename, inc.get('required')])
            iid = self.file(filename)
            if iid is not None:
                children.append(iid)
        self.elements[eid] = [
            el.get('name'), el.get('required'), el.get('type'), el.get('default'),
            el.get('min'), el.get('max'), 1 if copy_data else 0, el.get('ref'),
            attrs, children, includes,
        ]


def build_version(read: Reader) -> tuple[dict[str, object], list[str]]:
    """Return one version's table and the description files it lacked."""
    b = _Builder(read)
    # 1.0 and 1.2 have no root.sdf: their root element is <gazebo> (gazebo.sdf).
    root = b.file('root.sdf')
    if root is None:
        b.missing.remove('root.sdf')
        root = b.file('gazebo.sdf')
    # ref="x" names a file read when the element is met: record those files too.
    pending = True
    while pending:
        pending = False
        for rec in list(b.elements.values()):
            ref = rec[7]
            if isinstance(ref, str) and ref not in b.elements and f'{ref}.sdf' not in b.missing:
                b.file(f'{ref}.sdf')
                pending = True
    return {'root': root, 'elements': dict(sorted(b.elements.items()))}, b.missing


def directory_reader(directory: Path, fallback: Reader | None = None) -> Reader:
    """Read description files from a directory, missing ones from ``fallback``."""
    def read(filename: str) -> str | None:
        path = directory / filename
        if path.is_file():
            return path.read_text(encoding='utf-8')
        return fallback(filename) if fallback is not None else None
    return read


def git_reader(git_dir: str, rev: str, version: str) -> Reader:
    """Read description files of ``version`` at ``rev`` of a libsdformat git directory."""
    def read(filename: str) -> str | None:
        res = subprocess.run(['git', f'--git-dir={git_dir}', 'show', f'{rev}:sdf/{version}/{filename}'],
                             capture_output=True, text=True, check=False)
        return res.stdout if res.returncode == 0 else None
    return read


def dump(table: dict[str, object]) -> str:
    """Serialise a table the way the committed files are written (stable, compact)."""
    return json.dumps(table, separators=(',', ':'), sort_keys=False) + '\n'


def rev_for(version: str, new_rev: str = NEW_REV, newest_rev: str = NEWEST_REV) -> str:
    """The libsdformat release whose sources give a newer ``version``'s description files."""
    return newest_rev if version in NEWEST_VERSIONS else new_rev


def generate(versions: list[str], git_dir: str | None, debian_dir: Path,
             old_rev: str, new_rev: str, newest_rev: str = NEWEST_REV,
             ) -> dict[str, tuple[dict[str, object], list[str]]]:
    """Build the table of each version; report what each lacked."""
    out: dict[str, tuple[dict[str, object], list[str]]] = {}
    for v in versions:
        if v in OLD_VERSIONS:
            fallback = git_reader(git_dir, old_rev, v) if git_dir else None
            read = directory_reader(debian_dir / v, fallback)
            source = f'sdformat-sdf ({debian_dir / v})' + (f' + libsdformat {old_rev}' if git_dir else '')
        else:
            if not git_dir:
                raise SystemExit(f'spec {v} is not in sdformat-sdf: give --git-dir')
            rev = rev_for(v, new_rev, newest_rev)
            read = git_reader(git_dir, rev, v)
            source = f'libsdformat {rev}'
        table, missing = build_version(read)
        table = {'version': v, 'source': source, **table}
        out[v] = (table, missing)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--git-dir', help='a libsdformat git directory (for navsat.sdf and 1.10/1.11)')
    ap.add_argument('--versions', nargs='*',
                    default=[*OLD_VERSIONS, *NEW_VERSIONS, *NEWEST_VERSIONS])
    ap.add_argument('--debian-dir', type=Path, default=DEBIAN_DIR)
    ap.add_argument('--old-rev', default=OLD_REV)
    ap.add_argument('--new-rev', default=NEW_REV)
    ap.add_argument('--newest-rev', default=NEWEST_REV)
    ap.add_argument('--out', type=Path, default=OUT_DIR)
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for v, (table, missing) in generate(args.versions, args.git_dir, args.debian_dir,
                                        args.old_rev, args.new_rev, args.newest_rev).items():
        (args.out / f'{v.replace(".", "_")}.json').write_text(dump(table), encoding='utf-8')
        note = f' (missing: {", ".join(missing)})' if missing else ''
        print(f'{v}: {len(table["elements"])} elements{note}')  # type: ignore[arg-type]
    return 0


if __name__ == '__main__':
    sys.exit(main())
