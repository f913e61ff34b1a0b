"""SDFormat elements from the description model: numbers, poses, links, joints, frames.

The functions here build lxml elements for one element kind each; the
document-level writer (:mod:`sdf_tools.convert.sdf.writer`) puts them
together. Numbers are printed with Python's shortest round-trip ``repr``
(so a value read back is the same double). A pose keeps the text it was
written with when the converter did not change it; a computed pose is
printed as ``x y z roll pitch yaw`` unless the Euler angles would not give
the same rotation back to 1e-12 (near pitch = +-90 degrees), in which case
it is printed as a ``quat_xyzw`` pose.
"""
from __future__ import annotations

import math
from collections.abc import Callable

from lxml import etree

from sdf_tools.convert.poses import is_identity
from sdf_tools.model import Collision, Frame, Geometry, Inertial, Joint, JointAxis, Link, RawPose, Visual
from sdf_tools.sdf.joint import INITIAL_POSITION_TAG
from sdf_tools.transform import Transform

# How a verbatim XML piece (plugin, sensor, extra) becomes an element to insert.
Verbatim = Callable[[str], 'etree._Element | None']

_AXIS_DEFAULTS = JointAxis()


def num(x: float) -> str:
    """Print a number so that reading it back gives the same double ('1', '0.25', '1e+16')."""
    if x == 0.0:
        return '0'
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(float(x))


def nums(values: object) -> str:
    """Print a sequence of numbers separated by spaces."""
    return ' '.join(num(float(v)) for v in values)  # type: ignore[attr-defined]


def sub(parent: etree._Element, tag: str, text: str | None = None,
        **attrs: str) -> etree._Element:
    """Append a child element with optional text and attributes."""
    el = etree.SubElement(parent, tag, dict(attrs))
    if text is not None:
        el.text = text
    return el


def _same_rotation(a: Transform, b: Transform, tol: float = 1e-12) -> bool:
    same = max(abs(x - y) for x, y in zip(a.q, b.q, strict=True))
    flipped = max(abs(x + y) for x, y in zip(a.q, b.q, strict=True))
    return min(same, flipped) <= tol


def pose_text(t: Transform) -> tuple[str, str | None]:
    """Return the text of a computed pose and its ``rotation_format`` (None: Euler)."""
    roll, pitch, yaw = t.rpy()
    back = Transform.from_xyz_rpy(t.p, (roll, pitch, yaw))
    if _same_rotation(back, t):
        return nums([*t.p, roll, pitch, yaw]), None
    return nums([*t.p, *t.quat_xyzw()]), 'quat_xyzw'


def pose_element(parent: etree._Element, pose: RawPose | None, *,
                 keep_relative_to: bool = True) -> etree._Element | None:
    """Append ``<pose>`` for ``pose`` (nothing for None).

    The text as written is kept when there is one (with its
    ``rotation_format`` and ``degrees``); otherwise the value is printed.
    """
    if pose is None or (not pose.relative_to and not pose.text.strip() and is_identity(pose.value)):
        return None
    attrs: dict[str, str] = {}
    if keep_relative_to and pose.relative_to:
        attrs['relative_to'] = pose.relative_to
    text = ' '.join(pose.text.split())
    if text:
        if pose.rotation_format != 'euler_rpy':
            attrs['rotation_format'] = pose.rotation_format
        if pose.degrees:
            attrs['degrees'] = 'true'
    else:
        text, fmt = pose_text(pose.value)
        if fmt is not None:
            attrs['rotation_format'] = fmt
    return sub(parent, 'pose', text, **attrs)


def inertial_element(parent: etree._Element, inertial: Inertial, *,
                     expand_auto: bool = False) -> etree._Element:
    """Append ``<inertial>`` (its pose is always relative to the link).

    An ``auto`` inertial is written back as the file had it (``auto``, its densities,
    a given mass, ``<auto_inertia_params>``), or, with ``expand_auto``, with the values
    computed from it as ``gz sdf --expand-auto-inertials`` writes them (``auto`` kept).
    """
    el = sub(parent, 'inertial')
    if inertial.auto:
        el.set('auto', 'true')
        if inertial.density is not None:
            sub(el, 'density', num(inertial.density))
        if inertial.auto_params_xml:
            el.append(etree.fromstring(inertial.auto_params_xml))
        if not expand_auto:
            if inertial.given_mass is not None:
                sub(el, 'mass', num(inertial.given_mass))
            return el
    pose_element(el, inertial.pose, keep_relative_to=False)
    sub(el, 'mass', num(inertial.mass))
    ie = sub(el, 'inertia')
    for tag, value in zip(('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'), inertial.inertia, strict=True):
        sub(ie, tag, num(value))
    return el


