"""``<actor>``: an animated skin with its trajectories (and, rarely, links and joints).

Apart from :mod:`sdf_tools.model.elements` because few files have one: the world reader
imports this module when it first meets an actor (bench/PROFILE.md, session 8).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sdf_tools.model.common import Extra, Loc, RawPose
from sdf_tools.model.elements import Joint, Link
from sdf_tools.model.verbatim import Plugin


@dataclass(slots=True)
class Waypoint:
    time: float
    pose: RawPose


@dataclass(slots=True)
class Trajectory:
    id: int
    type: str
    tension: float = 0.0
    waypoints: list[Waypoint] = field(default_factory=list)
    loc: Loc | None = None


@dataclass(slots=True)
class Animation:
    name: str
    filename: str
    scale: float = 1.0
    interpolate_x: bool = False


@dataclass(slots=True)
class Actor:
    name: str
    pose: RawPose | None = None
    skin_filename: str | None = None
    skin_scale: float = 1.0
    animations: list[Animation] = field(default_factory=list)
    loop: bool = True
    delay_start: float = 0.0
    auto_start: bool = True
    trajectories: list[Trajectory] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    joints: list[Joint] = field(default_factory=list)
    plugins: list[Plugin] = field(default_factory=list)
    extras: list[Extra] = field(default_factory=list)
    loc: Loc | None = None
