"""What one side of a verification holds: bodies, joints and sensors by name, in the world.

Both sides are reduced to the same few numbers before they are compared: the
source as our reader resolves it (:mod:`~sdf_tools.verify.expected`), the output
as its own engine loads it (:mod:`~sdf_tools.verify.mujoco_side`,
:mod:`~sdf_tools.verify.usd_side`, :mod:`~sdf_tools.verify.expected` again for
SDFormat and URDF). Names are scoped names relative to the model when the file
holds one model (``arm::link``), else prefixed by the model's name.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from sdf_tools.transform import Transform, Vec3


@dataclass(frozen=True)
class MassProps:
    """Mass, centre of mass and inertia tensor about it, all in the world frame."""

    mass: float
    com: np.ndarray        # (3,)
    inertia: np.ndarray    # (3, 3) about the centre of mass, world axes


@dataclass(frozen=True)
class JointState:
    """A joint at the reference configuration: its kind, world anchor and axis, limits.

    ``kind`` is one of ``revolute``, ``prismatic``, ``ball``, ``fixed``, ``free``,
    ``d6`` (a USD ``Joint`` holding a universal/revolute2/planar joint) or the
    source's own type when it has no counterpart. ``limits`` is None when the
    joint is unlimited (or has no position limits); ``effort`` and
    ``velocity`` likewise (N or N m, rad/s or m/s).
    """

    kind: str
    anchor: Vec3 | None
    axis: Vec3 | None
    limits: tuple[float, float] | None
    parent: str = ''   # the body names of the joint's ends (source side only)
    child: str = ''
    effort: float | None = None
    velocity: float | None = None


@dataclass(frozen=True)
class ActuatorState:
    """An engine's actuator on a joint: ``kind`` position, velocity, motor or other.

    ``ctrlrange`` and ``forcerange`` are None when the engine does not clamp;
    a control times ``gear`` is a position, a velocity or an effort.
    """

    joint: str
    kind: str
    ctrlrange: tuple[float, float] | None
    forcerange: tuple[float, float] | None
    gear: float = 1.0


@dataclass
class Snapshot:
    """One side of the comparison.

    ``members`` maps each link to the body that simulates it (a link merged into
    another body, or kept as an MJCF site, names that body); ``masses`` are per
    body. ``massless`` names links whose mass is the converter's choice (no mass in
    the source), whose body is therefore not compared by mass.
    """

    engine: str
    poses: dict[str, Transform] = field(default_factory=dict)
    members: dict[str, str] = field(default_factory=dict)
    masses: dict[str, MassProps] = field(default_factory=dict)
    link_masses: dict[str, MassProps] = field(default_factory=dict)
    massless: set[str] = field(default_factory=set)
    # Those of them whose source writes mass 0 with an inertia: merged into a body with
    # mass, they add that inertia (libsdformat's lumping does, and so do the exporters).
    zero_mass: set[str] = field(default_factory=set)
    # Position limits this engine cannot tell from none (Newton's: +-1e9 and beyond).
    unlimited_beyond: float = math.inf
    joints: dict[str, JointState] = field(default_factory=dict)
    joint_aliases: dict[str, str] = field(default_factory=dict)  # other name -> name
    welded: dict[str, str] = field(default_factory=dict)  # body -> the body it is welded to
    free: set[str] = field(default_factory=set)  # bodies free in space (no joint holds them)
    # Links the engine keeps as world geometry, not as bodies (a static model's): no pose of
    # their own there, so not compared by pose (a note says so).
    static: set[str] = field(default_factory=set)
    sensors: dict[str, Transform] = field(default_factory=dict)
    paths: dict[str, str] = field(default_factory=dict)  # the engine's path of an object -> name
    # Sensor -> parameter -> value (verify/sensor_values.py names the parameters).
    sensor_params: dict[str, dict[str, float]] = field(default_factory=dict)
    actuators: dict[str, ActuatorState] = field(default_factory=dict)
    # The source's gearboxes as the coupling an engine holds instead of a joint: gearbox ->
    # (the joint holding its child, the joint holding its parent, multiplier = -ratio).
    gearboxes: dict[str, tuple[str, str, float]] = field(default_factory=dict)
    # An engine's joint couplings (follower -> (leader, multiplier)); None: not read.
    couplings: dict[str, tuple[str, float]] | None = None
    notes: list[str] = field(default_factory=list)
    # Tolerances where the engine stores less than doubles (measure -> tolerance).
    tolerances: dict[str, float] = field(default_factory=dict)
    # Measures the engine cannot hold at all (measure -> why): not compared.
    lacks: dict[str, str] = field(default_factory=dict)
    # Measures the engine holds only on some objects (measure -> where): an object
    # without one is noted, not counted as a difference.
    optional: dict[str, str] = field(default_factory=dict)
    # Sensor parameters (by their first word) the engine has no place for (-> why).
    sensor_lacks: dict[str, str] = field(default_factory=dict)
    # MuJoCo's compiler balanceinertia: a body whose principal moments break A + B >= C gets
    # their mean on all three (the MJCF exporter sets it; MuJoCo refuses such a body otherwise).
    balances_inertia: bool = False


def tensor(inertia6: tuple[float, ...]) -> np.ndarray:
    """Return the 3x3 tensor of ``(ixx, ixy, ixz, iyy, iyz, izz)``."""
    ixx, ixy, ixz, iyy, iyz, izz = inertia6
    return np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]], dtype=float)


def rotation(t: Transform) -> np.ndarray:
    """Return the rotation matrix of ``t``."""
    w, x, y, z = t.q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def in_world(mass: float, inertia_frame: Transform, inertia6: tuple[float, ...]) -> MassProps:
    """Return mass properties written in an inertial frame (placed in the world) in the world."""
    r = rotation(inertia_frame)
    return MassProps(mass, np.asarray(inertia_frame.p, dtype=float), r @ tensor(inertia6) @ r.T)


def combine(parts: list[MassProps]) -> MassProps:
    """Return the mass properties of rigidly joined parts (parallel axis theorem)."""
    mass = sum(p.mass for p in parts)
    if mass <= 0.0:
        return MassProps(0.0, np.zeros(3), np.zeros((3, 3)))
    com = sum((p.mass * p.com for p in parts), np.zeros(3)) / mass
    total = np.zeros((3, 3))
    for p in parts:
        d = p.com - com
        total += p.inertia + p.mass * (float(d @ d) * np.eye(3) - np.outer(d, d))
    return MassProps(mass, com, total)
