"""Coupled joints and joint friction in USD: Newton's and PhysX's schemas.

=====================  ==================================================================
SDFormat / URDF        USD
=====================  ==================================================================
``<mimic>``            ``NewtonMimicAPI`` on the follower (``newton:mimicJoint`` the leader,
                       ``newton:mimicCoef0`` the offset in the follower's units: degrees for
                       a revolute joint, ``newton:mimicCoef1`` the multiplier) and PhysX's
                       ``PhysxMimicJointAPI:<rotX|rotY|rotZ>`` (``gearing`` = -multiplier,
                       ``offset`` = -offset in radians: PhysX writes
                       ``follower + gearing * leader + offset = 0``); Newton reads the first,
                       Isaac Sim the second
gearbox                the joint holding its child follows the joint holding its parent
                       with multiplier ``-gearbox_ratio`` (ODE's sign, as the MJCF export),
                       both schemas as above; the gearbox itself is an untyped prim beside
                       the joints (no engine reads it) with its exact copies, its bodies
                       (``sdf_tools:body0``/``body1``), ``sdf_tools:gearboxRatio`` and
                       ``sdf_tools:gearboxReferenceBody``, which the follower names in
                       ``sdf_tools:gearbox``; sdf_tools' import gives the gearbox back
                       (:mod:`~sdf_tools.convert.usd.read_gearbox`)
``<friction>``         ``NewtonJointAPI``'s ``newton:friction`` (Coulomb effort, N or N m)
=====================  ==================================================================

PhysX names the instance ``rotX``, ``rotY`` or ``rotZ`` whatever the joint:
omni.physx's parser (``parseMimicJoints``) probes only those three, and for a
revolute or a prismatic joint takes the joint's one axis (``eDEFAULT_AXIS``),
so a prismatic follower gets ``PhysxMimicJointAPI:rot<its axis token>`` too, with
``referenceJointAxis`` likewise and ``offset`` in metres (the joint's own
unit, as radians for a revolute one). SDFormat's mimic ``<reference>`` has no
place (reported when not zero).
"""
from __future__ import annotations

import math
from collections.abc import Mapping

from pxr import Sdf, Usd

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import WORLD, FlatJoint, FlatModel, where
from sdf_tools.convert.joint_names import written_name
from sdf_tools.convert.usd.exact import PREFIX, put_joint
from sdf_tools.convert.usd.names import Siblings, keep_name
from sdf_tools.frames.graph import join

#: On a joint that follows a gearbox: the untyped prim that keeps the gearbox itself.
GEARBOX_REL = 'sdf_tools:gearbox'

_ANGULAR = ('revolute', 'continuous', 'screw')
_SINGLE = (*_ANGULAR, 'prismatic')


def _token(prim: Usd.Prim) -> str:
    attr = prim.GetAttribute('physics:axis')
    got = attr.Get() if attr and attr.HasAuthoredValue() else 'X'
    return str(got)


def couple(follower: Usd.Prim, leader: Usd.Prim, angular: bool, multiplier: float,
           offset: float) -> None:
    """Make ``follower = offset + multiplier * leader`` in both schemas (offset in rad or m)."""
    follower.AddAppliedSchema('NewtonMimicAPI')
    follower.CreateRelationship('newton:mimicJoint').SetTargets([leader.GetPath()])
    follower.CreateAttribute('newton:mimicCoef0', Sdf.ValueTypeNames.Float).Set(
        math.degrees(offset) if angular else offset)
    follower.CreateAttribute('newton:mimicCoef1', Sdf.ValueTypeNames.Float).Set(multiplier)
    dof = f'rot{_token(follower)}'  # PhysX's token for the one axis of any single-axis joint
    follower.AddAppliedSchema(f'PhysxMimicJointAPI:{dof}')
    follower.CreateRelationship(f'physxMimicJoint:{dof}:referenceJoint').SetTargets(
        [leader.GetPath()])
    follower.CreateAttribute(f'physxMimicJoint:{dof}:referenceJointAxis',
                             Sdf.ValueTypeNames.Token).Set(f'rot{_token(leader)}')
    follower.CreateAttribute(f'physxMimicJoint:{dof}:gearing', Sdf.ValueTypeNames.Float).Set(
        -multiplier or 0.0)
    follower.CreateAttribute(f'physxMimicJoint:{dof}:offset', Sdf.ValueTypeNames.Float).Set(
        -offset or 0.0)


def _leader(flat: FlatModel, j: FlatJoint, name: str) -> str | None:
    scoped = join(j.scope, name)[len(flat.scope) + 2:]
    return flat.names.get(scoped)


