"""The self-contained HTML report of a model or world (``sdf_tools report``).

It reads the resolved description (``sdf_tools.resolved``) and the findings
of the lint layer below it (``sdf_tools.lint``: the checks, the shapes as
meshes). ``build`` computes one :class:`Report`; ``scene`` writes the GLB;
``kinematics`` prepares what the page's script moves; ``page`` (with
``tables``, ``tree``, ``colors``, ``style``, ``viewer_js`` and ``threejs``)
writes the HTML; ``command`` is the CLI. The names below are imported on
first use, so the CLI starts without trimesh.
"""
from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {'Report': 'build', 'build_report': 'build', 'report_json': 'build',
            'report_of': 'build'}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    """Import the heavy modules (trimesh) only when one of their names is used."""
    if name not in _EXPORTS:
        raise AttributeError(name)
    return getattr(import_module(f'sdf_tools.report.{_EXPORTS[name]}'), name)
