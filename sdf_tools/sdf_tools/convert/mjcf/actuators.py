"""Actuators from ``<transmission>`` and ``<ros2_control>`` (``joint_drive_from_transmission``).

A joint the robot says it commands gets the MuJoCo actuator of its
interface, so that it is driven rather than limp:

=========  ==================================================================
effort     ``<motor>``, ``ctrlrange`` = +-effort limit (when there is one)
position   ``<position>``, ``ctrlrange`` = the joint range, ``forcerange`` =
           +-effort; MuJoCo's default gain kp=1 (reported: tune it)
velocity   ``<velocity>``, ``ctrlrange`` = +-velocity limit; default kv=1
=========  ==================================================================

Ranges come from the joint's own limits, so an actuator never asks for a
position the joint cannot reach.
"""
from __future__ import annotations

import math

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.joint_drives import commanded_joints
from sdf_tools.convert.mjcf.joints import finite_range
from sdf_tools.convert.mjcf.writer import MjcfDocument, nums, sub
from sdf_tools.model import Joint, Model

_TAGS = {'effort': 'motor', 'position': 'position', 'velocity': 'velocity'}


def _ranges(kind: str, joint: Joint) -> dict[str, str | None]:
    a = joint.axis
    if a is None:
        return {}
    effort = a.effort if math.isfinite(a.effort) and a.effort > 0 else None
    out: dict[str, str | None] = {}
    if kind == 'effort' and effort is not None:
        out['ctrlrange'] = nums((-effort, effort))
    if kind == 'position':
        limits = finite_range(a)
        if limits is not None and joint.type != 'continuous' and limits[0] < limits[1]:
            out['ctrlrange'] = nums(limits)
        if effort is not None:
            out['forcerange'] = nums((-effort, effort))
    if kind == 'velocity' and math.isfinite(a.velocity) and a.velocity > 0:
        out['ctrlrange'] = nums((-a.velocity, a.velocity))
        if effort is not None:
            out['forcerange'] = nums((-effort, effort))
    return out


def write_actuators(doc: MjcfDocument, source: Model, joints: dict[str, tuple[str, Joint]],
                    report: ConversionReport) -> None:
    """Write one actuator per commanded joint of ``source``.

    Args:
        doc: the MJCF document.
        source: the model as read (its ``<transmission>``/``<ros2_control>`` blocks).
        joints: source joint name -> (MJCF joint name, joint) for the joints written.
        report: receives one entry per actuator.
    """
    for name, (kind, line, file) in commanded_joints(source).items():
        got = joints.get(name)
        if got is None:
            report.add(ReportKind.DROPPED, f'joint[{name}]/drive', f'commanded through the {kind} '
                       'interface, but no MJCF joint has its name', file, line)
            continue
        mjcf_name, joint = got
        sub(doc.section('actuator'), _TAGS[kind], name=mjcf_name, joint=mjcf_name,
            **_ranges(kind, joint))
        gain = {'position': " with MuJoCo's default kp=1", 'velocity': " with MuJoCo's "
                'default kv=1'}.get(kind, '')
        report.add(ReportKind.ASSUMED, f'joint[{name}]/drive', f'commanded through the {kind} '
                   f'interface: <{_TAGS[kind]}> actuator{gain} (joint_drive_from_transmission)',
                   file, line)
