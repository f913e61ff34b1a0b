"""Put each ``<gazebo>`` tag where libsdformat's URDF parser puts it.

Each target (a link, its collisions and visuals, a joint, the model) is
built the way libsdformat builds it -- a scratch element the tags and blobs
are added to in order, with libsdformat's "replace the first child of that
name, then append" rule -- and the result is then read into the model:
``<gravity>`` and ``<self_collide>`` become the link's fields, sensors and
lights its sensors and lights, everything else stays verbatim.

Where a tag lands is recorded in a :class:`Landing`; at the end every tag
and blob of every block is reported, either with the elements it became or
as lost (a ``mu1`` on a link without collisions, a reference naming
nothing, a link tag on a joint).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from lxml import etree

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.poses import is_identity
from sdf_tools.convert.sdf.elements import num, pose_text
from sdf_tools.convert.sdf.gazebo_tags import GazeboBlock
from sdf_tools.model import Collision, Extra, Joint, Light, Link, RawPose, Sensor, Visual
from sdf_tools.model.common import Loc
from sdf_tools.sdf.context import ReadContext
from sdf_tools.sdf.values import parse_pose_element
from sdf_tools.urdf.joint import unlimited_axis
from sdf_tools.urdf.releases import rules
from sdf_tools.xmlsafe import to_xml

LUMP = '_fixed_joint_lump__'
_SCRIPT_URI = 'file://media/materials/scripts/gazebo.material'
# Collision tags: (tag, path under the collision, scratch parent key).
_FRICTION = (('mu1', 'mu'), ('mu2', 'mu2'), ('fdir1', 'fdir1'))
_CONTACT = (('kp', 'kp'), ('kd', 'kd'), ('maxVel', 'max_vel'), ('minDepth', 'min_depth'))
_SHAPE_TAGS = ('material', 'mu1', 'mu2', 'fdir1', 'kp', 'kd', 'maxVel', 'minDepth', 'laserRetro',
               'maxContacts')


@dataclass
class _Hit:
    block: GazeboBlock
    tag: str
    line: int | None
    kind: ReportKind
    targets: list[str] = field(default_factory=list)
    note: str = ''


class Landing:
    """Where every tag and blob of every block went; reported at the end."""

    def __init__(self) -> None:
        self._hits: dict[tuple[int, str, int | None], _Hit] = {}
        self.renames: list[tuple[str, str, Loc]] = []  # (element, message, where)

    def declare(self, block: GazeboBlock, tag: str, line: int | None, kind: ReportKind,
                note: str = '') -> None:
        key = (id(block), tag, line)
        if key not in self._hits:
            self._hits[key] = _Hit(block, tag, line, kind, note=note)
        elif note:
            self._hits[key].note = note

    def hit(self, block: GazeboBlock, tag: str, line: int | None, target: str,
            kind: ReportKind = ReportKind.REWRITTEN) -> None:
        self.declare(block, tag, line, kind)
        self._hits[(id(block), tag, line)].targets.append(target)

    def report(self, report: ConversionReport) -> None:
        for element, message, loc in self.renames:
            report.add(ReportKind.RENAMED, element, message, loc.file, loc.line)
        for h in self._hits.values():
            ref = f'gazebo[reference={h.block.reference}]' if h.block.reference else 'gazebo'
            file = h.block.loc.file if h.block.loc else None
            note = f'; {h.note}' if h.note else ''
            if h.targets:
                shown = ', '.join(h.targets[:6]) + (f' and {len(h.targets) - 6} more'
                                                     if len(h.targets) > 6 else '')
                verb = 'copied into' if h.kind is ReportKind.KEPT else 'written as'
                report.add(h.kind, f'{ref}/{h.tag}', f'{verb} {shown}{note}', file, h.line)
            else:
                if not note and (h.tag in _SHAPE_TAGS or h.tag.startswith(('visual/', 'collision/'))):
                    note = ('; no visual or collision of the link takes it: libsdformat gives a '
                            "link's tags to its shapes whose names hold no lump prefix, and a lumped "
                            "link's tags to its shapes that had no name")
                report.add(ReportKind.DROPPED, f'{ref}/{h.tag}',
                           f'lands nowhere in the output{note}', file, h.line)


def add_key_value(parent: etree._Element, tag: str, text: str) -> etree._Element:
    """libsdformat's AddKeyValue: drop the first ``<tag>`` child, append a new one."""
    old = parent.find(tag)
    if old is not None:
        parent.remove(old)
    el = etree.SubElement(parent, tag)
    el.text = text
    return el


def find_or_add(parent: etree._Element, tag: str) -> etree._Element:
    """Return the first ``<tag>`` child, appending an empty one when there is none."""
    el = parent.find(tag)
    return el if el is not None else etree.SubElement(parent, tag)


