"""Options that derive collisions and inertia from geometry.

* ``visual_as_collision``: a link with visuals and no collision gets one
  collision per visual, same pose and geometry (named after the visual,
  ``_visual`` -> ``_collision``).
* ``mesh_collision='box'``: a mesh collision becomes the box bounding the
  (scaled) mesh, placed at the box centre; ``'convex'`` asks for its convex
  hull, which SDFormat 1.11 writes as ``<mesh optimization="convex_hull">``
  (older versions have no way to say it: the mesh is kept, reported).
* ``inertia_from_geometry``: a link's inertia (and centre of mass) becomes
  that of its collision shapes filled with one density, at the authored
  mass. Boxes, spheres, cylinders and ellipsoids are computed exactly;
  capsules, cones and meshes through trimesh (a mesh must be found on this
  machine and be watertight). A link any of whose collisions cannot be
  measured keeps its authored inertia, reported.

Meshes that cannot be found or read are reported and left as they are.
"""
from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.convert.poses import computed_pose
from sdf_tools.model import Collision, Geometry, Inertial, Link, Model
from sdf_tools.sdf.uris import resolve_uri
from sdf_tools.transform import IDENTITY, Transform

if TYPE_CHECKING:  # trimesh takes 1-1.5 s to import: only the options that measure shapes need it
    import trimesh

# (volume, centre in the shape frame, inertia tensor at the centre for unit density)
MassProps = tuple[float, np.ndarray, np.ndarray]


def _where(item: Link | Collision) -> tuple[str | None, int | None]:
    return (item.loc.file if item.loc else None, item.loc.line if item.loc else None)


def load_mesh(geom: Geometry, base: Path | None) -> trimesh.Trimesh | None:
    """Load a mesh geometry's file with its scale applied; None when not found or unreadable."""
    here = Path(geom.loc.file).parent if geom.loc is not None and geom.loc.file else base
    path = resolve_uri(str(geom.params.get('uri', '')), here)
    if path is None or not path.is_file():
        return None
    import trimesh
    try:
        mesh = trimesh.load(str(path), force='mesh')
    except Exception:  # trimesh raises many kinds for unreadable files
        return None
    if not isinstance(mesh, trimesh.Trimesh) or len(mesh.faces) == 0:
        return None
    scale = geom.params.get('scale') or [1.0, 1.0, 1.0]
    mesh.apply_scale([float(s) for s in scale])  # type: ignore[attr-defined,no-untyped-call]
    return mesh


def _primitive(geom: Geometry) -> MassProps | None:
    p = geom.params
    zero = np.zeros(3)
    if geom.type == 'box':
        a, b, c = (float(v) for v in p['size'])  # type: ignore[attr-defined]
        v = a * b * c
        return v, zero, v / 12.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    if geom.type == 'sphere':
        r = float(p['radius'])  # type: ignore[arg-type]
        v = 4.0 / 3.0 * math.pi * r ** 3
        return v, zero, 0.4 * v * r * r * np.eye(3)
    if geom.type == 'cylinder':
        r, h = float(p['radius']), float(p['length'])  # type: ignore[arg-type]
        v = math.pi * r * r * h
        side = v * (3 * r * r + h * h) / 12.0
        return v, zero, np.diag([side, side, 0.5 * v * r * r])
    if geom.type == 'ellipsoid':
        a, b, c = (float(x) for x in p['radii'])  # type: ignore[attr-defined]
        v = 4.0 / 3.0 * math.pi * a * b * c
        return v, zero, v / 5.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    return None


def mass_props(geom: Geometry, base: Path | None) -> MassProps | None:
    """Return volume, centre and unit-density inertia of a shape; None when it cannot be measured."""
    exact = _primitive(geom)
    if exact is not None:
        return exact
    p = geom.params
    import trimesh.creation
    mesh: trimesh.Trimesh | None = None
    if geom.type == 'capsule':
        mesh = trimesh.creation.capsule(height=float(p['length']), radius=float(p['radius']),  # type: ignore[arg-type]
                                        count=[64, 64])
    elif geom.type == 'cone':
        mesh = trimesh.creation.cone(radius=float(p['radius']), height=float(p['length']),  # type: ignore[arg-type]
                                     sections=128)
        mesh.apply_translation([0.0, 0.0, -float(p['length']) / 2.0])  # type: ignore[arg-type]
    elif geom.type == 'mesh':
        mesh = load_mesh(geom, base)
    if mesh is None or not mesh.is_watertight:
        return None
    return (float(mesh.volume), np.asarray(mesh.center_mass, dtype=float),
            np.asarray(mesh.moment_inertia, dtype=float))


