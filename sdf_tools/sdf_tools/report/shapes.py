"""Every visual and collision of a document as a triangle mesh, placed in its link.

Primitives are tessellated with trimesh; meshes are found with the reader's
URI resolution (``sdf/uris.py``, relative to the file that names them) and
loaded once per file, whoever uses them. A shape that cannot be drawn says
why (``problem``), so the report can list it instead of dropping it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import trimesh
from transforms3d.quaternions import quat2mat

from sdf_tools.model import Collision, Model, Visual
from sdf_tools.report.colors import Rgba, named_materials, visual_color
from sdf_tools.report.walk import LinkEntry
from sdf_tools.sdf.uris import resolve_uri

Json = dict[str, Any]
#: Planes are drawn at most this wide (m): a 100 m ground would hide the robot.
PLANE_MAX = 10.0


@dataclass
class Shape:
    """One visual or collision: where it sits in its link and the mesh it draws.

    ``matrix`` is the 4x4 pose in the link frame times the mesh scale;
    ``mesh_key`` names the shared mesh (None when nothing can be drawn).
    """

    link: int
    kind: str  # 'visual' or 'collision'
    name: str
    geometry: str
    matrix: np.ndarray
    mesh_key: str | None = None
    uri: str | None = None
    problem: str | None = None
    file: str | None = None
    line: int | None = None
    color: Rgba | None = None


@dataclass
class ShapeSet:
    """The shapes of a document and the meshes they share, by key."""

    shapes: list[Shape] = field(default_factory=list)
    meshes: dict[str, trimesh.Trimesh] = field(default_factory=dict)


def _pose_matrix(pose: Json) -> np.ndarray:
    x, y, z, w = pose['quat_xyzw']
    m = np.eye(4)
    m[:3, :3] = quat2mat([w, x, y, z])
    m[:3, 3] = pose['xyz']
    return m


def _plane(params: Json) -> trimesh.Trimesh:
    sx, sy = (min(float(v), PLANE_MAX) for v in params.get('size', [1.0, 1.0]))
    box: trimesh.Trimesh = trimesh.creation.box(extents=[sx, sy, 1e-3])
    n = np.array(params.get('normal', [0.0, 0.0, 1.0]), dtype=float)
    if np.linalg.norm(n) > 0:
        align: np.ndarray = trimesh.geometry.align_vectors([0.0, 0.0, 1.0], n)  # type: ignore[no-untyped-call]
        box.apply_transform(align)
    return box


_DIMENSIONS = {'box': ('size',), 'sphere': ('radius',), 'cylinder': ('radius', 'length'),
               'capsule': ('radius', 'length'), 'cone': ('radius', 'length'), 'ellipsoid': ('radii',),
               'plane': ('size',)}


def drawable(kind: str, p: Json) -> bool:
    """Whether a primitive's sizes are finite and positive (a zero sphere has no triangles)."""
    values: list[float] = []
    for key in _DIMENSIONS.get(kind, ()):
        v = p.get(key)
        values += [float(x) for x in v] if isinstance(v, list) else [float(v)]  # type: ignore[arg-type]
    return all(math.isfinite(v) and v > 0 for v in values)


def primitive(kind: str, p: Json) -> trimesh.Trimesh | None:
    """Tessellate an SDFormat primitive, centred on its frame as SDFormat centres it."""
    mesh: trimesh.Trimesh | None = None
    if kind == 'box':
        mesh = trimesh.creation.box(extents=p['size'])
    elif kind == 'sphere':
        mesh = trimesh.creation.icosphere(subdivisions=3, radius=p['radius'])
    elif kind == 'cylinder':
        mesh = trimesh.creation.cylinder(radius=p['radius'], height=p['length'], sections=32)
    elif kind == 'capsule':
        mesh = trimesh.creation.capsule(height=p['length'], radius=p['radius'], count=[16, 16])
    return mesh if mesh is not None else _other_primitive(kind, p)


