"""Build the graphs of a lone model or of a world, then validate them.

Mirrors the order in which libsdformat adds vertices and edges, so that the
same file yields the same errors: first every vertex of a scope (links,
joints, frames, nested models), then the edges, then validation.
"""
from __future__ import annotations

from collections.abc import Sequence

from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.frames.graph import FrameGraphs, Kind, PoseEdge, join, prefix
from sdf_tools.frames.resolve import pose_to_source
from sdf_tools.frames.validate import validate
from sdf_tools.frames.world_joints import add_world_joint_edges, add_world_joint_vertices
from sdf_tools.model import Frame, Joint, Link, Model, RawPose, World
from sdf_tools.model.canonical import canonical_link_relative_name
from sdf_tools.model.common import Loc
from sdf_tools.transform import IDENTITY, Transform


class _Added:
    """The vertices one model's elements made, kept so edges need no name look-ups.

    Lists follow the model's element order; None marks an element whose name
    clashed, so that it made no vertex (in ``models``: a nested model's name).
    A plain class, not a dataclass: it is only built and read here, and a dataclass
    costs ~2 M instructions at every start of the CLI (bench/PROFILE.md, session 9).
    """

    __slots__ = ('frames', 'joints', 'links', 'mf', 'models', 'mv', 'scope')

    def __init__(self, scope: str, mv: int, mf: int, links: list[int | None],
                 joints: list[int | None], frames: list[int | None],
                 models: list[_Added | None]) -> None:
        self.scope = scope
        self.mv = mv  # the vertex named after the model
        self.mf = mf  # its ``__model__`` frame
        self.links, self.joints, self.frames, self.models = links, joints, frames, models


def _err(g: FrameGraphs, code: ErrorCode, msg: str, loc: Loc | None) -> None:
    g.errors.append(Diagnostic(code, msg, loc.file if loc else None, loc.line if loc else None))


def _raw(p: RawPose | None) -> Transform:
    return p.value if p is not None else IDENTITY


def _rel(p: RawPose | None) -> str:
    return p.relative_to if p is not None else ''


def _add_items(g: FrameGraphs, pre: str, model_name: str, what: str,
               items: Sequence[Link | Joint | Frame], kind: Kind) -> list[int | None]:
    ids = g.ids
    vids: list[int | None] = []
    for item in items:
        full = pre + item.name
        if full in ids:
            _err(g, ErrorCode.DUPLICATE_NAME,
                 f'{what} with non-unique name [{item.name}] detected in model with name '
                 f'[{model_name}].', item.loc)
            vids.append(None)
        else:
            vids.append(g.add(full, kind, item.loc))
    return vids


def _add_vertices(g: FrameGraphs, parent_scope: str, model: Model) -> _Added | None:
    """Add the vertices of ``model`` (recursively); None on a name clash."""
    kind = Kind.STATIC_MODEL if model.static else Kind.MODEL
    scope = join(parent_scope, model.name)
    if scope in g.ids:
        _err(g, ErrorCode.DUPLICATE_NAME,
             f'Nested model with non-unique name [{model.name}] detected in scope '
             f'[{parent_scope or "root"}].', model.loc)
        return None
    pre = prefix(scope)
    mv = g.add(scope, kind, model.loc)
    mf = g.add(pre + '__model__', kind, model.loc)
    g.add_pose_edge(mv, mf, IDENTITY)
    g.add_attached_edge(mv, mf, alias=True)
    added = _Added(scope, mv, mf,
                   _add_items(g, pre, model.name, 'Link', model.links, Kind.LINK),
                   _add_items(g, pre, model.name, 'Joint', model.joints, Kind.JOINT),
                   _add_items(g, pre, model.name, 'Frame', model.frames, Kind.FRAME),
                   [_add_vertices(g, scope, m) for m in model.models])
    g.added_models.add(id(model))
    return added


def _current(g: FrameGraphs, vid: int, full: str) -> int:
    """Return the vertex ``full`` names now: ``vid``, unless a later vertex took the name."""
    return g.ids[full] if vid in g.shadowed else vid