def prune_empty(el: etree._Element) -> None:
    """Remove descendants with no text, attribute or child (libsdformat's empty scaffolding)."""
    for c in el.iterchildren(etree.Element):
        prune_empty(c)
        if not len(c) and not (c.text or '').strip() and not c.attrib:
            el.remove(c)


def _value_text(block: GazeboBlock, tag: str) -> str:
    value = block.get(tag)
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, float):
        return str(int(value)) if tag == 'maxContacts' else num(value)
    return str(value)


def applies_to_shape(name: str, owner: str, block: GazeboBlock, suffix: str) -> bool:
    """libsdformat's rule for a block's visual/collision tags reaching the shape ``name``.

    A block still on its own link reaches the shapes whose names hold no
    lump prefix; a block moved from a lumped link reaches the shapes whose
    names hold ``_fixed_joint_lump__<that link><suffix>``.
    """
    if owner == block.old_link:
        return LUMP not in name
    return f'{LUMP}{block.old_link}{suffix}' in name


def reduce_pose(el: etree._Element, block: GazeboBlock) -> None:
    """Re-pose a sensor or projector of a lumped link in the link it was merged into.

    A ``<light>`` too from libsdformat 12.6 on (gazebosim/sdformat#1114); 12.3 leaves
    it at its pose, now read in the link it was merged into.
    """
    tags = ('sensor', 'projector', 'light') if rules().repose_lights else ('sensor', 'projector')
    if is_identity(block.reduction) or el.tag not in tags:
        return
    pose = el.find('pose')
    if pose is not None and pose.get('relative_to'):
        return
    raw = parse_pose_element(ReadContext(None, '1.9'), pose).value if pose is not None else None
    value = block.reduction * raw if raw is not None else block.reduction
    if pose is None:
        pose = etree.SubElement(el, 'pose')
    for attr in ('rotation_format', 'degrees'):
        pop_attr(pose, attr)
    text, fmt = pose_text(value)
    pose.text = text
    if fmt is not None:
        pose.set('rotation_format', fmt)


def apply_to_link(link: Link, blocks: list[GazeboBlock], landing: Landing) -> None:
    """Insert the link tags and blobs of ``blocks`` (this link's, then lumped links') into ``link``."""
    scratch = etree.Element('link')
    where = f'link[{link.name}]'
    for b in blocks:
        if b.has('turnGravityOff'):
            add_key_value(scratch, 'gravity', _value_text(b, 'turnGravityOff'))
            landing.hit(b, 'turnGravityOff', b.values['turnGravityOff'].line, f'{where}/gravity')
        if b.has('dampingFactor'):
            decay = etree.SubElement(scratch, 'velocity_decay')
            for tag in ('linear', 'angular'):
                add_key_value(decay, tag, _value_text(b, 'dampingFactor'))
            landing.hit(b, 'dampingFactor', b.values['dampingFactor'].line, f'{where}/velocity_decay')
        if b.has('selfCollide'):
            add_key_value(scratch, 'self_collide', '1' if b.get('selfCollide') else '0')
            landing.hit(b, 'selfCollide', b.values['selfCollide'].line, f'{where}/self_collide')
        for blob in b.blobs:
            if blob.tag in ('pose', 'inertial'):
                landing.declare(b, str(blob.tag), b.line_of(blob), ReportKind.DROPPED,
                                f'libsdformat adds a second <{blob.tag}> to [{link.name}], and '
                                'its reader uses the first')
                continue
            c = copy.deepcopy(blob)
            reduce_pose(c, b)
            c.set('{sdf_tools}line', str(b.line_of(blob)))
            c.set('{sdf_tools}file', b.loc.file if b.loc and b.loc.file else '')
            scratch.append(c)
            landing.hit(b, str(blob.tag), b.line_of(blob), f'{where}/{blob.tag}', ReportKind.KEPT)
    _read_link_scratch(link, scratch, landing)


def pop_attr(el: etree._Element, name: str) -> str | None:
    """Remove attribute ``name`` from ``el`` and return its value (None when absent)."""
    value = el.get(name)
    if value is not None:
        del el.attrib[name]
    return value


def _pop_origin(el: etree._Element) -> Loc:
    line = pop_attr(el, '{sdf_tools}line')
    file = pop_attr(el, '{sdf_tools}file')
    return Loc(file or None, int(line) if line and line != 'None' else None)


def _unique_sensor(link: Link, el: etree._Element, loc: Loc, landing: Landing) -> None:
    """Rename a sensor whose name another sensor of the link has (libsdformat rejects the model)."""
    taken = {s.name for s in link.sensors}
    name = el.get('name', '')
    if name not in taken:
        return
    new, i = f'{name}_1', 1
    while new in taken:
        i += 1
        new = f'{name}_{i}'
    el.set('name', new)
    landing.renames.append((f'link[{link.name}]/sensor[{name}]',
                            f'a second sensor of that name in link [{link.name}] is written as [{new}] '
                            '(libsdformat rejects a link with two sensors of one name)', loc))


