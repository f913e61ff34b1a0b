"""The TF tree of a loaded description: what ``/tf_static`` and ``/tf`` carry.

Built from the resolved description (:mod:`sdf_tools.resolved`: every world
pose and attached-to body already known), with no ROS import. TF needs a
tree, one parent per frame; this module decides the parent of each frame:

* every joint gives one transform, parent link -> child link at the joint
  (robot_state_publisher's rule): fixed joints are static; revolute,
  continuous, prismatic, universal, revolute2 and ball joints move with
  joint_states (see :mod:`~sdf_tools.ros.joint_motion` for the names of
  the extra axes; mimic joints follow their leader); screw, gearbox,
  planar and floating joints cannot be driven by one position per name and
  are reported, their child left without a parent;
* an SDFormat ``<frame>`` hangs from the link (or the world) it is attached
  to, and a nested model's frame from its canonical link;
* the links of a static model hang from the world at their resolved pose;
* in a world, each model's free links are placed at their initial pose;
* an actor hangs from the world and moves along its script.

Frame ids: the world is ``root_frame``; everything else is its scoped name
(``outer::inner::link``) relative to the published model, with ``::``
replaced by ``scope_separator``. For a file whose root is one model (or a
URDF), or a world's model picked by ``model``, names are relative to that
model (``chassis``, ``arm/forearm``); for a whole world they start with the
model name (``rover/chassis``). A link or frame that would get a second
parent, or a joint that closes a kinematic loop, is reported and left out.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

from sdf_tools.errors import Diagnostic, ErrorCode, Severity
from sdf_tools.frames.graph import join
from sdf_tools.load import LoadResult
from sdf_tools.model import Actor, Loc, Model, World
from sdf_tools.model.canonical import canonical_link_relative_name
from sdf_tools.resolved import (
    Resolved,
    ResolvedAxis,
    ResolvedFrame,
    ResolvedJoint,
    ResolvedLink,
    ResolvedModel,
    resolve,
)
from sdf_tools.ros.actor_motion import ActorMotion
from sdf_tools.ros.joint_motion import BALL_AXES, MULTI_AXIS_TYPES, ONE_AXIS_TYPES, Mimic, MovingJoint
from sdf_tools.transform import IDENTITY, Transform, Vec3

WORLD = '\0world'  # the world body (named ``root_frame`` in TF)


@dataclass(frozen=True)
class TreeOptions:
    """How the description becomes TF frames (see the node's parameters)."""

    root_frame: str = 'world'
    scope_separator: str = '/'
    publish_frames: bool = True
    model: str = ''


@dataclass(frozen=True)
class FixedTransform:
    """A transform that never changes: published once on ``/tf_static``."""

    parent: str
    child: str
    transform: Transform
    source: str


@dataclass(frozen=True)
class ActorFrame:
    """An actor's frame, moving along its script (published on ``/tf``)."""

    child: str
    parent: str
    motion: ActorMotion


@dataclass
class TfTree:
    """Everything the publisher needs, plus what it must report once.

    ``moving`` is keyed by the joint_states name; ``aliases`` maps other
    accepted names (``::`` scoping, full names, original URDF names) to it.
    """

    fixed: list[FixedTransform] = field(default_factory=list)
    moving: dict[str, MovingJoint] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    actors: list[ActorFrame] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)
    #: joint_states names of joints that do not move a transform (fixed,
    #: undrivable types): silently ignored in joint_states.
    ignored_joints: set[str] = field(default_factory=set)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.notes if d.severity is Severity.ERROR]

    def parents(self) -> dict[str, str]:
        """Return child -> parent over every transform."""
        out = {f.child: f.parent for f in self.fixed}
        out.update({m.child: m.parent for m in self.moving.values()})
        out.update({a.child: a.parent for a in self.actors})
        return out


def _where(loc: Loc | None) -> tuple[str | None, int | None]:
    return (loc.file, loc.line) if loc is not None else (None, None)


