"""Names of lumped links inside ``<gazebo>`` plugins and sensors, rewritten.

libsdformat rewrites a ``<plugin>``'s ``<bodyName>`` and ``<frameName>``
that name a lumped link to the link it was merged into, and moves the
plugin's ``<xyzOffset>``/``<rpyOffset>`` by the lumped link's pose (its own
code applies that pose twice to a plugin in the lumped link's own block,
and once more when both names match; here it is applied once). It also
means to rename a contact sensor's ``<collision>`` but never does (it looks
for ``<contact>`` at the wrong level), which leaves the sensor naming a
collision that no longer exists; here the name is rewritten to the lumped
collision's new name. Each rewrite is reported.
"""
from __future__ import annotations

from lxml import etree

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.sdf.elements import nums
from sdf_tools.convert.sdf.gazebo_apply import pop_attr
from sdf_tools.convert.sdf.gazebo_tags import GazeboBlock, key_value, parse_number
from sdf_tools.convert.sdf.lumping import Lumping
from sdf_tools.transform import Transform
from sdf_tools.urdf.lumping_walk import UrdfWalk


def _vector(el: etree._Element | None) -> tuple[float, float, float]:
    if el is None:
        return (0.0, 0.0, 0.0)
    parts = [parse_number(t) for t in key_value(el).split()]
    values = [p if p is not None else 0.0 for p in parts] + [0.0, 0.0, 0.0]
    return (values[0], values[1], values[2])


def _set(parent: etree._Element, tag: str, text: str) -> None:
    el = parent.find(tag)
    if el is None:
        el = etree.SubElement(parent, tag)
    for attr in list(el.attrib):
        del el.attrib[attr]
    el.text = text


def _plugin(blob: etree._Element, b: GazeboBlock, lumping: Lumping, walk: UrdfWalk,
            report: ConversionReport) -> None:
    moved = None
    for tag in ('bodyName', 'frameName'):
        el = blob.find(tag)
        if el is None or key_value(el) not in lumping.into:
            continue
        link = key_value(el)
        absorber = lumping.absorber(link)
        pop_attr(el, 'value')
        el.text = absorber
        moved = moved or link
        report.add(ReportKind.REWRITTEN, f'gazebo/plugin[{blob.get("name", "")}]/{tag}',
                   f'[{link}] is merged into link [{absorber}]: renamed, and the offsets '
                   '(xyzOffset, rpyOffset) moved by the pose of the merged link',
                   b.loc.file if b.loc else None, b.line_of(el))
    if moved is None:
        return
    offset = Transform.from_xyz_rpy(_vector(blob.find('xyzOffset')), _vector(blob.find('rpyOffset')))
    new = lumping.offset(moved, walk) * offset
    _set(blob, 'xyzOffset', nums(new.p))
    _set(blob, 'rpyOffset', nums(new.rpy()))


def _contact(blob: etree._Element, b: GazeboBlock, renamed: dict[tuple[str, str], str],
             report: ConversionReport) -> None:
    for el in blob.iterfind('contact/collision'):
        old = (el.text or '').strip()
        new = renamed.get((b.old_link, old))
        if new is None:
            continue
        el.text = new
        report.add(ReportKind.RENAMED, f'gazebo/sensor[{blob.get("name", "")}]/contact/collision',
                   f'collision [{old}] is now [{new}] (lumped); the sensor names the new name '
                   '(libsdformat leaves the old one)', b.loc.file if b.loc else None, b.line_of(el))


def rewrite_references(blocks: list[GazeboBlock], lumping: Lumping, walk: UrdfWalk,
                       renamed: dict[tuple[str, str], str], report: ConversionReport) -> None:
    """Rewrite lumped link and collision names in every block's plugins and sensors."""
    for b in blocks:
        for blob in b.blobs:
            if blob.tag == 'plugin':
                _plugin(blob, b, lumping, walk, report)
            elif blob.tag == 'sensor':
                _contact(blob, b, renamed, report)
