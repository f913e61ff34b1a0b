"""Every visual and collision of a resolved description as a triangle mesh, placed in its link.

Primitives are tessellated with trimesh; meshes are found as ROS and Gazebo find
them (``mesh_paths.py``: ``package://``, ``model://``, beside the file) and
loaded once per file, whoever uses them -- only for the kinds asked for
(``check --strict`` loads collision meshes alone: the plausibility check needs
their volume). A shape that cannot be drawn says why (``problem``); a mesh file
not found or not readable is one finding, however many shapes use it.
"""
from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import trimesh
from transforms3d.quaternions import quat2mat

from sdf_tools.errors import ErrorCode
from sdf_tools.lint.mesh_paths import MeshPaths
from sdf_tools.resolved import Resolved, ResolvedShape
from sdf_tools.transform import Transform

Params = dict[str, Any]  # a geometry's spec fields (numbers and lists of them)
#: Planes are drawn at most this wide (m): a 100 m ground would hide the robot.
PLANE_MAX = 10.0


@dataclass
class Shape:
    """One visual or collision: where it sits in its link and the mesh it draws.

    ``matrix`` is the 4x4 pose in the link frame times the mesh scale;
    ``mesh_key`` names the shared mesh (None when nothing is drawn: see
    ``problem``, or a mesh not loaded because its kind was not asked for).
    """

    link: int
    kind: str  # 'visual' or 'collision'
    name: str
    geometry: str
    matrix: np.ndarray
    mesh_key: str | None = None
    uri: str | None = None
    problem: tuple[ErrorCode, str] | None = None
    file: str | None = None
    line: int | None = None
    source: ResolvedShape | None = None


@dataclass
class MeshTrouble:
    """A mesh file that could not be used: once per file, with every shape that names it."""

    code: ErrorCode
    message: str
    shapes: list[int] = field(default_factory=list)


@dataclass
class ShapeSet:
    """The shapes of a description, the meshes they share by key, and mesh files in trouble."""

    shapes: list[Shape] = field(default_factory=list)
    meshes: dict[str, trimesh.Trimesh] = field(default_factory=dict)
    troubles: dict[str, MeshTrouble] = field(default_factory=dict)


def _pose_matrix(t: Transform) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = quat2mat(t.q)
    m[:3, 3] = t.p
    return m


def _plane(params: Params) -> trimesh.Trimesh:
    size = params.get('size', [1.0, 1.0])
    sx, sy = (min(float(v), PLANE_MAX) for v in size)
    box: trimesh.Trimesh = trimesh.creation.box(extents=[sx, sy, 1e-3])
    n = np.array(params.get('normal', [0.0, 0.0, 1.0]), dtype=float)
    if np.linalg.norm(n) > 0:
        align: np.ndarray = trimesh.geometry.align_vectors([0.0, 0.0, 1.0], n)  # type: ignore[no-untyped-call]
        box.apply_transform(align)
    return box


_DIMENSIONS = {'box': ('size',), 'sphere': ('radius',), 'cylinder': ('radius', 'length'),
               'capsule': ('radius', 'length'), 'cone': ('radius', 'length'), 'ellipsoid': ('radii',),
               'plane': ('size',)}


def drawable(kind: str, p: Params) -> bool:
    """Whether a primitive's sizes are finite and positive (a zero sphere has no triangles)."""
    values: list[float] = []
    for key in _DIMENSIONS.get(kind, ()):
        v = p.get(key, 0.0)
        values += [float(x) for x in v] if isinstance(v, list) else [float(v)]
    return all(math.isfinite(v) and v > 0 for v in values)


def primitive(kind: str, p: Params) -> trimesh.Trimesh | None:
    """Tessellate an SDFormat primitive, centred on its frame as SDFormat centres it."""
    mesh: trimesh.Trimesh | None = None
    r, length = p.get('radius', 0.0), p.get('length', 0.0)
    if kind == 'box':
        mesh = trimesh.creation.box(extents=p['size'])
    elif kind == 'sphere':
        mesh = trimesh.creation.icosphere(subdivisions=3, radius=r)
    elif kind == 'cylinder':
        mesh = trimesh.creation.cylinder(radius=r, height=length, sections=32)
    elif kind == 'capsule':
        mesh = trimesh.creation.capsule(height=length, radius=r, count=[16, 16])
    return mesh if mesh is not None else _other_primitive(kind, p)


