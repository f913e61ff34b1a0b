"""URDF ``<link>``: inertial, visuals, collisions and materials.

Visuals and collisions get the names libsdformat gives them when it
converts a URDF, so that a name printed here is the name Gazebo shows.
"""
from __future__ import annotations

from dataclasses import replace

from lxml import etree

from sdf_tools.errors import ErrorCode, Severity
from sdf_tools.model import Collision, Extra, Inertial, Link, RawPose, Visual
from sdf_tools.model.massless import is_zero_mass
from sdf_tools.sdf.context import ReadContext
from sdf_tools.urdf.attrs import first_child, read_float, read_floats, read_origin
from sdf_tools.urdf.geometry import read_geometry
from sdf_tools.urdf.releases import rules
from sdf_tools.xmlsafe import to_xml

LUMP_PREFIX = '_fixed_joint_lump__'
_LINK_CHILDREN = {'inertial', 'visual', 'collision'}
_SHAPE_CHILDREN = {'origin', 'geometry', 'material'}
_INERTIA = ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')


def sdf_shape_name(link: str, urdf_name: str | None, suffix: str, index: int) -> str:
    """Return the name libsdformat gives the ``index``-th visual or collision.

    ``(name or link) + suffix``, then ``_<index>`` from the second one on; a
    result that does not start with the link's name is prefixed with
    ``<link>_fixed_joint_lump__`` (libsdformat takes it for a lumped one).

    >>> sdf_shape_name('base', None, '_visual', 1)
    'base_visual_1'
    >>> sdf_shape_name('base', 'body', '_collision', 0)
    'base_fixed_joint_lump__body_collision'
    """
    name = (urdf_name or link) + suffix
    if index > 0:
        name = f'{name}_{index}'
    if name.startswith(link):
        return name
    return f'{link}{LUMP_PREFIX}{name}'


def _partial_inertial(ctx: ReadContext, el: etree._Element, owner: str,
                      mass_el: etree._Element | None, pose: RawPose) -> Inertial | None:
    """An ``<inertial>`` without ``<mass>`` or ``<inertia>``, as urdfdom leaves it.

    urdfdom reads the origin, then the mass, then the inertia, and stops at the
    first one missing: libsdformat converts what was read so far (the mass, or
    0, and a zero inertia).
    """
    mass = 0.0
    if mass_el is not None:
        value = read_float(ctx, mass_el, 'value', owner)
        if value is None:
            return None
        mass = value
    missing = '<mass>' if mass_el is None else '<inertia>'
    ctx.warn(ErrorCode.DEFAULT_ASSUMED,
             f"<inertial> of {owner} has no {missing}: urdfdom (libsdformat's URDF reader) "
             f'stops reading it there, so libsdformat keeps mass {mass:g} and a zero inertia'
             + (f' (and drops a link of mass {_mass(mass)} with its parent joint and subtree)'
                if is_zero_mass(mass) else ''), el)
    return Inertial(mass, (0.0, 0.0, 0.0, 0.0, 0.0, 0.0), pose, ctx.loc(el))



def _mass(mass: float) -> str:
    """A mass libsdformat takes for zero, as a message says it ('0' when it is)."""
    return '0' if mass == 0.0 else f'{mass:g}'


def _inertial(ctx: ReadContext, el: etree._Element, link: str) -> Inertial | None:
    owner = f'link [{link}]'
    pose = read_origin(ctx, el, f'<inertial> of {owner}', '')
    mass_el = first_child(el, 'mass')
    inertia_el = first_child(el, 'inertia')
    if mass_el is None or inertia_el is None:
        return _partial_inertial(ctx, el, owner, mass_el, pose)
    mass = read_float(ctx, mass_el, 'value', owner)
    values = [read_float(ctx, inertia_el, a, owner) for a in _INERTIA]
    if mass is None or any(v is None for v in values):
        return None
    m = tuple(v for v in values if v is not None)
    inertia = (m[0], m[1], m[2], m[3], m[4], m[5])
    if is_zero_mass(mass) and not rules().warns_dropped_links:
        # libsdformat 14+ warns itself where it drops the link (conversion.warn_dropped_links)
        ctx.warn(ErrorCode.MASSLESS_LINK,
                 f'link [{link}] has mass {_mass(mass)}: libsdformat drops such a link, its parent joint '
                 'and its whole subtree when it converts the URDF (unless fixed-joint '
                 'lumping gives it mass)', mass_el)
    # Inertia validity is judged after fixed-joint lumping (see conversion.py),
    # as libsdformat judges it on the converted model.
    return Inertial(mass, inertia, pose, ctx.loc(el))


class _ShapeUnusableError(Exception):
    """A visual or collision whose geometry urdfdom cannot read."""


def _dropped(ctx: ReadContext, el: etree._Element, link: str, kind: str,
             why: str = 'after one it cannot read') -> None:
    ctx.warn(ErrorCode.URDF_SHAPE_SKIPPED,
             f"{kind} of link [{link}] is skipped: urdfdom (libsdformat's URDF reader) stops "
             f"reading a link's shapes {why}", el)


def _cut_short(ie: etree._Element | None) -> bool:
    """An ``<inertial>`` urdfdom stops reading (no mass or inertia): it ends the link too."""
    return ie is not None and (first_child(ie, 'mass') is None or first_child(ie, 'inertia') is None)


