"""URDF materials as libsdformat sees them, and URDF elements carried through as custom elements.

urdfdom resolves a visual's ``<material name=...>`` against the robot-level
materials first, then against materials defined in place by visuals read
earlier; otherwise the visual's own definition (a name alone gives black,
urdfdom's default color). Colors are single-precision floats in urdfdom,
so the numbers written are those floats. Textures have no place in the
SDFormat libsdformat writes and are reported as lost.

URDF elements SDFormat has no place for (``<transmission>``,
``<ros2_control>``, a joint's ``<safety_controller>``/``<calibration>``,
unknown elements) are written as custom elements in the ``urdf`` namespace
(``<urdf:transmission>``), which libsdformat keeps and ignores, so that a
later SDF -> URDF conversion, or a user, finds them unchanged.
"""
from __future__ import annotations

import numpy as np
from lxml import etree

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.sdf.writer import URDF_NS
from sdf_tools.model import Extra, Model, Visual
from sdf_tools.xmlsafe import parse_kept, to_xml

Rgba = tuple[float, float, float, float]
_BLACK: Rgba = (0.0, 0.0, 0.0, 1.0)


def _f32(x: float) -> float:
    return float(np.float32(x))


def _color(el: etree._Element) -> Rgba | None:
    """Return the ``<color rgba>`` of a material as urdfdom's floats; None without one."""
    c = el.find('color')
    if c is None or c.get('rgba') is None:
        return None
    try:
        values = [float(v) for v in (c.get('rgba') or '').split()]
    except ValueError:
        return None
    if len(values) != 4:
        return None
    return (_f32(values[0]), _f32(values[1]), _f32(values[2]), _f32(values[3]))


def _defines(el: etree._Element) -> bool:
    tex = el.find('texture')
    return _color(el) is not None or (tex is not None and tex.get('filename') is not None)


def _parse(xml: str) -> etree._Element | None:
    try:
        return parse_kept(xml)
    except etree.XMLSyntaxError:
        return None


def visual_colors(model: Model, report: ConversionReport) -> dict[int, Rgba]:
    """Return the color of each visual with a ``<material>`` (by ``id``), removing the element.

    Robot-level materials are reported once each; textures are reported lost.
    """
    table: dict[str, Rgba] = {}
    for extra in model.extras:
        el = _parse(extra.xml) if extra.tag == 'material' else None
        if el is not None and el.get('name') is not None:
            table[el.get('name', '')] = _color(el) or _BLACK
            _texture_lost(el, f'material[{el.get("name")}]', extra, report)
            report.add(ReportKind.REWRITTEN, f'material[{el.get("name")}]',
                       'written into the <material> (diffuse, ambient) of each visual using it',
                       *_where(extra))
    out: dict[int, Rgba] = {}
    for link in model.links:
        for visual in link.visuals:
            rgba = _visual_color(visual, table, report, link.name)
            if rgba is not None:
                out[id(visual)] = rgba
    return out


def _visual_color(visual: Visual, table: dict[str, Rgba], report: ConversionReport,
                  link: str) -> Rgba | None:
    found: Rgba | None = None
    keep: list[Extra] = []
    for extra in visual.extras:
        el = _parse(extra.xml) if extra.tag == 'material' else None
        if el is None:
            keep.append(extra)
            continue
        name = el.get('name', '')
        if name in table:
            found = table[name]
        else:
            found = _color(el) or _BLACK
            if _defines(el):
                table[name] = found
        _texture_lost(el, f'link[{link}]/visual[{visual.name}]/material', extra, report)
    visual.extras = keep
    return found


def _texture_lost(el: etree._Element, where: str, extra: Extra, report: ConversionReport) -> None:
    tex = el.find('texture')
    if tex is not None and tex.get('filename'):
        report.add(ReportKind.DROPPED, f'{where}/texture',
                   f'texture [{tex.get("filename")}] has no place in the SDFormat libsdformat '
                   'writes for a URDF', *_where(extra))


def _where(extra: Extra) -> tuple[str | None, int | None]:
    return (extra.loc.file if extra.loc else None, extra.loc.line if extra.loc else None)


def as_custom(extra: Extra) -> Extra:
    """Return ``extra`` renamed into the ``urdf`` namespace (``<urdf:transmission>``)."""
    el = _parse(extra.xml)
    if el is None:
        return extra
    attrs = {str(k): str(v) for k, v in el.attrib.items()}
    custom = etree.Element(f'{{{URDF_NS}}}{etree.QName(el).localname}', attrs,
                           nsmap={'urdf': URDF_NS})
    custom.text = el.text
    for child in list(el):
        custom.append(child)
    return Extra(f'urdf:{extra.tag}', to_xml(custom), extra.loc)


def carry_custom(extras: list[Extra], owner: str, report: ConversionReport,
                 why: str = 'no SDFormat element for it') -> list[Extra]:
    """Turn URDF-only elements into custom elements, reporting each as kept."""
    out = []
    for extra in extras:
        custom = as_custom(extra)
        out.append(custom)
        report.add(ReportKind.KEPT, f'{owner}/{extra.tag}',
                   f'written as custom element <urdf:{extra.tag}> ({why}; libsdformat and '
                   'Gazebo ignore it)', *_where(extra))
    return out
