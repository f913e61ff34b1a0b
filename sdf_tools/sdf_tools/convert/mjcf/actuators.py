"""Actuators from ``<transmission>`` and ``<ros2_control>`` (``joint_drive_from_transmission``).

A joint the robot says it commands gets the MuJoCo actuator of its
interface, so that it is driven rather than limp (by default, and with
``actuators='ros2_control'`` even when ``joint_drive_from_transmission`` is off):

=========  ==================================================================
effort     ``<motor>``, ``ctrlrange`` and ``forcerange`` = +-effort limit
           (when there is one)
position   ``<position>``, ``ctrlrange`` = the joint range, ``forcerange`` =
           +-effort; with an effort limit ``kp`` = effort /
           :data:`FULL_EFFORT_ERROR` and ``dampratio`` 1 (as
           ``actuators='position'``), else MuJoCo's kp=1 (reported: tune it)
velocity   ``<velocity>``, ``ctrlrange`` = +-velocity limit, ``forcerange``
           = +-effort; MuJoCo's default kv=1 (reported: tune it)
=========  ==================================================================

Ranges come from the joint's own limits, so an actuator never asks for a
position the joint cannot reach (``sdf_tools verify`` compares them).

On request (``actuators``), every other hinge and slide with an effort limit
gets one as Menagerie's robots have them, so that a floating robot can hold
itself: ``'position'`` -- a ``<position>`` servo of ``forcerange`` +-effort,
``kp`` = effort / :data:`FULL_EFFORT_ERROR` (the full effort at an error of
0.1 rad or 0.1 m) and ``dampratio`` 1 (critical damping, MuJoCo computes
``kv`` from the inertia); ``'motor'`` -- a ``<motor>`` of ``ctrlrange``
+-effort. Each is reported as assumed: tune the gains.
"""
from __future__ import annotations

import math

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.joint_drives import commanded_joints
from sdf_tools.convert.mjcf.joints import finite_range
from sdf_tools.convert.mjcf.servo_gain import MAX_OMEGA_DT, capped_kp, timestep
from sdf_tools.convert.mjcf.writer import MjcfDocument, nums, sub
from sdf_tools.model import Joint, JointAxis, Model

_TAGS = {'effort': 'motor', 'position': 'position', 'velocity': 'velocity'}
#: The position error (rad or m) at which an ``actuators='position'`` servo gives full effort.
FULL_EFFORT_ERROR = 0.1


def _implicit(doc: MjcfDocument, report: ConversionReport) -> None:
    """Write ``integrator="implicitfast"`` (once): servos need their damping taken implicitly."""
    option = doc.section('option')
    if option.get('integrator') is None:
        option.set('integrator', 'implicitfast')
        report.add(ReportKind.ASSUMED, 'option/integrator', "implicitfast written (MuJoCo's "
                   'default is Euler): the <position> servos are stable only with their damping '
                   'taken implicitly (servo_gain.py)')


def _servo_kp(doc: MjcfDocument, name: str, effort: float,
              report: ConversionReport) -> tuple[float, str]:
    """Return the kp of a servo on MJCF joint ``name`` and how it was chosen (for the report).

    effort / :data:`FULL_EFFORT_ERROR`, capped so that the servo is stable at the written
    timestep (:mod:`servo_gain`: a small robot's servo would otherwise blow up).
    """
    _implicit(doc, report)
    kp = effort / FULL_EFFORT_ERROR
    el = next((j for j in doc.section('worldbody').iter('joint') if j.get('name') == name), None)
    if el is None:
        return kp, f'kp {kp!r} (full effort {effort!r} at an error of {FULL_EFFORT_ERROR})'
    dt = timestep(doc.section('option'))
    got, inertia = capped_kp(kp, el, dt)
    if inertia is None:
        return kp, f'kp {kp!r} (full effort {effort!r} at an error of {FULL_EFFORT_ERROR})'
    return got, (f'kp {got!r}, capped from {kp!r} (full effort {effort!r} at an error of '
                 f'{FULL_EFFORT_ERROR}) so that sqrt(kp / {inertia!r}, the effective inertia '
                 f'about the joint) * timestep {dt!r} = {MAX_OMEGA_DT}: stiffer, the servo '
                 'blows up (servo_gain.py)')