class _Scene:
    """The resolved records of the part being published, grouped by the model holding them."""

    def __init__(self, r: Resolved) -> None:
        self.r = r
        self.links: dict[str, list[ResolvedLink]] = {}
        self.joints: dict[str, list[ResolvedJoint]] = {}
        self.frames: dict[str, list[ResolvedFrame]] = {}
        for lk in r.links:
            self.links.setdefault(lk.model, []).append(lk)
        for j in r.joints:
            self.joints.setdefault(j.model, []).append(j)
        for f in r.frames:
            # A lumped URDF link is a TF frame already (as robot_state_publisher has it);
            # its joint, as in robot_state_publisher, is none.
            if not f.lumped:
                self.frames.setdefault(f.model, []).append(f)
        # World poses by scoped name, as the frame graphs' vertices are looked up.
        self.world: dict[str, Transform | None] = {}
        for group in (r.models, r.links, r.joints, r.frames):
            self.world.update((x.name, x.world) for x in group)
        self.by_element = {id(m.element): m for m in r.models}

    def walk(self, model: Model, static: bool = False) -> Iterator[tuple[ResolvedModel, bool]]:
        """A model and its nested models, parents first, each with 'static here or above'."""
        rm = self.by_element.get(id(model))
        if rm is None:  # a model the graphs did not take (a clashing name)
            return
        static = static or model.static
        yield rm, static
        for m in model.models:
            yield from self.walk(m, static)


