"""The report's checks, as data: every problem with its code, severity, subject and file:line.

Links: a mass (what Gazebo does without one), a positive mass, a positive-
definite inertia obeying the triangle inequality (libsdformat's tolerance),
an inertia that is not the unit default, and a mass and inertia plausible
for the volume of the collision geometry. Joints: limits on revolute and
prismatic joints (a zero axis is a reader error, listed with the others).
Shapes: meshes that can be found and read. Every validation error and
warning of the reader is listed too.

Severities: ``error`` (wrong physics), ``warning`` (probably wrong or lost),
``info`` (worth knowing, nothing lost). ``check --strict`` fails on errors
and warnings of these checks.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import trimesh

from sdf_tools.errors import Severity
from sdf_tools.load import LoadResult
from sdf_tools.model import Link
from sdf_tools.model.common import Loc
from sdf_tools.report import inertia as inr
from sdf_tools.report.checks_base import Json, Problem
from sdf_tools.report.massless import massless_problems
from sdf_tools.report.shapes import ShapeSet
from sdf_tools.report.walk import JointEntry, LinkEntry

#: Densities (kg/m^3) accepted as plausible: from foam (about 30) down to
#: hollow shells drawn as solids, up to the densest metals (osmium, 22,600).
DENSITY_RANGE = (10.0, 25_000.0)
#: The declared inertia's trace may be this many times smaller or larger than
#: the collision geometry's filled uniformly with the same mass (hollow
#: shells, motors at the joint and point masses all move it, but not tenfold).
INERTIA_RATIO = 10.0
#: libsdformat's default inertia, (ixx, ixy, ixz, iyy, iyz, izz).
UNIT_INERTIA = (1.0, 0.0, 0.0, 1.0, 0.0, 1.0)
#: SDFormat's "no limit" values for <lower>/<upper>.
UNBOUNDED = 1e16
LIMITED_TYPES = ('revolute', 'prismatic')


@dataclass
class Checks:
    """Every problem, and per link the outcome of each check (None: not applicable)."""

    problems: list[Problem] = field(default_factory=list)
    links: list[Json] = field(default_factory=list)

    @property
    def failing(self) -> list[Problem]:
        """The findings ``check --strict`` fails on: checks' errors and warnings."""
        return [p for p in self.problems if p.kind != 'file' and p.severity != 'info']


def _where(loc: Loc | None) -> tuple[str | None, int | None]:
    return (loc.file, loc.line) if loc is not None else (None, None)


def _link_problem(code: str, severity: str, entry: LinkEntry, message: str) -> Problem:
    loc = entry.link.inertial.loc if entry.link.inertial and entry.link.inertial.loc else entry.link.loc
    return Problem(code, severity, 'link', entry.name, message, *_where(loc))


def _plausibility(entry: LinkEntry, parts: list[tuple[trimesh.Trimesh, np.ndarray]], mass: float,
                  inertia: list[float], cache: dict[int, Any]) -> tuple[Json, list[Problem]]:
    solid = inr.solid_of(parts, cache) if parts else None
    if solid is None or mass <= 0:
        return {'density': None, 'inertia_ratio': None, 'plausible': None}, []
    density = mass / solid.volume
    if not math.isfinite(density) or solid.trace_per_density <= 0:
        return {'density': None, 'inertia_ratio': None, 'plausible': None}, []
    ratio = (inertia[0] + inertia[3] + inertia[5]) / (density * solid.trace_per_density)
    out: list[Problem] = []
    if not DENSITY_RANGE[0] <= density <= DENSITY_RANGE[1]:
        out.append(_link_problem(
            'DENSITY_IMPLAUSIBLE', 'warning', entry,
            f'mass {mass:.6g} kg in {solid.volume:.3g} m^3 of collision geometry is '
            f'{density:.4g} kg/m^3 (plausible: {DENSITY_RANGE[0]:g} to {DENSITY_RANGE[1]:g})'))
    if not 1.0 / INERTIA_RATIO <= ratio <= INERTIA_RATIO:
        out.append(_link_problem(
            'INERTIA_IMPLAUSIBLE', 'warning', entry,
            f'inertia is {ratio:.3g} times that of its collision geometry filled uniformly '
            f'with the same mass (plausible: 1/{INERTIA_RATIO:g} to {INERTIA_RATIO:g})'))
    return {'density': density, 'inertia_ratio': ratio, 'plausible': not out}, out


def _collisions(shapes: ShapeSet) -> dict[int, list[tuple[trimesh.Trimesh, np.ndarray]]]:
    """Each link's collision meshes with their poses (planes are not solids)."""
    out: dict[int, list[tuple[trimesh.Trimesh, np.ndarray]]] = {}
    for s in shapes.shapes:
        if s.kind == 'collision' and s.mesh_key is not None and s.geometry != 'plane':
            out.setdefault(s.link, []).append((shapes.meshes[s.mesh_key], s.matrix))
    return out


