"""``<inertial auto="true">`` (SDFormat 1.11): the link's mass from its collisions.

libsdformat 14+ (Gazebo Harmonic and later) computes it in ``Link::ResolveAutoInertials``
when the file is loaded; this reproduces that, with its diagnostics and their codes,
at the line of the element they are about:

- no ``<collision>``: ``ELEMENT_MISSING`` (an error; the link keeps 1 kg, unit inertia);
- ``<pose>`` or ``<inertia>`` written beside ``auto``: a ``WARNING`` (they are overwritten);
- a collision without ``<density>`` (nor the link's) when no ``<mass>`` is given:
  ``ELEMENT_MISSING`` as a warning (1000 kg/m^3 is assumed);
- a shape it cannot compute (plane, heightmap, polyline, image, empty) or a mesh it cannot
  read: a ``WARNING`` then ``LINK_INERTIA_INVALID`` for that collision (the others still count).

The density of a collision is its own ``<density>``, else the link's
``<inertial><density>``, else 1000. A ``<mass>`` given with ``auto`` keeps the computed
centre of mass and rescales the inertia to that mass. Meshes are read with trimesh and
integrated as gz-sim's ``MeshInertiaCalculator`` does (every submesh, ``<scale>`` applied).
Gazebo Fortress (libsdformat 12) reads no ``auto``: there it is reported and ignored.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from lxml import etree

from sdf_tools import gazebo
from sdf_tools.errors import ErrorCode
from sdf_tools.model import Collision, Inertial, RawPose
from sdf_tools.sdf.context import ReadContext
from sdf_tools.sdf.values import child, get_float, parse_bool_text
from sdf_tools.transform import IDENTITY, Transform
from sdf_tools.xmlsafe import to_xml

if TYPE_CHECKING:
    from sdf_tools.model.auto_inertia import MassPart

__all__ = ['DENSITY_DEFAULT', 'is_auto', 'place_relative_collisions', 'read_auto_inertial']

#: libsdformat's ``DensityDefault()``: water, kg/m^3.
DENSITY_DEFAULT = 1000.0


def is_auto(ctx: ReadContext, el: etree._Element) -> bool:
    """Whether ``<inertial>`` asks for automatic values in a file that can (1.11+)."""
    text = el.get('auto')
    if text is None or ctx.read_as < (1, 11):
        return False  # read as 1.10 or older: the spec check reports the unknown attribute
    return parse_bool_text(text) is True


def read_auto_inertial(ctx: ReadContext, el: etree._Element, link_name: str,
                       collisions: list[tuple[Collision, etree._Element]]) -> Inertial | None:
    """Compute the inertial of a link whose ``<inertial auto="true">`` is ``el``.

    Returns None when the target (Gazebo Fortress) reads no ``auto``: the caller then
    reads the element as written.
    """
    target = gazebo.current()
    if not target.auto_inertials:
        ctx.warn(ErrorCode.AUTO_INERTIAL_NOT_UNDERSTOOD,
                 f'<inertial auto="true"> of link [{link_name}] is not understood by Gazebo '
                 f'{target.name.capitalize()} (libsdformat {target.libsdformat}, SDFormat '
                 f'{target.spec}): its written <mass> and <inertia> are used', el)
        return None
    # numpy only here: `check` of a file without auto inertials never imports it
    from sdf_tools.model.auto_inertia import as_six, combine, rescaled

    mass_el = child(el, 'mass')
    given = get_float(ctx, el, 'mass', 1.0) if mass_el is not None else None
    density_el = child(el, 'density')
    density = get_float(ctx, el, 'density', DENSITY_DEFAULT) if density_el is not None else None
    params = child(el, 'auto_inertia_params')
    result = Inertial(loc=ctx.loc(el), auto=True, density=density, given_mass=given,
                      auto_params_xml=to_xml(params) if params is not None else '')
    if child(el, 'pose') is not None or child(el, 'inertia') is not None:
        ctx.warn(ErrorCode.AUTO_INERTIAL_OVERWRITES,
                 f'Inertial was used with auto=true for the link named {link_name}, but '
                 'user-defined inertial values were found, which will be overwritten by the '
                 'computed inertial values.', el)
    if not collisions:
        ctx.error(ErrorCode.ELEMENT_MISSING,
                  'Inertial is set to auto but there are no <collision> elements for the link '
                  f'named {link_name}.', el)
        return result
    parts = []
    for col, col_el in collisions:
        part = _collision_part(ctx, col, col_el, density, warn_density=given is None)
        if part is not None:
            result.auto_parts[col.name] = part
            parts.append(part.moved(col.pose.value if col.pose is not None else IDENTITY))
    total = combine(parts)
    if total is None:
        # libsdformat keeps its empty sum: no mass at the link origin.
        result.mass, result.inertia = 0.0, (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        return result
    if given is not None:
        total = rescaled(total, given)
    result.mass, result.inertia = total.mass, as_six(total)
    result.pose = RawPose(Transform(total.com))
    return result


def _collision_part(ctx: ReadContext, col: Collision, el: etree._Element,
                    link_density: float | None, *, warn_density: bool) -> MassPart | None:
    """One collision's mass properties in its own frame, or None (reported)."""
    from sdf_tools.model.auto_inertia import shape_part

    where = el
    if child(el, 'density') is not None:
        density = get_float(ctx, el, 'density', DENSITY_DEFAULT)
    elif link_density is not None:
        density = link_density
    else:
        density = DENSITY_DEFAULT
        if warn_density:
            ctx.warn(ErrorCode.ELEMENT_MISSING,
                     'Collision is missing a <density> child element. Using a default density '
                     f'value of {DENSITY_DEFAULT:.6f} kg/m^3. ', where)
    geom = col.geometry
    kind = geom.type if geom is not None else 'empty'
    part: MassPart | None
    if kind == 'mesh' and geom is not None:
        part = _mesh(ctx, geom.params, density, where)
    elif kind in ('box', 'capsule', 'cylinder', 'ellipsoid', 'sphere', 'cone') and geom is not None:
        part = shape_part(kind, geom.params, density)
    else:
        ctx.warn(ErrorCode.AUTO_INERTIAL_GEOMETRY_UNSUPPORTED,
                 'Automatic inertia calculations are not supported for the '
                 f'given Geometry type. (<{kind}> of collision [{col.name}])', where)
        part = None
    if part is None:
        ctx.error(ErrorCode.LINK_INERTIA_INVALID,
                  f'Inertia Calculated for collision: {col.name} is invalid.', where)
        return None
    return part