class _Builder:
    """One build: the resolved scene, the naming rule, and the tree being filled."""

    def __init__(self, scene: _Scene, options: TreeOptions, prefix: str) -> None:
        self.scene, self.options, self.prefix = scene, options, prefix
        self.tree = TfTree()
        self.parent_of: dict[str, str] = {}
        self.order: dict[str, int] = {}  # child frame -> declaration index (to break loops)
        self.joint_names: dict[str, str] = {}  # full joint name -> joint_states name

    # -- naming, poses, notes ---------------------------------------------------------------
    def fid(self, full: str) -> str:
        if full == WORLD:
            return self.options.root_frame
        if self.prefix and full.startswith(self.prefix + '::'):
            full = full[len(self.prefix) + 2:]
        return full.replace('::', self.options.scope_separator)

    def joint_aliases(self, full: str) -> set[str]:
        """Return the names a joint may have in joint_states besides its TF-style name."""
        rel = full[len(self.prefix) + 2:] if self.prefix and full.startswith(self.prefix + '::') \
            else full
        return {full, rel}

    def pose(self, full: str) -> Transform | None:
        return IDENTITY if full == WORLD else self.scene.world.get(full)

    def note(self, message: str, loc: Loc | None, *, error: bool = False) -> None:
        file, line = _where(loc)
        code, severity = ((ErrorCode.ELEMENT_MISSING, Severity.ERROR) if error
                          else (ErrorCode.WARNING, Severity.WARNING))
        self.tree.notes.append(Diagnostic(code, message, file, line, severity=severity))

    def claim(self, child: str, parent: str, source: str, loc: Loc | None) -> bool:
        if child in self.parent_of or child == self.options.root_frame:
            self.note(f'{source}: TF frame [{child}] already has parent [{self.parent_of.get(child)}]'
                      f'; {source} is not published', loc)
            return False
        self.parent_of[child] = parent
        self.order[child] = len(self.order)
        return True

    def add_fixed(self, parent: str, child: str, x: Transform, source: str, loc: Loc | None) -> None:
        if self.claim(child, parent, source, loc):
            self.tree.fixed.append(FixedTransform(parent, child, x, source))

    # -- joints ---------------------------------------------------------------------------
    def joint(self, j: ResolvedJoint) -> None:
        joint, full = j.element, j.name
        who = f'joint [{full}]'
        parent, child = _body(j.parent_moves_with), _body(j.child_moves_with)
        x_wj = j.world
        if parent is None or child is None or x_wj is None:
            self.note(f'{who}: its parent or child cannot be resolved to a link; not published',
                      joint.loc)
            return
        if child == WORLD or parent == child:
            self.note(f'{who}: joins [{self.fid(parent)}] to [{self.fid(child)}]; not published',
                      joint.loc)
            return
        x_wp, x_wc = self.pose(parent), self.pose(child)
        if x_wp is None or x_wc is None:
            return
        x_pj, x_jc = x_wp.inverse() * x_wj, x_wj.inverse() * x_wc
        pf, cf = self.fid(parent), self.fid(child)
        # The joint as the file wrote it (robot_state_publisher's view of a URDF), not
        # as libsdformat's conversion turns it (a locked revolute joint, say).
        if joint.type == 'fixed':
            self.tree.ignored_joints.update({self.fid(full)} | self.joint_aliases(full))
            self.add_fixed(pf, cf, x_pj * x_jc, who, joint.loc)
        elif joint.type in ONE_AXIS_TYPES + MULTI_AXIS_TYPES:
            self.moving(j, pf, cf, x_pj, x_jc, x_wj)
        else:
            self.tree.ignored_joints.update({self.fid(full)} | self.joint_aliases(full))
            self.note(f'{who} is of type [{joint.type}], which joint_states cannot drive: the '
                      f'transform {pf} -> {cf} is not published', joint.loc)

    def moving(self, j: ResolvedJoint, pf: str, cf: str, x_pj: Transform, x_jc: Transform,
               x_wj: Transform) -> None:
        joint, full = j.element, j.name
        who = f'joint [{full}]'
        found = ([_axis_in_joint(j.axis, x_wj)] if joint.type in ONE_AXIS_TYPES else
                 list(BALL_AXES) if joint.type == 'ball' else
                 [_axis_in_joint(j.axis, x_wj), _axis_in_joint(j.axis2, x_wj)])
        axes = tuple(a for a in found if a is not None)
        if len(axes) != len(found):
            self.note(f'{who}: its axis cannot be resolved; not published', joint.loc)
            return
        a = joint.axis
        mimic = (Mimic(join(j.model, a.mimic_joint), a.mimic_multiplier, a.mimic_offset)
                 if a is not None and a.mimic_joint else None)
        name = self.fid(full)
        file, line = _where(joint.loc)
        source = who + (f' ({file}:{line})' if file and line else '')
        if self.claim(cf, pf, who, joint.loc):
            initial = () if joint.type == 'ball' else tuple(
                x.initial_position if x is not None else 0.0 for x in (j.axis, j.axis2)[:len(axes)])
            self.tree.moving[name] = MovingJoint(name, joint.type, pf, cf, x_pj, x_jc, axes, mimic,
                                                 source, initial)
            self.joint_names[full] = name
            for alias in self.joint_aliases(full) - {name}:
                self.tree.aliases[alias] = name

    def resolve_mimics(self) -> None:
        for name, mj in list(self.tree.moving.items()):
            if mj.mimic is None:
                continue
            leader = self.joint_names.get(mj.mimic.joint)
            if leader is None or leader == name:
                self.note(f'{mj.source} mimics [{mj.mimic.joint}], which is not a moving joint of '
                          'this model: it moves only with its own joint_states entry', None)
                leader = None
            self.tree.moving[name] = replace(
                mj, mimic=None if leader is None else replace(mj.mimic, joint=leader))

    # -- loops ----------------------------------------------------------------------------
    def break_loops(self) -> None:
        """Drop, for each cycle of parents, the transform declared last."""
        done: set[str] = set()
        for start in list(self.parent_of):
            path: list[str] = []
            node: str | None = start
            while node is not None and node not in done and node not in path:
                path.append(node)
                node = self.parent_of.get(node)
            if node is not None and node in path:
                cycle = path[path.index(node):]
                last = max(cycle, key=lambda c: self.order[c])
                self.note(f'the transforms {" -> ".join(reversed(cycle))} form a kinematic loop: '
                          f'the one to [{last}] is not published', None)
                self.drop_child(last)
            done.update(path)

    def drop_child(self, child: str) -> None:
        self.parent_of.pop(child, None)
        self.tree.fixed = [f for f in self.tree.fixed if f.child != child]
        self.tree.moving = {k: m for k, m in self.tree.moving.items() if m.child != child}

    # -- frames, placements, actors -------------------------------------------------------
    def frame(self, full: str, moves_with: str | None, what: str, loc: Loc | None) -> None:
        body = _body(moves_with)
        x_wb = None if body is None else self.pose(body)
        x_wf = self.pose(full)
        if body is None or x_wb is None or x_wf is None:
            self.note(f'{what} [{full}] cannot be resolved; not published', loc)
            return
        self.add_fixed(self.fid(body), self.fid(full), x_wb.inverse() * x_wf, f'{what} [{full}]', loc)

    def place_free_links(self, links: list[ResolvedLink], world_name: str) -> None:
        for lk in links:
            cf = self.fid(lk.name)
            if cf not in self.parent_of and lk.world is not None:
                self.add_fixed(self.options.root_frame, cf, lk.world,
                               f'initial pose of link [{lk.name}] in world [{world_name}]',
                               lk.element.loc)

    def actor(self, actor: Actor) -> None:
        motion = ActorMotion.from_actor(actor)
        for text in motion.notes:
            self.note(text, actor.loc)
        cf = self.fid(actor.name)
        if not motion.moving:
            self.add_fixed(self.options.root_frame, cf, motion.pose_at(0.0), f'actor [{actor.name}]',
                           actor.loc)
        elif self.claim(cf, self.options.root_frame, f'actor [{actor.name}]', actor.loc):
            self.tree.actors.append(ActorFrame(cf, self.options.root_frame, motion))


