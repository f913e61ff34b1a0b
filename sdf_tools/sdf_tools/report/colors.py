"""The display colour of a visual: its ``<material>``, as Gazebo or RViz would show it.

SDFormat: the ``<diffuse>`` colour (else ``<ambient>``). URDF: the
``<color rgba>`` of the visual's ``<material>``, or of the robot-level
material it names (urdfdom resolves names that way). Textures and scripts
are not drawn: the page shows the colour only.
"""
from __future__ import annotations

from lxml import etree

from sdf_tools.model import Extra, Model

Rgba = tuple[float, float, float, float]


def _parse(xml: str) -> etree._Element | None:
    try:
        return etree.fromstring(xml)
    except etree.XMLSyntaxError:
        return None


def _rgba(text: str | None) -> Rgba | None:
    try:
        v = [float(x) for x in (text or '').split()]
    except ValueError:
        return None
    if len(v) == 3:
        v.append(1.0)
    if len(v) != 4:
        return None
    r, g, b, a = (min(max(x, 0.0), 1.0) for x in v)
    return (r, g, b, a)


def named_materials(model: Model) -> dict[str, Rgba]:
    """The colours of a URDF robot's named top-level materials."""
    table: dict[str, Rgba] = {}
    for extra in model.extras:
        el = _parse(extra.xml) if extra.tag == 'material' else None
        if el is not None and el.get('name'):
            c = el.find('color')
            rgba = _rgba(c.get('rgba')) if c is not None else None
            if rgba is not None:
                table[el.get('name', '')] = rgba
    return table


def visual_color(extras: list[Extra], table: dict[str, Rgba]) -> Rgba | None:
    """The colour of a visual's ``<material>`` (SDFormat or URDF form), if it has one."""
    for extra in extras:
        el = _parse(extra.xml) if extra.tag == 'material' else None
        if el is None:
            continue
        for tag in ('diffuse', 'ambient'):
            found = el.find(tag)
            if found is not None and _rgba(found.text) is not None:
                return _rgba(found.text)
        c = el.find('color')
        if c is not None and _rgba(c.get('rgba')) is not None:
            return _rgba(c.get('rgba'))
        if el.get('name') in table:
            return table[el.get('name', '')]
    return None