def _named(g: FrameGraphs, pre: str, items: Sequence[Link | Joint | Frame],
           vids: list[int | None], kind: Kind | None = None) -> list[int | None]:
    """Return the vertex each item's edges go to (None: the item has none).

    That is the vertex its name finds, provided it was made by the same
    element (same ``loc`` object) and, given ``kind``, is of that kind: for
    an item that made a vertex nobody shadowed, its own. Only a clashing or
    shadowed item needs the look-up.
    """
    shadowed = g.shadowed
    if not shadowed and None not in vids:
        return vids
    out: list[int | None] = []
    for item, v in zip(items, vids, strict=True):
        if v is None or v in shadowed:
            v = g.ids.get(pre + item.name)
            if v is not None and (g.locs.get(v) is not item.loc
                                  or (kind is not None and g.kinds[v] is not kind)):
                v = None
        out.append(v)
    return out


def _edge_from(g: FrameGraphs, scope: str, pre: str, ref: str, child: int, value: Transform,
               who: str, name: str, code: ErrorCode, loc: Loc | None,
               what: str = 'relative_to') -> None:
    """Add the pose edge ``ref -> child``; ``who``/``name`` describe the child in errors."""
    _edge_from_vertex(g, scope, ref, g.ids.get(pre + ref), child, value, who, name, code, loc, what)


def _edge_from_vertex(g: FrameGraphs, scope: str, ref: str, parent: int | None, child: int,
                      value: Transform, who: str, name: str, code: ErrorCode, loc: Loc | None,
                      what: str = 'relative_to') -> None:
    """:func:`_edge_from` with ``ref`` already looked up as ``parent``."""
    if parent is None:
        _err(g, code, f'{what} name[{ref}] specified by {who} with name[{name}] does not match a '
             f'nested model, link, joint, or frame name in scope [{scope}].', loc)
        return
    if parent == child:
        _err(g, ErrorCode.POSE_RELATIVE_TO_CYCLE,
             f'relative_to name[{ref}] is identical to {who} with name[{name}], causing a graph '
             'cycle.', loc)
    g.add_pose_edge(parent, child, value)


def placed_pose(g: FrameGraphs, model_scope: str, model: Model, raw: Transform) -> Transform:
    """Return ``X_RM`` given ``X_RPf``: the model pose names its placement frame."""
    if not model.placement_frame:
        return raw
    pf = g.find(model_scope, model.placement_frame)
    mf = g.find(model_scope, '__model__')
    if pf is None or mf is None:
        msg = (f'placement_frame [{model.placement_frame}] of model [{model.name}] does not name '
               'a frame in that model.')
        _err(g, ErrorCode.MODEL_PLACEMENT_FRAME_INVALID, msg, model.loc)
        _err(g, ErrorCode.POSE_RELATIVE_TO_INVALID, msg, model.loc)
        return raw
    x_mpf, err = pose_to_source(g, pf, mf)
    if err is not None or x_mpf is None:
        return raw
    return raw * x_mpf.inverse()


