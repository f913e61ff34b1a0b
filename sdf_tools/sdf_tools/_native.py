"""Which of the loader's hot modules a compiled install builds with mypyc.

The package is pure Python and runs as such: the source is the truth. Reading a large world
spends its time in Python-level work spread thin over the reader, the frame graphs and the
resolved description (see ``bench/PROFILE.md``), which mypyc, the compiler mypy ships, can
turn into C from the same typed source. That is a build option, as lxml's and pydantic-core's
speed comes from how they are built, not a hook in the import system:
``SDF_TOOLS_COMPILE=1 pip install --no-build-isolation ./sdf_tools`` (or the same variable for
a ``colcon build`` without ``--symlink-install``, or ``pip wheel``) compiles ``MODULES`` in
place of their sources (``setup.py``; mypy must be installed in that environment). Both builds
give the same results, byte for byte (``test/test_native.py``).

What is compiled: modules without module-level state that tests or callers replace
(``sdf/stream.py``, ``sdf/spec/parallel.py`` and ``load.py`` stay Python) and without
``__file__`` lookups (package ``__init__`` files stay Python). ``resolved/records.py`` stays
Python too: its ``Resolved`` extends ``errors.Findings``, and mypyc cannot compile a slotted
dataclass whose base class is interpreted.

This module imports only the standard library: setup.py reads ``MODULES`` without importing
the package.
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
from types import ModuleType

# Module names under ``sdf_tools.`` (paths with '/' for '.', without '.py').
MODULES = (
    'transform',
    'model/common', 'model/elements', 'model/verbatim', 'model/actor', 'model/document',
    'model/inertia', 'model/inertia_validity', 'model/canonical',
    'sdf/values', 'sdf/context', 'sdf/link', 'sdf/joint', 'sdf/geometry', 'sdf/model',
    'sdf/names', 'sdf/world', 'sdf/document', 'sdf/unflatten', 'sdf/domchecks',
    'sdf/spec/check', 'sdf/spec/values', 'sdf/spec/convert',
    'frames/build', 'frames/graph', 'frames/resolve', 'frames/validate', 'frames/checks',
    'frames/placement', 'frames/world_joints',
    'resolved/build', 'resolved/json_view',
)


def is_extension(path: str | None) -> bool:
    """True when ``path`` is an extension module (a ``.pyc`` of a sourceless install is not)."""
    return (path or '').endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def compiled(module: ModuleType) -> bool:
    """True when ``module`` was imported from compiled code."""
    return is_extension(getattr(module, '__file__', None))


def in_use() -> bool:
    """True when this install's hot modules are compiled (``SDF_TOOLS_COMPILE=1``)."""
    spec = importlib.util.find_spec('sdf_tools.transform')
    return spec is not None and is_extension(spec.origin)
