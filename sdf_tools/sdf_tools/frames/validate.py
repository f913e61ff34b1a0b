"""Check the built graphs the way libsdformat's validate functions do.

Every vertex must have exactly one pose parent and reach the root; every
non-link vertex exactly one attached-to target, ending at a link (or a
static model, or the world in a world). Each failure is reported once, at
the element that made the vertex.
"""
from __future__ import annotations

from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.frames.graph import FrameGraphs, Kind
from sdf_tools.frames.resolve import BODY_KINDS, pose_to_source, resolve_all, resolve_attached_body


def _located(g: FrameGraphs, vid: int, d: Diagnostic) -> Diagnostic:
    loc = g.locs.get(vid)
    if loc is None:
        return d
    return Diagnostic(d.code, d.message, loc.file, loc.line, loc.xml_path, d.severity)


def _check_degrees(g: FrameGraphs, vid: int) -> Diagnostic | None:
    kind = g.kinds[vid]
    name = g.names[vid]
    n_in = len(g.pose_in[vid])
    if vid != g.root and kind is not Kind.ROOT and n_in > 1:
        return Diagnostic(ErrorCode.POSE_RELATIVE_TO_GRAPH_ERROR,
                          f'PoseRelativeToGraph error, too many incoming edges at a vertex '
                          f'with name [{name}].')
    real_out = [t for t, alias in g.attached_out[vid] if not alias]
    out = g.attached_out[vid]
    if len(out) > 1:
        return Diagnostic(ErrorCode.FRAME_ATTACHED_TO_GRAPH_ERROR,
                          f'FrameAttachedToGraph error, too many outgoing edges at a vertex with '
                          f'name [{name}].')
    if kind in (Kind.LINK, Kind.WORLD) and out:
        return Diagnostic(ErrorCode.FRAME_ATTACHED_TO_GRAPH_ERROR,
                          f'FrameAttachedToGraph error, {kind.name} vertex with name [{name}] '
                          'should have no outgoing edges.')
    if kind is Kind.STATIC_MODEL and real_out:
        return Diagnostic(ErrorCode.FRAME_ATTACHED_TO_GRAPH_ERROR,
                          f'FrameAttachedToGraph error, STATIC_MODEL vertex with name [{name}] '
                          'should have no outgoing edges.')
    if kind in (Kind.MODEL, Kind.JOINT, Kind.FRAME) and not out:
        return Diagnostic(ErrorCode.FRAME_ATTACHED_TO_GRAPH_ERROR,
                          f'FrameAttachedToGraph error, Non-LINK vertex with name [{name}] is '
                          'disconnected; it should have 1 outgoing edge.')
    return None


#: Kinds whose vertex needs exactly one attached-to out-edge.
_NEEDS_OUT = (Kind.MODEL, Kind.JOINT, Kind.FRAME)


def _report(g: FrameGraphs, seen: set[str], vid: int, d: Diagnostic) -> None:
    if d.message not in seen:
        seen.add(d.message)
        g.errors.append(_located(g, vid, d))


def validate(g: FrameGraphs, *, world_scope: bool) -> None:
    """Append every graph error to ``g.errors`` (deduplicated by message).

    Per vertex: its degrees, then its pose, then its attached-to body. Every
    pose and body that resolves is found first, in one pass; then degrees
    that are plainly right and a pose or body that resolved need no further
    look, and anything else gets the full check and its message.
    """
    resolve_all(g)
    seen = {d.message for d in g.errors}
    kinds, root, bodies = g.kinds, g.root, BODY_KINDS[world_scope]
    for vid, (kind, pin, out, pose, sink) in enumerate(
            zip(kinds, g.pose_in, g.attached_out, g._poses, g._sink, strict=True)):
        if kind is Kind.ROOT:
            continue
        # Superset of _check_degrees' failures: two pose parents, two
        # targets, or a target where none belongs or none where one does.
        if len(pin) > 1 or len(out) > 1 or (not out) is (kind in _NEEDS_OUT):
            d = _check_degrees(g, vid)
            if d is not None:
                _report(g, seen, vid, d)
        if pose is None and vid != root:
            err = pose_to_source(g, vid, root)[1]
            if err is not None:
                _report(g, seen, vid, err)
        if sink < 0 or kinds[sink] not in bodies:
            err = resolve_attached_body(g, vid, world_scope)[1]
            if err is not None:
                _report(g, seen, vid, err)
