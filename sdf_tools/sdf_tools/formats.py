"""The formats the tools read and write: one list, which help texts and docs are checked against.

``sdf_tools check``, ``inspect``, ``frames``, ``report`` and ``spawn`` read
what :func:`sdf_tools.load.load_file` reads; ``sdf_tools convert`` also
imports MJCF (through MuJoCo) and OpenUSD (through usd-core), and writes
every format but xacro (a URDF is its expansion).
"""
from __future__ import annotations

from typing import NamedTuple


class Format(NamedTuple):
    """A description format and how the tools handle it."""

    name: str          # as people write it (help texts, docs)
    key: str           # as options take it (``--to``, ``--from``, report JSON)
    loaded: bool       # read by load_file (check, inspect, frames, report, spawn)
    imported: bool     # read only by convert, through its own engine
    written: bool      # an output format of convert


FORMATS = (
    Format('SDFormat', 'sdf', loaded=True, imported=False, written=True),
    Format('URDF', 'urdf', loaded=True, imported=False, written=True),
    Format('xacro', 'xacro', loaded=True, imported=False, written=False),
    Format('MJCF', 'mjcf', loaded=False, imported=True, written=True),
    Format('USD', 'usd', loaded=False, imported=True, written=True),
)
LOADED = tuple(f.name for f in FORMATS if f.loaded)
CONVERT_READS = tuple(f.name for f in FORMATS if f.loaded or f.imported)
CONVERT_WRITES = tuple(f.name for f in FORMATS if f.written)


def names(formats: tuple[str, ...], last: str = 'or') -> str:
    """Return ``('A', 'B', 'C')`` as ``'A, B or C'``."""
    return f'{", ".join(formats[:-1])} {last} {formats[-1]}' if len(formats) > 1 else formats[0]