class Materials:
    """The material names defined so far: at robot level, then by visuals."""

    def __init__(self) -> None:
        self.defined: set[str] = set()

    def read_global(self, ctx: ReadContext, el: etree._Element) -> None:
        """Check a robot-level ``<material>`` (urdfdom rejects a duplicate name)."""
        name = el.get('name')
        if name is None:
            ctx.error(ErrorCode.URDF_INVALID, '<material> needs attribute [name]', el)
            return
        if name in self.defined:
            ctx.error(ErrorCode.URDF_INVALID, f'material [{name}] is defined twice', el)
        self.defined.add(name)
        _check_color(ctx, el, f'material [{name}]')

    def read_visual(self, ctx: ReadContext, el: etree._Element, link: str) -> bool:
        """Check a visual's ``<material>``; False when urdfdom rejects it."""
        name = el.get('name')
        if name is None:
            ctx.error(ErrorCode.URDF_INVALID,
                      f'<material> in a visual of link [{link}] needs attribute [name]', el)
            return False
        if _check_color(ctx, el, f'material [{name}]'):
            self.defined.add(name)
        elif name not in self.defined:
            ctx.warn(ErrorCode.MATERIAL_UNDEFINED,
                     f'material [{name}] in a visual of link [{link}] has no <color> or '
                     '<texture> and is not defined before: it has no effect', el)
        return True


def _check_color(ctx: ReadContext, el: etree._Element, owner: str) -> bool:
    """Return whether ``el`` defines a color or texture; warn on a bad ``rgba``."""
    tex = first_child(el, 'texture')
    found = tex is not None and tex.get('filename') is not None
    color = first_child(el, 'color')
    if color is not None and color.get('rgba') is not None:
        # urdfdom drops a malformed color silently: a warning here, not an error.
        scratch = ReadContext(ctx.file, ctx.version)
        if read_floats(scratch, color, 'rgba', 4, owner) is not None:
            found = True
        for d in scratch.diagnostics:
            ctx.warn(ErrorCode.COLOR_INVALID, f'{d.message} (urdfdom ignores the color)', color)
    return found


def _shape(ctx: ReadContext, el: etree._Element, link: str, kind: str, index: int,
           materials: Materials) -> Visual | Collision | None:
    urdf_name = el.get('name')
    name = sdf_shape_name(link, urdf_name, f'_{kind}', index)
    owner = f'{kind} [{name}] of link [{link}]'
    pose = read_origin(ctx, el, owner, '')
    mark = len(ctx.diagnostics)
    geometry = read_geometry(ctx, el, owner)
    if geometry is None:
        # urdfdom logs an unusable geometry and stops reading the link's
        # shapes; the robot stays valid. So these are warnings here, and the
        # caller drops the shapes urdfdom drops.
        ctx.diagnostics[mark:] = [replace(d, severity=Severity.WARNING) for d in ctx.diagnostics[mark:]]
        raise _ShapeUnusableError(owner)
    ok = True
    extras: list[Extra] = []
    for c in el:
        if not isinstance(c.tag, str) or c.tag in ('origin', 'geometry'):
            continue
        if c.tag == 'material' and kind == 'visual':
            ok = materials.read_visual(ctx, c, link) and ok
        elif c.tag not in _SHAPE_CHILDREN or kind == 'collision':
            ctx.warn(ErrorCode.ELEMENT_UNKNOWN,
                     f'<{c.tag}> is not a URDF child of <{kind}>; kept verbatim', c)
        extras.append(Extra(c.tag, to_xml(c), ctx.loc(c)))
    if not ok:
        return None
    cls = Visual if kind == 'visual' else Collision
    return cls(name, pose, geometry, extras, ctx.loc(el))


def read_link(ctx: ReadContext, el: etree._Element, materials: Materials) -> Link:
    """Read a named ``<link>`` (the caller checks the name)."""
    name = el.get('name', '')
    link = Link(name, None, loc=ctx.loc(el))
    ie = first_child(el, 'inertial')
    if ie is not None:
        link.inertial = _inertial(ctx, ie, name)
    elif name != 'world' and not rules().warns_dropped_links:
        # libsdformat 14+ warns itself where it drops the link (conversion.warn_dropped_links)
        ctx.warn(ErrorCode.DEFAULT_ASSUMED,
                 f'link [{name}] has no <inertial>: read as SDFormat it gets 1 kg and unit '
                 'inertia, but libsdformat drops such a link, its parent joint and its whole '
                 'subtree when it converts the URDF (unless fixed-joint lumping gives it mass)',
                 el)
    # urdfdom reads the inertial first and leaves the link there when it is cut short:
    # the link keeps what was read, without visuals or collisions.
    stop_all = _cut_short(ie)
    why = 'after an <inertial> it stopped reading' if stop_all else 'after one it cannot read'
    for kind, target in (('visual', link.visuals), ('collision', link.collisions)):
        seen: set[str] = set()
        shapes = [x for x in el if x.tag == kind]
        for index, c in enumerate(shapes):
            if stop_all:
                _dropped(ctx, c, name, kind, why)
                continue
            try:
                item = _shape(ctx, c, name, kind, index, materials)
            except _ShapeUnusableError:
                # urdfdom: a bad visual ends the link's visuals and skips all of
                # its collisions; a bad collision ends its collisions.
                for later in shapes[index + 1:]:
                    _dropped(ctx, later, name, kind)
                stop_all = kind == 'visual'
                break
            if item is None:
                continue
            if item.name in seen:
                ctx.error(ErrorCode.DUPLICATE_NAME,
                          f'{kind} name [{item.name}] is used twice in link [{name}]', c)
            seen.add(item.name)
            target.append(item)  # type: ignore[arg-type]
    for c in el:
        if isinstance(c.tag, str) and c.tag not in _LINK_CHILDREN:
            link.extras.append(Extra(c.tag, to_xml(c), ctx.loc(c)))
            ctx.warn(ErrorCode.ELEMENT_UNKNOWN,
                     f'<{c.tag}> is not a URDF child of <link>; kept verbatim', c)
    return link

