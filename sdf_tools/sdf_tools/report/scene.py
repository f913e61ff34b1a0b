"""The 3D scene as one GLB: each shape a node in its link's frame, each mesh stored once.

Meshes used by several shapes (a visual and its collision, a wheel used
four times) are stored once and instanced. Only triangles go in -- no
textures or normals (the page shades flat) -- and when the model holds more
triangles than :data:`FACE_BUDGET`, the larger meshes are decimated with
quadric simplification (trimesh, through fast-simplification) and each is
reported, so a big robot or world still makes a page of a few MB.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import trimesh

from sdf_tools.lint.shapes import ShapeSet

#: Triangles kept in the page, summed over distinct meshes (about 2.5 MB of base64 GLB).
FACE_BUDGET = 100_000
#: No mesh is decimated below this many triangles.
FACE_FLOOR = 300


@dataclass
class Decimation:
    """One mesh made smaller: its key and triangle counts before and after."""

    mesh: str
    before: int
    after: int


@dataclass
class Scene:
    """The GLB and what was done to fit it into the page."""

    glb: bytes
    nodes: dict[int, str] = field(default_factory=dict)  # shape index -> GLB node name
    decimated: list[Decimation] = field(default_factory=list)
    faces: int = 0


def _targets(counts: dict[str, int], budget: int) -> dict[str, int]:
    """Triangle counts to keep per mesh so that the sum fits ``budget``.

    Small meshes are kept whole; the rest share what is left in
    proportion to their size (never below :data:`FACE_FLOOR`).
    """
    total = sum(counts.values())
    if total <= budget:
        return dict(counts)
    out = dict(counts)
    big = {k: n for k, n in counts.items() if n > FACE_FLOOR}
    room = budget - sum(n for k, n in counts.items() if k not in big)
    scale = max(room, 0) / max(sum(big.values()), 1)
    for k, n in big.items():
        out[k] = max(FACE_FLOOR, int(n * scale))
    return out


def _bare(mesh: trimesh.Trimesh, target: int) -> trimesh.Trimesh:
    """The mesh's triangles only, decimated to about ``target`` faces.

    Vertices are merged first: a mesh read from a COLLADA or OBJ file often
    repeats each vertex per face, and the decimation would tear it apart.
    """
    bare = trimesh.Trimesh(vertices=mesh.vertices, faces=mesh.faces, process=True)
    if target < len(bare.faces):
        bare = bare.simplify_quadric_decimation(face_count=target)
    return bare


def build_scene(shapes: ShapeSet, budget: int = FACE_BUDGET) -> Scene:
    """Build the GLB of every drawable shape (node ``s<index>``, in its link's frame)."""
    used = {s.mesh_key for s in shapes.shapes if s.mesh_key is not None}
    keys = sorted(used)
    counts = {k: len(shapes.meshes[k].faces) for k in keys}
    targets = _targets(counts, budget)
    scene = trimesh.Scene()
    out = Scene(b'')
    names: dict[str, str] = {}
    for n, key in enumerate(keys):
        mesh = _bare(shapes.meshes[key], targets[key])
        if len(mesh.faces) < counts[key]:
            out.decimated.append(Decimation(key, counts[key], len(mesh.faces)))
        out.faces += len(mesh.faces)
        names[key] = f'm{n}'
        scene.geometry[names[key]] = mesh
    for i, s in enumerate(shapes.shapes):
        if s.mesh_key is None:
            continue
        node = f's{i}'
        scene.graph.update(frame_from=scene.graph.base_frame,  # type: ignore[no-untyped-call]
                           frame_to=node, matrix=s.matrix, geometry=names[s.mesh_key])
        out.nodes[i] = node
    glb: bytes = scene.export(file_type='glb') if out.nodes else b''  # type: ignore[no-untyped-call]
    out.glb = glb
    return out
