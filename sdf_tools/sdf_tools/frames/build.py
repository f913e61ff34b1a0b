"""Build the graphs of a lone model or of a world, then validate them.

Mirrors the order in which libsdformat adds vertices and edges, so that the
same file yields the same errors: first every vertex of a scope (links,
joints, frames, nested models), then the edges, then validation.
"""
from __future__ import annotations

from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.frames.graph import FrameGraphs, Kind, join
from sdf_tools.frames.resolve import pose_to_source
from sdf_tools.frames.validate import validate
from sdf_tools.model import Model, RawPose, World
from sdf_tools.model.canonical import canonical_link_relative_name
from sdf_tools.model.common import Loc
from sdf_tools.transform import IDENTITY, Transform


def _err(g: FrameGraphs, code: ErrorCode, msg: str, loc: Loc | None) -> None:
    g.errors.append(Diagnostic(code, msg, loc.file if loc else None, loc.line if loc else None))


def _raw(p: RawPose | None) -> Transform:
    return p.value if p is not None else IDENTITY


def _rel(p: RawPose | None) -> str:
    return p.relative_to if p is not None else ''


def _add_vertices(g: FrameGraphs, parent_scope: str, model: Model) -> bool:
    """Add the vertices of ``model`` (recursively); False on a name clash."""
    kind = Kind.STATIC_MODEL if model.static else Kind.MODEL
    if g.has(parent_scope, model.name):
        _err(g, ErrorCode.DUPLICATE_NAME,
             f'Nested model with non-unique name [{model.name}] detected in scope '
             f'[{parent_scope or "root"}].', model.loc)
        return False
    mv = g.add(join(parent_scope, model.name), kind, model.loc)
    scope = join(parent_scope, model.name)
    mf = g.add(join(scope, '__model__'), kind, model.loc)
    g.add_pose_edge(mv, mf, IDENTITY)
    g.add_attached_edge(mv, mf, alias=True)
    for what, items, vkind in (('Link', model.links, Kind.LINK), ('Joint', model.joints, Kind.JOINT),
                               ('Frame', model.frames, Kind.FRAME)):
        for item in items:
            if g.has(scope, item.name):
                _err(g, ErrorCode.DUPLICATE_NAME,
                     f'{what} with non-unique name [{item.name}] detected in model with name '
                     f'[{model.name}].', item.loc)
                continue
            g.add(join(scope, item.name), vkind, item.loc)
    for m in model.models:
        _add_vertices(g, scope, m)
    g.added_models.add(id(model))
    return True


def _edge_from(g: FrameGraphs, scope: str, ref: str, child: int, value: Transform, who: str,
               code: ErrorCode, loc: Loc | None, what: str = 'relative_to') -> None:
    parent = g.find(scope, ref)
    if parent is None:
        _err(g, code, f'{what} name[{ref}] specified by {who} does not match a nested model, '
             f'link, joint, or frame name in scope [{scope}].', loc)
        return
    if parent == child:
        _err(g, ErrorCode.POSE_RELATIVE_TO_CYCLE,
             f'relative_to name[{ref}] is identical to {who}, causing a graph cycle.', loc)
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


def _add_edges(g: FrameGraphs, parent_scope: str, model: Model) -> None:
    scope = join(parent_scope, model.name)
    mf = g.ids[join(scope, '__model__')]
    for link in model.links:
        lv = g.find(scope, link.name)
        if lv is None or g.kinds[lv] is not Kind.LINK or g.locs.get(lv) is not link.loc:
            continue
        if not _rel(link.pose):
            g.add_pose_edge(mf, lv, _raw(link.pose))
        else:
            _edge_from(g, scope, _rel(link.pose), lv, _raw(link.pose), f'link with name[{link.name}]',
                       ErrorCode.POSE_RELATIVE_TO_INVALID, link.loc)
    for frame in model.frames:
        fv = g.find(scope, frame.name)
        if fv is None or g.locs.get(fv) is not frame.loc:
            continue
        if not _rel(frame.pose) and not frame.attached_to:
            g.add_pose_edge(mf, fv, _raw(frame.pose))
    for nested in model.models:
        if id(nested) in g.added_models:
            _add_edges(g, scope, nested)
    for joint in model.joints:
        jv = g.find(scope, joint.name)
        if jv is None or g.locs.get(jv) is not joint.loc:
            continue
        ref = _rel(joint.pose) or joint.child
        _edge_from(g, scope, ref, jv, _raw(joint.pose), f'joint with name[{joint.name}]',
                   ErrorCode.POSE_RELATIVE_TO_INVALID, joint.loc)
    for frame in model.frames:
        fv = g.find(scope, frame.name)
        if fv is None or g.locs.get(fv) is not frame.loc:
            continue
        if _rel(frame.pose):
            _edge_from(g, scope, _rel(frame.pose), fv, _raw(frame.pose),
                       f'frame with name[{frame.name}]', ErrorCode.POSE_RELATIVE_TO_INVALID, frame.loc)
        elif frame.attached_to:
            _edge_from(g, scope, frame.attached_to, fv, _raw(frame.pose),
                       f'frame with name[{frame.name}]', ErrorCode.FRAME_ATTACHED_TO_INVALID,
                       frame.loc, 'attached_to')
    for nested in model.models:
        if id(nested) not in g.added_models:
            continue
        nv = g.ids[join(scope, nested.name)]
        ref = _rel(nested.pose)
        parent = mf if not ref else g.find(scope, ref)
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
        g.add_pose_edge(parent, nv, placed_pose(g, join(scope, nested.name), nested, _raw(nested.pose)))
    _attached_edges(g, scope, model, mf)