def _ranges(kind: str, joint: Joint, doc: MjcfDocument, name: str,
            report: ConversionReport) -> dict[str, str | None]:
    a = joint.axis
    if a is None:
        return {}
    effort = a.effort if math.isfinite(a.effort) and a.effort > 0 else None
    out: dict[str, str | None] = {}
    if kind == 'effort' and effort is not None:
        out['ctrlrange'] = out['forcerange'] = nums((-effort, effort))
    if kind == 'position':
        limits = finite_range(a)
        if limits is not None and joint.type != 'continuous' and limits[0] < limits[1]:
            out['ctrlrange'] = nums(limits)
        if effort is not None:
            out['forcerange'] = nums((-effort, effort))
            kp, why = _servo_kp(doc, name, effort, report)
            out['kp'], out['dampratio'], out['why'] = nums((kp,)), '1', why

    if kind == 'velocity' and math.isfinite(a.velocity) and a.velocity > 0:
        out['ctrlrange'] = nums((-a.velocity, a.velocity))
        if effort is not None:
            out['forcerange'] = nums((-effort, effort))
    return out


def write_actuators(doc: MjcfDocument, source: Model, joints: dict[str, tuple[str, Joint]],
                    report: ConversionReport, *, asked: bool = False) -> None:
    """Write one actuator per commanded joint of ``source``.

    Args:
        doc: the MJCF document.
        source: the model as read (its ``<transmission>``/``<ros2_control>`` blocks).
        joints: source joint name -> (MJCF joint name, joint) for the joints written.
        report: receives one entry per actuator.
        asked: ``actuators='ros2_control'``: a model that commands no joint is reported.
    """
    commanded = commanded_joints(source)
    if asked and not commanded:
        loc = (source.loc.file, source.loc.line) if source.loc else (None, None)
        report.add(ReportKind.DROPPED, f'model[{source.name}]/actuators', 'actuators='
                   'ros2_control, but no <ros2_control> command interface or <transmission> '
                   'names a joint: no actuator written', *loc)
    for name, (kind, line, file) in commanded.items():
        got = joints.get(name)
        if got is None:
            report.add(ReportKind.DROPPED, f'joint[{name}]/drive', f'commanded through the {kind} '
                       'interface, but no MJCF joint has its name', file, line)
            continue
        mjcf_name, joint = got
        ranges = _ranges(kind, joint, doc, mjcf_name, report)
        why = ranges.pop('why', None)
        sub(doc.section('actuator'), _TAGS[kind], name=mjcf_name, joint=mjcf_name, **ranges)
        gain = {'position': f' of {why}, dampratio 1: tune the gains' if why else
                " with MuJoCo's default kp=1: tune it", 'velocity': " with MuJoCo's "
                'default kv=1: tune it'}.get(kind, '')
        report.add(ReportKind.ASSUMED, f'joint[{name}]/drive', f'commanded through the {kind} '
                   f'interface: <{_TAGS[kind]}> actuator{gain}', file, line)


def write_effort_actuators(doc: MjcfDocument, joints: list[tuple[str, Joint, JointAxis | None]],
                           kind: str, report: ConversionReport) -> None:
    """Write a ``kind`` ('position' or 'motor') actuator on each joint with an effort limit.

    Args:
        doc: the MJCF document.
        joints: (MJCF hinge/slide name, source joint, the axis it moves about), in order;
            joints that already have an actuator are left out by the caller.
        kind: the ``actuators`` option.
        report: receives one entry per actuator, or per joint without an effort limit.
    """
    for name, joint, a in joints:
        loc = (joint.loc.file, joint.loc.line) if joint.loc else (None, None)
        effort = a.effort if a is not None and math.isfinite(a.effort) and a.effort > 0 else None
        if effort is None:
            report.add(ReportKind.DROPPED, f'joint[{joint.name}]/actuator', f'no effort limit: '
                       f'no <{kind}> actuator (actuators={kind})', *loc)
            continue
        if kind == 'motor':
            sub(doc.section('actuator'), 'motor', name=name, joint=name,
                ctrlrange=nums((-effort, effort)))
            what = f'<motor> of ctrlrange +-{effort!r}'
        else:
            limits = finite_range(a) if a is not None and joint.type != 'continuous' else None
            kp, why = _servo_kp(doc, name, effort, report)
            sub(doc.section('actuator'), 'position', name=name, joint=name, kp=nums((kp,)),
                dampratio='1', forcerange=nums((-effort, effort)),
                ctrlrange=nums(limits) if limits is not None and limits[0] < limits[1] else None)
            what = f'<position> servo of {why}, dampratio 1'
        report.add(ReportKind.ASSUMED, f'joint[{joint.name}]/actuator', f'{what} from the '
                   f'effort limit (actuators={kind}): tune the gains', *loc)