def _pose_of(el: etree._Element) -> RawPose | None:
    """A ``<sensor>``'s own ``<pose>`` (the MJCF and USD exporters place it by this; the SDFormat
    writer copies the XML)."""
    pose = el.find('pose')
    return parse_pose_element(ReadContext(None, '1.9'), pose) if pose is not None else None


def blob_sensor(el: etree._Element, loc: Loc) -> Sensor:
    """The :class:`Sensor` a ``<gazebo>`` block's ``<sensor>`` blob is (placed by its ``<pose>``)."""
    return Sensor(el.get('name', ''), el.get('type', ''), _pose_of(el), to_xml(el), loc)


def _read_link_scratch(link: Link, scratch: etree._Element, landing: Landing) -> None:
    seen: set[str] = set()
    for c in scratch:
        tag = str(c.tag)
        loc = _pop_origin(c)
        etree.cleanup_namespaces(c)
        text = (c.text or '').strip().lower()
        first = tag not in seen
        seen.add(tag)
        if tag == 'gravity':
            link.gravity = link.gravity if not first else text in ('true', '1')
        elif tag == 'self_collide':
            link.self_collide = link.self_collide if not first else text in ('true', '1')
        elif tag == 'kinematic':
            link.kinematic = link.kinematic if not first else text in ('true', '1')
        elif tag == 'sensor':
            _unique_sensor(link, c, loc, landing)
            link.sensors.append(blob_sensor(c, loc))
        elif tag == 'light':
            link.lights.append(Light(c.get('name', ''), c.get('type', 'point'), None, to_xml(c), loc))
        elif tag not in ('pose', 'inertial'):
            link.extras.append(Extra(tag, to_xml(c), loc))


def _copy_blobs(scratch: etree._Element, b: GazeboBlock, blobs: list[etree._Element], kind: str,
                single: str, where: str, landing: Landing) -> None:
    """Copy a block's verbatim ``blobs`` into ``scratch``; a later ``single`` tag replaces an earlier one."""
    for blob in blobs:
        c = copy.deepcopy(blob)
        old = scratch.find(single) if c.tag == single else None
        if old is not None:
            scratch.remove(old)
        scratch.append(c)
        landing.hit(b, f'{kind}/{blob.tag}', b.line_of(blob), f'{where}/{blob.tag}', ReportKind.KEPT)


def apply_to_collision(item: Collision, owner: str, blocks: list[GazeboBlock],
                       landing: Landing) -> None:
    """Insert the collision tags and blobs of ``blocks`` that reach ``item`` (of link ``owner``)."""
    scratch = etree.Element('collision')
    where = f'link[{owner}]/collision[{item.name}]'
    for b in blocks:
        if not applies_to_shape(item.name, owner, b, '_collision'):
            continue
        _copy_blobs(scratch, b, b.collision_blobs, 'collision', 'surface', where, landing)
        surface = find_or_add(scratch, 'surface')
        contact = find_or_add(find_or_add(surface, 'contact'), 'ode')
        friction = find_or_add(find_or_add(surface, 'friction'), 'ode')
        for parent, pairs, path in ((friction, _FRICTION, 'surface/friction/ode'),
                                    (contact, _CONTACT, 'surface/contact/ode')):
            for tag, sdf_tag in pairs:
                if b.has(tag):
                    add_key_value(parent, sdf_tag, _value_text(b, tag))
                    landing.hit(b, b.values[tag].tag, b.values[tag].line, f'{where}/{path}/{sdf_tag}')
        for tag, sdf_tag in (('laserRetro', 'laser_retro'), ('maxContacts', 'max_contacts')):
            if b.has(tag):
                add_key_value(scratch, sdf_tag, _value_text(b, tag))
                landing.hit(b, b.values[tag].tag, b.values[tag].line, f'{where}/{sdf_tag}')
    prune_empty(scratch)
    loc = item.loc
    item.extras.extend(Extra(str(c.tag), to_xml(c), loc) for c in scratch)


