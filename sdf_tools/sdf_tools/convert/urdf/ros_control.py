"""``<ros2_control>`` and ``<transmission>`` back into a URDF: SDFormat kept them as ``<urdf:...>``.

The URDF -> SDFormat conversion writes each model-level ``<transmission>`` and
``<ros2_control>`` as a custom element in the ``urdf`` namespace (libsdformat
keeps custom elements; ros2_control and robot_state_publisher read them from the
URDF). Here they become plain URDF elements again, element for element, so a
URDF -> SDFormat -> URDF round trip keeps them (equal as canonical XML).
"""
from __future__ import annotations

from lxml import etree

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import FlatModel, where
from sdf_tools.convert.sdf.writer import URDF_NS
from sdf_tools.model import Extra
from sdf_tools.xmlsafe import parse_kept

#: The URDF elements the SDFormat output carries and the URDF output restores.
RESTORED = ('transmission', 'ros2_control')
#: The children of a URDF ``<joint>`` the description model has no field for, restored too.
JOINT_RESTORED = ('calibration', 'safety_controller')


def restored_tags() -> set[str]:
    """Return the tags of the elements restored here: ``{namespace}tag`` in an SDFormat
    source, the plain tag in a URDF source (whose reader keeps them as they are)."""
    return {f'{{{URDF_NS}}}{tag}' for tag in RESTORED} | set(RESTORED)


def _plain(el: etree._Element) -> etree._Element:
    """Return a copy of ``el`` with the ``urdf`` namespace taken off every tag and attribute."""
    out = etree.Element(etree.QName(el).localname)
    for key, value in el.attrib.items():
        q = etree.QName(key)
        out.set(q.localname if q.namespace == URDF_NS else key, value)
    out.text, out.tail = el.text, el.tail
    for child in el.iterchildren(etree.Element):  # elements (comments are not data)
        out.append(_plain(child))
    return out


def restored_elements(flat: FlatModel, report: ConversionReport) -> list[etree._Element]:
    """Return the model's kept ``<urdf:transmission>``/``<urdf:ros2_control>`` as URDF elements."""
    out = []
    wanted = restored_tags()
    for extra in flat.model.extras:
        if extra.tag not in wanted:
            continue
        try:
            el = parse_kept(extra.xml)
        except etree.XMLSyntaxError as err:
            report.add(ReportKind.DROPPED, f'model[{flat.name}]/{extra.tag}',
                       f'kept element is not well-formed XML: {err}', *where(extra.loc))
            continue
        out.append(_plain(el))
        report.add(ReportKind.KEPT, f'model[{flat.name}]/{etree.QName(extra.tag).localname}',
                   'written back as a URDF element', *where(extra.loc))
    return out


def joint_extras(extras: list[Extra]) -> list[etree._Element]:
    """Return the ``<calibration>``/``<safety_controller>`` of a joint as URDF elements.

    A URDF source keeps them with their plain tags, an SDFormat made from a URDF as
    ``<urdf:...>`` custom elements; a broken element is left out (and reported dropped
    by the caller, which sees it is not among :func:`is_joint_restored`).
    """
    out = []
    for extra in extras:
        if not is_joint_restored(extra):
            continue
        try:
            out.append(_plain(parse_kept(extra.xml)))
        except etree.XMLSyntaxError:
            continue
    return out


def is_joint_restored(extra: Extra) -> bool:
    """Whether a joint's kept element is one the URDF output writes back."""
    q = etree.QName(extra.tag)
    return q.localname in JOINT_RESTORED and q.namespace in (None, URDF_NS)
