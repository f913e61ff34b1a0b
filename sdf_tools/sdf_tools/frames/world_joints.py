"""World-level joints (SDFormat 1.10+) in a world's two graphs, and their checks.

libsdformat 13 and later give a ``<world>`` joints: each is a vertex of the world's
pose-relative-to and attached-to graphs (after the models, before the world frames),
placed ``relative_to`` its child unless said otherwise and attached to its child, with
the same parent/child checks as a model's joints, in world scope (``a::link``).
The reader only keeps world joints for 1.10+ files; older specs have none.
"""
from __future__ import annotations

from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.frames.graph import FrameGraphs, Kind, PoseEdge
from sdf_tools.frames.resolve import body_name
from sdf_tools.model import Joint, World
from sdf_tools.transform import IDENTITY


def _err(code: ErrorCode, msg: str, joint: Joint) -> Diagnostic:
    loc = joint.loc
    return Diagnostic(code, msg, loc.file if loc else None, loc.line if loc else None)


def add_world_joint_vertices(g: FrameGraphs, world: World) -> list[int | None]:
    """Add one vertex per world joint; None where the name is taken."""
    vids: list[int | None] = []
    for joint in world.joints:
        if joint.name in g.ids:
            g.errors.append(_err(ErrorCode.DUPLICATE_NAME,
                                 f'Joint with non-unique name [{joint.name}] detected in world '
                                 f'with name [{world.name}].', joint))
            vids.append(None)
            continue
        vids.append(g.add(joint.name, Kind.JOINT, joint.loc))
    return vids


def add_world_joint_edges(g: FrameGraphs, world: World, vids: list[int | None]) -> None:
    """Add each world joint's pose edge (from its relative_to or child) and attached edge."""
    for joint, jv in zip(world.joints, vids, strict=True):
        if jv is None:
            continue
        p = joint.pose
        ref = (p.relative_to if p is not None else '') or joint.child
        parent = g.ids.get(ref)
        if parent is None or parent == jv:
            code = (ErrorCode.POSE_RELATIVE_TO_CYCLE if parent == jv
                    else ErrorCode.POSE_RELATIVE_TO_INVALID)
            g.errors.append(_err(code, f'relative_to name[{ref}] specified by joint with '
                                 f'name[{joint.name}] does not match a model, joint, or frame '
                                 f'name in world with name[{world.name}].', joint))
        else:
            g.pose_in[jv].append(PoseEdge(parent, p.value if p is not None else IDENTITY))
        target = g.ids.get(joint.child)
        if target is None:
            g.errors.append(_err(ErrorCode.JOINT_CHILD_LINK_INVALID,
                                 f'Child frame with name[{joint.child}] specified by joint with '
                                 f'name[{joint.name}] not found in world with name[{world.name}].',
                                 joint))
            continue
        g.attached_out[jv].append((target, False))


def check_world_joints(world: World, g: FrameGraphs) -> list[Diagnostic]:
    """Check world joints' parent and child as libsdformat's ``checkJointParentChildNames``."""
    out: list[Diagnostic] = []
    where = f'world with name[{world.name}]'
    for j in world.joints:
        parent, child = j.parent, j.child
        if parent != 'world' and not parent.endswith('__model__') and parent not in g.ids:
            out.append(_err(ErrorCode.JOINT_PARENT_LINK_INVALID,
                            f'parent frame with name[{parent}] specified by joint with '
                            f'name[{j.name}] not found in {where}.', j))
        if child == 'world':
            out.append(_err(ErrorCode.JOINT_CHILD_LINK_INVALID,
                            f'invalid child name[world] specified by joint with name[{j.name}] '
                            f'in {where}.', j))
        elif not child.endswith('__model__') and child not in g.ids:
            out.append(_err(ErrorCode.JOINT_CHILD_LINK_INVALID,
                            f'child frame with name[{child}] specified by joint with '
                            f'name[{j.name}] not found in {where}.', j))
        pb = 'world' if parent == 'world' else body_name(g, g.ids.get(parent), world_scope=True)
        cb = 'world' if child == 'world' else body_name(g, g.ids.get(child), world_scope=True)
        if child != 'world' and cb == 'world':
            out.append(_err(ErrorCode.JOINT_CHILD_LINK_INVALID,
                            f'joint with name[{j.name}] in world has a child with name[{child}] '
                            'that resolves to world which is invalid.', j))
        elif pb is not None and pb == cb:
            out.append(_err(ErrorCode.JOINT_PARENT_SAME_AS_CHILD,
                            f'joint with name[{j.name}] in {where} specified parent frame '
                            f'[{parent}] and child frame [{child}] that both resolve to [{cb}].', j))
        for axis in (j.axis, j.axis2):
            if axis is not None and axis.expressed_in and axis.expressed_in not in g.ids:
                out.append(_err(ErrorCode.JOINT_AXIS_EXPRESSED_IN_INVALID,
                                f'axis xyz expressed-in frame with name[{axis.expressed_in}] '
                                f'specified by joint with name[{j.name}] not found in {where}.', j))
    return out
