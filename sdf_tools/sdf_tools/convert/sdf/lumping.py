"""Fixed-joint lumping, as Gazebo's URDF loader does it.

A link held by a fixed joint is merged into its parent: its mass is added
(inertia combined about the new centre of mass, by the parallel-axis
theorem, in the parent's inertial frame), its visuals and collisions move to
the parent with their poses composed, and its child joints hang from the
parent. The order is libsdformat's (``ReduceFixedJoints``): a link's fixed
children are merged into it first (children in the order of their joints'
names, which is how urdfdom stores them), then the link into its parent,
then the walk goes on below its moving joints. That order decides the
order of the merged visuals and collisions, hence their names.

A joint whose parent is ``world`` is never lumped. Which other fixed joints
are lumped is the caller's decision (``preserveFixedJoint``,
``disableFixedJointLumping``, ``--keep-fixed-joints``, massless links).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sdf_tools.convert.poses import computed_pose
from sdf_tools.model import Collision, Joint, Link, Model, Visual
from sdf_tools.model.inertia import combine_inertials
from sdf_tools.transform import IDENTITY, Transform

LUMP = '_fixed_joint_lump__'


@dataclass
class Shape:
    """A visual or collision on its way to the output.

    ``work_name`` is the name libsdformat works with while lumping: the
    URDF name, or the name of the link it was lumped from when it had none.
    """

    item: Visual | Collision
    work_name: str | None
    origin: str          # the link it was written in
    original: str        # its SDFormat name before lumping


@dataclass
class Body:
    """One URDF link while it is being converted."""

    link: Link
    visuals: list[Shape] = field(default_factory=list)
    collisions: list[Shape] = field(default_factory=list)


@dataclass
class Tree:
    """The URDF tree: joints by name, each link's parent joint, children by joint name."""

    joints: dict[str, Joint]
    parent_joint: dict[str, str]
    children: dict[str, list[str]]
    root: str

    def child_joints(self, link: str) -> list[Joint]:
        return [self.joints[j] for j in self.children.get(link, [])]


def build_tree(model: Model) -> Tree:
    """Return the tree of a URDF-derived model (``world`` is the root when a joint names it)."""
    joints = {j.name: j for j in model.joints}
    parent_joint = {j.child: j.name for j in model.joints}
    children: dict[str, list[str]] = {}
    for name in sorted(joints, key=lambda n: n.encode()):
        children.setdefault(joints[name].parent, []).append(name)
    if any(j.parent == 'world' for j in model.joints):
        root = 'world'
    else:
        root = next((lk.name for lk in model.links if lk.name not in parent_joint), '')
    return Tree(joints, parent_joint, children, root)


def urdf_shape_name(link: str, sdf_name: str, suffix: str, index: int) -> str | None:
    """Recover the URDF name libsdformat starts from, given the name the reader gave a shape.

    The reader names the ``index``-th shape ``(name or link) + suffix
    (+ _index)``, prefixed ``<link>_fixed_joint_lump__`` when that does not
    start with the link's name; this undoes it (an unnamed shape and one
    named like its link give the same results, so both come back as the
    link's name).
    """
    name = sdf_name
    tail = f'_{index}' if index > 0 else ''
    if tail and name.endswith(tail):
        name = name[:-len(tail)]
    if name.endswith(suffix):
        name = name[:-len(suffix)]
    prefix = f'{link}{LUMP}'
    if name.startswith(prefix):
        return name[len(prefix):]
    return name


def make_bodies(model: Model) -> dict[str, Body]:
    """Wrap each link with its shapes, remembering their URDF names."""
    bodies: dict[str, Body] = {}
    for link in model.links:
        body = Body(link)
        for i, v in enumerate(link.visuals):
            body.visuals.append(Shape(v, urdf_shape_name(link.name, v.name, '_visual', i),
                                      link.name, v.name))
        for i, c in enumerate(link.collisions):
            body.collisions.append(Shape(c, urdf_shape_name(link.name, c.name, '_collision', i),
                                         link.name, c.name))
        bodies[link.name] = body
    return bodies


@dataclass
class Lumping:
    """The outcome: which link went where, and in which order."""

    into: dict[str, str] = field(default_factory=dict)   # lumped link -> its parent, in order
    joint_of: dict[str, str] = field(default_factory=dict)  # lumped link -> its fixed joint

    def absorber(self, link: str) -> str:
        """Return the link ``link`` ends up in (itself when it was not lumped)."""
        while link in self.into:
            link = self.into[link]
        return link

    def offset(self, link: str, tree: Tree) -> Transform:
        """Return the pose of ``link`` in the link it ends up in."""
        pose = IDENTITY
        while link in self.into:
            pose = tree.joints[self.joint_of[link]].pose.value * pose  # type: ignore[union-attr]
            link = self.into[link]
        return pose


def _move_shapes(src: list[Shape], dst: list[Shape], lumped: str, x_pc: Transform) -> None:
    for s in src:
        raw = s.item.pose.value if s.item.pose is not None else IDENTITY
        s.item.pose = computed_pose(x_pc * raw)
        if s.work_name is None or LUMP not in s.work_name:
            s.work_name = s.work_name or lumped
        dst.append(s)
    src.clear()


def lump_link(bodies: dict[str, Body], tree: Tree, link: str) -> None:
    """Merge ``link`` into its parent: mass, visuals, collisions and unknown elements."""
    joint = tree.joints[tree.parent_joint[link]]
    parent, child = bodies[joint.parent], bodies[link]
    x_pc = joint.pose.value if joint.pose is not None else IDENTITY
    if child.link.inertial is not None:
        parent.link.inertial = combine_inertials(parent.link.inertial, child.link.inertial, x_pc)
    _move_shapes(child.visuals, parent.visuals, link, x_pc)
    _move_shapes(child.collisions, parent.collisions, link, x_pc)
    parent.link.extras.extend(child.link.extras)
    child.link.extras = []


def reduce_fixed_joints(tree: Tree, bodies: dict[str, Body], lumpable: set[str],
                        should_lump: Callable[[Joint], bool],
                        on_lump: Callable[[str, Joint], None]) -> Lumping:
    """Lump the links held by the joints of ``lumpable`` that ``should_lump`` accepts.

    The walk is libsdformat's: a link's ``lumpable`` children first, then the
    link itself, then its other children. ``should_lump`` is asked when the
    link's own fixed children are already merged into it (so it can look at
    the link's mass then); ``on_lump`` is told after each merge (to move the
    ``<gazebo>`` blocks along). Joints from ``world`` are never lumped.
    """
    result = Lumping()

    def candidate(joint: Joint) -> bool:
        return joint.name in lumpable and joint.type == 'fixed' and joint.parent != 'world'

    def visit(link: str) -> None:
        kids = tree.child_joints(link)
        for j in kids:
            if candidate(j):
                visit(j.child)
        jname = tree.parent_joint.get(link)
        joint = tree.joints[jname] if jname is not None else None
        if joint is not None and candidate(joint) and link in bodies and should_lump(joint):
            lump_link(bodies, tree, link)
            result.into[link] = joint.parent
            result.joint_of[link] = joint.name
            on_lump(link, joint)
        for j in kids:
            if not candidate(j):
                visit(j.child)

    if tree.root:
        visit(tree.root)
    return result


def walk_order(tree: Tree) -> list[str]:
    """Return every link in libsdformat's writing order (depth first, children by joint name)."""
    out: list[str] = []

    def visit(link: str) -> None:
        if link != 'world':
            out.append(link)
        for j in tree.child_joints(link):
            visit(j.child)

    if tree.root:
        visit(tree.root)
    return out