def _other_primitive(kind: str, p: Params) -> trimesh.Trimesh | None:
    if kind == 'cone':
        length = float(p['length'])
        cone = trimesh.creation.cone(radius=p['radius'], height=length, sections=32)
        cone.apply_translation([0.0, 0.0, -length / 2.0])
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


def _mesh_shape(shape: Shape, index: int, params: Params, base: Path | None, out: ShapeSet,
                paths: MeshPaths, load: bool) -> None:
    uri = str(params.get('uri') or '')
    shape.uri = uri
    found = paths.find(uri, base) if uri else None
    if found is None or found.path is None:
        key = f'{uri}\0{base}'
        tried = '; '.join(found.tried) if found is not None else 'no <uri>'
        trouble = out.troubles.setdefault(key, MeshTrouble(
            ErrorCode.MESH_UNRESOLVED, f'mesh [{uri}] not found; looked in: {tried}'))
        trouble.shapes.append(index)
        shape.problem = (ErrorCode.MESH_UNRESOLVED, f'mesh [{uri}] not found')
        return
    key = str(found.path.resolve())
    if key in out.troubles:
        out.troubles[key].shapes.append(index)
        shape.problem = (out.troubles[key].code, out.troubles[key].message)
        return
    scale = params.get('scale', [1.0, 1.0, 1.0])
    shape.matrix = shape.matrix @ np.diag([*(float(s) for s in scale), 1.0])
    if not load:
        return
    if key not in out.meshes:
        loaded = _load_mesh(found.path)
        if isinstance(loaded, str):
            out.troubles[key] = MeshTrouble(ErrorCode.MESH_UNREADABLE, loaded, [index])
            shape.problem = (ErrorCode.MESH_UNREADABLE, loaded)
            return
        out.meshes[key] = loaded
    shape.mesh_key = key


def _add(link_index: int, item: ResolvedShape, kind: str, out: ShapeSet, paths: MeshPaths,
         load: bool) -> None:
    g = item.geometry
    loc = g.loc if g is not None and g.loc is not None else item.element.loc
    shape = Shape(link_index, kind, item.name, g.type if g is not None else 'empty', np.eye(4),
                  file=loc.file if loc else None, line=loc.line if loc else None, source=item)
    index = len(out.shapes)
    out.shapes.append(shape)
    if item.pose is None:
        shape.problem = (ErrorCode.SHAPE_NOT_DRAWN, 'pose not resolved')
        return
    shape.matrix = _pose_matrix(item.pose)
    if g is None or g.type == 'empty':
        return  # an empty geometry draws nothing, and says nothing is wrong
    if g.type == 'mesh':
        base = Path(shape.file).parent if shape.file else None
        _mesh_shape(shape, index, g.params, base, out, paths, load)
        return
    if not load:
        return
    key = f'{g.type}:{sorted(g.params.items())!r}'
    if key not in out.meshes:
        if not drawable(g.type, g.params):
            shape.problem = (ErrorCode.SHAPE_NOT_DRAWN,
                             f'<{g.type}> has a zero, negative or infinite size: not drawn')
            return
        mesh = primitive(g.type, g.params)
        if mesh is None:
            shape.problem = (ErrorCode.SHAPE_NOT_DRAWN, f'<{g.type}> is not drawn')
            return
        out.meshes[key] = mesh
    shape.mesh_key = key


def collect_shapes(resolved: Resolved, paths: MeshPaths | None = None, *,
                   load: Collection[str] = ('visual', 'collision')) -> ShapeSet:
    """Return every visual and collision of ``resolved`` with its mesh (for the kinds in ``load``)."""
    out = ShapeSet()
    paths = paths or MeshPaths()
    for i, link in enumerate(resolved.links):
        for v in link.visuals:
            _add(i, v, 'visual', out, paths, 'visual' in load)
        for c in link.collisions:
            _add(i, c, 'collision', out, paths, 'collision' in load)
    return out
