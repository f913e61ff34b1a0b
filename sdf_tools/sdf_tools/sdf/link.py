"""``<link>``, ``<inertial>``, ``<visual>``, ``<collision>``, ``<sensor>``, ``<light>``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree

from sdf_tools.errors import Diagnostic, ErrorCode, Severity
from sdf_tools.model import Collision, Extra, Inertial, Link, Loc, Visual
from sdf_tools.model.elements import UNIT_INERTIA
from sdf_tools.model.inertia_validity import inertia_is_valid
from sdf_tools.sdf.context import ReadContext
from sdf_tools.sdf.domchecks import check_material, check_sensor
from sdf_tools.sdf.geometry import parse_geometry
from sdf_tools.sdf.names import check_unique, read_name
from sdf_tools.sdf.values import (
    children,
    floats_by_tag,
    get_bool,
    get_float,
    get_pose,
    index,
    kids,
    parse_pose_element,
)
from sdf_tools.xmlsafe import to_xml

if TYPE_CHECKING:
    from sdf_tools.model.verbatim import Light, Sensor

LINK_CHILDREN = {
    'pose', 'inertial', 'visual', 'collision', 'sensor', 'light', 'gravity', 'enable_wind',
    'self_collide', 'kinematic', 'must_be_base_link', 'velocity_decay', 'projector',
    'audio_sink', 'audio_source', 'battery', 'particle_emitter', 'frame',
}


_INERTIA_DEFAULTS = {'ixx': 1.0, 'ixy': 0.0, 'ixz': 0.0, 'iyy': 1.0, 'iyz': 0.0, 'izz': 1.0}


def parse_inertial(ctx: ReadContext, el: etree._Element, link_name: str) -> Inertial:
    k = index(el)
    mass = get_float(ctx, k, 'mass', 1.0)
    inertia = UNIT_INERTIA  # the spec's defaults when <inertia> is left out
    ie_el = k.get('inertia')
    if ie_el is not None:
        m = floats_by_tag(ctx, ie_el, _INERTIA_DEFAULTS)
        inertia = (m['ixx'], m['ixy'], m['ixz'], m['iyy'], m['iyz'], m['izz'])
    if not inertia_is_valid(mass, inertia):
        ctx.error(ErrorCode.LINK_INERTIA_INVALID, f'A link named {link_name} has invalid inertia.', el)
    pose_el = k.get('pose')
    return Inertial(mass, inertia, parse_pose_element(ctx, pose_el) if pose_el is not None else None,
                    ctx.loc(el))


def _visual_or_collision(ctx: ReadContext, el: etree._Element, kind: str) -> Visual | Collision:
    name = read_name(ctx, el, kind)
    # One pass over the children (this runs for every shape of a large world).
    pose_el = g = None
    extras: list[Extra] = []
    for c in kids(el):
        tag = c.tag
        if type(tag) is not str:  # a comment
            continue
        if tag == 'pose':
            pose_el = pose_el if pose_el is not None else c
        elif tag == 'geometry':
            g = g if g is not None else c
        else:
            if tag == 'material' and kind == 'visual':
                check_material(ctx, c)
            extras.append(Extra(tag, to_xml(c), ctx.loc(c)))
    if g is not None:
        geometry = parse_geometry(ctx, g)
    else:
        geometry = None
        ctx.warn(ErrorCode.DEFAULT_ASSUMED,
                 f'<{kind}> [{name}] has no <geometry>: libsdformat assumes an empty geometry', el)
    pose = parse_pose_element(ctx, pose_el) if pose_el is not None else None
    cls = Visual if kind == 'visual' else Collision
    return cls(name, pose, geometry, extras, ctx.loc(el))


def parse_sensor(ctx: ReadContext, el: etree._Element) -> Sensor:
    from sdf_tools.model.verbatim import Sensor  # made on first use: see model/__init__.py

    name = read_name(ctx, el, 'sensor')
    check_sensor(ctx, el, name)
    return Sensor(name, el.get('type', ''), get_pose(ctx, el), to_xml(el), ctx.loc(el))


def parse_light(ctx: ReadContext, el: etree._Element) -> Light:
    from sdf_tools.model.verbatim import Light  # made on first use: see model/__init__.py

    name = read_name(ctx, el, 'light')
    return Light(name, el.get('type', 'point'), get_pose(ctx, el), to_xml(el), ctx.loc(el))


def _is_auto(ctx: ReadContext, inertial: etree._Element) -> bool:
    """``<inertial auto>``; its reader is imported only for a file that writes one (rare, 1.11+:
    ``check`` of a plain file starts faster, bench/bench_startup.py)."""
    if inertial.get('auto') is None:
        return False
    from sdf_tools.sdf.auto_inertial import is_auto

    return is_auto(ctx, inertial)


def _shared_names(ctx: ReadContext, link: Link) -> None:
    """Warn of a name two children of different kinds share (a visual and a collision).

    libsdformat loads such a link (Gazebo runs it), but `gz sdf -k` refuses the file: after
    loading it checks that no two named siblings share a name, whatever their kinds
    (``recursiveSiblingUniqueNames``, every version; plugins exempt). Same-kind twins are
    DUPLICATE_NAME errors already (check_unique). Said once per name, at its second kind.
    """
    groups = (('visual', link.visuals), ('collision', link.collisions),
              ('sensor', link.sensors), ('light', link.lights))
    names = [item.name for _, named in groups for item in named]
    if len(set(names)) == len(names):
        return  # the usual link (same-kind twins were dropped by check_unique)
    items: list[tuple[int, str, str, Loc | None]] = []
    for kind, named in groups:
        items += [(item.loc.line or 0 if item.loc else 0, kind, item.name, item.loc)
                  for item in named]
    first: dict[str, str] = {}
    said: set[str] = set()
    for _, kind, name, loc in sorted(items, key=lambda item: item[0]):
        seen = first.setdefault(name, kind)
        if seen != kind and name not in said:
            said.add(name)
            ctx.diagnostics.append(Diagnostic(
                ErrorCode.DUPLICATE_NAME, f'link [{link.name}] has a {seen} and a {kind} named '
                f'[{name}]: libsdformat loads it, but `gz sdf -k` refuses sibling elements '
                'sharing a name', loc.file if loc else ctx.file, loc.line if loc else None,
                severity=Severity.WARNING))


def parse_link(ctx: ReadContext, el: etree._Element) -> Link:
    """Read a ``<link>``; a missing ``<inertial>`` is reported as an assumption."""
    name = read_name(ctx, el, 'link')
    k = index(el)
    link = Link(name, get_pose(ctx, k), loc=ctx.loc(el))
    ie = k.get('inertial')
    auto = ie is not None and _is_auto(ctx, ie)
    if ie is not None and not auto:
        link.inertial = parse_inertial(ctx, ie, name)
    elif ie is None:
        ctx.warn(ErrorCode.DEFAULT_ASSUMED,
                 f'link [{name}] has no <inertial>: libsdformat assumes mass 1 kg and '
                 'unit inertia at the link origin', el)
    collision_els: list[etree._Element] = []
    for kind, target in (('visual', link.visuals), ('collision', link.collisions)):
        if kind not in k:
            continue
        els = children(el, kind)
        items = [_visual_or_collision(ctx, c, kind) for c in els]
        if len(items) == 1:
            target.append(items[0])  # type: ignore[arg-type]
            collision_els = els if kind == 'collision' else collision_els
            continue
        drop = check_unique(ctx, [(v.name, c) for v, c in zip(items, els, strict=True)],
                            kind.capitalize(), name)
        target.extend(v for i, v in enumerate(items) if i not in drop)  # type: ignore[misc]
        if auto and kind == 'collision':
            collision_els = [c for i, c in enumerate(els) if i not in drop]
    if auto and ie is not None:
        pairs = list(zip(link.collisions, collision_els, strict=True))
        from sdf_tools.sdf.auto_inertial import read_auto_inertial  # see _is_auto

        link.inertial = read_auto_inertial(ctx, ie, name, pairs) or parse_inertial(ctx, ie, name)
    if 'sensor' in k:
        link.sensors = [parse_sensor(ctx, c) for c in children(el, 'sensor')]
    if 'light' in k:
        link.lights = [parse_light(ctx, c) for c in children(el, 'light')]
    if len(link.visuals) + len(link.collisions) + len(link.sensors) + len(link.lights) > 1:
        _shared_names(ctx, link)
    link.gravity = get_bool(ctx, k, 'gravity', True)
    link.kinematic = get_bool(ctx, k, 'kinematic', False)
    sc = k.get('self_collide')
    link.self_collide = get_bool(ctx, k, 'self_collide', False) if sc is not None else None
    if not LINK_CHILDREN.issuperset(k):
        for c in el.iterchildren(etree.Element):
            if c.tag not in LINK_CHILDREN:
                link.extras.append(Extra(c.tag, to_xml(c), ctx.loc(c)))
    return link
