"""The resolved description: what a file means once every frame is placed.

One frozen record per model, link, joint, frame, sensor and actor, each by its
scoped name (``outer::inner::link``) with its pose in the world (or, for a lone
model, in the model's frame), what it is attached to, and the description-model
element it came from (where it was written, what the file left out). Built once by
:func:`sdf_tools.resolved.resolve`; ``inspect --json``, the report, the TF tree and
the writers read it instead of recomputing poses or parsing JSON back.

A pose is None when the frame graphs could not place the element (the load's
diagnostics say why).
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sdf_tools.errors import Diagnostic, Findings
from sdf_tools.gazebo import GazeboTarget
from sdf_tools.model import Actor, Collision, Document, Frame, Joint, JointAxis, Link, Model, Sensor, Visual
from sdf_tools.model.elements import Geometry
from sdf_tools.transform import Transform, Vec3

if TYPE_CHECKING:
    from sdf_tools.urdf.lumping_walk import UrdfWalk

#: ixx, ixy, ixz, iyy, iyz, izz about the centre of mass, in the inertial frame.
Inertia6 = tuple[float, float, float, float, float, float]


@dataclass(frozen=True, slots=True)
class ResolvedShape:
    """A visual or collision: its pose in its link's frame (None: not placeable)."""

    name: str
    pose: Transform | None
    geometry: Geometry | None
    element: Visual | Collision


@dataclass(frozen=True, slots=True)
class ResolvedInertial:
    """A link's mass properties, as libsdformat reads them.

    ``written`` is False when the link has no ``<inertial>``: libsdformat then
    assumes 1 kg and a unit inertia at the link origin, as here.
    """

    mass: float
    inertia: Inertia6
    pose: Transform            # the inertial frame in the link frame
    world: Transform | None    # the inertial frame in the world
    written: bool


@dataclass(frozen=True, slots=True)
class ResolvedLink:
    """A link of a model or of a nested model."""

    name: str
    model: str                 # scoped name of the model that holds it
    world: Transform | None
    inertial: ResolvedInertial
    visuals: tuple[ResolvedShape, ...]
    collisions: tuple[ResolvedShape, ...]
    element: Link


@dataclass(frozen=True, slots=True)
class ResolvedAxis:
    """A joint axis: its direction in the world and its limits.

    An unlimited effort or velocity (written negative) is ``inf``, as libsdformat
    turns it; a bound written as ``inf`` stays infinite.
    """

    xyz: Vec3 | None           # unit direction in the world; None: not placeable
    lower: float
    upper: float
    effort: float
    velocity: float
    damping: float
    friction: float
    element: JointAxis
    initial_position: float = 0.0  # where the joint starts (<initial_position>, else 0)


@dataclass(frozen=True, slots=True)
class ResolvedJoint:
    """A joint with its parent and child resolved to bodies (scoped names or ``world``).

    For a URDF joint, ``type`` and the axes are the joint as libsdformat's URDF
    conversion writes it (``urdf.conversion.as_written``: a ``continuous`` joint is
    a ``revolute`` one, a ``disableFixedJointLumping`` joint a locked revolute
    one); ``element`` is the joint as the file wrote it, which is what
    robot_state_publisher reads.
    """

    name: str
    model: str                 # scoped name of the model ('' for a world's joint)
    type: str
    parent: str
    child: str
    world: Transform | None
    parent_moves_with: str | None  # see ResolvedFrame.moves_with
    child_moves_with: str | None
    axis: ResolvedAxis | None
    axis2: ResolvedAxis | None
    element: Joint


@dataclass(frozen=True, slots=True)
class ResolvedFrame:
    """A ``<frame>`` with the body it is attached to (None: the chain fails).

    ``attached_to`` names the body as libsdformat does (a link, a static model or
    ``world``); ``moves_with`` is what a kinematic tree needs: the scoped name of
    the link whose motion the frame follows, or ``world`` when it never moves (the
    world, a static model); None when its attached-to chain fails.
    """

    name: str
    model: str
    world: Transform | None
    attached_to: str | None
    moves_with: str | None
    element: Frame
    #: A frame libsdformat 13.1+ leaves for a lumped URDF joint or link (#1148). Our
    #: description keeps that joint and link too (same name, same place), so writers and
    #: TF, which have them already, skip it.
    lumped: bool = False


@dataclass(frozen=True, slots=True)
class ResolvedSensor:
    """A sensor of a link or a joint, placed in the world."""

    name: str                  # scoped through its parent: 'model::link::imu'
    parent: str                # scoped name of the link or joint that holds it
    world: Transform | None
    element: Sensor


@dataclass(frozen=True, slots=True)
class ResolvedModel:
    """A model (nested ones too), its canonical link by libsdformat's rule."""

    name: str
    world: Transform | None
    canonical_link: str | None
    static: bool
    moves_with: str | None     # see ResolvedFrame.moves_with
    element: Model


@dataclass(frozen=True, slots=True)
class ResolvedActor:
    """An actor: its pose as written (actors are not in the frame graphs)."""

    name: str
    world: Transform
    element: Actor


@dataclass(frozen=True, slots=True)
class Resolved(Findings):
    """Every element of a document, resolved, in document order, with the diagnostics.

    The ``*_by_name`` maps give an element by its scoped name (the first one of
    that name, in an invalid file that repeats one).
    """

    file: str | None
    format: str | None
    version: str | None
    usable: bool
    diagnostics: tuple[Diagnostic, ...]
    document: Document | None
    models: tuple[ResolvedModel, ...] = ()
    links: tuple[ResolvedLink, ...] = ()
    joints: tuple[ResolvedJoint, ...] = ()
    frames: tuple[ResolvedFrame, ...] = ()
    sensors: tuple[ResolvedSensor, ...] = ()
    actors: tuple[ResolvedActor, ...] = ()
    models_by_name: Mapping[str, ResolvedModel] = field(default_factory=dict, repr=False)
    links_by_name: Mapping[str, ResolvedLink] = field(default_factory=dict, repr=False)
    joints_by_name: Mapping[str, ResolvedJoint] = field(default_factory=dict, repr=False)
    gazebo: GazeboTarget | None = None  # the target whose libsdformat read the file
    urdf_walk: UrdfWalk | None = field(default=None, repr=False)  # the load's (LoadResult)


def finite(value: float) -> float | None:
    """``value``, or None for an infinite one (strict JSON has no infinity)."""
    return value if math.isfinite(value) else None
