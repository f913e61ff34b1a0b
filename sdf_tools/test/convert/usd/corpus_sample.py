"""A fair sample of the real robots in registry packages, one per package or folder.

pybullet_data holds a thousand ``random_urdfs`` beside a few dozen robots,
so sampling every n-th file would test little but random cubes. The
corpus (:mod:`differential.corpus`) is grouped by the first directory
under each collection's root (a robot package, or a top-level file), and
the first file our reader accepts is taken from each group; ``sample(n)``
takes every k-th group of those. ``SDF_TOOLS_CORPUS_ALL=1`` takes every
readable file instead.
"""
from __future__ import annotations

import functools
import os
from collections import defaultdict

from differential.corpus import RobotFile, corpus

from convert.sdf.to_sdf_compare import environment
from sdf_tools.load import load_file


def _readable(entry: RobotFile) -> bool:
    with environment(entry.env):
        return load_file(entry.path).valid


@functools.cache
def per_group() -> tuple[RobotFile, ...]:
    """Return the first readable file of each group, in sorted order."""
    entries = sorted(corpus(), key=lambda e: str(e.path))
    if os.environ.get('SDF_TOOLS_CORPUS_ALL'):
        return tuple(e for e in entries if _readable(e))
    roots = {c: os.path.commonpath([str(e.path) for e in entries if e.collection == c])
             for c in {e.collection for e in entries}}
    groups: dict[tuple[str, str], list[RobotFile]] = defaultdict(list)
    for e in entries:
        first = os.path.relpath(e.path, roots[e.collection]).split(os.sep)[0]
        groups[(e.collection, first)].append(e)
    out = []
    for key in sorted(groups):
        found = next((e for e in groups[key] if _readable(e)), None)
        if found is not None:
            out.append(found)
    return tuple(out)


def sample(count: int, suffix: str | None = None) -> list[RobotFile]:
    """Return about ``count`` groups' files (every k-th), optionally only one file ending."""
    files = [e for e in per_group() if suffix is None or e.path.suffix == suffix]
    if os.environ.get('SDF_TOOLS_CORPUS_ALL'):
        return files
    step = max(1, len(files) // max(count, 1))
    return files[::step][:count]
