"""sdf_tools: read SDFormat, URDF and xacro exactly as libsdformat does.

The core (everything outside :mod:`sdf_tools.ros`) needs no ROS installation.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from sdf_tools.errors import Diagnostic, ErrorCode, SdfToolsError

if TYPE_CHECKING:
    from sdf_tools.load import LoadResult, load_file, load_string

__all__ = [
    'Diagnostic',
    'ErrorCode',
    'LoadResult',
    'SdfToolsError',
    'load_file',
    'load_string',
]

__version__ = '0.1.0'

_FROM_LOAD = ('LoadResult', 'load_file', 'load_string')


def __getattr__(name: str) -> object:
    """``sdf_tools.load_file`` and friends, imported on first use.

    Importing a submodule imports this package first; the loader (frame graphs,
    every reader) is only paid for by those who load. The spec-check worker of
    ``sdf/spec/parallel.py`` starts faster for it.
    """
    if name in _FROM_LOAD:
        from sdf_tools import load
        return getattr(load, name)
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