def _combined(parts: list[tuple[MassProps, Transform]], mass: float) -> Inertial:
    volume = sum(props[0] for props, _ in parts)
    density = mass / volume
    placed = []
    # here, not at the top: transforms3d brings numpy.random (~12 ms), which every converter
    # and the description publisher's start would pay for a call made only for mesh inertias
    from transforms3d.quaternions import quat2mat
    for (v, c, inertia), pose in parts:
        r = np.asarray(quat2mat(pose.q), dtype=float)
        centre = np.asarray(pose.p) + r @ c
        placed.append((v * density, centre, density * (r @ inertia @ r.T)))
    com = sum(m * c for m, c, _ in placed) / mass
    tensor = np.zeros((3, 3))
    for m, c, i in placed:
        d = c - com
        tensor += i + m * (float(d @ d) * np.eye(3) - np.outer(d, d))
    values = (tensor[0, 0], tensor[0, 1], tensor[0, 2], tensor[1, 1], tensor[1, 2], tensor[2, 2])
    return Inertial(mass, tuple(float(x) for x in values),  # type: ignore[arg-type]
                    computed_pose(Transform((float(com[0]), float(com[1]), float(com[2])))))


def inertia_from_collisions(link: Link, base: Path | None, report: ConversionReport) -> None:
    """Replace the link's inertia by its collisions' at the authored mass (reported either way)."""
    if link.inertial is None or link.inertial.mass <= 0.0 or not link.collisions:
        return
    parts = []
    for c in link.collisions:
        if c.pose is not None and c.pose.relative_to:
            report.add(ReportKind.KEPT, f'link[{link.name}]/inertial',
                       f'authored inertia kept: collision [{c.name}] is placed relative to '
                       f'[{c.pose.relative_to}], not to its link', *_where(link))
            return
        props = mass_props(c.geometry, base) if c.geometry is not None else None
        if props is None:
            kind = c.geometry.type if c.geometry is not None else 'empty'
            report.add(ReportKind.KEPT, f'link[{link.name}]/inertial',
                       f'authored inertia kept: collision [{c.name}] ({kind}) cannot be measured '
                       '(not found, not watertight, or a shape without volume)', *_where(link))
            return
        parts.append((props, c.pose.value if c.pose is not None else IDENTITY))
    new = _combined(parts, link.inertial.mass)
    new.loc = link.inertial.loc
    link.inertial = new
    report.add(ReportKind.REWRITTEN, f'link[{link.name}]/inertial',
               f'inertia and centre of mass computed from {len(parts)} collision shape(s) of '
               f'uniform density at the authored mass {new.mass} kg (inertia_from_geometry)',
               *_where(link))


def _visual_as_collision(link: Link, report: ConversionReport) -> None:
    if link.collisions or not link.visuals:
        return
    taken: set[str] = set()
    for v in link.visuals:
        stem = v.name[:-len('_visual')] if v.name.endswith('_visual') else v.name
        name = f'{stem}_collision'
        while name in taken:
            name += '_'
        taken.add(name)
        link.collisions.append(Collision(name, v.pose, copy.deepcopy(v.geometry), loc=v.loc))
    report.add(ReportKind.ASSUMED, f'link[{link.name}]/collision',
               f'{len(taken)} collision(s) made from the visuals (visual_as_collision)', *_where(link))


def _mesh_collision(c: Collision, mode: str, version: str, base: Path | None,
                    owner: str, report: ConversionReport) -> None:
    g = c.geometry
    if g is None or g.type != 'mesh':
        return
    where = f'link[{owner}]/collision[{c.name}]'
    if mode == 'convex':
        if version in ('1.9', '1.10'):
            report.add(ReportKind.KEPT, where, 'mesh_collision=convex needs SDFormat 1.11 '
                       '(<mesh optimization="convex_hull">); the mesh is kept as it is', *_where(c))
            return
        g.params['optimization'] = 'convex_hull'
        report.add(ReportKind.APPROXIMATED, where, 'mesh collision marked for its convex hull '
                   '(optimization="convex_hull")', *_where(c))
        return
    mesh = load_mesh(g, base)
    if mesh is None:
        report.add(ReportKind.KEPT, where, f'mesh [{g.params.get("uri")}] cannot be read: kept as '
                   'a mesh (mesh_collision=box)', *_where(c))
        return
    lo, hi = (np.asarray(b, dtype=float) for b in mesh.bounds)
    centre = (lo + hi) / 2.0
    pose = c.pose.value if c.pose is not None else IDENTITY
    rel = c.pose.relative_to if c.pose is not None else ''
    c.pose = computed_pose(pose * Transform((float(centre[0]), float(centre[1]), float(centre[2]))), rel)
    c.geometry = Geometry('box', {'size': [float(x) for x in hi - lo]}, g.loc)
    report.add(ReportKind.APPROXIMATED, where, f'mesh [{g.params.get("uri")}] replaced by its '
               'bounding box (mesh_collision=box)', *_where(c))


def apply_geometry_options(models: list[Model], options: ConversionOptions,
                           report: ConversionReport, base: Path | None) -> None:
    """Apply ``visual_as_collision``, ``mesh_collision`` and ``inertia_from_geometry``."""
    for model in models:
        for link in model.links:
            if options.visual_as_collision:
                _visual_as_collision(link, report)
            if options.mesh_collision != 'keep':
                for c in link.collisions:
                    _mesh_collision(c, options.mesh_collision, options.sdf_version or '1.11', base,
                                    link.name, report)
            if options.inertia_from_geometry:
                inertia_from_collisions(link, base, report)
