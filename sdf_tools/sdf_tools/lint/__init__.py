"""The lint checks: what a physics engine will do wrong with a model that libsdformat accepts.

``lint(resolve(load_file(path)))`` finds massless links, impossible or
implausible inertias, joints without limits and meshes that cannot be found or
read, each as a :class:`Finding` with an :class:`~sdf_tools.errors.ErrorCode`.
The report lists them and ``check --strict`` fails on them; neither builds
more than it needs (no page, no visual meshes here). Modules: ``checks`` (the
runner and the link and joint checks), ``massless``, ``inertia`` (arithmetic),
``shapes`` and ``mesh_paths`` (geometry as meshes, found as ROS finds them),
``restate`` (one fact, one line), ``finding`` (the record).
"""
from __future__ import annotations

from sdf_tools.lint.checks import Lint, lint
from sdf_tools.lint.finding import Finding
from sdf_tools.lint.mesh_paths import MeshPaths

__all__ = ['Finding', 'Lint', 'MeshPaths', 'lint']
