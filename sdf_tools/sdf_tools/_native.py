"""Compiled copies of the loader's hot modules (mypyc), used only while they match the source.

The package is pure Python and runs as such. Reading a large world spends most of its time
in Python-level work spread thin over the reader, the frame graphs and ``inspect`` (see
``bench/PROFILE.md``), which mypyc, the compiler mypy ships, turns into C from the same
typed source: the N=1000 benchmark world loads about a fifth faster.

Two ways to get them:

- a source checkout: ``python -m sdf_tools.native_build`` (``./dev setup`` runs it) writes
  them under ``<checkout>/sdf_tools/.native/<interpreter>/`` with a manifest of every source
  file of the package. ``activate()`` (called when ``sdf_tools`` is imported) puts a finder
  for them in front of the import system only when every file still matches, so an edited
  source is never shadowed by an old build: it simply runs as Python until the next build;
- an installed package: ``SDF_TOOLS_COMPILE=1 pip install --no-build-isolation ./sdf_tools``
  (or the same variable for ``colcon build``) compiles the same modules in place
  (``setup.py``); mypy must be installed in that environment.

``SDF_TOOLS_NATIVE=0`` ignores a checkout's build (the pure-Python reference of the
benchmark, and CI's second run of the core tests).

What is compiled: modules without module-level state that tests or callers replace
(``sdf/stream.py``, ``sdf/spec/parallel.py`` and ``load.py`` stay Python) and without
``__file__`` lookups (package ``__init__`` files stay Python).
"""
from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

# Module names under ``sdf_tools.`` (paths with '/' for '.', without '.py').
MODULES = (
    'transform',
    'model/common', 'model/elements', 'model/document', 'model/inertia', 'model/canonical',
    'sdf/values', 'sdf/context', 'sdf/link', 'sdf/joint', 'sdf/geometry', 'sdf/model',
    'sdf/names', 'sdf/world', 'sdf/document', 'sdf/unflatten', 'sdf/domchecks',
    'sdf/spec/check', 'sdf/spec/values', 'sdf/spec/convert',
    'frames/build', 'frames/graph', 'frames/resolve', 'frames/validate', 'frames/checks',
    'frames/placement', 'frames/world_joints',
    'resolved/records', 'resolved/build', 'resolved/json_view',
)

PACKAGE_DIR = Path(__file__).resolve().parent
MANIFEST = 'manifest.json'
# Bump when the layout of a build changes: older builds are then ignored.
FORMAT = 1

ACTIVE = False  # set by activate(): compiled modules are being imported


def native_dir(package_dir: Path = PACKAGE_DIR) -> Path:
    """Where a checkout keeps its build for this interpreter (next to the package)."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]  # '.cpython-311-x86_64-linux-gnu.so'
    return package_dir.parent / '.native' / suffix.strip('.').removesuffix('.so')


def _sources(package_dir: Path) -> list[Path]:
    """Every Python file of the package: compiled code relies on the types of all of them."""
    return sorted(p for p in package_dir.rglob('*.py') if '__pycache__' not in p.parts)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _current(manifest: dict[str, object], package_dir: Path) -> bool:
    """True when every source file is the one the build was made from (and no other exists)."""
    recorded = manifest.get('sources')
    if not isinstance(recorded, dict):
        return False
    found = _sources(package_dir)
    if len(found) != len(recorded):
        return False
    for path in found:
        entry = recorded.get(path.relative_to(package_dir).as_posix())
        if not isinstance(entry, list) or len(entry) != 3:
            return False
        st = path.stat()
        if st.st_size != entry[0]:
            return False
        # Same size and time: the same file. Otherwise (a fresh copy, a touch) its bytes decide.
        if st.st_mtime_ns != entry[1] and _digest(path) != entry[2]:
            return False
    return True


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules of a checkout's build; everything else falls through."""

    def __init__(self, paths: dict[str, str]) -> None:
        self.paths = paths

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        so = self.paths.get(fullname)
        if so is None:
            return None
        return importlib.util.spec_from_file_location(fullname, so)


def activate(package_dir: Path = PACKAGE_DIR) -> bool:
    """Import the hot modules from a checkout's current build, if there is one."""
    global ACTIVE
    if ACTIVE or os.environ.get('SDF_TOOLS_NATIVE', '1') == '0':
        return ACTIVE
    where = native_dir(package_dir)
    try:
        manifest = json.loads((where / MANIFEST).read_text(encoding='utf-8'))
        if manifest.get('format') != FORMAT or not _current(manifest, package_dir):
            return False
        paths = {name: str(where / rel) for name, rel in manifest['modules'].items()}
    except (OSError, ValueError, AttributeError, TypeError):
        return False  # no build, or not one we can trust: run as Python
    if not all(os.path.isfile(p) for p in paths.values()):
        return False
    sys.meta_path.insert(0, _Finder(paths))
    ACTIVE = True
    return True


def is_extension(path: str | None) -> bool:
    """True when ``path`` is an extension module (a ``.pyc`` of a sourceless install is not)."""
    return (path or '').endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def compiled(module: ModuleType) -> bool:
    """True when ``module`` was imported from compiled code."""
    return is_extension(getattr(module, '__file__', None))


def in_use() -> bool:
    """True when the hot modules are compiled: a checkout's build, or an installed package
    built with ``SDF_TOOLS_COMPILE=1`` (see ``setup.py``)."""
    if ACTIVE:
        return True
    spec = importlib.util.find_spec('sdf_tools.transform')
    return spec is not None and is_extension(spec.origin)
