"""libsdformat's two walks over a URDF: what it lumps, in which order, and which links it writes.

``parser_urdf.cc`` converts a URDF in two passes over urdfdom's tree (each link's
children in the order of their joints' names: urdfdom keeps joints in a ``std::map``):

* ``ReduceFixedJoints`` from the root link: a link's fixed children first (depth
  first), then the link itself into its parent when its joint is lumped, then its
  moving children. A joint is lumped when it is ``fixed``, not named by
  ``preserveFixedJoint``/``disableFixedJointLumping`` and its parent is not ``world``.
  The order decides the running sums of ``ReduceInertialToParent``.
* ``CreateSDF`` from the root (from ``world``'s children when the root is ``world``):
  a link without mass after lumping stops the walk below it -- in 12.3 always, from
  12.7.2/13.5/14.0 (gazebosim/sdformat#1238) unless its own fixed joint is reducible;
  a link is written when it has mass and its joint is not reduced (or it hangs from
  ``world``).

The verdicts in :mod:`sdf_tools.urdf.conversion` predate this module and walk the
tree their own way; new rules (the #1148 frames, the 0/0 centre of mass) use it.
"""
from __future__ import annotations

from dataclasses import dataclass

from sdf_tools.model import Joint, Link, Model
from sdf_tools.model.massless import is_zero_mass
from sdf_tools.urdf.conversion import preserved_joints
from sdf_tools.urdf.releases import rules

__all__ = ['UrdfWalk', 'urdf_walk']


@dataclass(frozen=True, slots=True)
class UrdfWalk:
    """One robot as libsdformat's conversion walks it (names as in the URDF)."""

    links: dict[str, Link]
    parent_joint: dict[str, Joint]            # link -> the joint it is the child of
    children: dict[str, list[Joint]]          # link -> its child joints, by name (bytes)
    roots: list[str]                          # 'world' when a joint names it
    lumped: frozenset[str]                    # joints ReduceFixedJoints lumps
    reducible: frozenset[str]                 # FixedJointShouldBeReduced (world too)

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

    def lumped_mass(self, link: str, memo: dict[str, float | None] | None = None) -> float | None:
        """The mass of ``link`` with its lumped children's added (None: no ``<inertial>``).

        ``ReduceInertialToParent`` gives a parent without one an ``<inertial>`` of mass 0
        when it adds a child that has one.
        """
        memo = {} if memo is None else memo
        if link in memo:
            return memo[link]
        memo[link] = None  # a loop (refused by the reader) ends here
        lk = self.links.get(link)
        total = lk.inertial.mass if lk is not None and lk.inertial is not None else None
        for j in self.children.get(link, []):
            if j.name in self.lumped:
                m = self.lumped_mass(j.child, memo)
                if m is not None:
                    total = (total or 0.0) + m
        memo[link] = total
        return total

    def written_links(self) -> set[str]:
        """The links ``CreateSDF`` writes (the rules of the target being read for)."""
        newer = rules().lumped_massless_kept
        out: set[str] = set()
        seen: set[str] = set()
        memo: dict[str, float | None] = {}

        def create(name: str) -> None:
            if name in seen or name not in self.links:
                return
            seen.add(name)
            joint = self.parent_joint.get(name)
            mass = self.lumped_mass(name, memo)
            zero = mass is None or is_zero_mass(mass)
            reduced = joint is not None and joint.name in self.reducible
            if zero and not (newer and reduced):
                return  # not modeled, nor anything below it
            if not zero and (joint is None or joint.parent == 'world' or not reduced):
                out.add(name)
            for j in self.children.get(name, []):
                create(j.child)

        for root in self.roots:
            for start in ([j.child for j in self.children.get('world', [])]
                          if root == 'world' else [root]):
                create(start)
        return out


def urdf_walk(model: Model) -> UrdfWalk:
    """Return the walk of a URDF-derived model (``model.links``/``model.joints``)."""
    links = {lk.name: lk for lk in model.links}
    parent_joint: dict[str, Joint] = {}
    children: dict[str, list[Joint]] = {}
    for j in sorted(model.joints, key=lambda j: j.name.encode()):
        if j.child in links and j.child not in parent_joint:
            parent_joint[j.child] = j
            children.setdefault(j.parent, []).append(j)
    roots = ['world'] if 'world' in children else [
        lk.name for lk in model.links if lk.name not in parent_joint][:1]
    reducible = {j.name for j in model.joints if j.type == 'fixed'} - preserved_joints(model)
    lumped = {j.name for j in model.joints if j.name in reducible and j.parent != 'world'}
    return UrdfWalk(links, parent_joint, children, roots, frozenset(lumped), frozenset(reducible))