def _mimic(flat: FlatModel, j: FlatJoint, prims: Mapping[str, Usd.Prim],
           report: ConversionReport) -> None:
    a = j.joint.axis
    if a is None or not a.mimic_joint or j.name not in prims:
        return
    label = f'joint[{j.scoped}]/mimic'
    leader = _leader(flat, j, a.mimic_joint)
    lj = next((x for x in flat.joints if x.name == leader), None)
    if leader is None or leader not in prims or lj is None or j.joint.type not in _SINGLE or \
            (lj.joint.type in _ANGULAR) != (j.joint.type in _ANGULAR):
        report.add(ReportKind.DROPPED, label, f'mimic of [{a.mimic_joint}]: the leader has no '
                   'single-axis USD joint of the same kind', *where(a.loc or j.joint.loc))
        return
    angular = j.joint.type in _ANGULAR
    couple(prims[j.name], prims[leader], angular, a.mimic_multiplier, a.mimic_offset)
    report.add(ReportKind.REWRITTEN, label, f'mimic of [{a.mimic_joint}] as NewtonMimicAPI '
               'and PhysxMimicJointAPI', *where(a.loc or j.joint.loc))


def _gearbox(flat: FlatModel, g: FlatJoint, prims: Mapping[str, Usd.Prim],
             report: ConversionReport) -> None:
    label = f'joint[{g.scoped}]'
    holders: dict[str, FlatJoint] = {}
    for j in flat.joints:
        if j.joint.type in _ANGULAR and j.name in prims and j.child and j.child not in holders:
            holders[j.child] = j
    jc, jp = holders.get(g.child or ''), holders.get(g.parent or '')
    if jc is None or jp is None:
        report.add(ReportKind.DROPPED, label, 'gearbox joint: no revolute joint holds its '
                   'parent and its child, so there is nothing to couple', *where(g.joint.loc))
        return
    ratio = g.joint.gearbox_ratio if g.joint.gearbox_ratio is not None else 1.0
    couple(prims[jc.name], prims[jp.name], True, -ratio, 0.0)
    record = _record(flat, g, prims[jc.name], prims[jp.name])
    prims[jc.name].CreateRelationship(GEARBOX_REL, custom=True).SetTargets([record.GetPath()])
    report.add(ReportKind.REWRITTEN, label, f'gearbox joint as a mimic: [{jc.scoped}] = '
               f"-{ratio:g} x [{jp.scoped}] (ODE's sign, as in MJCF) with NewtonMimicAPI and "
               'PhysxMimicJointAPI; the reference body is not used by an engine (the gearbox '
               'is kept as an untyped prim that sdf_tools reads back as the gearbox)',
               *where(g.joint.loc))


def _record(flat: FlatModel, g: FlatJoint, follower: Usd.Prim, leader: Usd.Prim) -> Usd.Prim:
    """Keep a gearbox for the way back: an untyped prim (no engine reads it) beside the joints,
    with its exact copies, its ratio and reference body, and its bodies as the two joints'."""
    scope = follower.GetParent()
    taken = {str(c.GetName()) for c in scope.GetChildren()}
    prim = follower.GetStage().DefinePrim(scope.GetPath().AppendChild(
        Siblings(taken).take(written_name(g))))
    keep_name(prim, g.scoped if written_name(g) == g.name else written_name(g))
    put_joint(prim, g.joint, flat.rel(flat.vid(g.child or WORLD), g.vid), g.axes)
    for side, joint in (('body0', leader), ('body1', follower)):
        targets = joint.GetRelationship('physics:body1').GetTargets()
        prim.CreateRelationship(f'{PREFIX}{side}', custom=True).SetTargets(targets)
    prim.CreateAttribute(f'{PREFIX}gearboxRatio', Sdf.ValueTypeNames.Double, custom=True).Set(
        g.joint.gearbox_ratio if g.joint.gearbox_ratio is not None else 1.0)
    prim.CreateAttribute(f'{PREFIX}gearboxReferenceBody', Sdf.ValueTypeNames.String,
                         custom=True).Set(g.joint.gearbox_reference_body or '')
    return prim


def _friction(j: FlatJoint, prim: Usd.Prim) -> None:
    a = j.joint.axis
    if a is None or a.friction == 0.0:
        return
    prim.AddAppliedSchema('NewtonJointAPI')
    prim.CreateAttribute('newton:friction', Sdf.ValueTypeNames.Float).Set(a.friction)


def write_couplings(flat: FlatModel, prims: Mapping[str, Usd.Prim],
                    report: ConversionReport) -> None:
    """Write mimic and gearbox couplings and joint friction (after every joint prim exists)."""
    for j in flat.joints:
        if j.name in prims:
            _friction(j, prims[j.name])
        if j.joint.type == 'gearbox':
            _gearbox(flat, j, prims, report)
        else:
            _mimic(flat, j, prims, report)
