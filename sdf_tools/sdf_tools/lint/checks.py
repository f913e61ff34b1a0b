"""The lint checks, as data: every finding with its code, severity, subject and file:line.

They run below the report: ``check --strict`` runs them on the resolved
description without building a page or loading visual meshes.

Links: a mass (what Gazebo does without one), a positive mass, a positive-
definite inertia obeying the triangle inequality (libsdformat's tolerance),
an inertia that is not the unit default, and a mass and inertia plausible
for the volume of the collision geometry. Joints: limits on revolute and
prismatic joints (a zero axis is a reader error, listed with the others).
Shapes: meshes that can be found and read (one finding per mesh file).
Every validation error and warning of the reader is listed too, except one
that a check here restates with what it means (``restate.py``): one fact,
one line.

Severities: ``error`` (wrong physics), ``warning`` (probably wrong or lost),
``note`` (worth knowing, nothing lost). ``check --strict`` fails on errors
and warnings of these checks.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import trimesh

from sdf_tools.errors import Diagnostic, ErrorCode, Severity
from sdf_tools.lint import inertia as inr
from sdf_tools.lint.finding import Finding
from sdf_tools.lint.massless import massless_findings
from sdf_tools.lint.mesh_paths import MeshPaths
from sdf_tools.lint.restate import restated
from sdf_tools.lint.shapes import ShapeSet, collect_shapes
from sdf_tools.model.elements import UNIT_INERTIA
from sdf_tools.resolved import Resolved, ResolvedJoint, ResolvedLink

Row = dict[str, Any]

#: Densities (kg/m^3) accepted as plausible: from foam (about 30) down to
#: hollow shells drawn as solids, up to the densest metals (osmium, 22,600).
DENSITY_RANGE = (10.0, 25_000.0)
#: The declared inertia's trace may be this many times smaller or larger than
#: the collision geometry's filled uniformly with the same mass (hollow
#: shells, motors at the joint and point masses all move it, but not tenfold).
INERTIA_RATIO = 10.0
#: SDFormat's "no limit" values for <lower>/<upper>.
UNBOUNDED = 1e16
LIMITED_TYPES = ('revolute', 'prismatic')


@dataclass
class Lint:
    """Every finding, and per link the outcome of each check (None: not applicable).

    ``findings`` holds the reader's diagnostics too (kind ``'file'``), except
    those a check of ours restates (``restated``): one fact, one line.
    """

    findings: list[Finding] = field(default_factory=list)
    links: list[Row] = field(default_factory=list)
    restated: list[Diagnostic] = field(default_factory=list)
    shapes: ShapeSet = field(default_factory=ShapeSet)

    @property
    def failing(self) -> list[Finding]:
        """The findings ``check --strict`` fails on: our checks' errors and warnings."""
        return [p for p in self.findings if p.kind != 'file' and p.severity is not Severity.NOTE]

    @property
    def ours(self) -> list[Finding]:
        """The findings of our checks (not the reader's diagnostics)."""
        return [p for p in self.findings if p.kind != 'file']


def _link_finding(code: ErrorCode, severity: Severity, link: ResolvedLink, message: str) -> Finding:
    i = link.element.inertial
    loc = i.loc if i is not None and i.loc is not None else link.element.loc
    return Finding.at(code, severity, 'link', link.name, message, loc)


