"""A world's own joints (SDFormat 1.10+ ``<world><joint>``) as UsdPhysics joints, there and back.

A world joint joins links of two models, or a link to the world (libsdformat 13
and later; ``<parent>world</parent><child>arm::base</child>`` fixes a model
in place). It is written as any joint (:mod:`~sdf_tools.convert.usd.joints`)
in a ``joints`` scope of the world prim: ``body0`` empty where the parent is
the world (as UsdPhysics allows), the joint frame in each body, and the
writer's exact copies. Its parent and child are the bodies their frames are
attached to (a model's frame is its canonical link's body), as libsdformat
resolves them; the joint pose is kept relative to the child link, which is
the same joint frame. The prim is marked ``sdf_tools:kind = world_joint`` so
the reader gives it back to the world
(:mod:`~sdf_tools.convert.usd.read_world_joints`), named ``model::link`` at each
end. A joint holding a tree's root link joins the articulations: to the world,
a fixed base; to another model's link, one articulation (the child tree's
articulation root is taken off, so usd-core and Newton see one tree). A joint
whose child link has a parent joint already, or that closes a loop of models,
is written with ``excludeFromArticulation`` (reported): an engine keeps it as
a maximal-coordinate constraint.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pxr import Usd, UsdGeom, UsdPhysics

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import (
    WORLD,
    FlatJoint,
    FlatLink,
    FlatModel,
    relative_pose,
    where,
)
from sdf_tools.convert.usd.couplings import write_couplings
from sdf_tools.convert.usd.drives import joint_losses
from sdf_tools.convert.usd.joints import JointSite, write_joint
from sdf_tools.convert.usd.names import Siblings, kind_of, mark
from sdf_tools.frames import FrameGraphs
from sdf_tools.frames.graph import Kind
from sdf_tools.frames.resolve import resolve_attached_body
from sdf_tools.model import Joint, Model, World
from sdf_tools.transform import Vec3

__all__ = ['WORLD_JOINT', 'WrittenModel', 'is_world_joint', 'write_world_joints']

#: The ``sdf_tools:kind`` of a world joint's prim.
WORLD_JOINT = 'world_joint'


@dataclass(frozen=True)
class WrittenModel:
    """A model written on the stage: its flattening and its links' prims (URDF name -> path)."""

    flat: FlatModel
    bodies: Mapping[str, str]
    path: str = ''                     # the model prim
    roots: Sequence[str] = ()          # root links of its trees (articulations)


def is_world_joint(prim: Usd.Prim) -> bool:
    """Return whether ``prim`` is a joint the writer made from a world's ``<joint>``."""
    return kind_of(prim) == WORLD_JOINT


def _body(g: FrameGraphs, end: str) -> str | None:
    """Return the full name of the link an end moves with (``world`` when it never moves)."""
    if end == WORLD:
        return WORLD
    vid = g.ids.get(end)
    if vid is None:
        return None
    sink, err = resolve_attached_body(g, vid, True)
    if err is not None or sink is None:
        return None
    return g.names[sink] if g.kinds[sink] is Kind.LINK else WORLD


def _link(models: Sequence[WrittenModel], full: str) -> tuple[FlatLink, str] | None:
    """Return the written link of a full link name ('arm::base') and its prim path."""
    for m in models:
        pre = m.flat.scope + '::'
        if not full.startswith(pre):
            continue
        name = m.flat.names.get(full[len(pre):])
        fl = m.flat.link(name) if name is not None else None
        if fl is not None and name is not None and name in m.bodies:
            return fl, m.bodies[name]
    return None


def _axes(g: FrameGraphs, vid: int, joint: Joint) -> list[Vec3 | None]:
    """Return the joint's axes in the joint frame (``expressed_in`` another frame turned)."""
    out: list[Vec3 | None] = []
    for axis in (joint.axis, joint.axis2):
        if axis is None:
            out.append(None)
            continue
        other = g.find('', axis.expressed_in) if axis.expressed_in else None
        if other is None:
            out.append(axis.xyz)
            continue
        out.append(relative_pose(g, vid, other).rotate(axis.xyz))
    return out


def _flat(world: World, g: FrameGraphs, models: Sequence[WrittenModel],
          report: ConversionReport) -> tuple[FlatModel, dict[str, str]]:
    """Return the world's joints as one flat model over the written links they join."""
    flat = FlatModel(world.name, Model(world.name), g, '', world, g.root)
    bodies: dict[str, str] = {}
    for joint in world.joints:
        label = f'world[{world.name}]/joint[{joint.name}]'
        vid = g.ids.get(joint.name)
        ends = [_body(g, joint.parent), _body(g, joint.child)]
        found = [None if e in (None, WORLD) else _link(models, e) for e in ends]
        lost = [e for e, f in zip(ends, found, strict=True) if e != WORLD and f is None]
        if vid is None or ends[1] in (None, WORLD) or lost:
            said = (f'its end [{lost[0]}] is no link written on the stage (another model '
                    'picked, or merged)' if lost and lost[0] is not None
                    else 'its parent or child is attached to no link that moves')
            report.add(ReportKind.DROPPED, label, said, *where(joint.loc))
            continue
        if joint.parent != WORLD and ends[0] == WORLD:
            report.add(ReportKind.REWRITTEN, label, f'its parent [{joint.parent}] never moves '
                       '(a static model): written with body0 empty, the world, and read back '
                       'so', *where(joint.loc))
        for e, f in zip(ends, found, strict=True):
            if e is not None and f is not None and e not in bodies:
                bodies[e] = f[1]
                fl = FlatLink(e, e, f[0].scope, f[0].link, g.ids[e], f[0].static)
                flat.links.append(fl)
                flat.by_name[e] = fl
        flat.joints.append(FlatJoint(joint.name, joint.name, '', joint, ends[0], ends[1], vid,
                                     _axes(g, vid, joint)))
    return flat, bodies


