"""Dataclasses for SDFormat elements, one per element, mirroring the XML.

Values the file left out hold the spec's defaults; ``assumed`` lists what a
reader filled in on the user's behalf (libsdformat does this silently, we
report it).

Every class has ``slots``: a 10,000-link world holds about 100,000 of these,
and slots make them smaller and quicker to build than ``__dict__`` instances.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sdf_tools.model.common import Extra, Loc, RawPose

if TYPE_CHECKING:
    # Only field types here: their classes are made when a reader first meets such an element
    # (``check`` of a file without them starts faster, bench/PROFILE.md session 8).
    from sdf_tools.model.actor import Actor
    from sdf_tools.model.verbatim import Light, Plugin, Sensor


@dataclass(slots=True)
class Geometry:
    """A ``<geometry>``: its shape kind and the shape's spec fields."""

    type: str
    params: dict[str, object] = field(default_factory=dict)
    loc: Loc | None = None


@dataclass(slots=True)
class Visual:
    name: str
    pose: RawPose | None = None
    geometry: Geometry | None = None
    extras: list[Extra] = field(default_factory=list)
    loc: Loc | None = None


@dataclass(slots=True)
class Collision:
    name: str
    pose: RawPose | None = None
    geometry: Geometry | None = None
    extras: list[Extra] = field(default_factory=list)
    loc: Loc | None = None


@dataclass(slots=True)
class Inertial:
    """Mass properties; ``inertia`` is ``(ixx, ixy, ixz, iyy, iyz, izz)``."""

    mass: float = 1.0
    inertia: tuple[float, float, float, float, float, float] = (1.0, 0.0, 0.0, 1.0, 0.0, 1.0)
    pose: RawPose | None = None
    loc: Loc | None = None
    # <inertial auto="true"> (SDFormat 1.11): mass, inertia and pose above are then the
    # values libsdformat 14+ computed from the collisions; what the file wrote is kept
    # below so a writer can write the element back as it was.
    auto: bool = False
    density: float | None = None        # <inertial><density>
    given_mass: float | None = None     # <mass> written with auto (rescales the density)
    auto_params_xml: str = ''           # <auto_inertia_params>, verbatim
    # Each computed collision's mass properties in its own frame (model.auto_inertia.MassPart),
    # by collision name: a collision placed relative_to another frame is summed again once
    # the frame graphs place it (sdf/auto_inertial.py: place_relative_collisions).
    auto_parts: dict[str, object] = field(default_factory=dict)


#: The inertia libsdformat gives a link without ``<inertial>`` (with 1 kg at the link origin).
UNIT_INERTIA = Inertial().inertia


@dataclass(slots=True)
class Link:
    name: str
    pose: RawPose | None = None
    inertial: Inertial | None = None
    visuals: list[Visual] = field(default_factory=list)
    collisions: list[Collision] = field(default_factory=list)
    sensors: list[Sensor] = field(default_factory=list)
    lights: list[Light] = field(default_factory=list)
    gravity: bool = True
    kinematic: bool = False
    self_collide: bool | None = None
    extras: list[Extra] = field(default_factory=list)
    loc: Loc | None = None


@dataclass(slots=True)
class JointAxis:
    """``<axis>``/``<axis2>``: direction, limits, dynamics and mimic."""

    xyz: tuple[float, float, float] = (0.0, 0.0, 1.0)
    expressed_in: str = ''
    lower: float = -1e16
    upper: float = 1e16
    effort: float = -1.0
    velocity: float = -1.0
    stiffness: float = 1e8
    dissipation: float = 1.0
    damping: float = 0.0
    friction: float = 0.0
    spring_reference: float = 0.0
    spring_stiffness: float = 0.0
    mimic_joint: str | None = None
    mimic_multiplier: float = 1.0
    mimic_offset: float = 0.0
    initial_position: float = 0.0  # <initial_position> (spec 1.6-1.8; 0 when not written)
    loc: Loc | None = None


@dataclass(slots=True)
class Joint:
    name: str
    type: str
    parent: str = ''
    child: str = ''
    pose: RawPose | None = None
    axis: JointAxis | None = None
    axis2: JointAxis | None = None
    thread_pitch: float | None = None
    gearbox_ratio: float | None = None
    gearbox_reference_body: str | None = None
    sensors: list[Sensor] = field(default_factory=list)
    extras: list[Extra] = field(default_factory=list)
    loc: Loc | None = None
    # The name as the file wrote it, when the reader had to give the joint another one (a
    # URDF joint named like a link: URDF keeps two namespaces, SDFormat one).
    file_name: str | None = None


@dataclass(slots=True)
class Frame:
    """An explicit ``<frame>``; ``attached_to`` is '' when not written."""

    name: str
    attached_to: str = ''
    pose: RawPose | None = None
    loc: Loc | None = None


@dataclass(slots=True)
class Model:
    """A ``<model>`` (or an ``<include>`` of one, already expanded)."""

    name: str
    pose: RawPose | None = None
    static: bool = False
    self_collide: bool = False
    allow_auto_disable: bool = True
    enable_wind: bool = False
    canonical_link: str = ''
    placement_frame: str = ''
    links: list[Link] = field(default_factory=list)
    joints: list[Joint] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    models: list[Model] = field(default_factory=list)
    plugins: list[Plugin] = field(default_factory=list)
    extras: list[Extra] = field(default_factory=list)
    # The <sdf version> of the file this model was written in: pre-1.7
    # models follow older naming rules.
    version: str = '1.9'
    source_uri: str | None = None
    loc: Loc | None = None


@dataclass(slots=True)
class World:
    name: str
    models: list[Model] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    joints: list[Joint] = field(default_factory=list)
    actors: list[Actor] = field(default_factory=list)
    lights: list[Light] = field(default_factory=list)
    plugins: list[Plugin] = field(default_factory=list)
    extras: list[Extra] = field(default_factory=list)
    loc: Loc | None = None
