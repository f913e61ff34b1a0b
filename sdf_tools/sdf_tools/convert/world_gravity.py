"""A world's gravity as the writers export it: its ``<gravity>``, or libsdformat's default.

The model keeps ``<gravity>`` verbatim (an :class:`~sdf_tools.model.Extra`); MJCF's
``<option gravity>`` and USD's physics scene both need the vector and whether it was
written, to report the default they assume. Before SDFormat 1.6 gravity was a child of
``<physics>``; libsdformat's 1.5 -> 1.6 conversion moves it up to the world (the SDFormat
writer does the same move: ``convert/sdf/upgrade.py``), so for such a file that is the
world's gravity.
"""
from __future__ import annotations

import math

from lxml import etree

from sdf_tools.model import Extra, World
from sdf_tools.sdf.context import version_tuple
from sdf_tools.transform import Vec3
from sdf_tools.xmlsafe import parse_kept

#: libsdformat's ``<world><gravity>`` default.
SDF_GRAVITY: Vec3 = (0.0, 0.0, -9.8)


def world_gravity(world: World, version: str | None) -> tuple[Vec3, Extra | None]:
    """Return a world's gravity and the element it came from (None: the default).

    ``version`` is the document's SDFormat version: before 1.6 the element is
    ``<physics><gravity>``. One that is not three finite numbers gives the default too
    (the reader has reported it).
    """
    extras = {e.tag: e for e in reversed(world.extras)}  # the first of each tag
    extra = extras.get('gravity')
    physics = extras.get('physics')
    text = None
    try:
        if extra is not None:
            text = parse_kept(extra.xml).text
        elif physics is not None and version is not None and version_tuple(version) < (1, 6):
            extra, text = physics, parse_kept(physics.xml).findtext('gravity')
        values = [float(v) for v in (text or '').split()]
    except (ValueError, etree.XMLSyntaxError):
        values = []
    if extra is None:
        return SDF_GRAVITY, None
    if len(values) != 3 or not all(math.isfinite(v) for v in values):
        return SDF_GRAVITY, None
    return (values[0], values[1], values[2]), extra