def apply_to_visual(item: Visual, owner: str, blocks: list[GazeboBlock], landing: Landing,
                    rgba: tuple[float, float, float, float] | None) -> None:
    """Insert the visual tags and blobs of ``blocks`` reaching ``item``, then its URDF color.

    ``rgba`` is the URDF material's color (None when the visual has no
    ``<material>``): libsdformat writes it as ``diffuse = rgb / 0.8`` and
    ``ambient = rgb / 0.8`` (clamped to 1), unless a ``<gazebo>`` material
    already gave a diffuse or ambient color.
    """
    scratch = etree.Element('visual')
    where = f'link[{owner}]/visual[{item.name}]'
    for b in blocks:
        if not applies_to_shape(item.name, owner, b, '_visual'):
            continue
        _copy_blobs(scratch, b, b.visual_blobs, 'visual', 'material', where, landing)
        if b.has('material'):
            script = find_or_add(find_or_add(scratch, 'material'), 'script')
            add_key_value(script, 'name', _value_text(b, 'material'))
            add_key_value(script, 'uri', _SCRIPT_URI)
            landing.hit(b, 'material', b.values['material'].line, f'{where}/material/script')
    if rgba is not None:
        material = find_or_add(scratch, 'material')
        if material.find('diffuse') is None and material.find('ambient') is None:
            add_key_value(material, 'diffuse', _color(rgba, 0.8))
            add_key_value(material, 'ambient', _color(rgba, 0.8))
    prune_empty(scratch)
    item.extras.extend(Extra(str(c.tag), to_xml(c), item.loc) for c in scratch)


def _color(rgba: tuple[float, float, float, float], scale: float) -> str:
    rgb = [min(max(c / scale, 0.0), 1.0) for c in rgba[:3]]
    return ' '.join(num(v) for v in [*rgb, rgba[3]])


def apply_to_joint(joint: Joint, blocks: list[GazeboBlock], landing: Landing) -> None:
    """Insert the joint tags and blobs of ``blocks`` into ``joint``.

    ``InsertSDFExtensionJoint`` adds an empty ``<axis>`` to a joint without one (a
    fixed joint): its limits are the spec defaults of the target's SDFormat
    (``unlimited_axis``), as the reader says (``urdf.conversion.axis_given_joints``).
    """
    if blocks and joint.axis is None:
        joint.axis = unlimited_axis()
    scratch = etree.Element('joint')
    dynamics = etree.SubElement(etree.SubElement(scratch, 'axis'), 'dynamics')
    where = f'joint[{joint.name}]'
    for b in blocks:
        ode = find_or_add(find_or_add(scratch, 'physics'), 'ode')
        limit = find_or_add(ode, 'limit')
        pairs = ((limit, 'stopCfm', 'cfm', 'physics/ode/limit/cfm'),
                 (limit, 'stopErp', 'erp', 'physics/ode/limit/erp'),
                 (dynamics, 'springReference', 'spring_reference', 'axis/dynamics/spring_reference'),
                 (dynamics, 'springStiffness', 'spring_stiffness', 'axis/dynamics/spring_stiffness'),
                 (ode, 'fudgeFactor', 'fudge_factor', 'physics/ode/fudge_factor'))
        for parent, tag, sdf_tag, path in pairs:
            if b.has(tag):
                add_key_value(parent, sdf_tag, _value_text(b, tag))
                landing.hit(b, b.values[tag].tag, b.values[tag].line, f'{where}/{path}')
        if b.has('provideFeedback'):
            for parent in (find_or_add(scratch, 'physics'), ode):
                add_key_value(parent, 'provide_feedback', _value_text(b, 'provideFeedback'))
            landing.hit(b, 'provideFeedback', b.values['provideFeedback'].line,
                        f'{where}/physics/provide_feedback and physics/ode/provide_feedback')
        if b.has('implicitSpringDamper'):
            for tag in ('implicit_spring_damper', 'cfm_damping'):
                add_key_value(ode, tag, _value_text(b, 'implicitSpringDamper'))
            value = b.values['implicitSpringDamper']
            landing.hit(b, value.tag, value.line,
                        f'{where}/physics/ode/implicit_spring_damper (and cfm_damping)')
        for blob in b.blobs:
            if blob.tag in ('pose', 'parent', 'child', 'axis', 'axis2'):
                landing.declare(b, str(blob.tag), b.line_of(blob), ReportKind.DROPPED,
                                f'libsdformat adds a second <{blob.tag}> to [{joint.name}], and '
                                'its reader uses the first')
                continue
            scratch.append(copy.deepcopy(blob))
            landing.hit(b, str(blob.tag), b.line_of(blob), f'{where}/{blob.tag}', ReportKind.KEPT)
    _read_joint_scratch(joint, scratch, dynamics)


def _read_joint_scratch(joint: Joint, scratch: etree._Element, dynamics: etree._Element) -> None:
    for tag in ('spring_reference', 'spring_stiffness'):
        el = dynamics.find(tag)
        if el is not None and el.text:
            setattr(joint.axis, tag, float(el.text))
    scratch.remove(scratch[0])  # the axis scaffolding, read above
    prune_empty(scratch)
    for c in scratch:
        tag = str(c.tag)
        if tag == 'sensor':
            joint.sensors.append(Sensor(c.get('name', ''), c.get('type', ''), _pose_of(c), to_xml(c),
                                        joint.loc))
        elif tag not in ('pose', 'parent', 'child', 'axis', 'axis2'):
            joint.extras.append(Extra(tag, to_xml(c), joint.loc))
