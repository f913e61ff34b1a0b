"""Fixed-joint lumping, as Gazebo's URDF loader does it.

A link held by a fixed joint is merged into its parent: its mass is added
(inertia combined about the new centre of mass, by the parallel-axis
theorem, in the parent's inertial frame), its visuals and collisions move to
the parent with their poses composed, and its child joints hang from the
parent. The order is libsdformat's (``ReduceFixedJoints``, replayed by
:meth:`~sdf_tools.urdf.lumping_walk.UrdfWalk.lumping_order`): a link's fixed
children are merged into it first (children in the order of their joints'
names, which is how urdfdom stores them), then the link into its parent,
then the walk goes on below its moving joints. That order decides the
order of the merged visuals and collisions, hence their names, and the
running sums of the inertials (the same numbers as
:meth:`~sdf_tools.urdf.lumping_walk.UrdfWalk.lumped_inertial`).

Which of libsdformat's lumped joints (never one from ``world``, nor one named
by ``preserveFixedJoint`` or ``disableFixedJointLumping``) are lumped here is
the caller's decision (``--keep-fixed-joints``, massless links).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sdf_tools.convert.poses import computed_pose
from sdf_tools.model import Collision, Inertial, Joint, Link, Model, RawPose, Visual
from sdf_tools.model.inertia import combine_inertials
from sdf_tools.transform import IDENTITY, Transform
from sdf_tools.urdf.lumping_walk import UrdfWalk
from sdf_tools.urdf.ode_mass import ode_lump

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

    def offset(self, link: str, walk: UrdfWalk) -> Transform:
        """Return the pose of ``link`` in the link it ends up in."""
        pose = IDENTITY
        while link in self.into:
            joint = walk.parent_joint[link]  # the lumped joint
            pose = (joint.pose.value if joint.pose is not None else IDENTITY) * pose
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


def lumped_inertial(parent: Inertial | None, child: Inertial, x_pc: Transform) -> Inertial:
    """The parent's ``<inertial>`` once libsdformat's ``ReduceInertialToParent`` adds ``child``.

    The numbers are libsdformat's own round-off (:mod:`sdf_tools.urdf.ode_mass`), which
    Gazebo holds for the URDF and which decide its verdict on the file written: the textbook
    composite differs in the last bits, and for a flat lamina (ixx + iyy = izz) turned by
    the joint those bits decide the triangle inequality (a random robot's lumped link that
    libsdformat accepts from the URDF was refused from our SDFormat). The pose keeps the
    parent's inertial orientation as written; where the masses sum to 0 (``dMassAdd``
    divides by it) the composite stands.
    """
    if not (parent.mass if parent is not None else 0.0) + child.mass > 0.0:
        return combine_inertials(parent, child, x_pc)
    ode = ode_lump(parent, child, x_pc)
    q = parent.pose.value.q if parent is not None and parent.pose is not None else IDENTITY.q
    com = ode.pose.value.p if ode.pose is not None else IDENTITY.p
    return Inertial(ode.mass, ode.inertia, RawPose(Transform(com, q)),
                    parent.loc if parent is not None else child.loc)


def lump_link(bodies: dict[str, Body], joint: Joint) -> None:
    """Merge ``joint``'s child into its parent: mass, visuals, collisions and unknown elements."""
    parent, child = bodies[joint.parent], bodies[joint.child]
    x_pc = joint.pose.value if joint.pose is not None else IDENTITY
    if child.link.inertial is not None:
        parent.link.inertial = lumped_inertial(parent.link.inertial, child.link.inertial, x_pc)
    _move_shapes(child.visuals, parent.visuals, joint.child, x_pc)
    _move_shapes(child.collisions, parent.collisions, joint.child, x_pc)
    parent.link.extras.extend(child.link.extras)
    child.link.extras = []


def reduce_fixed_joints(walk: UrdfWalk, bodies: dict[str, Body], lumpable: set[str],
                        should_lump: Callable[[Joint], bool],
                        on_lump: Callable[[str, Joint], None]) -> Lumping:
    """Lump the links held by the joints of ``lumpable`` that ``should_lump`` accepts.

    In libsdformat's order (:meth:`UrdfWalk.lumping_order`): a link's lumped children
    are merged into it before it is merged into its parent, so ``should_lump`` can look
    at its mass then; ``on_lump`` is told after each merge (to move the ``<gazebo>``
    blocks along). ``lumpable`` is a part of the walk's lumped joints.
    """
    result = Lumping()
    for joint in walk.lumping_order():
        link = joint.child
        if joint.name in lumpable and link in bodies and should_lump(joint):
            lump_link(bodies, joint)
            result.into[link] = joint.parent
            result.joint_of[link] = joint.name
            on_lump(link, joint)
    return result
