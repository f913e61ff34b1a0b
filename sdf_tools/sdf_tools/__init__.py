"""sdf_tools: read SDFormat, URDF and xacro exactly as libsdformat does.

The core (everything outside :mod:`sdf_tools.ros`) needs no ROS installation.
"""
from __future__ import annotations

from sdf_tools.errors import Diagnostic, ErrorCode, SdfToolsError
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
