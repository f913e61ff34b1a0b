"""The ``<mimic>`` checks libsdformat 14+ makes of a converted URDF.

Since gazebosim/sdformat#1333 (14.0) ``parser_urdf.cc`` writes a URDF ``<mimic>`` as the
SDFormat 1.11 ``//axis/mimic`` (leader axis ``axis``), which the model then checks
(``Joint::Load`` and ``checkScopedJointAxisMimicValues`` in ``parser.cc``, #1166): the
leader must be a joint of the converted model (so not a lumped fixed joint, nor one of a
floating or planar joint, which are not written) and must have that axis. libsdformat 12
converts no mimic and checks nothing. Its errors carry no line: ours are at the ``<mimic>``.
"""
from __future__ import annotations

from lxml import etree

from sdf_tools.errors import ErrorCode
from sdf_tools.model import Model
from sdf_tools.sdf.context import ReadContext
from sdf_tools.urdf.attrs import first_child
from sdf_tools.urdf.conversion import axis_given_joints, locked_joints
from sdf_tools.urdf.lumping_walk import UrdfWalk

__all__ = ['check_mimic_leaders']

#: Types libsdformat writes with an ``<axis>`` (continuous as revolute).
_AXIS_TYPES = ('revolute', 'continuous', 'prismatic')


def check_mimic_leaders(ctx: ReadContext, model: Model, elements: dict[str, etree._Element],
                        walk: UrdfWalk) -> None:
    """Report each written ``<mimic>`` whose leader joint or axis the converted model lacks."""
    lumped = walk.lumped
    written = {j.name: j for j in model.joints
               if j.name not in lumped and j.type in (*_AXIS_TYPES, 'fixed')}
    with_axis = ({n for n, j in written.items() if j.type in _AXIS_TYPES}
                 | locked_joints(model) | axis_given_joints(model))
    followers = []
    for joint in model.joints:
        axis = joint.axis
        if axis is not None and axis.mimic_joint is not None and joint.name in written \
                and joint.type in _AXIS_TYPES:
            el = elements.get(joint.name)
            followers.append((joint.name, axis.mimic_joint,
                              first_child(el, 'mimic') if el is not None else None))
    # Joint::Load refuses a self-mimic as it loads each joint, before the model's check.
    for name, leader, at in followers:
        if leader == name:
            ctx.error(ErrorCode.JOINT_AXIS_MIMIC_INVALID,
                      f'Axis with name [axis] in joint with name [{name}] cannot mimic itself.', at)
    for name, leader, at in followers:
        if leader not in written:
            ctx.error(ErrorCode.JOINT_AXIS_MIMIC_INVALID,
                      f'A joint with name[{leader}] specified by an axis mimic in joint with '
                      f'name[{name}] not found in model with name[{model.name}].', at)
        elif leader not in with_axis:
            ctx.error(ErrorCode.JOINT_AXIS_MIMIC_INVALID,
                      f'Axis with name [axis] in joint with name [{name}] specified a '
                      f'leader axis name [axis] that is not found in the leader joint with '
                      f'name [{leader}].', at)
