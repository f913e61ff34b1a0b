"""Choose MJCF's body tree: one parent joint per link, the rest closed by equality constraints.

An SDFormat model is a graph of links; MJCF nests bodies. Each link keeps
its first parent joint in document order (a ``gearbox`` joint only when it
is the link's only parent). A later joint onto a link that already has a
parent closes a kinematic loop: it is *cut* and written on an extra body
welded to its child (:mod:`~sdf_tools.convert.mjcf.joints`). A chain of
parents that comes back to itself is cut at the canonical link (or the
first link of the cycle), by :mod:`~sdf_tools.convert.loop_cut`'s rule. Links no
joint holds are the tops of the tree: free bodies (a ``<freejoint/>``) unless their model is static.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import WORLD, FlatJoint, FlatModel, where
from sdf_tools.convert.loop_cut import first_parents, parent_cycles


@dataclass
class BodyTree:
    """The tree of one flattened model."""

    flat: FlatModel
    parent_joint: dict[str, FlatJoint] = field(default_factory=dict)  # link -> tree joint
    children: dict[str, list[str]] = field(default_factory=dict)      # body ('world') -> links
    cuts: list[FlatJoint] = field(default_factory=list)              # joints closing loops
    couplings: list[FlatJoint] = field(default_factory=list)         # gearboxes off the tree

    def roots(self) -> list[str]:
        """Return the links hung from the world (by a joint or free), in document order."""
        return list(self.children.get(WORLD, []))


def _usable(j: FlatJoint, report: ConversionReport) -> bool:
    if j.child is None or j.parent is None or j.child == WORLD:
        end = 'parent' if j.parent is None else 'child'
        why = ('is a static model, which never moves' if j.child == WORLD
               else 'is attached to no link of the model')
        report.add(ReportKind.DROPPED, f'joint[{j.scoped}]', f'its {end} {why}: no MJCF joint',
                   *where(j.joint.loc))
        return False
    return j.parent != j.child


def _cycle_cut(tree: BodyTree, report: ConversionReport) -> None:
    """Cut chains of parent joints that come back to themselves."""
    for _, cut in parent_cycles(tree.flat, tree.parent_joint):
        joint = tree.parent_joint.pop(cut)
        tree.cuts.append(joint)
        report.add(ReportKind.REWRITTEN, f'joint[{joint.scoped}]',
                   f'closes a cycle of parent joints through link [{cut}]: cut, and [{cut}] '
                   'is a free body held by the equality constraint that closes the loop',
                   *where(joint.joint.loc))


def plan_bodies(flat: FlatModel, report: ConversionReport) -> BodyTree:
    """Return the body tree of ``flat``; cuts and dropped joints are reported."""
    tree = BodyTree(flat)
    tree.parent_joint, later = first_parents([j for j in flat.joints if _usable(j, report)])
    for j in later:
        assert j.child is not None
        if j.joint.type == 'gearbox':
            tree.couplings.append(j)
        else:
            tree.cuts.append(j)
            first = tree.parent_joint[j.child]
            report.add(ReportKind.REWRITTEN, f'joint[{j.scoped}]',
                       f'link [{j.child}] already hangs from joint [{first.scoped}]: this joint '
                       'closes a kinematic loop, so it is written on an extra body welded to '
                       f'[{j.child}] by an <equality><weld> (MJCF bodies form a tree)',
                       *where(j.joint.loc))
    _cycle_cut(tree, report)
    for fl in flat.links:
        pj = tree.parent_joint.get(fl.name)
        parent = pj.parent if pj is not None and pj.parent is not None else WORLD
        tree.children.setdefault(parent, []).append(fl.name)
    return tree