def _other_primitive(kind: str, p: Json) -> trimesh.Trimesh | None:
    if kind == 'cone':
        cone = trimesh.creation.cone(radius=p['radius'], height=p['length'], sections=32)
        cone.apply_translation([0.0, 0.0, -p['length'] / 2.0])
        out: trimesh.Trimesh = cone
        return out
    if kind == 'ellipsoid':
        sphere: trimesh.Trimesh = trimesh.creation.icosphere(subdivisions=3, radius=1.0)
        sphere.apply_transform(np.diag([*(float(r) for r in p['radii']), 1.0]))
        return sphere
    if kind == 'plane':
        return _plane(p)
    return None


def _load_mesh(path: Path) -> trimesh.Trimesh | str:
    """Load a mesh file as one triangle mesh, or say why it cannot be."""
    try:
        mesh = trimesh.load(str(path), force='mesh')
    except Exception as exc:  # trimesh raises many types for bad files
        return f'cannot read [{path}]: {type(exc).__name__}: {exc}'
    if not isinstance(mesh, trimesh.Trimesh) or len(mesh.faces) == 0:
        return f'[{path}] holds no triangles'
    if not np.isfinite(mesh.vertices).all():
        return f'[{path}] has vertices that are not finite numbers'
    return mesh


def _mesh_shape(shape: Shape, params: Json, base: Path | None, out: ShapeSet) -> None:
    uri = str(params.get('uri') or '')
    shape.uri = uri
    found = resolve_uri(uri, base) if uri else None
    if found is None or not found.is_file():
        shape.problem = f'mesh URI [{uri}] not found'
        return
    key = str(found.resolve())
    if key not in out.meshes:
        loaded = _load_mesh(found)
        if isinstance(loaded, str):
            shape.problem = loaded
            return
        out.meshes[key] = loaded
    scale = params.get('scale', [1.0, 1.0, 1.0])
    shape.matrix = shape.matrix @ np.diag([*(float(s) for s in scale), 1.0])
    shape.mesh_key = key


def _add(entry_index: int, item: Visual | Collision, item_json: Json, kind: str,
         default_base: Path | None, out: ShapeSet, colors: dict[str, Rgba]) -> None:
    g = item_json['geometry']
    loc = item.geometry.loc if item.geometry is not None and item.geometry.loc else item.loc
    shape = Shape(entry_index, kind, item.name, g['type'], np.eye(4),
                  file=loc.file if loc else None, line=loc.line if loc else None,
                  color=visual_color(item.extras, colors) if kind == 'visual' else None)
    out.shapes.append(shape)
    if item_json['pose'] is None:
        shape.problem = 'pose not resolved'
        return
    shape.matrix = _pose_matrix(item_json['pose'])
    if g['type'] == 'mesh':
        base = Path(shape.file).parent if shape.file else default_base
        _mesh_shape(shape, g, base, out)
        return
    params = {k: v for k, v in g.items() if k != 'type'}
    key = f'{g["type"]}:{sorted(params.items())!r}'
    if key not in out.meshes:
        if not drawable(g['type'], params):
            shape.problem = f'<{g["type"]}> has a zero, negative or infinite size: not drawn'
            return
        mesh = primitive(g['type'], params)
        if mesh is None:
            shape.problem = f'<{g["type"]}> is not drawn'
            return
        out.meshes[key] = mesh
    shape.mesh_key = key


def collect_shapes(links: list[LinkEntry], file: str | None) -> ShapeSet:
    """Return every visual and collision of ``links`` with its mesh."""
    out = ShapeSet()
    base = Path(file).parent if file else None
    tables: dict[int, dict[str, Rgba]] = {}

    def colors(model: Model) -> dict[str, Rgba]:
        if id(model) not in tables:
            tables[id(model)] = named_materials(model)
        return tables[id(model)]

    for i, entry in enumerate(links):
        for kind, items, items_json in (
                ('visual', entry.link.visuals, entry.data['visuals']),
                ('collision', entry.link.collisions, entry.data['collisions'])):
            pairs: list[tuple[Visual | Collision, Json]] = list(zip(items, items_json, strict=True))
            for item, item_json in pairs:
                _add(i, item, item_json, kind, base, out, colors(entry.model))
    return out
