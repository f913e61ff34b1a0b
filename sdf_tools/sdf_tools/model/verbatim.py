"""Elements the description keeps as their XML: ``<sensor>``, ``<light>``, ``<plugin>``.

Apart from :mod:`sdf_tools.model.elements` because many files have none of them: making a
slotted dataclass costs about as much as importing a small module, and the readers import
this module when they first meet one (bench/PROFILE.md, session 8).
"""
from __future__ import annotations

from dataclasses import dataclass

from sdf_tools.model.common import Loc, RawPose


@dataclass(slots=True)
class Sensor:
    name: str
    type: str
    pose: RawPose | None = None
    xml: str = ''
    loc: Loc | None = None


@dataclass(slots=True)
class Light:
    name: str
    type: str = 'point'
    pose: RawPose | None = None
    xml: str = ''
    loc: Loc | None = None


@dataclass(slots=True)
class Plugin:
    """A ``<plugin>``, kept verbatim (its body belongs to the plugin)."""

    name: str
    filename: str
    xml: str = ''
    loc: Loc | None = None
