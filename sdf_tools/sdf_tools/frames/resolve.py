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
    poses = g._poses
    if use_cache:
        hit = poses[vid]
        if hit is not None:
            return hit, None
        # The common case: one edge, from the source or from a resolved
        # parent. The same product as the walk below makes.
        if vid != source:
            edges = g.pose_in[vid]
            if len(edges) == 1:
                e = edges[0]
                parent = e.parent
                base = IDENTITY if parent == source else poses[parent]
                if base is not None and parent != vid:
                    pose = poses[vid] = base * e.value
                    return pose, None
    chain: list[tuple[int, Transform]] = []
    visited = {vid}
    v = vid
    pose = IDENTITY
    while v != source:
        hit = poses[v] if use_cache else None
        if hit is not None:  # never ``vid`` itself: that was looked up above
            pose = hit
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
    for node, value in reversed(chain):
        pose = pose * value
        if use_cache:
            poses[node] = pose
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


def world_pose(g: FrameGraphs, vid: int | None) -> Transform | None:
    """Return the pose in the root of ``vid`` as looked up (None: no such vertex, or unresolvable)."""
    if vid is None:
        return None
    hit = g._poses[vid]  # known for every good vertex once validated
    return hit if hit is not None else resolve_pose(g, vid)


def find_sink(g: FrameGraphs, vid: int) -> tuple[int | None, Diagnostic | None]:
    """Follow attached-to out-edges from ``vid`` to the vertex with none.

    A walk that succeeds is remembered for every vertex on it (each one's
    own walk is the rest of this one), and a later walk stops at the first
    remembered vertex: what follows it has neither a fork nor a cycle, nor
    can it come back to the part walked so far. Failures are not kept: a
    cycle's message names where the walk started.
    """
    known = g._sink
    if known[vid] >= 0:
        return known[vid], None
    path = {vid: None}  # the walk so far, in order
    v = vid
    while g.attached_out[v]:
        out = g.attached_out[v]
        if len(out) != 1:
            return None, Diagnostic(ErrorCode.FRAME_ATTACHED_TO_GRAPH_ERROR,
                                    f'FrameAttachedToGraph error: multiple outgoing edges from '
                                    f'current vertex [{g.names[v]}].')
        v = out[0][0]
        if v in path:
            return None, Diagnostic(ErrorCode.FRAME_ATTACHED_TO_CYCLE,
                                    f'FrameAttachedToGraph cycle detected, already visited '
                                    f'vertex [{g.names[v]}].')
        if known[v] >= 0:
            v = known[v]
            break
        path[v] = None
    for u in path:
        known[u] = v
    return v, None


#: What a chain of attached-to edges may end at, in a world or in a lone model.
BODY_KINDS: dict[bool, tuple[Kind, ...]] = {
    True: (Kind.WORLD, Kind.STATIC_MODEL, Kind.LINK),
    False: (Kind.LINK, Kind.STATIC_MODEL),
}


def resolve_attached_body(g: FrameGraphs, vid: int, world_scope: bool
                          ) -> tuple[int | None, Diagnostic | None]:
    """Return the link (or world, or static model) ``vid`` is rigidly fixed to."""
    sink, err = find_sink(g, vid)
    if err is not None or sink is None:
        return None, err
    if g.kinds[sink] in BODY_KINDS[world_scope]:
        return sink, None
    return None, Diagnostic(ErrorCode.FRAME_ATTACHED_TO_GRAPH_ERROR,
                            f'FrameAttachedToGraph: the chain from [{g.names[vid]}] ends at '
                            f'[{g.names[sink]}], which is not a link'
                            + (', a static model or the world' if world_scope else
                               ' or a static model') + '.')


def body_name(g: FrameGraphs, vid: int | None, world_scope: bool) -> str | None:
    """Return the full name of the body ``vid`` is fixed to (``world`` for the world).

    ``vid`` as looked up: None (no such vertex) gives None.
    """
    if vid is None:
        return None
    body = g._sink[vid]  # known for every good vertex once validated
    if body < 0:
        found = resolve_attached_body(g, vid, world_scope)[0]
        if found is None:
            return None
        body = found
    elif g.kinds[body] not in BODY_KINDS[world_scope]:
        return None
    return 'world' if g.kinds[body] is Kind.WORLD else g.names[body]


def resolve_all(g: FrameGraphs) -> None:
    """Resolve every vertex that can be: its pose in the root and its attached-to sink.

    Fills what :func:`pose_to_source` and :func:`find_sink` remember, in one
    pass that keeps no messages (validation then asks those two about the
    vertices left out). Neither result depends on the order: a pose is the
    parent's pose times the edge, from the root down, whichever walk makes
    it; and no vertex of a failing walk is ever remembered, so a vertex's
    own walk still fails the way it would have.
    """
    n = len(g.names)
    poses, pose_in, root = g._poses, g.pose_in, g.root
    on_walk = [-1] * n  # on_walk[v] == vid: v is on the walk from vid (a cycle)
    for vid in range(n):
        if poses[vid] is not None or vid == root:
            continue
        # The common case first: one edge, from a parent resolved already
        # (so not ``vid``): the walk below would make the same one product.
        edges = pose_in[vid]
        if len(edges) == 1:
            e = edges[0]
            parent_pose = IDENTITY if e.parent == root else poses[e.parent]
            if parent_pose is not None:
                poses[vid] = parent_pose * e.value
                continue
        chain: list[tuple[int, Transform]] = []
        v = vid
        base: Transform | None = None
        while True:
            edges = pose_in[v]
            if len(edges) != 1:
                break
            on_walk[v] = vid
            e = edges[0]
            chain.append((v, e.value))
            v = e.parent
            base = IDENTITY if v == root else poses[v]
            if base is not None or on_walk[v] == vid:
                break
        if base is not None:
            for node, value in reversed(chain):
                base = poses[node] = base * value
    sinks, attached_out = g._sink, g.attached_out
    for vid in range(n):
        if sinks[vid] >= 0:
            continue
        # Likewise: a sink itself, or one edge to a vertex whose sink is known.
        out = attached_out[vid]
        if len(out) < 2:
            sink = sinks[out[0][0]] if out else vid
            if sink >= 0:
                sinks[vid] = sink
                continue
        path: list[int] = []
        v = vid
        sink = -1
        while True:
            out = attached_out[v]
            if not out:
                path.append(v)
                sink = v
                break
            if len(out) != 1:
                break
            on_walk[v] = n + vid  # apart from the pose walks' marks
            path.append(v)
            v = out[0][0]
            sink = sinks[v]
            if sink >= 0 or on_walk[v] == n + vid:
                break
        if sink >= 0:
            for u in path:
                sinks[u] = sink
