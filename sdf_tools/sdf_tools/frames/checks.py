"""Joint parent/child checks that need the graphs (libsdformat's last pass)."""
from __future__ import annotations

from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.frames.graph import FrameGraphs, Kind, join, prefix
from sdf_tools.frames.resolve import body_name
from sdf_tools.model import Joint, Model


def _d(code: ErrorCode, msg: str, joint: Joint) -> Diagnostic:
    loc = joint.loc
    return Diagnostic(code, msg, loc.file if loc else None, loc.line if loc else None)


def _is_model_frame(name: str) -> bool:
    return name == '__model__' or name.endswith('::__model__')


_MODEL_KINDS = (Kind.MODEL, Kind.STATIC_MODEL)


def check_joints(model: Model, g: FrameGraphs, parent_scope: str, *,
                 model_frame_child_ok: bool = False) -> list[Diagnostic]:
    """Check the parent, child and axis frames of the joints directly in ``model``.

    Only a top-level model's joints (the root model's, or each world model's), as every
    libsdformat version does (``checkJointParentChildNames``, and from 13.3 on
    ``checkJointAxisExpressedInValues``): nested models' joints are not checked there;
    their child is checked while the attached-to graph is built, as everywhere.
    ``model_frame_child_ok``: a child (or parent) ``__model__`` or nested model stands for
    the canonical link, as in libsdformat 13+ (1.10+ files, and every file for Harmonic on:
    14.9.0 and 15.4.0 accept their test/sdf/joint_parent_model_frame.sdf, a 1.8 file); 12.3
    refuses it.
    """
    out: list[Diagnostic] = []
    scope = join(parent_scope, model.name)
    if scope not in g.ids:
        return out
    pre = prefix(scope)
    ids, kinds = g.ids, g.kinds
    kinds_ok = (Kind.LINK, Kind.JOINT, Kind.FRAME)
    for j in model.joints:
        parent, child = j.parent, j.child
        pv = ids.get(pre + parent)
        # From libsdformat 13 a parent may be a model frame too (``__model__``, a nested
        # model): it stands for that model's canonical link, as a child does.
        model_ok = model_frame_child_ok and pv is not None and kinds[pv] in _MODEL_KINDS
        if parent and parent != 'world' and (pv is None or (kinds[pv] not in kinds_ok and not model_ok)):
            out.append(_d(ErrorCode.JOINT_PARENT_LINK_INVALID,
                          f'parent frame with name[{parent}] specified by joint with name[{j.name}] '
                          f'not found in model with name[{model.name}].', j))
        cv = ids.get(pre + child)
        # libsdformat looks the child up among links, joints, frames and nested models:
        # the implicit __model__ frame is none of them.
        if child and child != 'world' and (
                cv is None or (_is_model_frame(child) and not model_frame_child_ok)):
            out.append(_d(ErrorCode.JOINT_CHILD_LINK_INVALID,
                          f'child frame with name[{child}] specified by joint with name[{j.name}] '
                          f'not found in model with name[{model.name}].', j))
        if child == j.name:
            out.append(_d(ErrorCode.JOINT_CHILD_LINK_INVALID,
                          f'joint with name[{j.name}] must not specify its own name as the child frame.', j))
        if parent == j.name:
            out.append(_d(ErrorCode.JOINT_PARENT_LINK_INVALID,
                          f'joint with name[{j.name}] must not specify its own name as the parent frame.', j))
        if parent and child and parent != child:
            # the link each is fixed to, from the vertices already looked up
            pb = 'world' if parent == 'world' else body_name(g, pv, world_scope=False)
            cb = 'world' if child == 'world' else body_name(g, cv, world_scope=False)
            if pb is not None and pb == cb:
                out.append(_d(ErrorCode.JOINT_PARENT_SAME_AS_CHILD,
                              f'joint with name[{j.name}] specified parent frame [{parent}] and child '
                              f'frame [{child}] that both resolve to [{cb}].', j))
        a1, a2 = j.axis, j.axis2
        if (a1 is None or not a1.expressed_in) and (a2 is None or not a2.expressed_in):
            continue  # the usual case
        for axis in (a1, a2):
            if axis is not None and axis.expressed_in and ids.get(pre + axis.expressed_in) is None:
                out.append(_d(ErrorCode.JOINT_AXIS_EXPRESSED_IN_INVALID,
                              f'axis of joint [{j.name}] is expressed_in [{axis.expressed_in}], which '
                              f'is not a frame of model [{model.name}].', j))
    return out