def _plausibility(link: ResolvedLink, parts: list[tuple[trimesh.Trimesh, np.ndarray]], mass: float,
                  inertia: list[float], cache: dict[int, Any]) -> tuple[Row, list[Finding]]:
    solid = inr.solid_of(parts, cache) if parts else None
    if solid is None or mass <= 0:
        return {'density': None, 'inertia_ratio': None, 'plausible': None}, []
    density = mass / solid.volume
    if not math.isfinite(density) or solid.trace_per_density <= 0:
        return {'density': None, 'inertia_ratio': None, 'plausible': None}, []
    ratio = (inertia[0] + inertia[3] + inertia[5]) / (density * solid.trace_per_density)
    out: list[Finding] = []
    if not DENSITY_RANGE[0] <= density <= DENSITY_RANGE[1]:
        out.append(_link_finding(
            ErrorCode.DENSITY_IMPLAUSIBLE, Severity.WARNING, link,
            f'mass {mass:.6g} kg in {solid.volume:.3g} m^3 of collision geometry is '
            f'{density:.4g} kg/m^3 (plausible: {DENSITY_RANGE[0]:g} to {DENSITY_RANGE[1]:g})'))
    if not 1.0 / INERTIA_RATIO <= ratio <= INERTIA_RATIO:
        out.append(_link_finding(
            ErrorCode.INERTIA_IMPLAUSIBLE, Severity.WARNING, link,
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


def check_link(link: ResolvedLink, parts: list[tuple[trimesh.Trimesh, np.ndarray]], fmt: str, *,
               static: bool, judged: bool = False,
               cache: dict[int, Any] | None = None) -> tuple[Row, list[Finding]]:
    """Check one link's mass and inertia (``parts``: its collisions); return its row and findings.

    ``judged``: the reader already reported the inertia invalid (libsdformat's
    ``LINK_INERTIA_INVALID``); the row still says which test fails, without a
    second line about it.
    """
    out: list[Finding] = []
    row: Row = {'mass_positive': None, 'positive_definite': None, 'triangle': None,
                'density': None, 'inertia_ratio': None, 'plausible': None, 'static': static}
    written = link.element.inertial
    if written is None or static:
        return row, out
    mass, inertia = written.mass, list(written.inertia)
    row['mass_positive'] = mass > 0
    if mass < 0:
        out.append(_link_finding(ErrorCode.MASS_NOT_POSITIVE, Severity.ERROR, link, f'mass is {mass:.6g} kg'))
    if mass == 0 and all(v == 0 for v in inertia):
        return row, out
    row['positive_definite'] = inr.positive_definite(inertia)
    row['triangle'] = inr.triangle_ok(inertia)
    moments = ', '.join(f'{m:.4g}' for m in inr.principal(inertia).moments)
    if not row['positive_definite'] and not judged:
        out.append(_link_finding(ErrorCode.INERTIA_NOT_POSITIVE_DEFINITE, Severity.ERROR, link,
                                 f'inertia is not positive definite (principal moments {moments})'))
    if not row['triangle'] and not judged:
        out.append(_link_finding(ErrorCode.INERTIA_TRIANGLE_INEQUALITY, Severity.ERROR, link,
                                 f'principal moments {moments} break the triangle inequality '
                                 '(no rigid body has them)'))
    if fmt == 'sdf' and tuple(inertia) == UNIT_INERTIA:
        out.append(_link_finding(ErrorCode.DEFAULT_INERTIA, Severity.WARNING, link,
                                 'inertia is the unit default (ixx = iyy = izz = 1 kg m^2, '
                                 'what libsdformat assumes without <inertia>)'))
    plaus, found = _plausibility(link, parts, mass, inertia, {} if cache is None else cache)
    row.update(plaus)
    return row, out + found


def check_joint(joint: ResolvedJoint) -> list[Finding]:
    """Check one joint's limits (as the file wrote them).

    A zero-length axis needs no check here: both readers report it as an
    error at its ``<xyz>`` (as libsdformat and urdfdom do).
    """
    j = joint.element
    out: list[Finding] = []
    if j.type in LIMITED_TYPES:
        a = j.axis
        if a is None or a.lower <= -UNBOUNDED or a.upper >= UNBOUNDED:
            out.append(Finding.at(ErrorCode.JOINT_NO_LIMITS, Severity.WARNING, 'joint', joint.name,
                                  f'{j.type} joint without position limits: it moves without end',
                                  j.loc))
        elif a.lower > a.upper:
            out.append(Finding.at(ErrorCode.JOINT_LIMITS_REVERSED, Severity.WARNING, 'joint',
                                  joint.name,
                                  f'lower limit {a.lower:.6g} is above upper limit {a.upper:.6g}',
                                  j.loc))
    return out


def _shape_findings(resolved: Resolved, shapes: ShapeSet) -> list[Finding]:
    """A shape not drawn, and each mesh file not found or not readable: once per file."""
    out: list[Finding] = []
    for s in shapes.shapes:
        if s.problem is not None and s.problem[0] is ErrorCode.SHAPE_NOT_DRAWN:
            out.append(Finding(ErrorCode.SHAPE_NOT_DRAWN, Severity.NOTE, 'shape',
                               resolved.links[s.link].name, f'{s.kind} [{s.name}]: {s.problem[1]}',
                               s.file, s.line))
    for trouble in shapes.troubles.values():
        first = shapes.shapes[trouble.shapes[0]]
        users = sorted({resolved.links[shapes.shapes[k].link].name for k in trouble.shapes})
        more = len(trouble.shapes) - 1
        used = (f' (used by {len(trouble.shapes)} shapes of {len(users)} link(s): '
                f'{", ".join(users[:6])}{", ..." if len(users) > 6 else ""})' if more else '')
        out.append(Finding(trouble.code, Severity.WARNING, 'shape', resolved.links[first.link].name,
                           f'{first.kind} [{first.name}]: {trouble.message}{used}',
                           first.file, first.line))
    return out


def _inertia_judged(resolved: Resolved) -> set[tuple[str | None, int | None]]:
    """Where the reader reported an invalid inertia (libsdformat's own verdict)."""
    return {(d.file, d.line) for d in resolved.diagnostics if d.code is ErrorCode.LINK_INERTIA_INVALID}


def _judged(link: ResolvedLink, where: set[tuple[str | None, int | None]]) -> bool:
    locs = [link.element.loc, link.element.inertial.loc if link.element.inertial else None]
    return any(loc is not None and (loc.file, loc.line) in where for loc in locs)


def _said(resolved: Resolved, f: Finding, name: str) -> bool:
    """Whether the reader already gave ``f``'s fact under its code (the URDF reader's reversed
    limits, with what libsdformat does about them): then its line is the one."""
    return any(d.code is f.code and d.file == f.file and f'joint [{name}]' in d.message
               for d in resolved.diagnostics)


_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.NOTE: 2}


def lint(resolved: Resolved, paths: MeshPaths | None = None, *,
         load: tuple[str, ...] = ('collision',)) -> Lint:
    """Run every check on ``resolved``; findings sorted errors first, then warnings, then notes.

    Meshes are loaded for the shape kinds in ``load`` (collision meshes feed the
    plausibility check; the report asks for visuals too, to draw them). Every
    mesh URI is looked up, loaded or not.
    """
    out = Lint(shapes=collect_shapes(resolved, paths, load=load))
    fmt = resolved.format or 'sdf'
    collisions = _collisions(out.shapes)
    static = {m.name for m in resolved.models if m.static}
    judged = _inertia_judged(resolved)
    cache: dict[int, Any] = {}  # each mesh's volume and inertia, computed once
    ours: list[Finding] = []
    for i, link in enumerate(resolved.links):
        row, found = check_link(link, collisions.get(i, []), fmt, static=link.model in static,
                                judged=_judged(link, judged), cache=cache)
        out.links.append(row)
        ours += found
    ours += massless_findings(resolved)
    for j in resolved.joints:
        ours += [f for f in check_joint(j) if not _said(resolved, f, j.element.name)]
    ours += _shape_findings(resolved, out.shapes)
    out.restated = restated(resolved, ours)
    gone = {id(d) for d in out.restated}
    out.findings = ours + [Finding.of(d) for d in resolved.diagnostics if id(d) not in gone]
    out.findings.sort(key=lambda p: _ORDER[p.severity])  # stable: file order kept within
    return out