def _mesh(ctx: ReadContext, params: dict[str, object], density: float,
          el: etree._Element | None) -> MassPart | None:
    """A mesh's mass properties, from its file (gz-sim's ``MeshInertiaCalculator``)."""
    from sdf_tools.model.auto_inertia import mesh_part, scaled_triangles
    from sdf_tools.sdf.uris import resolve_uri

    uri = str(params.get('uri') or '')
    if not uri.strip():
        ctx.error(ErrorCode.URI_INVALID,
                  'Attempting to load the mesh but the URI seems to be incorrect', el)
        return None
    base = Path(ctx.file).resolve().parent if ctx.file else None
    path = resolve_uri(uri, base)
    if path is None:
        ctx.warn(ErrorCode.MESH_UNRESOLVED, f'Failed to load mesh: [{uri}] (not found)', el)
        return None
    try:
        import trimesh

        mesh = trimesh.load(str(path), force='mesh', process=False)
        if not isinstance(mesh, trimesh.Trimesh):
            raise TypeError(f'{type(mesh).__name__} is not a triangle mesh')
        scale = params.get('scale') or (1.0, 1.0, 1.0)
        triangles = scaled_triangles(mesh.vertices, mesh.faces, scale)  # type: ignore[arg-type]
    except Exception as err:  # noqa: BLE001  # trimesh raises many kinds for a bad file
        ctx.warn(ErrorCode.MESH_UNREADABLE, f'Failed to load mesh: [{uri}] ({err})', el)
        return None
    return mesh_part(triangles, density)


def place_relative_collisions(inertial: Inertial, poses: dict[str, Transform]) -> None:
    """Sum an auto inertial again with its collisions' poses in the link frame.

    ``poses`` gives, by collision name, where the frame graphs place each collision
    in its link (libsdformat resolves a ``relative_to`` pose before summing); the
    reader could only read poses written in the link frame.
    """
    from sdf_tools.model.auto_inertia import MassPart, as_six, combine, rescaled

    parts = [part.moved(poses[name]) for name, part in inertial.auto_parts.items()
             if isinstance(part, MassPart) and name in poses]
    total = combine(parts)
    if total is None:
        return
    if inertial.given_mass is not None:
        total = rescaled(total, inertial.given_mass)
    inertial.mass, inertial.inertia = total.mass, as_six(total)
    inertial.pose = RawPose(Transform(total.com))
