"""``<geometry>``: the eleven shape kinds of the spec and their fields."""
from __future__ import annotations

import math

from lxml import etree

from sdf_tools import gazebo
from sdf_tools.errors import ErrorCode
from sdf_tools.model import Geometry
from sdf_tools.sdf.context import ReadContext
from sdf_tools.sdf.values import child, children, get_bool, get_float, get_str, get_vec, kids, parse_floats

_PRECEDENCE = ('box', 'capsule', 'cylinder', 'ellipsoid', 'plane', 'sphere', 'mesh',
               'heightmap', 'cone', 'polyline', 'image', 'empty')
SHAPES = ('empty', 'box', 'capsule', 'cone', 'cylinder', 'ellipsoid', 'heightmap',
          'image', 'mesh', 'plane', 'polyline', 'sphere')


def _mesh(ctx: ReadContext, el: etree._Element) -> dict[str, object]:
    sub = child(el, 'submesh')
    submesh = None
    if sub is not None:
        submesh = {'name': get_str(sub, 'name'), 'center': get_bool(ctx, sub, 'center', False)}
    params: dict[str, object] = {
        'uri': get_str(el, 'uri'),
        'scale': list(get_vec(ctx, el, 'scale', (1.0, 1.0, 1.0))),
        'submesh': submesh,
    }
    opt = el.get('optimization')
    if opt is not None:
        params['optimization'] = opt
    return params


def _polyline(ctx: ReadContext, el: etree._Element) -> list[dict[str, object]]:
    lines: list[dict[str, object]] = []
    for pl in children(el, 'polyline'):
        pts = []
        for p in children(pl, 'point'):
            vals = parse_floats(ctx, p, 2)
            if vals is not None:
                pts.append([vals[0], vals[1]])
        lines.append({'height': get_float(ctx, pl, 'height', 1.0), 'points': pts})
    return lines


# What libsdformat 15.3+ puts in place of a size that is not positive (gazebosim/sdformat#1553,
# "Fix Crash On Negative Value": Box.cc, Sphere.cc, Cylinder.cc, ... with an sdfwarn); 14 and 12
# keep the value as written (14.9.0 and 15.4.0 built by hand disagree on pybullet's
# laikago_toes.urdf, a sphere of radius 0: test/differential/MISMATCHES.md).
_POSITIVE: dict[str, dict[str, float | tuple[float, ...]]] = {
    'box': {'size': (1.0, 1.0, 1.0)},
    'sphere': {'radius': 1.0},
    'cylinder': {'radius': 0.5, 'length': 1.0},
    'capsule': {'radius': 0.5, 'length': 1.0},
    'cone': {'radius': 0.5, 'length': 1.0},
    'ellipsoid': {'radii': (1.0, 1.0, 1.0)},
    'plane': {'size': (1.0, 1.0)},
}


def positive_sizes(ctx: ReadContext, geom: Geometry, el: etree._Element) -> Geometry:
    """Replace a non-positive size as the target's libsdformat does (15+), with a warning."""
    fields = _POSITIVE.get(geom.type)
    if fields is None or gazebo.current().libsdformat < 15:
        return geom
    for name, default in fields.items():
        value = geom.params.get(name)
        values = value if isinstance(value, list) else [value]
        if all(isinstance(v, (int, float)) and v > 0 for v in values):
            continue
        replaced = list(default) if isinstance(default, tuple) else default
        ctx.warn(ErrorCode.DEFAULT_ASSUMED,
                 f'<{geom.type}> <{name}> {value} is not positive: libsdformat '
                 f'{gazebo.current().libsdformat} uses {replaced} instead', el)
        geom.params[name] = replaced
    return geom


def _unit(v: tuple[float, ...]) -> list[float]:
    """A plane's normal as libsdformat's ``Plane`` keeps it: normalised (zero stays zero)."""
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v] if n > 0 else list(v)


def parse_geometry(ctx: ReadContext, el: etree._Element) -> Geometry:
    """Read a ``<geometry>``; an unknown or missing shape is reported."""
    elements: list[etree._Element] = [c for c in kids(el) if type(c.tag) is str]  # no comments
    if len(elements) == 1 and elements[0].tag in SHAPES:  # the usual case
        s = elements[0]
        if s.tag == 'box':  # the most common shape, without the general path's lookups
            size = child(s, 'size')
            vec = (1.0, 1.0, 1.0)
            if size is not None and (size.text or '').strip():
                vals = parse_floats(ctx, size, 3)
                vec = (vals[0], vals[1], vals[2]) if vals else vec
            return positive_sizes(ctx, Geometry('box', {'size': list(vec)}, ctx.loc(s)), s)
        shapes = elements
        present = {s.tag: s}
    else:
        present = {c.tag: c for c in reversed(elements) if c.tag in SHAPES}
        # More than one shape: libsdformat takes the first in this fixed
        # order, whatever the document order.
        shapes = [present[t] for t in _PRECEDENCE if t in present]
    if len(present) > 1:
        ctx.warn(ErrorCode.ELEMENT_INVALID,
                 f'<geometry> holds several shapes {sorted(present)}; only <{shapes[0].tag}> is used',
                 el)
    if not shapes:
        unknown = [c.tag for c in kids(el) if isinstance(c.tag, str)]
        if unknown:
            ctx.warn(ErrorCode.ELEMENT_UNKNOWN,
                     f'<geometry> holds no known shape (found {unknown}); treated as empty', el)
        return Geometry('empty', {}, ctx.loc(el))
    s = shapes[0]
    kind = s.tag
    p: dict[str, object]
    if kind == 'box':
        p = {'size': list(get_vec(ctx, s, 'size', (1.0, 1.0, 1.0)))}
    elif kind == 'sphere':
        p = {'radius': get_float(ctx, s, 'radius', 1.0)}
    elif kind in ('cylinder', 'capsule', 'cone'):
        p = {'radius': get_float(ctx, s, 'radius', 1.0 if kind != 'capsule' else 0.5),
             'length': get_float(ctx, s, 'length', 1.0)}
    elif kind == 'ellipsoid':
        p = {'radii': list(get_vec(ctx, s, 'radii', (1.0, 1.0, 1.0)))}
    elif kind == 'plane':
        p = {'normal': _unit(get_vec(ctx, s, 'normal', (0.0, 0.0, 1.0))),
             'size': list(get_vec(ctx, s, 'size', (1.0, 1.0)))}
    elif kind == 'mesh':
        p = _mesh(ctx, s)
    elif kind == 'heightmap':
        p = {'uri': get_str(s, 'uri'), 'size': list(get_vec(ctx, s, 'size', (1.0, 1.0, 1.0))),
             'pos': list(get_vec(ctx, s, 'pos', (0.0, 0.0, 0.0)))}
    elif kind == 'image':
        p = {'uri': get_str(s, 'uri'), 'scale': get_float(ctx, s, 'scale', 1.0),
             'threshold': get_float(ctx, s, 'threshold', 200.0),
             'height': get_float(ctx, s, 'height', 1.0),
             'granularity': get_float(ctx, s, 'granularity', 1.0)}
    elif kind == 'polyline':
        lines = _polyline(ctx, el)
        # 'points' holds one point list per <polyline>; 'height' is the
        # first's ('polylines' keeps every height with its points).
        p = {'height': lines[0]['height'] if lines else 1.0,
             'points': [line['points'] for line in lines], 'polylines': lines}
    else:
        p = {}
    return positive_sizes(ctx, Geometry(kind, p, ctx.loc(s)), s)