def _body(moves_with: str | None) -> str | None:
    """The TF body of a resolved 'moves with': a link's full name, WORLD, or None."""
    return WORLD if moves_with == 'world' else moves_with


def _axis_in_joint(axis: ResolvedAxis | None, x_wj: Transform) -> Vec3 | None:
    """A joint axis as a unit vector in the joint frame (no ``<axis>``: +z, as libsdformat)."""
    if axis is None:
        return (0.0, 0.0, 1.0)
    if axis.xyz is None:
        return None
    v = x_wj.inverse().rotate(axis.xyz)
    n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) ** 0.5
    return None if n == 0.0 else (v[0] / n, v[1] / n, v[2] / n)


def _add_models(b: _Builder, models: list[Model]) -> list[ResolvedLink]:
    """Add joints, static links and frames of ``models``; return the non-static links."""
    scene = b.scene
    free: list[ResolvedLink] = []
    for top in models:
        for rm, static in scene.walk(top):
            for lk in scene.links.get(rm.name, ()):
                if not static:
                    free.append(lk)
                elif lk.world is not None:
                    b.add_fixed(b.options.root_frame, b.fid(lk.name), lk.world,
                                f'link [{lk.name}] of static model [{rm.name}]', lk.element.loc)
            if not static:
                for j in scene.joints.get(rm.name, ()):
                    b.joint(j)
    if b.options.publish_frames:
        for top in models:
            for rm, _ in scene.walk(top):
                if rm.name != b.prefix:
                    b.frame(rm.name, rm.moves_with, 'model', rm.element.loc)
                for f in scene.frames.get(rm.name, ()):
                    b.frame(f.name, f.moves_with, 'frame', f.element.loc)
    return free


def _report_unconnected(b: _Builder, model: Model, free: list[ResolvedLink]) -> None:
    canon = canonical_link_relative_name(model)
    top = b.fid(join(model.name, canon)) if canon else None
    while top is not None and top in b.parent_of:
        top = b.parent_of[top]
    for lk in free:
        node: str | None = b.fid(lk.name)
        while node is not None and node in b.parent_of:
            node = b.parent_of[node]
        if node != top and node == b.fid(lk.name):
            b.note(f'link [{lk.name}] is joined by no joint to [{top}] or the world: a free body '
                   'whose pose only a simulator or localization knows; its subtree is not '
                   'connected', lk.element.loc)


