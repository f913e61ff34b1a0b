"""URDF ``<geometry>``: box, cylinder, sphere, mesh (and capsule) as SDFormat shapes.

Parameters carry the names :mod:`sdf_tools.sdf.geometry` uses, so a
consumer treats a shape the same whichever format it came from. A mesh's
``filename`` is kept as written in ``uri`` (libsdformat rewrites
``package://`` to ``model://``; that choice belongs to the converter).
"""
from __future__ import annotations

from lxml import etree

from sdf_tools.errors import ErrorCode
from sdf_tools.model import Geometry
from sdf_tools.sdf.context import ReadContext
from sdf_tools.sdf.geometry import positive_sizes
from sdf_tools.urdf.attrs import read_float, read_floats

URDF_SHAPES = ('box', 'cylinder', 'sphere', 'mesh', 'capsule')


def _shape_params(ctx: ReadContext, s: etree._Element, owner: str) -> dict[str, object] | None:
    kind = s.tag
    if kind == 'box':
        size = read_floats(ctx, s, 'size', 3, owner)
        return None if size is None else {'size': list(size)}
    if kind == 'sphere':
        radius = read_float(ctx, s, 'radius', owner)
        return None if radius is None else {'radius': radius}
    if kind in ('cylinder', 'capsule'):
        radius = read_float(ctx, s, 'radius', owner)
        length = read_float(ctx, s, 'length', owner)
        if radius is None or length is None:
            return None
        return {'radius': radius, 'length': length}
    filename = s.get('filename')
    if not filename:
        ctx.error(ErrorCode.URDF_INVALID, f'<mesh> of {owner} needs attribute [filename]', s)
        return None
    scale = read_floats(ctx, s, 'scale', 3, owner, default=(1.0, 1.0, 1.0))
    if scale is None:
        return None
    return {'uri': filename, 'scale': list(scale), 'submesh': None}


def read_geometry(ctx: ReadContext, parent: etree._Element, owner: str) -> Geometry | None:
    """Read the ``<geometry>`` child of a visual or collision; None when unusable.

    As urdfdom does, the first child element of ``<geometry>`` is the shape;
    a missing ``<geometry>``, an empty one or an unknown shape is an error
    (urdfdom rejects the whole robot for it).
    """
    g = next((c for c in parent if c.tag == 'geometry'), None)
    if g is None:
        ctx.error(ErrorCode.URDF_INVALID, f'{owner} has no <geometry>', parent)
        return None
    shape = next((c for c in g if isinstance(c.tag, str)), None)
    if shape is None:
        ctx.error(ErrorCode.URDF_INVALID, f'<geometry> of {owner} holds no shape', g)
        return None
    if shape.tag not in URDF_SHAPES:
        ctx.error(ErrorCode.URDF_INVALID,
                  f'<geometry> of {owner} holds unknown shape <{shape.tag}>; URDF knows '
                  + ', '.join(f'<{k}>' for k in URDF_SHAPES), shape)
        return None
    if shape.tag == 'capsule':
        ctx.warn(ErrorCode.URDF_GEOMETRY_UNSUPPORTED,
                 f'<capsule> of {owner} is newer than the URDF parser libsdformat 12 uses, '
                 'which rejects the robot for it', shape)
    params = _shape_params(ctx, shape, owner)
    if params is None:
        return None
    # libsdformat reads the converted shape with its SDFormat rules (15+: positive sizes)
    return positive_sizes(ctx, Geometry(shape.tag, params, ctx.loc(shape)), shape)
