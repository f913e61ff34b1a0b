"""Everything one report shows, computed once: load, resolve, lint, scene, kinematics.

The HTML page and ``--json`` are two views of this one :class:`Report`.
``check --strict`` runs the same lint (``sdf_tools.lint``) without a report.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sdf_tools.lint import Lint, MeshPaths, lint
from sdf_tools.load import LoadResult, load_file
from sdf_tools.report.kinematics import PageData, kinematics
from sdf_tools.report.scene import FACE_BUDGET, Scene, build_scene
from sdf_tools.resolved import Resolved, resolve


@dataclass
class Report:
    """A resolved file with its findings and, when drawn, its scene."""

    file: str
    resolved: Resolved
    lint: Lint
    scene: Scene | None = None
    kin: PageData | None = None


def build_report(path: str, xacro_args: dict[str, str] | None = None, *, draw: bool = True,
                 face_budget: int = FACE_BUDGET, packages: Mapping[str, Path] | None = None,
                 joint_positions: dict[str, float] | None = None) -> Report:
    """Load ``path`` and compute the report (the scene only with ``draw``).

    ``packages``: ``package://`` directories by name (``--package NAME=DIR``);
    ``joint_positions``: where the sliders start, over ``<initial_position>``.
    """
    result = load_file(path, xacro_args)
    return report_of(result, path, draw=draw, face_budget=face_budget, packages=packages,
                     joint_positions=joint_positions)


def report_of(result: LoadResult, path: str, *, draw: bool = True, face_budget: int = FACE_BUDGET,
              packages: Mapping[str, Path] | None = None,
              joint_positions: dict[str, float] | None = None) -> Report:
    """Compute the report of an already loaded file."""
    resolved = resolve(result, path)
    paths = MeshPaths(dict(packages or {}))
    found = lint(resolved, paths, load=('visual', 'collision') if draw else ('collision',))
    report = Report(path, resolved, found)
    if draw and resolved.links:
        report.scene = build_scene(found.shapes, face_budget)
        report.kin = kinematics(resolved, joint_positions)
    return report


def report_json(report: Report) -> dict[str, Any]:
    """The findings as data: ``--json`` output (problems, per-link checks, counts)."""
    r = report.resolved
    ours = report.lint.ours
    return {
        'file': report.file, 'format': r.format, 'version': r.version,
        'gazebo': r.gazebo.to_json() if r.gazebo is not None else None,
        'valid': r.valid, 'usable': r.usable,
        'libsdformat': {'valid': r.valid, 'errors': len(r.errors), 'warnings': len(r.warnings)},
        'checks': {s: sum(p.severity.value == s for p in ours) for s in ('error', 'warning', 'note')},
        'counts': {'models': len(r.models), 'links': len(r.links), 'joints': len(r.joints),
                   'frames': len(r.frames)},
        'problems': [p.to_json() for p in report.lint.findings],
        'failing': len(report.lint.failing),
        'links': [{'name': lk.name, 'mass': lk.inertial.mass, 'inertia': list(lk.inertial.inertia),
                   'inertial_pose': None if lk.inertial.world is None else lk.inertial.world.to_json(),
                   'pose': None if lk.world is None else lk.world.to_json(), **row}
                  for lk, row in zip(r.links, report.lint.links, strict=True)],
    }
