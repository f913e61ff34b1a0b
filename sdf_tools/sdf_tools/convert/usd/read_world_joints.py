"""The joints the writer made from a world's ``<joint>``s, given back to their world.

A prim marked ``sdf_tools:kind = world_joint``
(:mod:`~sdf_tools.convert.usd.world_joints`) is read as any joint
(:func:`~sdf_tools.convert.usd.read_joints.read_joint`: pose in the child link,
axes, limits, exact copies), then, once the models have their final names,
joined to the world its prim is in: the parent ``world`` where ``body0`` is
empty, else ``model::link`` of the body, and the child likewise.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pxr import Usd

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.usd.names import original_name
from sdf_tools.convert.usd.read_joints import read_joint
from sdf_tools.frames.graph import join
from sdf_tools.model import Document, Joint, Loc, Model

__all__ = ['PendingJoint', 'add_world_joints', 'read_world_joint']


@dataclass
class PendingJoint:
    """A world joint read before its models are named: its world and the links it joins."""

    world: str
    joint: Joint
    parent: tuple[Model, str] | None   # (model, link name in it); None: the world
    child: tuple[Model, str]


def _end(desc: object, side: int, ends: Mapping[str, tuple[Model, str]]) -> str:
    """Return a joint end's body: usd-core leaves ``body0``/``body1`` empty where the
    relationship names a collider without ``RigidBodyAPI`` (a static model's link), whose
    ``rel0``/``rel1`` still names it."""
    body = str(getattr(desc, f'body{side}', ''))
    if body not in ('', '/'):
        return body
    rel = str(getattr(desc, f'rel{side}', ''))
    return rel if rel in ends else body


def read_world_joint(prim: Usd.Prim, desc: object, ends: Mapping[str, tuple[Model, str]],
                     mpu: float, report: ConversionReport, file: str) -> PendingJoint | None:
    """Read one world joint (usd-core's parsed ``desc``); None (reported) when it joins no link."""
    path = str(prim.GetPath())
    b0, b1 = (_end(desc, k, ends) for k in (0, 1))
    child = ends.get(b1)
    parent = ends.get(b0)
    if child is None or (b0 not in ('', '/') and parent is None):
        report.add(ReportKind.DROPPED, path, 'world joint: its body0 or body1 is no link read '
                   'from the stage', file)
        return None
    local1 = (desc.localPose1Position, desc.localPose1Orientation)  # type: ignore[attr-defined]
    joint = read_joint(prim, local1, mpu, report, file)
    if joint is None:
        return None
    joint.name = original_name(prim)
    joint.loc = Loc(file, None, path)
    world = prim.GetParent().GetParent()
    return PendingJoint(original_name(world) if world and not world.IsPseudoRoot() else '',
                        joint, parent, child)


def add_world_joints(doc: Document, pending: list[PendingJoint], report: ConversionReport,
                     file: str) -> None:
    """Name each pending joint's ends after their models' final names; add it to its world."""
    for p in pending:
        world = next((w for w in doc.worlds if w.name == p.world), None)
        if world is None:
            where = p.joint.loc.xml_path if p.joint.loc is not None else p.joint.name
            report.add(ReportKind.DROPPED, where or p.joint.name, f'world joint: no world '
                       f'[{p.world}] read from the stage', file)
            continue
        p.joint.parent = 'world' if p.parent is None else join(p.parent[0].name, p.parent[1])
        p.joint.child = join(p.child[0].name, p.child[1])
        world.joints.append(p.joint)
