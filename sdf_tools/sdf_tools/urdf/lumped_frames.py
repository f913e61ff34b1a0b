"""The ``<frame>``\\ s libsdformat 13.1+ leaves where lumping removed a fixed joint and its link.

gazebosim/sdformat#1148 (13.1; ``parser_urdf.cc`` ``ReduceFixedJoints``): for each fixed
joint it lumps, in lumping order, libsdformat adds two frames to the converted model::

    <frame name="JOINT" attached_to="PARENT LINK"><pose>JOINT ORIGIN</pose></frame>
    <frame name="CHILD LINK" attached_to="JOINT"/>

so a lumped link and joint keep their names (and places) in Gazebo. A frame's chain ends
at the link everything was lumped into; when ``CreateSDF`` does not write that link (it
has no mass), the first frame's ``attached_to`` names nothing and libsdformat refuses the
model (``FRAME_ATTACHED_TO_INVALID``, checked with libsdformat 14.9). 12.3 adds no frames.

Our description keeps every URDF link and joint, so these frames stand beside the link
and joint of the same name; :mod:`sdf_tools.resolved` lists them as libsdformat does.
"""
from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.model import Frame, Joint, Model, RawPose
from sdf_tools.sdf.context import ReadContext
from sdf_tools.transform import IDENTITY
from sdf_tools.urdf.lumping_walk import UrdfWalk
from sdf_tools.urdf.releases import rules

__all__ = ['LumpedFrame', 'check_lumped_frames', 'is_unattached_lumped_frame', 'lumped_frames']

KEPT_FRAME = 'keeps a <frame> for lumped joint'  # in the error check_lumped_frames gives


@dataclass(frozen=True, slots=True)
class LumpedFrame:
    """One frame of the converted model that a lumped joint or link leaves."""

    frame: Frame        # as libsdformat writes it (name, attached_to, pose)
    joint: Joint        # the lumped joint (the frame is its own, or its child link's)
    body: str           # the link the chain ends at (everything is lumped into it)
    written: bool       # whether libsdformat writes that link (else the chain fails)


def lumped_frames(walk: UrdfWalk) -> list[LumpedFrame]:
    """The frames lumping leaves in the converted robot (the load's ``walk``), in libsdformat's order.

    Empty for a target whose libsdformat adds none (12.3).
    """
    if not rules().lumped_frames:
        return []
    written = walk.written_links()
    out: list[LumpedFrame] = []
    for joint in walk.lumping_order():
        body = walk.absorber(joint.parent)
        kept = body in written
        origin = joint.pose.value if joint.pose is not None else IDENTITY
        link = walk.links[joint.child]
        out.append(LumpedFrame(Frame(joint.name, joint.parent, RawPose(origin, loc=joint.loc),
                                     joint.loc), joint, body, kept))
        out.append(LumpedFrame(Frame(link.name, joint.name, None, link.loc), joint, body, kept))
    return out


def check_lumped_frames(ctx: ReadContext, model: Model,
                        joint_elements: dict[str, etree._Element], walk: UrdfWalk) -> None:
    """Refuse, as libsdformat 13.1+ does, a lumped frame attached to a link it does not write."""
    for lf in lumped_frames(walk):
        joint = lf.joint
        if lf.written or lf.frame.name != joint.name or joint.parent != lf.body:
            continue  # fine, or a frame further down the failing chain
        ctx.error(ErrorCode.FRAME_ATTACHED_TO_INVALID,
                  f'attached_to name[{joint.parent}] specified by frame with name[{joint.name}] '
                  f'does not match a nested model, link, joint, or frame name in model with '
                  f'name[{model.name}]: libsdformat 13.1+ {KEPT_FRAME} '
                  f'[{joint.name}] (gazebosim/sdformat#1148) attached to link [{joint.parent}], '
                  'which it does not write (no mass after lumping). Fix: give '
                  f'[{joint.parent}] an <inertial> with a positive mass',
                  joint_elements.get(joint.name))


def is_unattached_lumped_frame(d: Diagnostic) -> bool:
    """Whether ``d`` is the error :func:`check_lumped_frames` gives.

    Only libsdformat refuses such a robot (ROS tools read every link); a conversion that
    gives the massless link a mass repairs it.
    """
    return d.code is ErrorCode.FRAME_ATTACHED_TO_INVALID and KEPT_FRAME in d.message
