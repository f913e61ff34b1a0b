"""What URDF has no place for, kept in ``<gazebo>`` blocks where libsdformat puts it back.

A ROS tool ignores ``<gazebo>`` elements; libsdformat, reading the URDF,
copies them into the SDFormat it makes. So that a URDF -> SDFormat round
trip restores them, the converter writes:

* ``<gazebo>`` (model): ``<static>``, ``<self_collide>``,
  ``<allow_auto_disable>``, ``<enable_wind>`` and every ``<plugin>`` of the
  model and of its nested models, verbatim;
* ``<gazebo reference="link">``: the link's ``<sensor>``s and ``<light>``s
  (a pose ``relative_to`` another frame is rewritten relative to the link),
  ``<turnGravityOff>``, ``<selfCollide>``, ``<kinematic>`` and its unknown
  (namespaced) elements;
* ``<gazebo reference="joint">``: joint sensors, ``<springReference>``,
  ``<springStiffness>``, and ``<preserveFixedJoint>`` on each fixed joint
  between two SDFormat links, so that Gazebo keeps both links as the SDFormat
  model had them instead of merging them.

Each kept element is still reported as dropped from the URDF: ROS tools do
not see it. The world around the model is reported and not kept.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import FlatLink, FlatModel, pose_in_link, where
from sdf_tools.convert.model_options import all_models
from sdf_tools.convert.urdf.ros_control import is_joint_restored, restored_tags
from sdf_tools.convert.urdf.writer import UJoint, num, pose_num, rpy_of
from sdf_tools.model import Light, Link, Loc, Sensor
from sdf_tools.transform import Transform
from sdf_tools.xmlsafe import parse_kept


@dataclass
class Blocks:
    """The ``<gazebo>`` elements, by reference ('' for the model)."""

    by_ref: dict[str, etree._Element] = field(default_factory=dict)

    def get(self, ref: str) -> etree._Element:
        if ref not in self.by_ref:
            self.by_ref[ref] = etree.Element('gazebo', reference=ref) if ref else \
                etree.Element('gazebo')
        return self.by_ref[ref]

    def value(self, ref: str, tag: str, text: str) -> None:
        etree.SubElement(self.get(ref), tag).text = text

    def verbatim(self, ref: str, xml: str) -> etree._Element:
        el = parse_kept(xml)
        etree.cleanup_namespaces(el)  # drop the declarations the element does not use
        self.get(ref).append(el)
        return el


def _kept(el: etree._Element, pose: Transform | None) -> None:
    """Rewrite the ``<pose>`` child of a kept element as a plain pose in its link."""
    if pose is None:
        return
    p = el.find('pose')
    if p is None:
        p = etree.SubElement(el, 'pose')
    p.attrib.clear()
    p.text = ' '.join(pose_num(v) for v in (*pose.p, *rpy_of(pose)))


def _link_items(flat: FlatModel, fl: FlatLink, blocks: Blocks, report: ConversionReport) -> None:
    label = f'link[{fl.scoped}]'
    items: list[tuple[str, Sensor | Light]] = [('sensor', s) for s in fl.link.sensors]
    items += [('light', lt) for lt in fl.link.lights]
    for kind, item in items:
        p = item.pose
        plain = p is None or (not p.relative_to and not p.degrees
                              and p.rotation_format == 'euler_rpy')
        pose = None if plain else pose_in_link(flat, fl, p)
        _kept(blocks.verbatim(fl.name, item.xml), pose)
        report.add(ReportKind.DROPPED, f'{label}/{kind}[{item.name}]',
                   f'URDF has no {kind}s: kept in <gazebo reference="{fl.name}"> for Gazebo '
                   '(ROS tools ignore it)', *where(item.loc))
    for extra in fl.link.extras:
        blocks.verbatim(fl.name, extra.xml)
        report.add(ReportKind.DROPPED, f'{label}/{extra.tag}',
                   f'not URDF: kept in <gazebo reference="{fl.name}">', *where(extra.loc))
    _link_flags(fl.link, fl.name, blocks, report, label)


def _link_flags(link: Link, ref: str, blocks: Blocks, report: ConversionReport,
                label: str) -> None:
    flags = []
    if not link.gravity:
        blocks.value(ref, 'turnGravityOff', 'true')
        flags.append('gravity')
    if link.self_collide is not None:
        blocks.value(ref, 'selfCollide', 'true' if link.self_collide else 'false')
        flags.append('self_collide')
    if link.kinematic:
        blocks.value(ref, 'kinematic', 'true')
        flags.append('kinematic')
    if flags:
        report.add(ReportKind.DROPPED, label,
                   f'URDF has no {", ".join(flags)}: kept in <gazebo reference="{ref}">',
                   *where(link.loc))


def _model_items(flat: FlatModel, blocks: Blocks, report: ConversionReport,
                 urdf_source: bool) -> None:
    m = flat.model
    for tag, on, text in (('static', m.static, 'true'), ('self_collide', m.self_collide, 'true'),
                          ('allow_auto_disable', not m.allow_auto_disable, 'false'),
                          ('enable_wind', m.enable_wind, 'true')):
        if on:
            blocks.value('', tag, text)
            report.add(ReportKind.DROPPED, f'model[{m.name}]/{tag}',
                       f'URDF has no <{tag}>: kept in <gazebo>', *where(m.loc))
    for model in all_models([m]):
        for plugin in model.plugins:
            blocks.verbatim('', plugin.xml)
            nested = ' (link and joint names in its parameters are not rewritten)' \
                if model is not m else ''
            report.add(ReportKind.DROPPED, f'model[{model.name}]/plugin[{plugin.name}]',
                       f'URDF has no plugins: kept in <gazebo> for Gazebo{nested}',
                       *where(plugin.loc))
        for extra in model.extras:
            if model is m and extra.tag in restored_tags():
                continue  # written back as URDF elements (ros_control.py)
            if model is m and urdf_source and extra.tag == 'gazebo':  # written back as it is
                report.add(ReportKind.KEPT, f'model[{m.name}]/gazebo',
                           'written back as it is', *where(extra.loc))
                continue
            if model is m and extra.tag == 'material':  # a URDF source's robot material
                report.add(ReportKind.REWRITTEN, f'model[{m.name}]/material',
                           'its colour is written in the <material> of each visual naming it',
                           *where(extra.loc))
                continue
            report.add(ReportKind.DROPPED, f'model[{model.name}]/{extra.tag}',
                       'not representable in URDF', *where(extra.loc))


def _joint_items(flat: FlatModel, fixed: list[UJoint], blocks: Blocks,
                 report: ConversionReport, source_fixed: frozenset[str]) -> None:
    real = {fl.name for fl in flat.links}
    for uj in fixed:
        if uj.parent in real and uj.child in real and uj.name not in source_fixed:
            blocks.value(uj.name, 'preserveFixedJoint', 'true')
    for fj in flat.joints:
        label = f'joint[{fj.scoped}]'
        for sensor in fj.joint.sensors:
            blocks.verbatim(fj.name, sensor.xml)
            report.add(ReportKind.DROPPED, f'{label}/sensor[{sensor.name}]',
                       f'URDF has no sensors: kept in <gazebo reference="{fj.name}">',
                       *where(sensor.loc))
        a = fj.joint.axis
        if a is not None and (a.spring_reference or a.spring_stiffness):
            blocks.value(fj.name, 'springReference', num(a.spring_reference))
            blocks.value(fj.name, 'springStiffness', num(a.spring_stiffness))
        for extra in fj.joint.extras:
            if is_joint_restored(extra):
                report.add(ReportKind.KEPT, f'{label}/{etree.QName(extra.tag).localname}',
                           'written back as a URDF element', *where(extra.loc))
                continue
            report.add(ReportKind.DROPPED, f'{label}/{extra.tag}', 'not representable in URDF',
                       *where(extra.loc))


def _world(flat: FlatModel, report: ConversionReport) -> None:
    w = flat.world
    if w is None:
        return
    report.add(ReportKind.DROPPED, f'world[{w.name}]',
               'the world around the model (physics, scene, ground, gravity...) is not part '
               f'of a URDF; the pose of model [{flat.name}] in it is kept as <robot><origin>',
               *where(w.loc))
    items: list[tuple[str, str, Loc | None]] = [('light', lt.name, lt.loc) for lt in w.lights]
    items += [('plugin', p.name, p.loc) for p in w.plugins]
    items += [('actor', a.name, a.loc) for a in w.actors]
    items += [('frame', f.name, f.loc) for f in w.frames]
    items += [('model', m.name, m.loc) for m in w.models if m is not flat.model]
    for kind, name, loc in items:
        report.add(ReportKind.DROPPED, f'world[{w.name}]/{kind}[{name}]',
                   f'a world {kind}: not part of the URDF of model [{flat.name}]',
                   *where(loc))


def gazebo_blocks(flat: FlatModel, fixed_joints: list[UJoint], report: ConversionReport, *,
                  urdf_source: bool = False) -> list[etree._Element]:
    """Return the ``<gazebo>`` blocks of the model; report every element URDF lacks.

    A URDF source's own blocks are written back as they are, and its fixed joints get
    no ``<preserveFixedJoint>`` of ours: Gazebo then lumps (or keeps) the output's links
    as it does the source's. Marking them all kept links apart that the source had
    merged: kinova.urdf's massless base, which only its lumped child gives a mass, was
    refused by Gazebo.

    Args:
        flat: the flattened model.
        fixed_joints: the URDF fixed joints written for SDFormat fixed joints.
        report: receives an entry per element kept in a block or lost.
        urdf_source: whether the model was read from URDF (or xacro).
    """
    m = flat.model
    source = [parse_kept(e.xml) for e in m.extras if e.tag == 'gazebo'] \
        if urdf_source else []
    source_fixed = frozenset(j.file_name or j.name for j in m.joints if j.type == 'fixed') \
        if urdf_source else frozenset()
    blocks = Blocks()
    _model_items(flat, blocks, report, urdf_source)
    for fl in flat.links:
        _link_items(flat, fl, blocks, report)
    _joint_items(flat, fixed_joints, blocks, report, source_fixed)
    _world(flat, report)
    return list(blocks.by_ref.values()) + source
