"""Where a graph of links becomes a tree: the one rule the URDF and MJCF writers share.

SDFormat joints form a graph; URDF and MJCF nest links in a tree. Each link
keeps its first parent joint in document order, a ``gearbox`` joint (a ratio
between two other joints, not a tree edge) only when it is the link's only
parent; every later joint onto a link that has a parent closes a loop. A
chain of parents that comes back to itself is cut at the canonical link, or
else at the cycle's first link in document order. What a cut becomes is the
writer's: a URDF fails or drops the joint (``break_loops``), MJCF closes the
loop with an equality constraint.
"""
from __future__ import annotations

from collections.abc import Iterator

from sdf_tools.convert.flatten import FlatJoint, FlatModel


def first_parents(joints: list[FlatJoint]) -> tuple[dict[str, FlatJoint], list[FlatJoint]]:
    """Return each link's tree joint, and the later joints onto a link that has one (in order).

    Args:
        joints: the usable joints (both ends resolved, child not the world), in document order.
    """
    ordered = sorted(joints, key=lambda j: j.joint.type == 'gearbox')  # stable: gearboxes last
    parent_of: dict[str, FlatJoint] = {}
    later: list[FlatJoint] = []
    for j in ordered:
        assert j.child is not None
        if j.child in parent_of:
            later.append(j)
        else:
            parent_of[j.child] = j
    return parent_of, later


def parent_cycles(flat: FlatModel, parent_of: dict[str, FlatJoint]
                  ) -> Iterator[tuple[list[str], str]]:
    """Yield each chain of parent joints that comes back to itself, and the link to cut it at.

    A cycle is its links, each followed by its parent. The caller removes the cut
    link's joint from ``parent_of`` (whenever it likes: a link of a cycle found is
    never walked again).
    """
    order = {fl.name: i for i, fl in enumerate(flat.links)}
    done: set[str] = set()
    for fl in flat.links:
        path: list[str] = []
        link: str | None = fl.name
        while link is not None and link not in done and link not in path:
            path.append(link)
            pj = parent_of.get(link)
            link = pj.parent if pj is not None else None
        done.update(path)
        if link is None or link not in path:
            continue
        cycle = path[path.index(link):]
        yield cycle, (flat.canonical if flat.canonical in cycle
                      else min(cycle, key=order.__getitem__))