def geometry_element(parent: etree._Element, geom: Geometry | None) -> etree._Element:
    """Append ``<geometry>`` with the shape's fields (``<empty/>`` for None)."""
    g = sub(parent, 'geometry')
    if geom is None or geom.type == 'empty':
        sub(g, 'empty')
        return g
    p = geom.params
    if geom.type == 'polyline':
        lines = p.get('polylines') or []
        for line in lines:  # type: ignore[attr-defined]
            pl = sub(g, 'polyline')
            for point in line['points']:
                sub(pl, 'point', nums(point))
            sub(pl, 'height', num(float(line['height'])))
        return g
    if isinstance(p.get('verbatim'), str):
        g.append(etree.fromstring(str(p['verbatim'])))
        return g
    s = sub(g, geom.type)
    if geom.type == 'box':
        sub(s, 'size', nums(p['size']))
    elif geom.type == 'sphere':
        sub(s, 'radius', num(float(p['radius'])))  # type: ignore[arg-type]
    elif geom.type in ('cylinder', 'capsule', 'cone'):
        sub(s, 'radius', num(float(p['radius'])))  # type: ignore[arg-type]
        sub(s, 'length', num(float(p['length'])))  # type: ignore[arg-type]
    elif geom.type == 'ellipsoid':
        sub(s, 'radii', nums(p['radii']))
    elif geom.type == 'plane':
        sub(s, 'normal', nums(p['normal']))
        sub(s, 'size', nums(p['size']))
    elif geom.type == 'mesh':
        _mesh(s, p)
    elif geom.type in ('heightmap', 'image'):
        _uri_shape(s, geom.type, p)
    return g


def _mesh(s: etree._Element, p: dict[str, object]) -> None:
    if p.get('optimization'):
        s.set('optimization', str(p['optimization']))
    sub(s, 'uri', str(p.get('uri', '')))
    sub_mesh = p.get('submesh')
    if isinstance(sub_mesh, dict):
        sm = sub(s, 'submesh')
        sub(sm, 'name', str(sub_mesh.get('name', '')))
        sub(sm, 'center', 'true' if sub_mesh.get('center') else 'false')
    scale = p.get('scale')
    if scale is not None and list(scale) != [1.0, 1.0, 1.0]:  # type: ignore[call-overload]
        sub(s, 'scale', nums(scale))


def _uri_shape(s: etree._Element, kind: str, p: dict[str, object]) -> None:
    sub(s, 'uri', str(p.get('uri', '')))
    if kind == 'heightmap':
        sub(s, 'size', nums(p['size']))
        sub(s, 'pos', nums(p['pos']))
        return
    for tag in ('scale', 'threshold', 'height', 'granularity'):
        value = float(p[tag])  # type: ignore[arg-type]
        sub(s, tag, str(int(value)) if tag in ('threshold', 'granularity') else num(value))


def shape_element(parent: etree._Element, item: Visual | Collision, kind: str,
                  verbatim: Verbatim) -> etree._Element:
    """Append a ``<visual>`` or ``<collision>`` with its pose, geometry and extras."""
    el = sub(parent, kind, name=item.name)
    if item.pose is not None:
        pose_element(el, item.pose)
    geometry_element(el, item.geometry)
    for extra in item.extras:
        piece = verbatim(extra.xml)
        if piece is not None:
            el.append(piece)
    return el


def link_element(parent: etree._Element, link: Link, verbatim: Verbatim, *,
                 expand_auto: bool = False) -> etree._Element:
    """Append a ``<link>``: pose, inertial, flags, collisions, visuals, sensors, lights, extras."""
    el = sub(parent, 'link', name=link.name)
    pose_element(el, link.pose)
    if link.inertial is not None:
        inertial_element(el, link.inertial, expand_auto=expand_auto)
    if not link.gravity:
        sub(el, 'gravity', 'false')
    if link.kinematic:
        sub(el, 'kinematic', 'true')
    if link.self_collide is not None:
        sub(el, 'self_collide', 'true' if link.self_collide else 'false')
    for c in link.collisions:
        shape_element(el, c, 'collision', verbatim)
    for v in link.visuals:
        shape_element(el, v, 'visual', verbatim)
    for xml in [*(s.xml for s in link.sensors), *(li.xml for li in link.lights),
                *(e.xml for e in link.extras)]:
        piece = verbatim(xml)
        if piece is not None:
            el.append(piece)
    return el