def _owner(link: str | None, models: Sequence[WrittenModel]) -> tuple[WrittenModel, str] | None:
    """Return the written model holding a full link name, and the link's URDF name in it."""
    for m in models:
        pre = m.flat.scope + '::'
        name = m.flat.names.get(link[len(pre):]) if link and link.startswith(pre) else None
        if name is not None:
            return m, name
    return None


class _Trees:
    """Which articulation each model's tree belongs to, as world joints join them."""

    def __init__(self, models: Sequence[WrittenModel]) -> None:
        self.models = models
        self.group = {m.flat.scope: m.flat.scope for m in models}
        self.held: set[str] = set()
        self.joined: set[str] = set()   # links joined into another model's articulation
        # A group of models none of which has an articulation (single bodies) gets one at
        # its top link (Newton refuses a joint in no articulation): group -> link prim.
        self.top: dict[str, str] = {}

    def _find(self, scope: str) -> str:
        while self.group[scope] != scope:
            scope = self.group[scope]
        return scope

    def join(self, stage: Usd.Stage, j: FlatJoint) -> bool:
        """Return whether ``j`` fits the articulations (joining a child tree's root to the world
        or to another tree, whose root then stops being one); False when it closes a loop."""
        child = _owner(j.child, self.models)
        if child is None or j.child in self.held:
            return False
        m, name = child
        if any(mj.child == name for mj in m.flat.joints):
            return False  # the child link has a parent joint in its own model already
        parent = None if j.parent == WORLD else _owner(j.parent, self.models)
        if parent is not None:
            pm, pname = parent
            pg = self._find(pm.flat.scope)
            if pg == self._find(m.flat.scope):
                return False  # closes a loop of models
            articulated = self._articulated(pm, pname)
            if not articulated and pm.roots:
                return False  # an isolated body of a model whose tree is an articulation
            if not articulated and pg not in self.top:
                self.top[pg] = pm.bodies[pname]
            self.group[self._find(m.flat.scope)] = pg
            self.joined.add(j.child or '')
            _unroot(stage, m, name)
        self.held.add(j.child or '')
        return True

    def _articulated(self, m: WrittenModel, link: str) -> bool:
        """Whether a link is in an articulation: its model's joint tree, or one joined so."""
        full = f'{m.flat.scope}::' + next((k for k, v in m.flat.names.items() if v == link), '')
        if full in self.joined:
            return True
        return bool(m.roots) and any(link in (mj.parent, mj.child) for mj in m.flat.joints)

    def finish(self, stage: Usd.Stage) -> None:
        """Root each group of single bodies joined by world joints at its top link."""
        for group, link in self.top.items():
            members = [m for m in self.models if self._find(m.flat.scope) == group]
            if not any(m.roots for m in members):
                UsdPhysics.ArticulationRootAPI.Apply(stage.GetPrimAtPath(link))


def _unroot(stage: Usd.Stage, m: WrittenModel, link: str) -> None:
    """Take the articulation root off a tree whose root link a world joint now holds."""
    model_prim = stage.GetPrimAtPath(m.path)
    root = stage.GetPrimAtPath(m.bodies[link])
    for prim in (root, model_prim if list(m.roots) == [link] else None):
        if prim is not None and prim.HasAPI(UsdPhysics.ArticulationRootAPI):
            prim.RemoveAPI(UsdPhysics.ArticulationRootAPI)
            prim.RemoveProperty('physxArticulation:enabledSelfCollisions')


def write_world_joints(stage: Usd.Stage, world: World, world_prim: Usd.Prim,
                       g: FrameGraphs | None, models: Sequence[WrittenModel],
                       report: ConversionReport) -> None:
    """Write a world's joints in a ``joints`` scope of its prim (reported where they cannot be)."""
    if not world.joints:
        return
    if g is None:
        for joint in world.joints:
            report.add(ReportKind.DROPPED, f'world[{world.name}]/joint[{joint.name}]', 'the '
                       'world has no model on the stage', *where(joint.loc))
        return
    flat, bodies = _flat(world, g, models, report)
    if not flat.joints:
        return
    taken = {str(c.GetName()) for c in world_prim.GetChildren()}
    scope = world_prim.GetPath().AppendChild(Siblings(taken).take('joints'))
    UsdGeom.Scope.Define(stage, scope)
    site = JointSite(stage, flat, bodies, str(scope), report)
    prims: dict[str, Usd.Prim] = {}
    trees = _Trees(models)
    for j in flat.joints:
        prim = write_joint(site, j, True)
        if prim is None:
            continue
        if not trees.join(stage, j):
            UsdPhysics.Joint(prim).CreateExcludeFromArticulationAttr(True)
            report.add(ReportKind.REWRITTEN, f'joint[{j.name}]', 'its child link has a parent '
                       'joint already, or the joint closes a loop of models: written with '
                       'excludeFromArticulation (a maximal-coordinate constraint)',
                       *where(j.joint.loc))
        mark(prim, WORLD_JOINT)
        prims[j.name] = prim
        joint_losses(prim, j, report)
    trees.finish(stage)
    write_couplings(flat, prims, report)

