"""A world's gravity as the writers export it: its ``<gravity>``, or libsdformat's default.

The model keeps ``<gravity>`` verbatim (an :class:`~sdf_tools.model.Extra`); MJCF's
``<option gravity>`` and USD's physics scene both need the vector and whether it was
written, to report the default they assume.
"""
from __future__ import annotations

import math

from lxml import etree

from sdf_tools.model import Extra, World
from sdf_tools.transform import Vec3
from sdf_tools.xmlsafe import parse_kept

#: libsdformat's ``<world><gravity>`` default.
SDF_GRAVITY: Vec3 = (0.0, 0.0, -9.8)


def world_gravity(world: World) -> tuple[Vec3, Extra | None]:
    """Return a world's gravity and the ``<gravity>`` it came from (None: the default).

    A ``<gravity>`` that is not three finite numbers gives the default too (the
    reader has reported it).
    """
    extra = next((e for e in world.extras if e.tag == 'gravity'), None)
    if extra is None:
        return SDF_GRAVITY, None
    try:
        values = [float(v) for v in (parse_kept(extra.xml).text or '').split()]
    except (ValueError, etree.XMLSyntaxError):
        values = []
    if len(values) != 3 or not all(math.isfinite(v) for v in values):
        return SDF_GRAVITY, None
    return (values[0], values[1], values[2]), extra
