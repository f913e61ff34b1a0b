"""Everything one report shows, computed once: load, inspect, shapes, checks, scene, kinematics.

The HTML page and ``--json`` are two views of this one :class:`Report`; so
is ``check --strict``, which fails on ``report.checks.failing``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sdf_tools.load import LoadResult, load_file
from sdf_tools.report.checks import Checks, run_checks
from sdf_tools.report.kinematics import kinematics
from sdf_tools.report.scene import FACE_BUDGET, Scene, build_scene
from sdf_tools.report.shapes import ShapeSet, collect_shapes
from sdf_tools.report.walk import JointEntry, LinkEntry, entries
from sdf_tools.resolved import inspect_json

Json = dict[str, Any]


@dataclass
class Report:
    """A loaded file with its checks and, when drawn, its scene."""

    file: str
    result: LoadResult
    data: Json
    links: list[LinkEntry]
    joints: list[JointEntry]
    shapes: ShapeSet
    checks: Checks
    scene: Scene | None = None
    kin: Json | None = None


def build_report(path: str, xacro_args: dict[str, str] | None = None, *, draw: bool = True,
                 face_budget: int = FACE_BUDGET) -> Report:
    """Load ``path`` and compute the report (the scene only with ``draw``)."""
    result = load_file(path, xacro_args)
    return report_of(result, path, draw=draw, face_budget=face_budget)


def report_of(result: LoadResult, path: str, *, draw: bool = True,
              face_budget: int = FACE_BUDGET) -> Report:
    """Compute the report of an already loaded file."""
    data = inspect_json(result, path)
    doc = result.document
    links, joints = entries(doc, data)
    shapes = collect_shapes(links, doc.file if doc is not None else path)
    checks = run_checks(result, links, joints, shapes)
    report = Report(path, result, data, links, joints, shapes, checks)
    if draw and links:
        report.scene = build_scene(shapes, face_budget)
        report.kin = kinematics(links, joints, data['frames'])
    return report


def report_json(report: Report) -> Json:
    """The checks as data: ``--json`` output (problems, per-link checks, counts)."""
    d = report.data
    problems = [p.to_json() for p in report.checks.problems]
    return {
        'file': report.file, 'format': d['format'], 'version': d['version'],
        'valid': d['valid'], 'usable': report.result.usable,
        'counts': {k: len(d[k]) for k in ('models', 'links', 'joints', 'frames')},
        'problems': problems,
        'failing': len(report.checks.failing),
        'links': [{'name': e.name, 'mass': e.data['mass'], 'inertia': e.data['inertia'],
                   'inertial_pose': e.data['inertial_pose'], 'pose': e.data['pose'], **row}
                  for e, row in zip(report.links, report.checks.links, strict=True)],
    }