def _attached_edges(g: FrameGraphs, scope: str, model: Model, mf: int) -> None:
    for joint in model.joints:
        jv = g.find(scope, joint.name)
        if jv is None or g.locs.get(jv) is not joint.loc:
            continue
        target = g.find(scope, joint.child)
        if target is None:
            _err(g, ErrorCode.JOINT_CHILD_LINK_INVALID,
                 f'Child frame with name[{joint.child}] specified by joint with name[{joint.name}] '
                 f'not found in model with name[{model.name}].', joint.loc)
            continue
        g.add_attached_edge(jv, target)
    for frame in model.frames:
        fv = g.find(scope, frame.name)
        if fv is None or g.locs.get(fv) is not frame.loc:
            continue
        ref = frame.attached_to or '__model__'
        target = g.find(scope, ref)
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
        first = g.find(scope, model.models[0].name)
        if first is not None:
            g.add_attached_edge(mf, first)
        return
    target = g.find(scope, canon)
    if target is None or (model.canonical_link and g.kinds[target] is not Kind.LINK):
        _err(g, ErrorCode.MODEL_CANONICAL_LINK_INVALID,
             f'canonical_link with name[{canon}] not found in model with name[{model.name}].',
             model.loc)
        return
    g.add_attached_edge(mf, target)


def build_model_graphs(model: Model) -> FrameGraphs:
    """Build and validate the graphs of a file whose root is one model."""
    g = FrameGraphs()
    root = g.add('__root__', Kind.ROOT)
    g.root = root
    if _add_vertices(g, '', model):
        _add_edges(g, '', model)
        mv = g.ids[model.name]
        g.add_pose_edge(root, mv, placed_pose(g, model.name, model, _raw(model.pose)))
    validate(g, world_scope=False)
    return g


def build_world_graphs(world: World) -> FrameGraphs:
    """Build and validate the graphs of one world."""
    g = FrameGraphs()
    wv = g.add('world', Kind.WORLD, world.loc)
    g.root = wv
    for m in world.models:
        _add_vertices(g, '', m)
    for frame in world.frames:
        if g.has('', frame.name):
            _err(g, ErrorCode.DUPLICATE_NAME, f'Frame with non-unique name [{frame.name}] detected '
                 f'in world with name [{world.name}].', frame.loc)
            continue
        fv = g.add(frame.name, Kind.FRAME, frame.loc)
        if not _rel(frame.pose) and not frame.attached_to:
            g.add_pose_edge(wv, fv, _raw(frame.pose))
    for m in world.models:
        if id(m) in g.added_models:
            _add_edges(g, '', m)
    for m in world.models:
        if id(m) not in g.added_models:
            continue
        mv = g.ids[m.name]
        ref = _rel(m.pose)
        parent: int | None = wv if not ref else g.find('', ref)
        if parent is None:
            _err(g, ErrorCode.POSE_RELATIVE_TO_INVALID,
                 f'relative_to name[{ref}] specified by model with name[{m.name}] does not match a '
                 f'model or frame name in world with name[{world.name}].', m.loc)
            continue
        if parent == mv:
            _err(g, ErrorCode.POSE_RELATIVE_TO_CYCLE,
                 f'relative_to name[{ref}] is identical to model name[{m.name}].', m.loc)
        g.add_pose_edge(parent, mv, placed_pose(g, m.name, m, _raw(m.pose)))
    for frame in world.frames:
        fid = g.ids.get(frame.name)
        if fid is None or g.locs.get(fid) is not frame.loc:
            continue
        ref, code, what = ((_rel(frame.pose), ErrorCode.POSE_RELATIVE_TO_INVALID, 'relative_to')
                           if _rel(frame.pose) else
                           (frame.attached_to, ErrorCode.FRAME_ATTACHED_TO_INVALID, 'attached_to'))
        if ref:
            _edge_from(g, '', ref, fid, _raw(frame.pose), f'frame with name[{frame.name}]', code,
                       frame.loc, what)
        target = g.find('', frame.attached_to or 'world')
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
