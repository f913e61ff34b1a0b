"""libsdformat's two walks over a URDF: what it lumps, in which order, and which links it writes.

``parser_urdf.cc`` converts a URDF in two passes over urdfdom's tree (each link's
children in the order of their joints' names: urdfdom keeps joints in a ``std::map``):

* ``ReduceFixedJoints`` from the root link: a link's fixed children first (depth
  first), then the link itself into its parent when its joint is lumped, then its
  moving children. Which joints are lumped is :mod:`sdf_tools.urdf.conversion`'s rule
  (:func:`~sdf_tools.urdf.conversion.reducible_joints`). The order decides the running
  sums of ``ReduceInertialToParent``: a link's ``<inertial>`` is, from then on, its own
  with its lumped children's added (:meth:`UrdfWalk.lumped_inertial`).
* ``CreateSDF`` from the root (from ``world``'s children when the root is ``world``):
  a link without mass after lumping stops the walk below it -- in 12.3 always, from
  12.7.2/13.5/14.0 (gazebosim/sdformat#1238) unless its own fixed joint is reducible;
  a link is written when it has mass and its joint is not reduced (or it hangs from
  ``world``). "Without mass" is the target's :func:`~sdf_tools.model.massless.is_massless`
  (``equal(m, 0)`` in 12.3, ``m <= 0`` from 14 on) of the lumped sum.

Every verdict on a converted URDF reads one walk per load, the reader's, which the
load carries (``LoadResult.urdf_walk``, ``Resolved.urdf_walk``): the reader's checks in
:mod:`sdf_tools.urdf.conversion` (inertia, dropped links, no link left), the #1148
frames (:mod:`sdf_tools.urdf.lumped_frames`, listed by ``resolve`` and ``frames``), the
0/0 centre of mass (:mod:`sdf_tools.urdf.zero_mass_sum`), the lint's massless links
(:mod:`sdf_tools.lint.massless`), and the converter's emulation of what libsdformat
leaves out (:mod:`sdf_tools.convert.sdf.from_urdf`, on a copy made with its document).
Its sums are the URDF's as read; its ``CreateSDF`` verdicts are kept per Gazebo target.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from sdf_tools import gazebo
from sdf_tools.gazebo import GazeboTarget
from sdf_tools.model import Inertial, Joint, Link, Model
from sdf_tools.model.massless import is_massless
from sdf_tools.transform import IDENTITY
from sdf_tools.urdf.conversion import lumped_of, reducible_joints, urdf_name
from sdf_tools.urdf.releases import rules

__all__ = ['UrdfWalk', 'Visit', 'urdf_walk']


class Visit(NamedTuple):
    """What ``CreateSDF`` does at one link it reaches."""

    link: str
    massless: bool   # no mass after lumping (the target's test)
    written: bool    # CreateLink writes it
    stops: bool      # it returns here: the link, its parent joint and its subtree are left out


@dataclass(frozen=True, slots=True)
class UrdfWalk:
    """One robot as libsdformat's conversion walks it (names as in our model: see ``urdf_name``)."""

    links: dict[str, Link]
    joints: dict[str, Joint]                  # every joint, by name
    parent_joint: dict[str, Joint]            # link -> the joint it is the child of
    children: dict[str, list[Joint]]          # link -> its child joints, by URDF name (bytes)
    roots: list[str]                          # 'world' when a joint names it
    lumped: frozenset[str]                    # joints ReduceFixedJoints lumps
    reducible: frozenset[str]                 # FixedJointShouldBeReduced (world too)
    _sums: dict[str, Inertial | None] = field(default_factory=dict, compare=False, repr=False)
    _zero: dict[str, tuple[Joint, float]] = field(default_factory=dict, compare=False, repr=False)
    _visits: dict[GazeboTarget, list[Visit]] = field(default_factory=dict, compare=False,
                                                     repr=False)

    def lumping_order(self) -> list[Joint]:
        """The lumped joints in the order ``ReduceFixedJoints`` lumps their child links."""
        out: list[Joint] = []
        seen: set[str] = set()

        def reduce(link: str) -> None:
            if link in seen:  # a loop (refused by the reader): walk it once
                return
            seen.add(link)
            kids = self.children.get(link, [])
            for j in kids:
                if j.name in self.reducible:
                    reduce(j.child)
            joint = self.parent_joint.get(link)
            if joint is not None and joint.name in self.lumped:
                out.append(joint)
            for j in kids:
                if j.name not in self.reducible:
                    reduce(j.child)

        for root in self.roots:
            reduce(root)
        return out

    def absorber(self, link: str) -> str:
        """The link ``link`` ends up in: up through lumped joints to the first one kept."""
        seen: set[str] = set()
        joint = self.parent_joint.get(link)
        while joint is not None and joint.name in self.lumped and link not in seen:
            seen.add(link)
            link = joint.parent
            joint = self.parent_joint.get(link)
        return link

    def absorbs(self, link: str) -> bool:
        """Whether a lumped joint brings a child link into ``link``."""
        return any(j.name in self.lumped for j in self.children.get(link, []))

    def lumped_inertial(self, link: str) -> Inertial | None:
        """The ``<inertial>`` of ``link`` once its lumped children are added (None: none).

        ``ReduceInertialToParent`` adds each lumped child, itself complete, in the order
        of its joint's name, at the joint's origin; a parent without ``<inertial>`` gets
        one of mass 0 first. The converter lumps in the same order
        (:mod:`sdf_tools.convert.sdf.lumping`), so both get the same numbers.
        """
        if link in self._sums:
            return self._sums[link]
        self._sums[link] = None  # a loop (refused by the reader) ends here
        lk = self.links.get(link)
        total = lk.inertial if lk is not None else None
        for j in self.children.get(link, []):
            if j.name not in self.lumped:
                continue
            child = self.lumped_inertial(j.child)
            if child is None:  # no <inertial>: ReduceInertialToParent adds nothing
                continue
            before = total.mass if total is not None else 0.0
            if j.child in self._zero:  # dMassAdd's 0/0 rides along into the parent
                self._zero.setdefault(link, self._zero[j.child])
            elif before + child.mass == 0.0:
                self._zero.setdefault(link, (j, before))
            # Imported here: it needs numpy, which the loader does without (sdf/link.py).
            from sdf_tools.model.inertia import combine_inertials
            total = combine_inertials(total, child,
                                      j.pose.value if j.pose is not None else IDENTITY)
        self._sums[link] = total
        return total

    def ode_lumped_inertial(self, link: str) -> Inertial | None:
        """:meth:`lumped_inertial` with libsdformat's round-off (:mod:`sdf_tools.urdf.ode_mass`).

        For the verdict on a lumped sum only; None where a sum has no positive mass
        (:meth:`lumped_inertial` and :mod:`sdf_tools.urdf.zero_mass_sum` judge those).
        """
        lk = self.links.get(link)
        total = lk.inertial if lk is not None else None
        for j in self.children.get(link, []):
            if j.name not in self.lumped or self.lumped_inertial(j.child) is None:
                continue
            child = self.ode_lumped_inertial(j.child)
            if child is None or (total.mass if total is not None else 0.0) + child.mass <= 0.0:
                return None
            from sdf_tools.urdf.ode_mass import ode_lump
            total = ode_lump(total, child, j.pose.value if j.pose is not None else IDENTITY)
        return total

    def zero_mass_lumps(self) -> dict[str, tuple[Joint, float]]:
        """Links whose sum went through a mass of 0: link -> (that lump, the mass before it).

        ``dMassAdd`` places the centre of mass at a mass-weighted mean, 0/0 when the
        masses sum to 0; the first such lump on the way into a link is named
        (:mod:`sdf_tools.urdf.zero_mass_sum`).
        """
        for link in self.links:
            self.lumped_inertial(link)
        return dict(self._zero)

    def massless(self, link: str) -> bool:
        """Whether ``link`` has no mass after lumping, for the target being read for."""
        return is_massless(self.lumped_inertial(link))

    def preorder(self) -> list[str]:
        """Every link below the root, depth first: ``CreateSDF``'s order when nothing stops it."""
        found = (link for root in self.roots for link in self.below(root) if link != 'world')
        return list(dict.fromkeys(found))  # each once, in the order first met

    def below(self, link: str) -> list[str]:
        """``link`` and every link below it, depth first."""
        out: list[str] = []
        seen: set[str] = set()
        stack = [link]
        while stack:
            name = stack.pop()
            if name in seen:  # a loop (refused by the reader): walk it once
                continue
            seen.add(name)
            out.append(name)
            stack.extend(reversed([j.child for j in self.children.get(name, [])]))
        return out

    def tops(self) -> list[str]:
        """The links ``CreateSDF`` starts from: the root, or each child of ``world``."""
        out: list[str] = []
        for root in self.roots:
            out.extend([j.child for j in self.children.get('world', [])]
                       if root == 'world' else [root])
        return out

    def create_sdf(self) -> list[Visit]:
        """Each link ``CreateSDF`` reaches, in its order, with what it does there.

        For the target in force (its "no mass" and its #1238 rule); each verdict reads it.
        """
        target = gazebo.current()
        if target in self._visits:
            return self._visits[target]
        newer = rules(target).lumped_massless_kept
        out: list[Visit] = []
        seen: set[str] = set()

        def create(name: str) -> None:
            if name in seen or name not in self.links:
                return
            seen.add(name)
            joint = self.parent_joint.get(name)
            zero = self.massless(name)
            reduced = joint is not None and joint.name in self.reducible
            stops = zero and not (newer and reduced)
            written = not zero and (joint is None or joint.parent == 'world' or not reduced)
            out.append(Visit(name, zero, written, stops))
            if not stops:
                for j in self.children.get(name, []):
                    create(j.child)

        for top in self.tops():
            create(top)
        self._visits[target] = out
        return out

    def written_links(self) -> set[str]:
        """The links ``CreateSDF`` writes (the rules of the target being read for)."""
        return {v.link for v in self.create_sdf() if v.written}


def urdf_walk(model: Model, roots: list[str] | None = None) -> UrdfWalk:
    """Return the walk of a URDF-derived model (``model.links``/``model.joints``).

    ``roots``: the root the reader found (its tree), else the first link no joint has
    as child, or ``world`` when a joint hangs from it.
    """
    links = {lk.name: lk for lk in model.links}
    parent_joint: dict[str, Joint] = {}
    children: dict[str, list[Joint]] = {}
    # urdfdom's std::map of joints by the URDF's names (the reader may rename a joint)
    for j in sorted(model.joints, key=lambda j: urdf_name(j).encode()):
        if j.child in links and j.child not in parent_joint:
            parent_joint[j.child] = j
            children.setdefault(j.parent, []).append(j)
    if roots is None:
        roots = ['world'] if 'world' in children else [
            lk.name for lk in model.links if lk.name not in parent_joint][:1]
    reducible = reducible_joints(model)
    return UrdfWalk(links, {j.name: j for j in model.joints}, parent_joint, children, roots,
                    lumped_of(model, reducible), reducible)