def axis_element(parent: etree._Element, tag: str, axis: JointAxis, jtype: str,
                 mimic: bool) -> etree._Element:
    """Append ``<axis>``/``<axis2>``; values at their spec default are left out.

    ``mimic`` writes the axis ``<mimic>`` of SDFormat 1.11 (URDF's
    ``value = multiplier * leader + offset``, so ``reference`` is 0).
    """
    el = sub(parent, tag)
    xyz = sub(el, 'xyz', nums(axis.xyz))
    if axis.expressed_in:
        xyz.set('expressed_in', axis.expressed_in)
    if axis.initial_position:
        # Where the joint starts (issue 23). Every version we write is 1.9+, whose spec has no
        # <initial_position> (libsdformat would copy it with a warning): a custom element
        # keeps it for our reader, exporters and the description publisher.
        sub(el, INITIAL_POSITION_TAG, num(axis.initial_position))
    limit = sub(el, 'limit')
    # Unlimited is +-1e16 / -1 read for Fortress and +-inf read for Harmonic on (SDFormat
    # 1.10's defaults); the bounds are written as read (every libsdformat reads "inf"),
    # effort and velocity left out (both spellings mean no limit).
    unbounded = (axis.lower, axis.upper) in ((-1e16, 1e16), (-math.inf, math.inf))
    if jtype != 'continuous' and not unbounded:
        sub(limit, 'lower', num(axis.lower))
        sub(limit, 'upper', num(axis.upper))
    for field in ('effort', 'velocity', 'stiffness', 'dissipation'):
        value = getattr(axis, field)
        if value != getattr(_AXIS_DEFAULTS, field) and not (
                field in ('effort', 'velocity') and value == math.inf):
            sub(limit, field, num(value))
    dyn = sub(el, 'dynamics')
    for field in ('damping', 'friction', 'spring_reference', 'spring_stiffness'):
        value = getattr(axis, field)
        if value != 0.0:
            sub(dyn, field, num(value))
    if mimic and axis.mimic_joint:
        m = sub(el, 'mimic', joint=axis.mimic_joint, axis='axis')
        sub(m, 'multiplier', num(axis.mimic_multiplier))
        sub(m, 'offset', num(axis.mimic_offset))
        sub(m, 'reference', '0')
    if not len(dyn):
        el.remove(dyn)
    # A continuous joint has no position limits: SDFormat's own "none" is written.
    ends = (-1e16, 1e16) if jtype == 'continuous' and not unbounded else (axis.lower, axis.upper)
    _required(el, limit, dict(zip(('lower', 'upper'), ends, strict=True)))
    _required(el, dyn, {'spring_reference': axis.spring_reference,
                        'spring_stiffness': axis.spring_stiffness})
    return el


def _required(axis_el: etree._Element, el: etree._Element, fields: dict[str, float]) -> None:
    """Write the fields the spec requires of a ``<limit>``/``<dynamics>`` that is written.

    libsdformat warns of each one missing and assumes its default (``check`` reports it),
    so they are written with the value they have, in the spec's order (first). ``<limit>``
    is itself required of an ``<axis>``: it is always written.
    """
    if el.getparent() is not axis_el:
        return
    for k, (field, value) in enumerate(fields.items()):
        if el.find(field) is None:
            child = etree.Element(field)
            child.text = num(value)
            el.insert(k, child)


def joint_element(parent: etree._Element, joint: Joint, verbatim: Verbatim, *,
                  mimic: bool) -> etree._Element:
    """Append a ``<joint>`` with pose, parent, child, axes and the type's own fields."""
    el = sub(parent, 'joint', name=joint.name, type=joint.type)
    pose_element(el, joint.pose)
    sub(el, 'parent', joint.parent)
    sub(el, 'child', joint.child)
    for tag, axis in (('axis', joint.axis), ('axis2', joint.axis2)):
        if axis is not None:
            axis_element(el, tag, axis, joint.type, mimic)
    if joint.thread_pitch is not None:
        sub(el, 'thread_pitch', num(joint.thread_pitch))
    if joint.gearbox_ratio is not None:
        sub(el, 'gearbox_ratio', num(joint.gearbox_ratio))
    if joint.gearbox_reference_body is not None:
        sub(el, 'gearbox_reference_body', joint.gearbox_reference_body)
    for xml in [*(s.xml for s in joint.sensors), *(e.xml for e in joint.extras)]:
        piece = verbatim(xml)
        if piece is not None:
            el.append(piece)
    return el


def frame_element(parent: etree._Element, frame: Frame) -> etree._Element:
    """Append a ``<frame>`` with its ``attached_to`` and pose."""
    el = sub(parent, 'frame', name=frame.name)
    if frame.attached_to:
        el.set('attached_to', frame.attached_to)
    pose_element(el, frame.pose)
    return el
