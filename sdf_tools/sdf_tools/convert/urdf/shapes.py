"""Visuals and collisions in URDF terms: the shapes URDF has, and stand-ins for the rest.

URDF knows box, cylinder, sphere and mesh. The other SDFormat shapes:

=========  =====================================================  ============
SDFormat   written as                                             report
=========  =====================================================  ============
capsule    a cylinder and two spheres at its ends (same solid)    rewritten
ellipsoid  a sphere when the radii are equal, else its bounding   rewritten /
           box                                                    approximated
cone       its bounding cylinder (same radius and length)         approximated
plane      a 1 cm thick box of the plane's size, top face on the  approximated
           plane, normal along the box's z
heightmap  its bounding box (``size``, centred on ``pos``, from   approximated
           the base up)
polyline   the bounding box of its points, extruded to height     approximated
image      nothing                                                dropped
empty      nothing (URDF needs a shape)                           dropped
=========  =====================================================  ============

A visual's colour is kept as a URDF ``<material>`` (diffuse, else ambient);
the rest of an SDFormat material, ``<surface>`` and other children URDF has
no place for are dropped and reported.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import where
from sdf_tools.convert.shape_params import param_float, param_vector, rotation_z_to
from sdf_tools.convert.urdf.writer import UMaterial, UShape, num, nums
from sdf_tools.model import Collision, Extra, Geometry, Loc, RawPose, Visual
from sdf_tools.model.material import Rgba, material_color
from sdf_tools.sdf.uris import package_uri_of, resolve_uri
from sdf_tools.transform import IDENTITY, Transform
from sdf_tools.xmlsafe import parse_kept

PLANE_THICKNESS = 0.01  # m
Piece = tuple[str, dict[str, str], Transform]  # URDF shape, attributes, offset


@dataclass
class ShapeContext:
    """What converting the shapes of one link needs."""

    report: ConversionReport
    uris: str                                   # 'keep', 'model', 'file' or 'package'
    link: str                                   # URDF link name
    label: str                                  # 'link[inner::l]' for report entries
    pose: Callable[[RawPose | None], Transform]  # raw pose -> pose in the link frame
    named: dict[str, Rgba] = field(default_factory=dict)  # a URDF source's robot materials






def _box(size: Sequence[float], at: Transform = IDENTITY) -> Piece:
    return ('box', {'size': nums(list(size))}, at)


def _uri(uri: str, loc: Loc | None, ctx: ShapeContext, label: str) -> str:
    if ctx.uris == 'model' and uri.startswith('package://'):
        return 'model://' + uri[len('package://'):]
    if ctx.uris in ('file', 'package'):
        base = Path(loc.file).parent if loc is not None and loc.file else None
        found = resolve_uri(uri, base)
        if found is not None:
            if ctx.uris == 'file':
                return found.resolve().as_uri()
            new = package_uri_of(found) or found.resolve().as_uri()
            if new != uri:
                ctx.report.add(ReportKind.REWRITTEN, label, f'mesh URI [{uri}] written as [{new}] '
                               '(uris=package: package:// where a ROS package holds the file, '
                               'else file://)', *where(loc))
            return new
        ctx.report.add(ReportKind.ASSUMED, label, f'mesh URI [{uri}] not found: kept as written',
                       *where(loc))
    elif uri.startswith('model://') or '://' not in uri:
        ctx.report.add(ReportKind.KEPT, label,
                       f'mesh URI [{uri}] kept as written; ROS tools resolve package:// and '
                       'file:// only (uris=package or file writes URIs they open)', *where(loc))
    return uri


def _mesh(g: Geometry, ctx: ShapeContext, label: str) -> list[Piece]:
    attrs = {'filename': _uri(str(g.params.get('uri') or ''), g.loc, ctx, label)}
    scale = param_vector(g.params, 'scale', (1.0, 1.0, 1.0))
    if scale != [1.0, 1.0, 1.0]:
        attrs['scale'] = nums(scale)
    if g.params.get('submesh'):
        ctx.report.add(ReportKind.DROPPED, label, 'mesh <submesh>: URDF uses the whole mesh',
                       *where(g.loc))
    return [('mesh', attrs, IDENTITY)]


def _capsule(g: Geometry) -> list[Piece]:
    r, length = param_float(g.params, 'radius', 0.5), param_float(g.params, 'length', 1.0)
    ends = [Transform((0.0, 0.0, s * length / 2)) for s in (1, -1)]
    return [('cylinder', {'radius': num(r), 'length': num(length)}, IDENTITY),
            *[('sphere', {'radius': num(r)}, e) for e in ends]]


def _polyline(g: Geometry) -> list[Piece]:
    lines = g.params.get('points')
    pts = [p for line in lines for p in line] if isinstance(lines, list) else []
    if not pts:
        return []
    xs, ys = [float(p[0]) for p in pts], [float(p[1]) for p in pts]
    h = param_float(g.params, 'height', 1.0)
    centre = Transform(((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, h / 2))
    return [_box((max(xs) - min(xs), max(ys) - min(ys), h), centre)]


def _approximate(g: Geometry) -> tuple[list[Piece], ReportKind, str]:
    p = g.params
    if g.type == 'capsule':
        return _capsule(g), ReportKind.REWRITTEN, 'capsule written as a cylinder and two spheres'
    if g.type == 'ellipsoid':
        radii = param_vector(p, 'radii', (1.0, 1.0, 1.0))
        if radii[0] == radii[1] == radii[2]:
            return ([('sphere', {'radius': num(radii[0])}, IDENTITY)], ReportKind.REWRITTEN,
                    'ellipsoid with equal radii written as a sphere')
        return ([_box([2 * r for r in radii])], ReportKind.APPROXIMATED,
                'ellipsoid approximated by its bounding box')
    if g.type == 'cone':
        return ([('cylinder', {'radius': num(param_float(p, 'radius', 1.0)),
                               'length': num(param_float(p, 'length', 1.0))}, IDENTITY)],
                ReportKind.APPROXIMATED, 'cone approximated by its bounding cylinder')
    if g.type == 'plane':
        size = param_vector(p, 'size', (1.0, 1.0))
        rot = rotation_z_to(param_vector(p, 'normal', (0.0, 0.0, 1.0)))
        at = rot * Transform((0.0, 0.0, -PLANE_THICKNESS / 2))
        return ([_box((size[0], size[1], PLANE_THICKNESS), at)], ReportKind.APPROXIMATED,
                f'plane approximated by a box {num(PLANE_THICKNESS)} m thick below it')
    if g.type == 'heightmap':
        size, pos = param_vector(p, 'size', (1.0, 1.0, 1.0)), param_vector(p, 'pos', (0.0, 0.0, 0.0))
        at = Transform((pos[0], pos[1], pos[2] + size[2] / 2))
        return ([_box(size, at)], ReportKind.APPROXIMATED,
                'heightmap approximated by its bounding box')
    pieces = _polyline(g) if g.type == 'polyline' else []
    if pieces:
        return pieces, ReportKind.APPROXIMATED, 'polyline approximated by its bounding box'
    return [], ReportKind.DROPPED, f'{g.type} geometry: URDF has no such shape'


def _pieces(g: Geometry | None, ctx: ShapeContext, label: str, loc: Loc | None) -> list[Piece]:
    if g is None or g.type == 'empty':
        ctx.report.add(ReportKind.DROPPED, label, 'empty geometry: a URDF shape needs one',
                       *where(loc))
        return []
    if g.type == 'box':
        return [_box(param_vector(g.params, 'size', (1.0, 1.0, 1.0)))]
    if g.type == 'sphere':
        return [('sphere', {'radius': num(param_float(g.params, 'radius', 1.0))}, IDENTITY)]
    if g.type == 'cylinder':
        return [('cylinder', {'radius': num(param_float(g.params, 'radius', 1.0)),
                              'length': num(param_float(g.params, 'length', 1.0))}, IDENTITY)]
    if g.type == 'mesh':
        return _mesh(g, ctx, label)
    pieces, kind, message = _approximate(g)
    ctx.report.add(kind, label, message, *where(g.loc or loc))
    return pieces


def _material(extra: Extra, ctx: ShapeContext, label: str, name: str) -> UMaterial | None:
    """The colour (SDFormat diffuse or ambient, a URDF source's ``<color>`` or named robot
    material) and a URDF source's texture of a visual's material."""
    el = parse_kept(extra.xml)
    color = material_color(el, ctx.named)
    tex = el.find('texture')
    texture = tex.get('filename') if tex is not None else None
    lost = sorted({str(c.tag) for c in el if isinstance(c.tag, str)} -
                  {'diffuse', 'ambient', 'color', 'texture'})
    if lost:
        ctx.report.add(ReportKind.DROPPED, f'{label}/material',
                       f'URDF materials hold a colour only: {", ".join(lost)} lost',
                       *where(extra.loc))
    if color is None and texture is None:
        return None
    return UMaterial(f'{ctx.link}__{name}', color,
                     _uri(texture, extra.loc, ctx, label) if texture else None)


def _item(item: Visual | Collision, kind: str, ctx: ShapeContext) -> list[UShape]:
    label = f'{ctx.label}/{kind}[{item.name}]'
    origin = ctx.pose(item.pose)
    material = None
    lost = []
    for extra in item.extras:
        if kind == 'visual' and extra.tag == 'material':
            material = _material(extra, ctx, label, item.name)
        else:
            lost.append(extra.tag)
    if lost:
        ctx.report.add(ReportKind.DROPPED, label,
                       f'URDF has no place for <{">, <".join(lost)}>', *where(item.loc))
    out = []
    for i, (shape, attrs, offset) in enumerate(_pieces(item.geometry, ctx, label, item.loc)):
        name = item.name if i == 0 else f'{item.name}__part{i + 1}'
        out.append(UShape(name, origin * offset, shape, attrs, material))
    return out


def convert_shapes(visuals: list[Visual], collisions: list[Collision], ctx: ShapeContext
                   ) -> tuple[list[UShape], list[UShape]]:
    """Return the URDF visuals and collisions of one link (losses reported)."""
    return ([s for v in visuals for s in _item(v, 'visual', ctx)],
            [s for c in collisions for s in _item(c, 'collision', ctx)])
