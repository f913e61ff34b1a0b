"""The display colour of a visual: its ``<material>``, as Gazebo or RViz would show it.

SDFormat: the ``<diffuse>`` colour (else ``<ambient>``). URDF: the
``<color rgba>`` of the visual's ``<material>``, or of the robot-level
material it names (urdfdom resolves names that way). Textures and scripts
are not drawn: the page shows the colour only.
"""
from __future__ import annotations

from sdf_tools.model import Extra, Model
from sdf_tools.model.material import Rgba, material_color, named_colors, parse_material

__all__ = ['Rgba', 'named_materials', 'visual_color']


def _clamped(color: Rgba) -> Rgba:
    r, g, b, a = (min(max(x, 0.0), 1.0) for x in color)
    return (r, g, b, a)


def named_materials(model: Model) -> dict[str, Rgba]:
    """The colours of a URDF robot's named top-level materials."""
    return {name: _clamped(c) for name, c in named_colors(model.extras).items()}


def visual_color(extras: list[Extra], table: dict[str, Rgba]) -> Rgba | None:
    """The colour of a visual's ``<material>`` (SDFormat or URDF form), if it has one."""
    for extra in extras:
        el = parse_material(extra)
        color = material_color(el, table) if el is not None else None
        if color is not None:
            return _clamped(color)
    return None