def check_link(entry: LinkEntry, parts: list[tuple[trimesh.Trimesh, np.ndarray]],
               fmt: str, cache: dict[int, Any] | None = None) -> tuple[Json, list[Problem]]:
    """Check one link's mass and inertia (``parts``: its collisions); return its row and problems."""
    link: Link = entry.link
    out: list[Problem] = []
    row: Json = {'mass_positive': None, 'positive_definite': None, 'triangle': None,
                 'density': None, 'inertia_ratio': None, 'plausible': None,
                 'static': entry.model.static}
    if link.inertial is None or entry.model.static:
        return row, out
    mass, inertia = link.inertial.mass, list(link.inertial.inertia)
    row['mass_positive'] = mass > 0
    if mass < 0:
        out.append(_link_problem('MASS_NOT_POSITIVE', 'error', entry, f'mass is {mass:.6g} kg'))
    if mass == 0 and all(v == 0 for v in inertia):
        return row, out
    row['positive_definite'] = inr.positive_definite(inertia)
    row['triangle'] = inr.triangle_ok(inertia)
    moments = ', '.join(f'{m:.4g}' for m in inr.principal(inertia).moments)
    if not row['positive_definite']:
        out.append(_link_problem('INERTIA_NOT_POSITIVE_DEFINITE', 'error', entry,
                                 f'inertia is not positive definite (principal moments {moments})'))
    if not row['triangle']:
        out.append(_link_problem('INERTIA_TRIANGLE_INEQUALITY', 'error', entry,
                                 f'principal moments {moments} break the triangle inequality '
                                 '(no rigid body has them)'))
    if fmt == 'sdf' and tuple(inertia) == UNIT_INERTIA:
        out.append(_link_problem('DEFAULT_INERTIA', 'warning', entry,
                                 'inertia is the unit default (ixx = iyy = izz = 1 kg m^2, '
                                 'what libsdformat assumes without <inertia>)'))
    plaus, found = _plausibility(entry, parts, mass, inertia, {} if cache is None else cache)
    row.update(plaus)
    return row, out + found


def check_joint(entry: JointEntry) -> list[Problem]:
    """Check one joint's limits.

    A zero-length axis needs no check here: both readers report it as an
    error at its ``<xyz>`` (as libsdformat and urdfdom do) and the page lists it.
    """
    j = entry.joint
    file, line = _where(j.loc)
    out: list[Problem] = []
    if j.type in LIMITED_TYPES:
        a = j.axis
        if a is None or a.lower <= -UNBOUNDED or a.upper >= UNBOUNDED:
            out.append(Problem('JOINT_NO_LIMITS', 'warning', 'joint', entry.name,
                               f'{j.type} joint without position limits: it moves without end',
                               file, line))
        elif a.lower > a.upper:
            out.append(Problem('JOINT_LIMITS_REVERSED', 'warning', 'joint', entry.name,
                               f'lower limit {a.lower:.6g} is above upper limit {a.upper:.6g}',
                               file, line))
    return out


def _shape_problems(links: list[LinkEntry], shapes: ShapeSet) -> list[Problem]:
    out: list[Problem] = []
    for s in shapes.shapes:
        if s.problem is None:
            continue
        code, severity = (('MESH_UNRESOLVED', 'warning') if 'not found' in s.problem else
                          ('MESH_UNREADABLE', 'warning') if s.geometry == 'mesh' else
                          ('SHAPE_NOT_DRAWN', 'info'))
        out.append(Problem(code, severity, 'shape', links[s.link].name,
                           f'{s.kind} [{s.name}]: {s.problem}', s.file, s.line))
    return out


def _diagnostics(result: LoadResult) -> list[Problem]:
    return [Problem(d.code.value, 'error' if d.severity is Severity.ERROR else 'warning',
                    'file', '', d.message, d.file, d.line) for d in result.diagnostics]


_ORDER = {'error': 0, 'warning': 1, 'info': 2}


def run_checks(result: LoadResult, links: list[LinkEntry], joints: list[JointEntry],
               shapes: ShapeSet) -> Checks:
    """Run every check; problems sorted errors first, then warnings, then notes."""
    out = Checks()
    fmt = result.document.format if result.document is not None else 'sdf'
    collisions = _collisions(shapes)
    cache: dict[int, Any] = {}  # each mesh's volume and inertia, computed once
    for i, entry in enumerate(links):
        row, found = check_link(entry, collisions.get(i, []), fmt, cache)
        out.links.append(row)
        out.problems += found
    if result.document is not None:
        out.problems += massless_problems(result.document, links)
    for j in joints:
        out.problems += check_joint(j)
    out.problems += _shape_problems(links, shapes)
    out.problems += _diagnostics(result)
    out.problems.sort(key=lambda p: _ORDER[p.severity])  # stable: file order kept within
    return out
