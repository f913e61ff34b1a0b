"""Joint parent/child checks that need the graphs (libsdformat's last pass)."""
from __future__ import annotations

from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.frames.graph import FrameGraphs, Kind, join
from sdf_tools.frames.resolve import resolve_attached_body
from sdf_tools.model import Joint, Model


def _d(code: ErrorCode, msg: str, joint: Joint) -> Diagnostic:
    loc = joint.loc
    return Diagnostic(code, msg, loc.file if loc else None, loc.line if loc else None)


def joint_body(g: FrameGraphs, scope: str, name: str) -> str | None:
    """Return the full name of the link a joint parent/child name is fixed to."""
    if name == 'world':
        return 'world'
    vid = g.find(scope, name)
    if vid is None:
        return None
    body, err = resolve_attached_body(g, vid, world_scope=False)
    if err is not None or body is None:
        return None
    if g.kinds[body] is Kind.WORLD:
        return 'world'
    return g.names[body]


def check_joints(model: Model, g: FrameGraphs, parent_scope: str) -> list[Diagnostic]:
    """Check every joint's parent and child in ``model`` and its nested models."""
    out: list[Diagnostic] = []
    scope = join(parent_scope, model.name)
    if scope not in g.ids:
        return out
    kinds_ok = (Kind.LINK, Kind.JOINT, Kind.FRAME)
    for j in model.joints:
        pv = g.find(scope, j.parent)
        if j.parent and j.parent != 'world' and (pv is None or g.kinds[pv] not in kinds_ok):
            out.append(_d(ErrorCode.JOINT_PARENT_LINK_INVALID,
                          f'parent frame with name[{j.parent}] specified by joint with name[{j.name}] '
                          f'not found in model with name[{model.name}].', j))
        cv = g.find(scope, j.child)
        if j.child and j.child != 'world' and cv is None:
            out.append(_d(ErrorCode.JOINT_CHILD_LINK_INVALID,
                          f'child frame with name[{j.child}] specified by joint with name[{j.name}] '
                          f'not found in model with name[{model.name}].', j))
        if j.child == j.name:
            out.append(_d(ErrorCode.JOINT_CHILD_LINK_INVALID,
                          f'joint with name[{j.name}] must not specify its own name as the child frame.', j))
        if j.parent == j.name:
            out.append(_d(ErrorCode.JOINT_PARENT_LINK_INVALID,
                          f'joint with name[{j.name}] must not specify its own name as the parent frame.', j))
        if j.parent and j.child and j.parent != j.child:
            pb, cb = joint_body(g, scope, j.parent), joint_body(g, scope, j.child)
            if pb is not None and pb == cb:
                out.append(_d(ErrorCode.JOINT_PARENT_SAME_AS_CHILD,
                              f'joint with name[{j.name}] specified parent frame [{j.parent}] and child '
                              f'frame [{j.child}] that both resolve to [{cb}].', j))
        for axis in (j.axis, j.axis2):
            if axis is not None and axis.expressed_in and g.find(scope, axis.expressed_in) is None:
                out.append(_d(ErrorCode.JOINT_AXIS_EXPRESSED_IN_INVALID,
                              f'axis of joint [{j.name}] is expressed_in [{axis.expressed_in}], which '
                              f'is not a frame of model [{model.name}].', j))
    for m in model.models:
        out.extend(check_joints(m, g, scope))
    return out