def _add_edges(g: FrameGraphs, model: Model, added: _Added) -> None:
    scope = added.scope
    pre = prefix(scope)
    mf = _current(g, added.mf, pre + '__model__')
    links = _named(g, pre, model.links, added.links, Kind.LINK)
    joints = _named(g, pre, model.joints, added.joints)
    frames = _named(g, pre, model.frames, added.frames)
    # The edges of links and joints, most of a model's, are added here
    # directly when their reference resolves to another vertex (the usual
    # case); _edge_from_vertex reports the rest.
    ids, pose_in = g.ids, g.pose_in
    for link, lv in zip(model.links, links, strict=True):
        if lv is None:
            continue
        p = link.pose
        if p is None or not p.relative_to:
            pose_in[lv].append(PoseEdge(mf, _raw(p)))
            continue
        parent = ids.get(pre + p.relative_to)
        if parent is not None and parent != lv:
            pose_in[lv].append(PoseEdge(parent, p.value))
        else:
            _edge_from_vertex(g, scope, p.relative_to, parent, lv, p.value, 'link', link.name,
                              ErrorCode.POSE_RELATIVE_TO_INVALID, link.loc)
    for frame, fv in zip(model.frames, frames, strict=True):
        if fv is not None and not _rel(frame.pose) and not frame.attached_to:
            g.add_pose_edge(mf, fv, _raw(frame.pose))
    for nested, an in zip(model.models, added.models, strict=True):
        if an is not None:
            _add_edges(g, nested, an)
    for joint, jv in zip(model.joints, joints, strict=True):
        if jv is None:
            continue
        p = joint.pose
        ref = (p.relative_to if p is not None else '') or joint.child
        value = p.value if p is not None else IDENTITY
        parent = ids.get(pre + ref)
        if parent is not None and parent != jv:
            pose_in[jv].append(PoseEdge(parent, value))
        else:
            _edge_from_vertex(g, scope, ref, parent, jv, value, 'joint', joint.name,
                              ErrorCode.POSE_RELATIVE_TO_INVALID, joint.loc)
    for frame, fv in zip(model.frames, frames, strict=True):
        if fv is None:
            continue
        if _rel(frame.pose):
            _edge_from(g, scope, pre, _rel(frame.pose), fv, _raw(frame.pose), 'frame', frame.name,
                       ErrorCode.POSE_RELATIVE_TO_INVALID, frame.loc)
        elif frame.attached_to:
            _edge_from(g, scope, pre, frame.attached_to, fv, _raw(frame.pose), 'frame', frame.name,
                       ErrorCode.FRAME_ATTACHED_TO_INVALID, frame.loc, 'attached_to')
    for nested, an in zip(model.models, added.models, strict=True):
        if an is None:
            continue
        nv = _current(g, an.mv, an.scope)
        ref = _rel(nested.pose)
        parent = mf if not ref else g.ids.get(pre + ref)
        if parent is None:
            _err(g, ErrorCode.POSE_RELATIVE_TO_INVALID,
                 f'relative_to name[{ref}] specified by nested model with name[{nested.name}] '
                 f'does not match a nested model, link, joint, or frame name in model with '
                 f'name[{model.name}].', nested.loc)
            continue
        if parent == nv:
            _err(g, ErrorCode.POSE_RELATIVE_TO_CYCLE,
                 f'relative_to name[{ref}] is identical to nested model name[{nested.name}].',
                 nested.loc)
        g.add_pose_edge(parent, nv, placed_pose(g, an.scope, nested, _raw(nested.pose)))
    _attached_edges(g, pre, model, mf, joints, frames)


def _attached_edges(g: FrameGraphs, pre: str, model: Model, mf: int,
                    joints: list[int | None], frames: list[int | None]) -> None:
    ids, attached_out = g.ids, g.attached_out
    for joint, jv in zip(model.joints, joints, strict=True):
        if jv is None:
            continue
        target = ids.get(pre + joint.child)
        if target is None:
            _err(g, ErrorCode.JOINT_CHILD_LINK_INVALID,
                 f'Child frame with name[{joint.child}] specified by joint with name[{joint.name}] '
                 f'not found in model with name[{model.name}].', joint.loc)
            continue
        attached_out[jv].append((target, False))
    for frame, fv in zip(model.frames, frames, strict=True):
        if fv is None:
            continue
        ref = frame.attached_to or '__model__'
        target = ids.get(pre + ref)
        if target is None:
            _err(g, ErrorCode.FRAME_ATTACHED_TO_INVALID,
                 f'attached_to name[{ref}] specified by frame with name[{frame.name}] does not match '
                 f'a nested model, link, joint, or frame name in model with name[{model.name}].',
                 frame.loc)
            continue
        if frame.attached_to == frame.name:
            _err(g, ErrorCode.FRAME_ATTACHED_TO_CYCLE,
                 f'attached_to name[{ref}] is identical to frame name[{frame.name}], causing a '
                 'graph cycle.', frame.loc)
        g.add_attached_edge(fv, target)
    if model.static:
        return
    canon = canonical_link_relative_name(model)
    if not canon:
        if not model.models:
            return  # MODEL_WITHOUT_LINK was reported by the reader
        first = ids.get(pre + model.models[0].name)
        if first is not None:
            g.add_attached_edge(mf, first)
        return
    target = ids.get(pre + canon)
    if target is None:
        _err(g, ErrorCode.MODEL_CANONICAL_LINK_INVALID,
             f'canonical_link with name[{canon}] not found in model with name[{model.name}].',
             model.loc)
        return
    # libsdformat's frame graph takes any frame of the scope by that name (12 and newer,
    # "in case the canonical link is an InterfaceLink") and attaches the model frame to
    # it (a cycle if it is attached to the model frame); the reader warns that the spec
    # wants a link (sdf/model.py, RANDOM_FINDINGS F3).
    g.add_attached_edge(mf, target)


