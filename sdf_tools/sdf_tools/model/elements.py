"""Dataclasses for SDFormat elements, one per element, mirroring the XML.

Values the file left out hold the spec's defaults; ``assumed`` lists what a
reader filled in on the user's behalf (libsdformat does this silently, we
report it).

Every class has ``slots``: a 10,000-link world holds about 100,000 of these,
and slots make them smaller and quicker to build than ``__dict__`` instances.
Each writes its ``__init__`` out and takes ``__repr__`` and ``__eq__`` from
:mod:`sdf_tools.records` instead of having ``@dataclass`` compile them at import
(``check`` of a small file starts faster; the fields, ``replace`` and ``asdict``
are the decorator's as before).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sdf_tools.model.common import Extra, Loc, RawPose
from sdf_tools.records import fields_eq, fields_repr

if TYPE_CHECKING:
    # Only field types here: their classes are made when a reader first meets such an element
    # (``check`` of a file without them starts faster, bench/PROFILE.md session 8).
    from sdf_tools.model.actor import Actor
    from sdf_tools.model.verbatim import Light, Plugin, Sensor


@dataclass(slots=True, init=False, repr=False, eq=False)
class Geometry:
    """A ``<geometry>``: its shape kind and the shape's spec fields."""

    type: str
    params: dict[str, object] = field(default_factory=dict)
    loc: Loc | None = None

    def __init__(self, type: str, params: dict[str, object] | None = None,
                 loc: Loc | None = None) -> None:
        self.type = type
        self.params = {} if params is None else params
        self.loc = loc

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)


@dataclass(slots=True, init=False, repr=False, eq=False)
class Visual:
    """A ``<visual>``: its geometry, where it sits and what else it held (kept verbatim)."""

    name: str
    pose: RawPose | None = None
    geometry: Geometry | None = None
    extras: list[Extra] = field(default_factory=list)
    loc: Loc | None = None

    def __init__(self, name: str, pose: RawPose | None = None, geometry: Geometry | None = None,
                 extras: list[Extra] | None = None, loc: Loc | None = None) -> None:
        self.name = name
        self.pose = pose
        self.geometry = geometry
        self.extras = [] if extras is None else extras
        self.loc = loc

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)


@dataclass(slots=True, init=False, repr=False, eq=False)
class Collision:
    """A ``<collision>``: its geometry, where it sits and what else it held (kept verbatim)."""

    name: str
    pose: RawPose | None = None
    geometry: Geometry | None = None
    extras: list[Extra] = field(default_factory=list)
    loc: Loc | None = None

    def __init__(self, name: str, pose: RawPose | None = None, geometry: Geometry | None = None,
                 extras: list[Extra] | None = None, loc: Loc | None = None) -> None:
        self.name = name
        self.pose = pose
        self.geometry = geometry
        self.extras = [] if extras is None else extras
        self.loc = loc

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)


@dataclass(slots=True, init=False, repr=False, eq=False)
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

    def __init__(self, mass: float = 1.0,
                 inertia: tuple[float, float, float, float, float, float] = (1.0, 0.0, 0.0, 1.0, 0.0, 1.0),
                 pose: RawPose | None = None, loc: Loc | None = None, auto: bool = False,
                 density: float | None = None, given_mass: float | None = None,
                 auto_params_xml: str = '', auto_parts: dict[str, object] | None = None) -> None:
        self.mass = mass
        self.inertia = inertia
        self.pose = pose
        self.loc = loc
        self.auto = auto
        self.density = density
        self.given_mass = given_mass
        self.auto_params_xml = auto_params_xml
        self.auto_parts = {} if auto_parts is None else auto_parts

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)


#: The inertia libsdformat gives a link without ``<inertial>`` (with 1 kg at the link origin).
UNIT_INERTIA = Inertial().inertia


@dataclass(slots=True, init=False, repr=False, eq=False)
class Link:
    """A ``<link>``: its mass properties, visuals, collisions, sensors and lights."""

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

    def __init__(self, name: str, pose: RawPose | None = None, inertial: Inertial | None = None,
                 visuals: list[Visual] | None = None, collisions: list[Collision] | None = None,
                 sensors: list[Sensor] | None = None, lights: list[Light] | None = None,
                 gravity: bool = True, kinematic: bool = False, self_collide: bool | None = None,
                 extras: list[Extra] | None = None, loc: Loc | None = None) -> None:
        self.name = name
        self.pose = pose
        self.inertial = inertial
        self.visuals = [] if visuals is None else visuals
        self.collisions = [] if collisions is None else collisions
        self.sensors = [] if sensors is None else sensors
        self.lights = [] if lights is None else lights
        self.gravity = gravity
        self.kinematic = kinematic
        self.self_collide = self_collide
        self.extras = [] if extras is None else extras
        self.loc = loc

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)


