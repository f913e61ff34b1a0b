"""``DriveAPI`` on joints: the robot's own drive defaults and passive dynamics, never limit stiffness.

A joint gets a drive when the description says how it is driven or
resisted:

* commanded through ``<ros2_control>`` or a ``<transmission>`` (with
  ``joint_drive_from_transmission``, :func:`~sdf_tools.convert.joint_drives.commanded_joints`):
  a ``force`` drive limited to the joint's effort limit; a ``position``
  interface holds the joint at 0 with gains ``POSITION_GAINS``, a
  ``velocity`` interface at velocity 0 with damping ``VELOCITY_DAMPING``
  (reported as assumed: the description has no gains); an ``effort``
  interface adds no gain;
* a ``<dynamics>`` spring or damping: a spring is a drive of stiffness
  ``spring_stiffness`` towards ``spring_reference``, viscous damping a drive
  of damping ``damping`` towards velocity 0 -- the same force law.

* on request (``actuators``), any other joint with an effort limit, as the
  MJCF export gives it an actuator: ``'position'`` -- a drive of stiffness
  effort / ``FULL_EFFORT_ERROR`` (full effort at 0.1 rad or m) and damping a
  tenth of it, holding the joint at 0; ``'motor'`` -- a force drive without
  gains; both limited to the effort (reported as assumed: tune the gains).

The SDFormat ``<limit><stiffness>`` (the stiffness of the limit stop) is
never a drive. Angular gains are per degree in UsdPhysics.
"""
from __future__ import annotations

import math

from pxr import Sdf, Usd, UsdPhysics

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import FlatJoint, where

#: Gains of a position-commanded joint (N*m/rad, N*m*s/rad; N/m, N*s/m for prismatic joints).
POSITION_GAINS = (1000.0, 10.0)
#: Damping of a velocity-commanded joint (N*m*s/rad, N*s/m).
VELOCITY_DAMPING = 100.0
_DRIVEN = ('revolute', 'continuous', 'prismatic', 'screw')
#: The position error (rad or m) at which an ``actuators='position'`` drive gives full effort.
FULL_EFFORT_ERROR = 0.1


def _requested(interface: str | None, actuators: str, effort: float) -> str | None:
    """Return the interface an ``actuators`` request gives a joint nothing else commands."""
    if interface is not None or actuators not in ('position', 'motor') or \
            not (math.isfinite(effort) and effort > 0):
        return interface
    return 'servo' if actuators == 'position' else 'effort'


def write_drive(prim: Usd.Prim, j: FlatJoint, interface: str | None,
                report: ConversionReport, actuators: str = 'none') -> None:
    """Apply the drive of one joint (see the module doc); nothing when nothing asks for one."""
    ax = j.joint.axis
    if j.joint.type not in _DRIVEN or ax is None:
        return
    asked = interface is None
    interface = _requested(interface, actuators, ax.effort)
    angular = j.joint.type != 'prismatic'
    per = math.pi / 180.0 if angular else 1.0   # per radian -> per degree
    kp, kd, target = ax.spring_stiffness, ax.damping, ax.spring_reference
    if interface is None and kp == 0.0 and kd == 0.0:
        return
    label = f'joint[{j.scoped}]/drive'
    if interface == 'position':
        kp, kd, target = POSITION_GAINS[0], POSITION_GAINS[1] + kd, 0.0
        report.add(ReportKind.ASSUMED, label, f'position interface: drive gains stiffness '
                   f'{kp}, damping {kd} (per radian or metre) assumed: the description has none',
                   *where(j.joint.loc))
    elif interface == 'servo':
        kp = ax.effort / FULL_EFFORT_ERROR
        kd, target = kp / 10 + kd, 0.0
        report.add(ReportKind.ASSUMED, label, f'drive of stiffness {kp!r}, damping {kd!r} (per '
                   f'radian or metre: full effort {ax.effort!r} at an error of '
                   f'{FULL_EFFORT_ERROR}) from the effort limit (actuators=position): tune the '
                   'gains', *where(j.joint.loc))
    elif interface == 'effort' and asked:
        report.add(ReportKind.ASSUMED, label, f'force drive of max force {ax.effort!r} from the '
                   'effort limit (actuators=motor)', *where(j.joint.loc))
    elif interface == 'velocity':
        kp, kd = 0.0, VELOCITY_DAMPING
        report.add(ReportKind.ASSUMED, label, f'velocity interface: drive damping {kd} assumed',
                   *where(j.joint.loc))
    drive = UsdPhysics.DriveAPI.Apply(prim, 'angular' if angular else 'linear')
    drive.CreateTypeAttr('force')
    drive.CreateStiffnessAttr(kp * per)
    drive.CreateDampingAttr(kd * per)
    if interface == 'velocity':
        drive.CreateTargetVelocityAttr(0.0)
    else:
        drive.CreateTargetPositionAttr(math.degrees(target) if angular else target)
    if interface is not None and ax.effort >= 0.0:
        drive.CreateMaxForceAttr(ax.effort)


def joint_losses(prim: Usd.Prim, j: FlatJoint, report: ConversionReport) -> None:
    """Write the velocity limit as PhysX's attribute; report where friction goes."""
    ax = j.joint.axis
    label = f'joint[{j.scoped}]'
    if ax is None:
        return
    if ax.friction != 0.0:  # written by couplings.py
        report.add(ReportKind.REWRITTEN, f'{label}/dynamics/friction', 'UsdPhysics has no joint '
                   "friction: written as NewtonJointAPI's newton:friction (Coulomb effort)",
                   *where(ax.loc or j.joint.loc))
    if ax.velocity == 0.0 and j.joint.type in _DRIVEN:
        # URDF's velocity="0" is "not given" (the MJCF export and verify read it so); PhysX
        # and Newton would hold the joint still at a limit of 0.
        report.add(ReportKind.DROPPED, f'{label}/limit/velocity', 'velocity limit 0 read as no '
                   'limit (URDF writes 0 for "not given"); physxJoint:maxJointVelocity 0 would '
                   'hold the joint still', *where(ax.loc or j.joint.loc))
    if ax.velocity > 0.0 and j.joint.type in _DRIVEN:
        angular = j.joint.type != 'prismatic'
        value = math.degrees(ax.velocity) if angular else ax.velocity
        prim.CreateAttribute('physxJoint:maxJointVelocity', Sdf.ValueTypeNames.Float,
                             custom=True).Set(value)
        report.add(ReportKind.REWRITTEN, f'{label}/limit/velocity', 'UsdPhysics has no joint '
                   "velocity limit: written as PhysX's physxJoint:maxJointVelocity "
                   f'({value:g} {"deg/s" if angular else "m/s"}; Isaac Sim and Newton read it)',
                   *where(ax.loc or j.joint.loc))
    # mimic: convert/usd/couplings.py
