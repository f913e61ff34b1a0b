"""The URDF to write, as small records, and their text.

Numbers are written with Python's shortest round-trip form (``repr``), so a
reader gets back the exact doubles; pose numbers drop the last few units of
rounding noise that composing poses leaves (:func:`pose_num`, < 1e-15).
Rotations are written as fixed-axis roll, pitch, yaw, extracted so that the
rotation they rebuild is exact to rounding even at pitch = +-90 degrees
(see :func:`rpy_of`).
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field

from lxml import etree

from sdf_tools.transform import IDENTITY, Transform, Vec3

Inertia = tuple[float, float, float, float, float, float]  # ixx ixy ixz iyy iyz izz


@dataclass
class UMaterial:
    name: str
    rgba: tuple[float, float, float, float] | None = None
    texture: str | None = None


@dataclass
class UShape:
    """A ``<visual>`` or ``<collision>``: shape kind, its attributes, origin."""

    name: str | None
    origin: Transform
    shape: str                      # box, cylinder, sphere, mesh
    attrs: dict[str, str]
    material: UMaterial | None = None


@dataclass
class UInertial:
    mass: float
    inertia: Inertia
    origin: Transform = IDENTITY
    comment: str | None = None


@dataclass
class ULink:
    name: str
    inertial: UInertial | None = None
    visuals: list[UShape] = field(default_factory=list)
    collisions: list[UShape] = field(default_factory=list)
    comment: str | None = None


@dataclass
class ULimit:
    effort: float
    velocity: float
    lower: float | None = None
    upper: float | None = None


@dataclass
class UMimic:
    joint: str
    multiplier: float
    offset: float


@dataclass
class UJoint:
    name: str
    type: str
    parent: str
    child: str
    origin: Transform
    axis: Vec3 | None = None
    limit: ULimit | None = None
    damping: float = 0.0
    friction: float = 0.0
    mimic: UMimic | None = None
    comment: str | None = None
    extras: list[etree._Element] = field(default_factory=list)  # <calibration>, <safety_controller>


@dataclass
class URobot:
    """Everything the URDF file holds, in writing order."""

    name: str
    origin: Transform | None = None
    links: list[ULink] = field(default_factory=list)
    joints: list[UJoint] = field(default_factory=list)
    gazebo: list[etree._Element] = field(default_factory=list)
    control: list[etree._Element] = field(default_factory=list)  # <transmission>, <ros2_control>
    header: list[str] = field(default_factory=list)


def num(x: float) -> str:
    """Return the shortest text that reads back as exactly ``x`` ('-0' as '0').

    Subnormal numbers (below 2.2e-308) are written as 0: ``std::stod``, which
    urdfdom and libsdformat read numbers with, refuses them.
    """
    if abs(x) < sys.float_info.min:
        return '0'
    text = repr(float(x))
    return text[:-2] if text.endswith('.0') else text


def nums(values: tuple[float, ...] | list[float]) -> str:
    return ' '.join(num(v) for v in values)


def pose_num(x: float) -> str:
    """Return a pose number short: within 4 ulp of ``x``, and 0 below 1e-15.

    Composing poses leaves rounding noise (``0.9999999999999996``,
    ``5.6e-17``); dropping it changes a pose by less than 1e-15.
    """
    if abs(x) < 1e-15:
        return '0'
    tol = 4 * math.ulp(x)
    for digits in range(1, 17):
        text = f'{x:.{digits}g}'
        if abs(float(text) - x) <= tol:
            return num(float(text))
    return num(x)


def rpy_of(t: Transform) -> Vec3:
    """Return roll, pitch, yaw (fixed X, Y, Z axes) that rebuild ``t``'s rotation.

    Pitch and yaw come from the rotated x axis (first matrix column), which
    they reproduce to rounding even near pitch = +-90 degrees, where yaw alone
    is ill-conditioned; roll is then read from what is left once yaw and pitch
    are undone, so it absorbs any error in yaw and the product stays exact.
    """
    w, x, y, z = t.q
    r00 = 1 - 2 * (y * y + z * z)
    r10 = 2 * (x * y + w * z)
    r20 = 2 * (x * z - w * y)
    pitch = math.atan2(-r20, math.hypot(r00, r10))
    yaw = math.atan2(r10, r00)
    undo = Transform.from_xyz_rpy((0.0, 0.0, 0.0), (0.0, pitch, yaw)).inverse() * \
        Transform((0.0, 0.0, 0.0), t.q)
    uw, ux, uy, uz = undo.q
    m11 = 1 - 2 * (ux * ux + uz * uz)
    m21 = 2 * (uy * uz + uw * ux)
    roll = math.atan2(m21, m11)
    return (roll + 0.0, pitch + 0.0, yaw + 0.0)


def _origin(parent: etree._Element, t: Transform) -> None:
    if t == IDENTITY:
        return
    rpy = rpy_of(t)
    el = etree.SubElement(parent, 'origin')
    xyz, angles = [pose_num(v) for v in t.p], [pose_num(v) for v in rpy]
    if any(v != '0' for v in xyz):
        el.set('xyz', ' '.join(xyz))
    if any(v != '0' for v in angles):
        el.set('rpy', ' '.join(angles))
    if not el.attrib:
        parent.remove(el)


def comment(text: str) -> etree._Element:
    """Return an XML comment holding ``text`` (``--`` made safe)."""
    while '--' in text:
        text = text.replace('--', '- -')
    if text.endswith('-'):
        text += ' '
    return etree.Comment(f' {text} ')


def _shape(parent: etree._Element, tag: str, s: UShape) -> None:
    el = etree.SubElement(parent, tag)
    if s.name:
        el.set('name', s.name)
    _origin(el, s.origin)
    geom = etree.SubElement(el, 'geometry')
    etree.SubElement(geom, s.shape, s.attrs)
    if s.material is not None:
        mat = etree.SubElement(el, 'material', name=s.material.name)
        if s.material.rgba is not None:
            etree.SubElement(mat, 'color', rgba=nums(s.material.rgba))
        if s.material.texture is not None:
            etree.SubElement(mat, 'texture', filename=s.material.texture)


def _link(root: etree._Element, link: ULink) -> None:
    el = etree.SubElement(root, 'link', name=link.name)
    if link.comment:
        el.append(comment(link.comment))
    if link.inertial is not None:
        i = link.inertial
        if i.comment:
            el.append(comment(i.comment))
        ie = etree.SubElement(el, 'inertial')
        _origin(ie, i.origin)
        etree.SubElement(ie, 'mass', value=num(i.mass))
        etree.SubElement(ie, 'inertia', {k: num(v) for k, v in zip(
            ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'), i.inertia, strict=True)})
    for v in link.visuals:
        _shape(el, 'visual', v)
    for c in link.collisions:
        _shape(el, 'collision', c)


def _joint(root: etree._Element, j: UJoint) -> None:
    el = etree.SubElement(root, 'joint', name=j.name, type=j.type)
    if j.comment:
        el.append(comment(j.comment))
    _origin(el, j.origin)
    etree.SubElement(el, 'parent', link=j.parent)
    etree.SubElement(el, 'child', link=j.child)
    if j.axis is not None:
        etree.SubElement(el, 'axis', xyz=nums(j.axis))
    if j.limit is not None:
        lim = etree.SubElement(el, 'limit')
        if j.limit.lower is not None and j.limit.upper is not None:
            lim.set('lower', num(j.limit.lower))
            lim.set('upper', num(j.limit.upper))
        lim.set('effort', num(j.limit.effort))
        lim.set('velocity', num(j.limit.velocity))
    if j.damping or j.friction:
        etree.SubElement(el, 'dynamics', damping=num(j.damping), friction=num(j.friction))
    if j.mimic is not None:
        etree.SubElement(el, 'mimic', joint=j.mimic.joint, multiplier=num(j.mimic.multiplier),
                         offset=num(j.mimic.offset))
    el.extend(j.extras)


def write_urdf(robot: URobot) -> str:
    """Return the URDF text of ``robot``, header comments first."""
    root = etree.Element('robot', name=robot.name)
    for line in robot.header:
        root.addprevious(comment(line))
    if robot.origin is not None and robot.origin != IDENTITY:
        root.append(comment("libsdformat's <robot><origin> extension: where the root link is "
                            'placed in the world (ROS tools ignore it)'))
        _origin(root, robot.origin)
    for link in robot.links:
        _link(root, link)
    for joint in robot.joints:
        _joint(root, joint)
    for el in robot.control:
        root.append(el)
    for block in robot.gazebo:
        root.append(block)
    etree.indent(root, space='  ')
    body: bytes = etree.tostring(root.getroottree(), pretty_print=True,
                                 xml_declaration=True, encoding='UTF-8')
    return body.decode('utf-8')
