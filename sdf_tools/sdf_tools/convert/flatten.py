"""Flatten one SDFormat model for a writer: its links, joints and frames as the resolved description has them.

The first step of every writer that needs a resolved model (URDF, MJCF,
USD). :func:`sdf_tools.resolved.resolve` already placed every element and
resolved what each joint end and frame is attached to; this is the view of
one model's records a writer needs, in document order, where each element gets

* a URDF name: its scoped name relative to the model, with ``::`` replaced
  by the chosen separator (``arm::gripper::finger`` -> ``arm/gripper/finger``
  with ``/``), made unique over links and joints together;
* its vertex in the frame graphs, from which any pose relative to any
  other element is composed through their nearest common ancestor (not
  through the world poses of the records: a joint placed 1 m above its parent
  link then reads ``0 0 1``, not ``0 0 0.9999999999999996``);
* for a joint, the URDF names of the bodies its parent and child are
  attached to, and its axes expressed in the joint frame.

A body named by a static nested model (``inner::__model__``) is the world:
such a model never moves. Names are taken in document order, links first,
so a clash renames the later element, and the renaming is reported.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.frames import FrameGraphs, resolve_pose
from sdf_tools.frames.graph import join
from sdf_tools.load import LoadResult
from sdf_tools.model import Document, Frame, Joint, JointAxis, Link, Loc, Model, RawPose, World
from sdf_tools.resolved import Resolved, resolve
from sdf_tools.transform import IDENTITY, Transform, Vec3

WORLD = 'world'


class Namer:
    """Unique names over links and joints together (``world`` is taken)."""

    def __init__(self) -> None:
        self.taken: set[str] = {WORLD}

    def take(self, wanted: str) -> str:
        """Return ``wanted``, or ``wanted_2``, ``wanted_3``... if it is taken."""
        name, i = wanted, 2
        while name in self.taken:
            name, i = f'{wanted}_{i}', i + 1
        self.taken.add(name)
        return name


@dataclass
class FlatLink:
    """A link of the model or of a nested model."""

    name: str          # URDF name
    scoped: str        # SDF name relative to the model ('inner::l')
    scope: str         # graph scope of the model that holds it ('top::inner')
    link: Link
    vid: int           # vertex in the frame graphs
    static: bool       # in a static model (nested or not)


@dataclass
class FlatJoint:
    """A joint with its ends resolved to bodies (URDF link names or ``world``)."""

    name: str
    scoped: str
    scope: str
    joint: Joint
    parent: str | None     # None when the parent could not be resolved to a body
    child: str | None
    vid: int
    axes: list[Vec3 | None] = field(default_factory=list)  # [axis, axis2], joint frame


@dataclass
class FlatFrame:
    """A ``<frame>`` with the body it is attached to."""

    name: str
    scoped: str
    frame: Frame
    body: str | None
    vid: int


@dataclass
class FlatModel:
    """One model, flattened."""

    name: str
    model: Model
    graphs: FrameGraphs
    scope: str
    world: World | None
    frame_vid: int                     # the model's __model__ vertex
    links: list[FlatLink] = field(default_factory=list)
    joints: list[FlatJoint] = field(default_factory=list)
    frames: list[FlatFrame] = field(default_factory=list)
    canonical: str | None = None       # URDF name of the model's body
    names: dict[str, str] = field(default_factory=dict)  # scoped SDF name -> URDF name
    namer: Namer = field(default_factory=Namer)
    by_name: dict[str, FlatLink] = field(default_factory=dict)  # URDF name -> link
    depths: dict[int, int] = field(default_factory=dict)  # pose-graph depth of each vertex

    def link(self, name: str) -> FlatLink | None:
        """Return the flattened link with URDF name ``name``."""
        return self.by_name.get(name)

    def vid(self, name: str) -> int:
        """Return the graph vertex of a URDF link name (``world``: the model frame)."""
        fl = self.link(name)
        return fl.vid if fl is not None else self.frame_vid

    def rel(self, a: int, b: int) -> Transform:
        """Return ``X_ab``, composed from their nearest common ancestor in the pose graph.

        Going through the nearest ancestor rather than the root keeps the numbers
        short: a joint placed 1 m above its parent link reads ``0 0 1``, not
        ``0 0 0.9999999999999996``.
        """
        return relative_pose(self.graphs, a, b, self.depths)

    def world_pose(self, vid: int) -> Transform:
        """Return the pose of a vertex in the world (the file's root frame)."""
        got = resolve_pose(self.graphs, vid)
        return got if got is not None else IDENTITY


def where(loc: Loc | None) -> tuple[str | None, int | None]:
    """Return ``(file, line)`` of a location."""
    return (loc.file, loc.line) if loc is not None else (None, None)


def diagnostic(message: str, loc: Loc | None) -> Diagnostic:
    """Return a conversion error at ``loc``."""
    file, line = where(loc)
    return Diagnostic(ErrorCode.URDF_INVALID, message, file, line)


def _name(flat: FlatModel, namer: Namer, sep: str, scoped: str, report: ConversionReport,
          what: str, loc: Loc | None) -> str:
    wanted = scoped.replace('::', sep)
    got = namer.take(wanted)
    if got != wanted:
        report.add(ReportKind.RENAMED, f'{what}[{scoped}]',
                   f'named [{got}] in the URDF: [{wanted}] is taken (links and joints share '
                   'one namespace)', *where(loc))
    flat.names[scoped] = got
    return got


def pose_in_link(flat: FlatModel, fl: FlatLink, raw: RawPose | None) -> Transform:
    """Return a pose written inside link ``fl`` (visual, sensor...) in the link frame."""
    if raw is None:
        return IDENTITY
    if not raw.relative_to:
        return raw.value
    g = flat.graphs
    ref, lv = g.find(fl.scope, raw.relative_to), g.ids.get(join(fl.scope, fl.link.name))
    x_lr = flat.rel(lv, ref) if ref is not None and lv is not None else IDENTITY
    return x_lr * raw.value


def _depth(g: FrameGraphs, v: int, memo: dict[int, int]) -> int:
    """Return the number of pose edges from ``v`` up to its source (memoised)."""
    path: list[int] = []
    while v not in memo:
        if len(g.pose_in[v]) != 1 or v in path:
            memo[v] = 0
            break
        path.append(v)
        v = g.pose_in[v][0].parent
    d = memo[v]
    for u in reversed(path):
        d += 1
        memo[u] = d
    return memo[path[0]] if path else d


def relative_pose(g: FrameGraphs, a: int, b: int, memo: dict[int, int] | None = None
                  ) -> Transform:
    """Return ``X_ab`` through the nearest common ancestor of ``a`` and ``b``.

    Walks only from each vertex up to that ancestor, so the cost is the length
    of the path between them, not the depth of the graph.
    """
    memo = {} if memo is None else memo
    x_a, x_b = IDENTITY, IDENTITY  # X_ca_a and X_cb_b for the current ancestors ca, cb
    ca, cb = a, b
    da, db = _depth(g, a, memo), _depth(g, b, memo)
    while ca != cb:
        if da >= db and da > 0:
            e = g.pose_in[ca][0]
            x_a, ca, da = e.value * x_a, e.parent, da - 1
        elif db > 0:
            e = g.pose_in[cb][0]
            x_b, cb, db = e.value * x_b, e.parent, db - 1
        else:  # different sources: not in one tree (cannot happen for a valid graph)
            got = resolve_pose(g, b, a)
            return got if got is not None else IDENTITY
    return x_a.inverse() * x_b


def _vid(flat: FlatModel, full: str) -> int:
    return flat.graphs.ids.get(full, flat.frame_vid)


def _body(flat: FlatModel, full_body: str | None) -> str | None:
    """Map a resolved body name to a URDF link name ('world' for static model frames)."""
    if full_body is None:
        return None
    if full_body == WORLD or full_body.endswith('::__model__'):
        return WORLD
    return flat.names.get(full_body[len(flat.scope) + 2:])


def _joint_end(resolved: Resolved, end: str) -> str | None:
    """A resolved joint end as the body it is fixed to; None when it names none.

    (A resolved joint keeps the name as written when it resolves to no body: a
    nested model's joint ends are not checked by libsdformat.)
    """
    if end == WORLD or end.endswith('::__model__') or end in resolved.links_by_name:
        return end
    return None


def _axis(flat: FlatModel, scope: str, joint_vid: int, axis: JointAxis | None) -> Vec3 | None:
    if axis is None:
        return None
    if not axis.expressed_in:
        return axis.xyz
    vid = flat.graphs.find(scope, axis.expressed_in)
    if vid is None:
        return axis.xyz
    return flat.rel(joint_vid, vid).rotate(axis.xyz)


def _static(resolved: Resolved, scope: str) -> bool:
    """Whether the model ``scope`` or a model holding it is static."""
    while True:
        m = resolved.models_by_name.get(scope)
        if m is not None and m.static:
            return True
        if '::' not in scope:
            return False
        scope = scope.rsplit('::', 1)[0]


def _add_links(flat: FlatModel, resolved: Resolved, sep: str, report: ConversionReport) -> None:
    top = len(flat.scope) + 2
    said: set[str] = set()
    for rl in resolved.links:
        scope = rl.model
        if scope != flat.scope and scope not in said:
            said.add(scope)
            model = resolved.models_by_name[scope].element
            report.add(ReportKind.RENAMED, f'model[{scope[top:]}]',
                       f'nested model flattened: its links, joints and frames are named '
                       f'[{scope[top:].replace("::", sep)}{sep}<name>]', *where(model.loc))
        name = _name(flat, flat.namer, sep, rl.name[top:], report, 'link', rl.element.loc)
        flat.links.append(FlatLink(name, rl.name[top:], scope, rl.element, _vid(flat, rl.name),
                                   _static(resolved, scope)))
        flat.by_name[name] = flat.links[-1]


def _add_joints(flat: FlatModel, resolved: Resolved, sep: str, report: ConversionReport) -> None:
    top = len(flat.scope) + 2
    for rj in resolved.joints:
        joint, scope = rj.element, rj.model
        name = _name(flat, flat.namer, sep, rj.name[top:], report, 'joint', joint.loc)
        vid = _vid(flat, rj.name)
        parent = _body(flat, _joint_end(resolved, rj.parent))
        child = _body(flat, _joint_end(resolved, rj.child))
        axes = [_axis(flat, scope, vid, joint.axis), _axis(flat, scope, vid, joint.axis2)]
        flat.joints.append(FlatJoint(name, rj.name[top:], scope, joint, parent, child, vid, axes))


def _add_frames(flat: FlatModel, resolved: Resolved, sep: str, report: ConversionReport) -> None:
    top = len(flat.scope) + 2
    for rf in resolved.frames:
        if rf.lumped:  # a lumped URDF joint or link: flattened already as that joint or link
            continue
        name = _name(flat, flat.namer, sep, rf.name[top:], report, 'frame', rf.element.loc)
        flat.frames.append(FlatFrame(name, rf.name[top:], rf.element, _body(flat, rf.attached_to),
                                     _vid(flat, rf.name)))


def _canonical(flat: FlatModel, resolved: Resolved) -> str | None:
    """The link the model frame moves with (its canonical link), else the first link."""
    moves = resolved.models_by_name[flat.scope].moves_with
    if moves is not None and moves != WORLD and moves in resolved.links_by_name:
        return _body(flat, moves)
    return flat.links[0].name if flat.links else None


def of_model(resolved: Resolved, name: str) -> Resolved:
    """The records of the model ``name`` (and its nested models) in a resolved document."""
    def inside(scope: str) -> bool:
        return scope == name or scope.startswith(name + '::')
    return replace(resolved, links=tuple(x for x in resolved.links if inside(x.model)),
                   joints=tuple(x for x in resolved.joints if inside(x.model)),
                   frames=tuple(x for x in resolved.frames if inside(x.model)))


def _resolved(model: Model, graphs: FrameGraphs, world: World | None,
              shared: Resolved | None) -> Resolved:
    """The resolved records of ``model`` alone (its world's other elements left out)."""
    if shared is not None:
        return of_model(shared, model.name)
    if world is None:
        return resolve(LoadResult(Document(None, 'sdf', None, model=model), model_graphs=graphs))
    shell = World(world.name, models=[model])
    return resolve(LoadResult(Document(None, 'sdf', None, worlds=[shell]), world_graphs=[graphs]))


def flatten(model: Model, graphs: FrameGraphs, world: World | None, *, separator: str,
            frames: bool, report: ConversionReport, resolved: Resolved | None = None) -> FlatModel:
    """Flatten ``model`` (resolved in ``graphs``) into URDF-named parts.

    Args:
        model: the model to convert (top-level, or a model of ``world``).
        graphs: the frame graphs the model was resolved in.
        world: the world holding the model, if any.
        separator: replaces ``::`` in the names of nested elements.
        frames: also flatten the ``<frame>`` elements.
        report: receives an entry for each renamed element.
        resolved: the whole document as :func:`sdf_tools.resolved.resolve` made it
            from these graphs, when the caller has it (the description publisher
            resolves once for TF and for its URDF); else the model is resolved here.
    """
    flat = FlatModel(model.name, model, graphs, model.name, world,
                     graphs.ids[join(model.name, '__model__')])
    resolved = _resolved(model, graphs, world, resolved)
    _add_links(flat, resolved, separator, report)
    _add_joints(flat, resolved, separator, report)
    if frames:
        _add_frames(flat, resolved, separator, report)
    flat.canonical = _canonical(flat, resolved)
    return flat