def _world_tree(scene: _Scene, world: World, options: TreeOptions) -> _Builder:
    """Build from the first world: its one model (or ``options.model``), or all its models."""
    chosen = options.model or (world.models[0].name if len(world.models) == 1 else '')
    b = _Builder(scene, options, chosen)
    models = [m for m in world.models if not chosen or m.name == chosen]
    if chosen and not models:
        names = ', '.join(f'[{m.name}]' for m in world.models) or 'none'
        b.note(f'parameter model is [{chosen}], which is not a model of world [{world.name}] (its '
               f'models: {names})', world.loc, error=True)
        return b
    free = _add_models(b, models)
    if not chosen:
        for j in scene.joints.get('', ()):
            b.joint(j)
    if options.publish_frames:
        for f in scene.frames.get('', ()):
            b.frame(f.name, f.moves_with, 'frame', f.element.loc)
    for actor in world.actors:
        b.actor(actor)
    b.resolve_mimics()
    b.break_loops()
    b.place_free_links(free, world.name)
    return b


def build_tf_tree(source: LoadResult | Resolved, options: TreeOptions | None = None) -> TfTree:
    """Compute the static and moving transforms of a loaded description.

    ``source`` is resolved first if it is a load result. Which part of the file
    is published: a lone model (or URDF) as itself, names relative to it; in a
    world, the model named by ``options.model`` (or the world's only model) with
    names relative to it, placed at its initial pose in the world, with the
    world's frames and actors; with several models and no ``options.model``,
    every model (names start with the model's). Problems are returned in
    ``notes`` (errors mean nothing should be published); the tree never holds a
    transform it could not resolve.
    """
    options = options or TreeOptions()
    r = source if isinstance(source, Resolved) else resolve(source)
    doc = r.document
    if doc is None:
        return TfTree(notes=[Diagnostic(ErrorCode.FILE_READ, 'nothing was loaded')])
    # Only the first world is published: its records come first in document order.
    if doc.worlds:
        return _world_tree(_Scene(r), doc.worlds[0], options).tree
    if doc.model is not None:
        b = _Builder(_Scene(r), options, doc.model.name)
        if options.model and options.model != doc.model.name:
            b.note(f'parameter model is [{options.model}] but the file holds model '
                   f'[{doc.model.name}] only', doc.model.loc, error=True)
            return b.tree
        free = _add_models(b, [doc.model])
        b.resolve_mimics()
        b.break_loops()
        _report_unconnected(b, doc.model, free)
        return b.tree
    if doc.actor is not None:
        b = _Builder(_Scene(r), options, '')
        b.actor(doc.actor)
        return b.tree
    return TfTree(notes=[Diagnostic(ErrorCode.ELEMENT_MISSING,
                                    'the file holds no model, world or actor to publish')])


def file_initial_positions(tree: TfTree, given: Mapping[str, float] = {}) -> dict[str, float]:
    """Return where the file starts each moving joint that ``given`` does not name.

    The values are the joints' ``//axis/initial_position`` where not 0, keyed as
    joint_states names them (a second axis as ``NAME__axis2``); a joint that
    mimics another one follows its leader instead. ``given`` may name a joint by
    any of its aliases.
    """
    named = set()
    for key in given:
        base, sep, axis = key.partition('__axis')
        named.add(tree.aliases.get(base, base) + sep + axis)
    out: dict[str, float] = {}
    for name, mj in tree.moving.items():
        for i, q in enumerate(mj.initial if mj.mimic is None else ()):
            key = name if i == 0 else f'{name}__axis{i + 1}'
            if q != 0.0 and key not in named:
                out[key] = q
    return out