@dataclass(slots=True, init=False, repr=False, eq=False)
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

    def __init__(self, xyz: tuple[float, float, float] = (0.0, 0.0, 1.0), expressed_in: str = '',
                 lower: float = -1e16, upper: float = 1e16, effort: float = -1.0,
                 velocity: float = -1.0, stiffness: float = 1e8, dissipation: float = 1.0,
                 damping: float = 0.0, friction: float = 0.0, spring_reference: float = 0.0,
                 spring_stiffness: float = 0.0, mimic_joint: str | None = None,
                 mimic_multiplier: float = 1.0, mimic_offset: float = 0.0,
                 initial_position: float = 0.0, loc: Loc | None = None) -> None:
        self.xyz = xyz
        self.expressed_in = expressed_in
        self.lower = lower
        self.upper = upper
        self.effort = effort
        self.velocity = velocity
        self.stiffness = stiffness
        self.dissipation = dissipation
        self.damping = damping
        self.friction = friction
        self.spring_reference = spring_reference
        self.spring_stiffness = spring_stiffness
        self.mimic_joint = mimic_joint
        self.mimic_multiplier = mimic_multiplier
        self.mimic_offset = mimic_offset
        self.initial_position = initial_position
        self.loc = loc

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)


@dataclass(slots=True, init=False, repr=False, eq=False)
class Joint:
    """A ``<joint>``: its type, parent and child as written, pose and axes."""

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

    def __init__(self, name: str, type: str, parent: str = '', child: str = '',
                 pose: RawPose | None = None, axis: JointAxis | None = None,
                 axis2: JointAxis | None = None, thread_pitch: float | None = None,
                 gearbox_ratio: float | None = None, gearbox_reference_body: str | None = None,
                 sensors: list[Sensor] | None = None, extras: list[Extra] | None = None,
                 loc: Loc | None = None, file_name: str | None = None) -> None:
        self.name = name
        self.type = type
        self.parent = parent
        self.child = child
        self.pose = pose
        self.axis = axis
        self.axis2 = axis2
        self.thread_pitch = thread_pitch
        self.gearbox_ratio = gearbox_ratio
        self.gearbox_reference_body = gearbox_reference_body
        self.sensors = [] if sensors is None else sensors
        self.extras = [] if extras is None else extras
        self.loc = loc
        self.file_name = file_name

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)


@dataclass(slots=True, init=False, repr=False, eq=False)
class Frame:
    """An explicit ``<frame>``; ``attached_to`` is '' when not written."""

    name: str
    attached_to: str = ''
    pose: RawPose | None = None
    loc: Loc | None = None

    def __init__(self, name: str, attached_to: str = '', pose: RawPose | None = None,
                 loc: Loc | None = None) -> None:
        self.name = name
        self.attached_to = attached_to
        self.pose = pose
        self.loc = loc

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)


@dataclass(slots=True, init=False, repr=False, eq=False)
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

    def __init__(self, name: str, pose: RawPose | None = None, static: bool = False,
                 self_collide: bool = False, allow_auto_disable: bool = True,
                 enable_wind: bool = False, canonical_link: str = '', placement_frame: str = '',
                 links: list[Link] | None = None, joints: list[Joint] | None = None,
                 frames: list[Frame] | None = None, models: list[Model] | None = None,
                 plugins: list[Plugin] | None = None, extras: list[Extra] | None = None,
                 version: str = '1.9', source_uri: str | None = None, loc: Loc | None = None,
                 ) -> None:
        self.name = name
        self.pose = pose
        self.static = static
        self.self_collide = self_collide
        self.allow_auto_disable = allow_auto_disable
        self.enable_wind = enable_wind
        self.canonical_link = canonical_link
        self.placement_frame = placement_frame
        self.links = [] if links is None else links
        self.joints = [] if joints is None else joints
        self.frames = [] if frames is None else frames
        self.models = [] if models is None else models
        self.plugins = [] if plugins is None else plugins
        self.extras = [] if extras is None else extras
        self.version = version
        self.source_uri = source_uri
        self.loc = loc

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)


@dataclass(slots=True, init=False, repr=False, eq=False)
class World:
    """A ``<world>``: its models, frames, joints, actors, lights and plugins."""

    name: str
    models: list[Model] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    joints: list[Joint] = field(default_factory=list)
    actors: list[Actor] = field(default_factory=list)
    lights: list[Light] = field(default_factory=list)
    plugins: list[Plugin] = field(default_factory=list)
    extras: list[Extra] = field(default_factory=list)
    loc: Loc | None = None

    def __init__(self, name: str, models: list[Model] | None = None,
                 frames: list[Frame] | None = None, joints: list[Joint] | None = None,
                 actors: list[Actor] | None = None, lights: list[Light] | None = None,
                 plugins: list[Plugin] | None = None, extras: list[Extra] | None = None,
                 loc: Loc | None = None) -> None:
        self.name = name
        self.models = [] if models is None else models
        self.frames = [] if frames is None else frames
        self.joints = [] if joints is None else joints
        self.actors = [] if actors is None else actors
        self.lights = [] if lights is None else lights
        self.plugins = [] if plugins is None else plugins
        self.extras = [] if extras is None else extras
        self.loc = loc

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)