def build_model_graphs(model: Model) -> FrameGraphs:
    """Build and validate the graphs of a file whose root is one model."""
    g = FrameGraphs()
    root = g.add('__root__', Kind.ROOT)
    g.root = root
    added = _add_vertices(g, '', model)
    if added is not None:
        _add_edges(g, model, added)
        mv = g.ids[model.name]
        g.add_pose_edge(root, mv, placed_pose(g, model.name, model, _raw(model.pose)))
    validate(g, world_scope=False)
    return g


def build_world_graphs(world: World) -> FrameGraphs:
    """Build and validate the graphs of one world."""
    g = FrameGraphs()
    wv = g.add('world', Kind.WORLD, world.loc)
    g.root = wv
    models = [_add_vertices(g, '', m) for m in world.models]
    joint_vids = add_world_joint_vertices(g, world) if world.joints else []
    frame_vids: list[int | None] = []
    for frame in world.frames:
        if frame.name in g.ids:
            _err(g, ErrorCode.DUPLICATE_NAME, f'Frame with non-unique name [{frame.name}] detected '
                 f'in world with name [{world.name}].', frame.loc)
            frame_vids.append(None)
            continue
        fv = g.add(frame.name, Kind.FRAME, frame.loc)
        frame_vids.append(fv)
        if not _rel(frame.pose) and not frame.attached_to:
            g.add_pose_edge(wv, fv, _raw(frame.pose))
    for m, added in zip(world.models, models, strict=True):
        if added is not None:
            _add_edges(g, m, added)
    for m, added in zip(world.models, models, strict=True):
        if added is None:
            continue
        mv = _current(g, added.mv, m.name)
        ref = _rel(m.pose)
        parent: int | None = wv if not ref else g.ids.get(ref)
        if parent is None:
            _err(g, ErrorCode.POSE_RELATIVE_TO_INVALID,
                 f'relative_to name[{ref}] specified by model with name[{m.name}] does not match a '
                 f'model or frame name in world with name[{world.name}].', m.loc)
            continue
        if parent == mv:
            _err(g, ErrorCode.POSE_RELATIVE_TO_CYCLE,
                 f'relative_to name[{ref}] is identical to model name[{m.name}].', m.loc)
        g.add_pose_edge(parent, mv, placed_pose(g, m.name, m, _raw(m.pose)))
    if world.joints:
        add_world_joint_edges(g, world, joint_vids)
    for frame, fid in zip(world.frames, _named(g, '', world.frames, frame_vids), strict=True):
        if fid is None:
            continue
        ref, code, what = ((_rel(frame.pose), ErrorCode.POSE_RELATIVE_TO_INVALID, 'relative_to')
                           if _rel(frame.pose) else
                           (frame.attached_to, ErrorCode.FRAME_ATTACHED_TO_INVALID, 'attached_to'))
        if ref:
            _edge_from(g, '', '', ref, fid, _raw(frame.pose), 'frame', frame.name, code,
                       frame.loc, what)
        target = g.ids.get(frame.attached_to or 'world')
        if target is None:
            if frame.attached_to and not _rel(frame.pose):
                continue  # already reported
            _err(g, ErrorCode.FRAME_ATTACHED_TO_INVALID,
                 f'attached_to name[{frame.attached_to}] specified by frame with name[{frame.name}] '
                 f'does not match a model or frame name in world with name[{world.name}].', frame.loc)
            continue
        if frame.attached_to == frame.name:
            _err(g, ErrorCode.FRAME_ATTACHED_TO_CYCLE,
                 f'attached_to name[{frame.attached_to}] is identical to frame name[{frame.name}].',
                 frame.loc)
        g.add_attached_edge(fid, target)
    validate(g, world_scope=True)
    return g
