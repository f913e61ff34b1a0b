"""Walk the graphs: a vertex's pose in another, the body a frame is fixed to."""
from __future__ import annotations

from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.frames.graph import FrameGraphs, Kind
from sdf_tools.transform import IDENTITY, Transform


def pose_to_source(g: FrameGraphs, vid: int, source: int) -> tuple[Transform | None, Diagnostic | None]:
    """Return ``X_source_vid`` by following pose in-edges up to ``source``.

    Memoised for the graph's root, which is what every world pose uses; a
    walk that meets more than one in-edge, a cycle, or a vertex with no
    in-edge other than ``source`` fails with libsdformat's code.
    """
    use_cache = source == g.root
    if use_cache and vid in g._cache:
        cached = g._cache[vid]
        return cached, None if cached is not None else _disconnected(g, vid, source)
    chain: list[tuple[int, Transform]] = []
    visited = {vid}
    v = vid
    base = IDENTITY
    while v != source:
        if use_cache and v in g._cache and v != vid:
            cached = g._cache[v]
            if cached is None:
                return None, _disconnected(g, vid, source)
            base = cached
            break
        edges = g.pose_in[v]
        if len(edges) != 1:
            if not edges:
                return None, _disconnected(g, vid, source)
            return None, Diagnostic(ErrorCode.POSE_RELATIVE_TO_GRAPH_ERROR,
                                    f'PoseRelativeToGraph error: multiple incoming edges to '
                                    f'current vertex [{g.names[v]}].')
        e = edges[0]
        chain.append((v, e.value))
        v = e.parent
        if v in visited:
            return None, Diagnostic(ErrorCode.POSE_RELATIVE_TO_CYCLE,
                                    f'PoseRelativeToGraph cycle detected, already visited '
                                    f'vertex [{g.names[v]}].')
        visited.add(v)
    pose = base
    for node, value in reversed(chain):
        pose = pose * value
        if use_cache:
            g._cache[node] = pose
    return pose, None


def _disconnected(g: FrameGraphs, vid: int, source: int) -> Diagnostic:
    return Diagnostic(ErrorCode.POSE_RELATIVE_TO_GRAPH_ERROR,
                      f'PoseRelativeToGraph frame with name [{g.names[vid]}] is disconnected; '
                      f'its source should be [{g.names[source]}].')


def resolve_pose(g: FrameGraphs, vid: int, relative_to: int | None = None) -> Transform | None:
    """Return the pose of ``vid`` in ``relative_to`` (the graph's root if None)."""
    x_rv, err = pose_to_source(g, vid, g.root)
    if err is not None or x_rv is None:
        return None
    if relative_to is None or relative_to == g.root:
        return x_rv
    x_rr, err = pose_to_source(g, relative_to, g.root)
    if err is not None or x_rr is None:
        return None
    return x_rr.inverse() * x_rv


def find_sink(g: FrameGraphs, vid: int) -> tuple[int | None, Diagnostic | None]:
    """Follow attached-to out-edges from ``vid`` to the vertex with none."""
    visited = {vid}
    v = vid
    while g.attached_out[v]:
        out = g.attached_out[v]
        if len(out) != 1:
            return None, Diagnostic(ErrorCode.FRAME_ATTACHED_TO_GRAPH_ERROR,
                                    f'FrameAttachedToGraph error: multiple outgoing edges from '
                                    f'current vertex [{g.names[v]}].')
        v = out[0][0]
        if v in visited:
            return None, Diagnostic(ErrorCode.FRAME_ATTACHED_TO_CYCLE,
                                    f'FrameAttachedToGraph cycle detected, already visited '
                                    f'vertex [{g.names[v]}].')
        visited.add(v)
    return v, None


def resolve_attached_body(g: FrameGraphs, vid: int, world_scope: bool
                          ) -> tuple[int | None, Diagnostic | None]:
    """Return the link (or world, or static model) ``vid`` is rigidly fixed to."""
    key = (vid, world_scope)
    hit = g._sinks.get(key)
    if hit is None:
        hit = g._sinks[key] = _attached_body(g, vid, world_scope)
    return hit


def _attached_body(g: FrameGraphs, vid: int, world_scope: bool
                   ) -> tuple[int | None, Diagnostic | None]:
    sink, err = find_sink(g, vid)
    if err is not None or sink is None:
        return None, err
    kind = g.kinds[sink]
    ok = (Kind.WORLD, Kind.STATIC_MODEL, Kind.LINK) if world_scope else (Kind.LINK, Kind.STATIC_MODEL)
    if kind not in ok:
        return None, Diagnostic(ErrorCode.FRAME_ATTACHED_TO_GRAPH_ERROR,
                                f'FrameAttachedToGraph: the chain from [{g.names[vid]}] ends at '
                                f'[{g.names[sink]}], which is not a link'
                                + (', a static model or the world' if world_scope else
                                   ' or a static model') + '.')
    return sink, None
