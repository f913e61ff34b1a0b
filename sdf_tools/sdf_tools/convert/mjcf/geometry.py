"""Visuals and collisions as MJCF geoms; meshes, height fields and colours as assets.

=========  =============================================================  ============
SDFormat   MJCF                                                           report
=========  =============================================================  ============
box        ``box``, half sizes                                            --
sphere     ``sphere``                                                     --
cylinder   ``cylinder``, radius and half length                           --
capsule    ``capsule``, radius and half length of the cylinder part       --
ellipsoid  ``ellipsoid``, the radii                                       --
plane      ``plane`` (half sizes) in a body that never moves; elsewhere   -- /
           a box 1 cm thick below the plane (MuJoCo allows planes in      approximated
           static bodies only)
mesh       ``mesh`` asset (file resolved to an absolute path, ``scale``); --/rewritten
           Collada and other formats MuJoCo cannot read converted to STL
           with trimesh (:mod:`~sdf_tools.convert.mesh_files`)
heightmap  ``hfield`` asset from a PNG image (size and position kept)     -- / dropped
cone       its bounding cylinder                                          approximated
polyline   the bounding box of its points                                 approximated
image,     nothing                                                        dropped
empty
=========  =============================================================  ============

Visuals use the ``visual`` class (no contacts), collisions ``collision``.
A visual's colour (diffuse, else ambient) becomes a ``<material>`` asset.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import Namer, where
from sdf_tools.convert.mesh_files import (
    MeshFile,
    convert_to_obj,
    find_mesh,
    obj_problem,
    stl_readable,
)
from sdf_tools.convert.mjcf.writer import MjcfDocument, num, nums, pose_attrs, sub
from sdf_tools.convert.shape_params import param_float, param_vector, rotation_z_to
from sdf_tools.model import Collision, Extra, Geometry, Loc, RawPose, Visual
from sdf_tools.model.material import rgba
from sdf_tools.transform import IDENTITY, Transform
from sdf_tools.xmlsafe import parse_kept

PLANE_THICKNESS = 0.01  # m
MUJOCO_MESH_FORMATS = ('.stl', '.obj', '.msh')
MUJOCO_STL_FACES = 200000  # MuJoCo's STL decoder refuses more triangles
Shape = tuple[str, dict[str, str | None], Transform]  # geom type, attributes, offset
# How many leading size numbers of each geom type must be positive.
_SIZED = {'sphere': 1, 'capsule': 2, 'cylinder': 2, 'box': 3, 'ellipsoid': 3, 'plane': 0}


@dataclass
class Assets:
    """The ``<asset>`` section of one export, each file and colour written once."""

    doc: MjcfDocument
    report: ConversionReport
    names: Namer = field(default_factory=Namer)
    geoms: Namer = field(default_factory=Namer)
    meshes: dict[tuple[str, str], str] = field(default_factory=dict)
    materials: dict[str, str] = field(default_factory=dict)
    hfields: dict[tuple[str, str], str] = field(default_factory=dict)
    convex_noted: bool = False

    def mesh(self, path: Path, scale: str | None) -> str:
        key = (str(path), scale or '')
        if key not in self.meshes:
            name = self.names.take(f'mesh:{path.stem}')
            sub(self.doc.section('asset'), 'mesh', name=name, file=str(path), scale=scale)
            self.meshes[key] = name
        return self.meshes[key]

    def material(self, rgba: Sequence[float]) -> str:
        text = nums(rgba)
        if text not in self.materials:
            name = self.names.take(f'material:{len(self.materials)}')
            sub(self.doc.section('asset'), 'material', name=name, rgba=text)
            self.materials[text] = name
        return self.materials[text]


@dataclass
class GeomContext:
    """What writing the geoms of one link needs."""

    assets: Assets
    report: ConversionReport
    label: str                                    # 'link[inner::l]'
    pose: Callable[[RawPose | None], Transform]   # raw pose -> pose in the body frame
    static: bool                                  # the body never moves
    prefix: str                                   # geom name prefix ('model::link/')






def _mesh(g: Geometry, ctx: GeomContext, label: str) -> list[Shape]:
    found = find_mesh(g, None)
    suffix = found.path.suffix.lower() if found.path is not None else ''
    if found.path is not None and (suffix not in MUJOCO_MESH_FORMATS or (
            suffix == '.stl' and not stl_readable(found.path, MUJOCO_STL_FACES)) or (
            suffix == '.obj' and obj_problem(found.path))):
        found = _converted(found, ctx, label, g.loc)
    if found.path is None:
        ctx.report.add(ReportKind.DROPPED, label, found.problem, *where(g.loc))
        return []
    if g.params.get('submesh'):
        ctx.report.add(ReportKind.DROPPED, label, 'mesh <submesh>: MuJoCo loads the whole mesh',
                       *where(g.loc))
    scale = param_vector(g.params, 'scale', (1.0, 1.0, 1.0))
    name = ctx.assets.mesh(found.path, nums(scale) if scale != [1.0, 1.0, 1.0] else None)
    return [('mesh', {'mesh': name}, IDENTITY)]


def _converted(found: MeshFile, ctx: GeomContext, label: str, loc: Loc | None) -> MeshFile:
    got = convert_to_obj(found)
    if got.path is not None:
        ctx.report.add(ReportKind.REWRITTEN, label, f'MuJoCo cannot read [{found.uri}] '
                       '(it reads binary STL of up to 200000 triangles, well-formed OBJ and MSH): '
                       f'converted with trimesh to [{got.path}] (materials and textures are '
                       'lost; Collada <unit> scaling as trimesh applies it)', *where(loc))
    return got


def _heightmap(g: Geometry, ctx: GeomContext, label: str) -> list[Shape]:
    found = find_mesh(g, None)
    if found.path is None or found.path.suffix.lower() != '.png':
        why = found.problem or f'[{found.uri}] is not a PNG image, the one format MuJoCo reads'
        ctx.report.add(ReportKind.DROPPED, label, f'heightmap: {why}', *where(g.loc))
        return []
    size = param_vector(g.params, 'size', (1.0, 1.0, 1.0))
    pos = param_vector(g.params, 'pos', (0.0, 0.0, 0.0))
    hsize = nums((size[0] / 2, size[1] / 2, size[2], PLANE_THICKNESS))
    key = (str(found.path), hsize)
    if key not in ctx.assets.hfields:
        name = ctx.assets.names.take(f'hfield:{found.path.stem}')
        sub(ctx.assets.doc.section('asset'), 'hfield', name=name, file=str(found.path), size=hsize)
        ctx.assets.hfields[key] = name
    ctx.report.add(ReportKind.APPROXIMATED, label, 'heightmap written as an hfield: MuJoCo '
                   'interpolates the image itself; textures and blends are lost', *where(g.loc))
    return [('hfield', {'hfield': ctx.assets.hfields[key]}, Transform(tuple(pos)))]  # type: ignore[arg-type]


def _plane(g: Geometry, ctx: GeomContext, label: str) -> list[Shape]:
    size = param_vector(g.params, 'size', (1.0, 1.0))
    rot = rotation_z_to(param_vector(g.params, 'normal', (0.0, 0.0, 1.0)))
    if ctx.static:
        return [('plane', {'size': nums((size[0] / 2, size[1] / 2, 1.0))}, rot)]
    ctx.report.add(ReportKind.APPROXIMATED, label, f'plane on a moving body (MuJoCo allows planes '
                   f'in static bodies only): a box {num(PLANE_THICKNESS)} m thick below it',
                   *where(g.loc))
    half = (size[0] / 2, size[1] / 2, PLANE_THICKNESS / 2)
    return [('box', {'size': nums(half)}, rot * Transform((0.0, 0.0, -PLANE_THICKNESS / 2)))]


def _approximated(g: Geometry, ctx: GeomContext, label: str) -> list[Shape]:
    p = g.params
    if g.type == 'cone':
        ctx.report.add(ReportKind.APPROXIMATED, label, 'cone approximated by its bounding '
                       'cylinder (MuJoCo has no cone)', *where(g.loc))
        radius, half = param_float(p, 'radius', 1.0), param_float(p, 'length', 1.0) / 2
        return [('cylinder', {'size': nums((radius, half))}, IDENTITY)]
    lines = p.get('points') if g.type == 'polyline' else None
    pts = [q for line in lines for q in line] if isinstance(lines, list) else []
    if pts:
        xs, ys, h = [float(q[0]) for q in pts], [float(q[1]) for q in pts], param_float(p, 'height', 1.0)
        ctx.report.add(ReportKind.APPROXIMATED, label, 'polyline approximated by the bounding '
                       'box of its points', *where(g.loc))
        centre = Transform(((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, h / 2))
        return [('box', {'size': nums(((max(xs) - min(xs)) / 2, (max(ys) - min(ys)) / 2, h / 2))},
                 centre)]
    ctx.report.add(ReportKind.DROPPED, label, f'{g.type} geometry: MuJoCo has no such shape',
                   *where(g.loc))
    return []


def _positive(shape: Shape) -> bool:
    size = shape[1].get('size')
    return size is None or all(float(v) > 0 for v in size.split()[:_SIZED.get(shape[0], 3)])


def shapes(g: Geometry | None, ctx: GeomContext, label: str, loc: Loc | None) -> list[Shape]:
    """Return the MJCF geoms of one SDFormat geometry; a zero-sized one is dropped (reported)."""
    got = _shapes(g, ctx, label, loc)
    kept = [s for s in got if _positive(s)]
    if len(kept) < len(got):
        ctx.report.add(ReportKind.DROPPED, label, 'a size is zero or negative: MuJoCo refuses '
                       'such a geom', *where(g.loc if g is not None else loc))
    return kept


def _shapes(g: Geometry | None, ctx: GeomContext, label: str, loc: Loc | None) -> list[Shape]:
    if g is None or g.type == 'empty':
        ctx.report.add(ReportKind.DROPPED, label, 'empty geometry: nothing to write', *where(loc))
        return []
    p = g.params
    if g.type == 'box':
        return [('box', {'size': nums(x / 2 for x in param_vector(p, 'size', (1.0, 1.0, 1.0)))}, IDENTITY)]
    if g.type == 'sphere':
        return [('sphere', {'size': num(param_float(p, 'radius', 1.0))}, IDENTITY)]
    if g.type in ('cylinder', 'capsule'):
        size = (param_float(p, 'radius', 1.0 if g.type == 'cylinder' else 0.5),
                param_float(p, 'length', 1.0) / 2)
        return [(g.type, {'size': nums(size)}, IDENTITY)]
    if g.type == 'ellipsoid':
        return [('ellipsoid', {'size': nums(param_vector(p, 'radii', (1.0, 1.0, 1.0)))}, IDENTITY)]
    if g.type == 'plane':
        return _plane(g, ctx, label)
    if g.type == 'mesh':
        return _mesh(g, ctx, label)
    if g.type == 'heightmap':
        return _heightmap(g, ctx, label)
    return _approximated(g, ctx, label)


def _rgba(extra: Extra) -> tuple[float, ...] | None:
    el = parse_kept(extra.xml)
    for tag in ('diffuse', 'ambient'):
        child = el.find(tag)
        color = rgba(child.text) if child is not None else None
        if color is not None:
            return color
    return None


def write_geoms(body: etree._Element, item: Visual | Collision, kind: str, ctx: GeomContext,
                extra_attrs: dict[str, str | None]) -> list[etree._Element]:
    """Write the geoms of one visual or collision into ``body``; return them."""
    label = f'{ctx.label}/{kind}[{item.name}]'
    origin = ctx.pose(item.pose)
    material = None
    for extra in item.extras:
        if kind == 'visual' and extra.tag == 'material':
            rgba = _rgba(extra)
            material = ctx.assets.material(rgba) if rgba is not None else None
    out = []
    for i, (gtype, attrs, offset) in enumerate(shapes(item.geometry, ctx, label, item.loc)):
        name = ctx.assets.geoms.take(ctx.prefix + item.name + ('' if i == 0 else f'__part{i + 1}'))
        if gtype == 'mesh' and kind == 'collision' and not ctx.assets.convex_noted:
            ctx.assets.convex_noted = True
            ctx.report.add(ReportKind.APPROXIMATED, label, 'MuJoCo collides with the convex hull '
                           'of a mesh (every mesh collision of this export)', *where(item.loc))
        out.append(sub(body, 'geom', name=name, class_=kind, type=gtype,
                       **pose_attrs(origin * offset), **attrs, material=material, **extra_attrs))
    return out
