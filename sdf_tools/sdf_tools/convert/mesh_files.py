"""Mesh files for exporters: find the file a mesh URI names, and convert formats a target cannot read.

Shared by the MJCF and USD exporters. ``package://``, ``model://``,
``file://`` and relative URIs are resolved as Gazebo resolves them
(:func:`sdf_tools.sdf.uris.resolve_uri`), relative to the file that wrote
the ``<mesh>``. A format the target cannot open (MuJoCo reads STL, OBJ and
MSH; Collada ``.dae``, ``.ply``, glTF... it cannot) is converted with
trimesh into a Wavefront OBJ (positions and faces only), named as the source, in a cache
folder keyed by the source's path, size and modification time, so a second export reuses it.
trimesh is imported only when a conversion is needed.
"""
from __future__ import annotations

import hashlib
import math
import os
from dataclasses import dataclass
from pathlib import Path

from sdf_tools.files import write_atomically
from sdf_tools.model import Geometry
from sdf_tools.sdf.uris import resolve_uri

#: Environment variable naming the cache directory of converted meshes.
CACHE_ENV = 'SDF_TOOLS_MESH_CACHE'
#: The fewest vertices a converted mesh may have (MuJoCo's minimum for a mesh).
MIN_VERTICES = 4
#: Changes whenever what is written to the cache changes.
CACHE_VERSION = 4


@dataclass(frozen=True)
class MeshFile:
    """A mesh file found for a ``<mesh>`` (``path``), or why none is usable (``problem``)."""

    uri: str
    path: Path | None
    problem: str = ''
    converted_from: Path | None = None


def cache_dir() -> Path:
    """Return the directory converted meshes go to (created on demand)."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    base = os.environ.get('XDG_CACHE_HOME') or str(Path.home() / '.cache')
    return Path(base) / 'sdf_tools' / 'meshes'


def find_mesh(geom: Geometry, base: Path | None) -> MeshFile:
    """Return the file a mesh geometry names, resolved next to the file that wrote it."""
    uri = str(geom.params.get('uri') or '').strip()
    if not uri:
        return MeshFile(uri, None, 'the mesh has no <uri>')
    here = Path(geom.loc.file).parent if geom.loc is not None and geom.loc.file else base
    path = resolve_uri(uri, here)
    if path is None or not path.is_file():
        return MeshFile(uri, None, f'mesh file [{uri}] not found (searched next to the file, '
                        'on the resource paths and in the ROS package paths)')
    return MeshFile(uri, path.resolve())


def _key(path: Path) -> str:
    st = path.stat()
    text = f'{CACHE_VERSION}\0{path}\0{st.st_size}\0{st.st_mtime_ns}'
    return hashlib.sha256(text.encode('utf-8')).hexdigest()[:20]


def convert_to_obj(found: MeshFile) -> MeshFile:
    """Return ``found`` converted to OBJ with trimesh (cached), or why it cannot be."""
    assert found.path is not None
    # One folder per source keeps the file's own name, which an exported model ships with.
    target = cache_dir() / _key(found.path) / f'{found.path.stem}.obj'
    if target.is_file():
        return MeshFile(found.uri, target, converted_from=found.path)
    try:
        import numpy as np
        import trimesh
        mesh = trimesh.load(str(found.path), force='mesh')
    except Exception as err:  # trimesh and its loaders raise many kinds for unreadable files
        return MeshFile(found.uri, None, f'mesh file [{found.path}] could not be read by trimesh '
                        f'({type(err).__name__}: {err})')
    if isinstance(mesh, trimesh.Trimesh):
        finite = np.isfinite(mesh.vertices).all(axis=1)
        if not finite.all():
            mesh.update_vertices(finite)
    if not isinstance(mesh, trimesh.Trimesh) or len(mesh.vertices) < MIN_VERTICES:
        return MeshFile(found.uri, None, f'mesh file [{found.path}] has fewer than '
                        f'{MIN_VERTICES} vertices (MuJoCo needs a solid)')
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        text = mesh.export(file_type='obj', include_normals=False, include_texture=False)
        write_atomically(target, str(text))
    except OSError as err:
        return MeshFile(found.uri, None, f'cannot write the converted mesh [{target}]: {err}')
    return MeshFile(found.uri, target, converted_from=found.path)


def stl_readable(path: Path, max_faces: int) -> bool:
    """Return whether an ``.stl`` file is binary with at most ``max_faces`` triangles.

    MuJoCo reads binary STL only, of up to 200000 triangles. A binary STL is
    84 bytes of header and count plus 50 bytes per triangle; an ASCII one
    starts with ``solid`` and does not have that size.
    """
    try:
        with path.open('rb') as f:
            head = f.read(84)
        size = path.stat().st_size
    except OSError:
        return False
    if len(head) < 84:
        return False
    count = int.from_bytes(head[80:84], 'little')
    return size == 84 + 50 * count and 0 < count <= max_faces


def _bad_index(text: str, count: int) -> bool:
    """Return whether an OBJ face index (1-based, or negative from the end) is out of range."""
    if not text:
        return False
    i = int(text)
    return i == 0 or i > count or -i > count


def obj_problem(path: Path) -> str:
    """Return why an OBJ file would trip a strict reader (MuJoCo's), or '' when it would not.

    Checks what MuJoCo's OBJ decoder refuses: vertex coordinates that are not finite,
    face indices of vertices, texture coordinates or normals out of range, and faces
    that mix corner forms (``1/1/1`` and ``3``).
    """
    counts = {'v': 0, 'vt': 0, 'vn': 0}
    form: tuple[bool, ...] | None = None
    try:
        with path.open('r', encoding='utf-8', errors='replace') as f:
            for line in f:
                head, _, rest = line.partition(' ')
                if head in counts:
                    counts[head] += 1
                    if head == 'v' and not all(math.isfinite(float(x)) for x in rest.split()[:3]):
                        return f'vertex {counts["v"]} is not finite'
                elif head == 'f':
                    for corner in rest.split():
                        parts = corner.split('/')
                        shape = tuple(bool(x) for x in parts)
                        if form is not None and shape != form:
                            return 'faces mix corner forms (with and without texture or normal)'
                        form = shape
                        for kind, index in zip(('v', 'vt', 'vn'), parts, strict=False):
                            if _bad_index(index, counts[kind]):
                                return f'a face refers to a missing {kind} ({index})'
    except (OSError, ValueError) as err:
        return f'unreadable ({err})'
    return ''
