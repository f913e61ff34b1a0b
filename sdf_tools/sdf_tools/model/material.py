"""The colour a ``<material>`` kept verbatim (an :class:`Extra`) stands for.

One reading for every writer that needs a visual's colour (the HTML report, the USD,
URDF and MJCF exporters): SDFormat's ``<diffuse>`` (else ``<ambient>``), then URDF's
``<color rgba>``, then the robot-level URDF material the visual names (urdfdom
resolves names that way). What each writer does with it (clamping for display,
reporting what else the material held) stays with the writer.
"""
from __future__ import annotations

from lxml import etree

from sdf_tools.model.common import Extra
from sdf_tools.xmlsafe import parse_kept

__all__ = ['Rgba', 'material_color', 'named_colors', 'parse_material', 'rgba']

Rgba = tuple[float, float, float, float]


def rgba(text: str | None) -> Rgba | None:
    """Three or four numbers (alpha 1 when three); None when the text is anything else."""
    try:
        v = [float(x) for x in (text or '').split()]
    except ValueError:
        return None
    if len(v) == 3:
        v.append(1.0)
    return (v[0], v[1], v[2], v[3]) if len(v) == 4 else None


def parse_material(extra: Extra) -> etree._Element | None:
    """The element of a kept ``<material>`` (None for another tag or broken XML)."""
    if extra.tag != 'material':
        return None
    try:
        return parse_kept(extra.xml)
    except etree.XMLSyntaxError:
        return None


def material_color(el: etree._Element, named: dict[str, Rgba] | None = None) -> Rgba | None:
    """The colour of one material: its own, else the named robot-level one."""
    for tag in ('diffuse', 'ambient'):
        found = el.find(tag)
        color = rgba(found.text) if found is not None else None
        if color is not None:
            return color
    c = el.find('color')
    color = rgba(c.get('rgba')) if c is not None else None
    if color is not None:
        return color
    return (named or {}).get(el.get('name', ''))


def named_colors(extras: list[Extra], default: Rgba | None = None) -> dict[str, Rgba]:
    """The colours of a URDF robot's named top-level materials.

    ``default``: the colour of a named material without a readable ``<color>``
    (urdfdom's is black); None leaves such a material out.
    """
    table: dict[str, Rgba] = {}
    for extra in extras:
        el = parse_material(extra)
        if el is None or not el.get('name'):
            continue
        c = el.find('color')
        color = (rgba(c.get('rgba')) if c is not None else None) or default
        if color is not None:
            table[el.get('name', '')] = color
    return table
