"""A gearbox joint given back from the untyped prim the writer keeps it in.

UsdPhysics has no gear: the writer couples the two joints as a mimic, which
engines read, and keeps the gearbox itself as an untyped prim beside the
joints (:mod:`~sdf_tools.convert.usd.couplings`): its exact copies (pose in
the child link, axes, limits), ``sdf_tools:body0``/``body1`` (the links it
gears) and its ratio and reference body. That prim comes back as the
``gearbox`` joint, and the follower's mimic it was written as is not read
as a ``<mimic>`` (:func:`is_gearbox_mimic`).
"""
from __future__ import annotations

from collections.abc import Mapping

from pxr import Usd

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.usd.couplings import GEARBOX_REL
from sdf_tools.convert.usd.exact import PREFIX, get_joint, get_type
from sdf_tools.convert.usd.names import original_name
from sdf_tools.model import Joint, Loc

__all__ = ['is_gearbox_mimic', 'read_gearboxes']


def _is_gearbox(prim: Usd.Prim) -> bool:
    return bool(prim) and not prim.GetTypeName() and get_type(prim) == 'gearbox'


def is_gearbox_mimic(prim: Usd.Prim) -> bool:
    """Return whether a joint's mimic is the coupling of a gearbox kept on the stage."""
    rel = prim.GetRelationship(GEARBOX_REL)
    targets = rel.GetTargets() if rel else []
    return bool(targets) and _is_gearbox(prim.GetStage().GetPrimAtPath(targets[0]))


def _body(prim: Usd.Prim, side: str, links: Mapping[str, str]) -> str | None:
    rel = prim.GetRelationship(f'{PREFIX}{side}')
    targets = [str(t) for t in rel.GetTargets()] if rel else []
    return links.get(targets[0]) if targets else None


def read_gearboxes(model_prim: Usd.Prim, links: Mapping[str, str], report: ConversionReport,
                   file: str) -> list[Joint]:
    """Return the gearbox joints kept under a model prim (link prim path -> link name)."""
    out: list[Joint] = []
    for prim in Usd.PrimRange(model_prim):
        if not _is_gearbox(prim):
            continue
        path = str(prim.GetPath())
        joint = get_joint(prim)
        parent, child = _body(prim, 'body0', links), _body(prim, 'body1', links)
        if joint is None or parent is None or child is None:
            report.add(ReportKind.DROPPED, path, 'gearbox kept by sdf_tools: its copies or '
                       'bodies are missing or name no link read: not read back (the mimic '
                       'it was written as is)', file)
            continue
        ratio = prim.GetAttribute(f'{PREFIX}gearboxRatio')
        ref = prim.GetAttribute(f'{PREFIX}gearboxReferenceBody')
        joint.name = original_name(prim)
        joint.parent, joint.child = parent, child
        joint.gearbox_ratio = float(ratio.Get()) if ratio and ratio.HasAuthoredValue() else 1.0
        joint.gearbox_reference_body = str(ref.Get()) if ref and ref.Get() else None
        joint.loc = Loc(file, None, path)
        out.append(joint)
    return out
