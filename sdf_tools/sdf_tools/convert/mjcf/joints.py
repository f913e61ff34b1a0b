"""SDFormat joints as MJCF joints in the child body, and the couplings MJCF writes as equalities.

An MJCF joint lives in its child body: ``pos`` is the joint frame's origin
and ``axis`` its axis, both in the child body (= link) frame at ``qpos0``.

==============================  ===============================================
SDFormat                        MJCF
==============================  ===============================================
revolute / continuous           ``hinge`` (``range`` when the limits are finite)
prismatic                       ``slide``
ball                            ``ball``
fixed                           no joint: the child body is welded
universal / revolute2           two ``hinge`` in the child body, axis then axis2:
                                MuJoCo turns the second with the first, as the
                                joint does (exact; no intermediate body needed)
screw                           ``hinge`` + ``slide`` along the axis and
                                ``<equality><joint>`` slide = -hinge/thread_pitch
                                (SDFormat 1.10: screw_thread_pitch = -2π/thread_pitch)
gearbox (only parent)           ``hinge`` about axis2; the ratio is lost
gearbox (coupling)              ``<equality><joint>`` child = -ratio x parent
mimic                           ``<equality><joint polycoef="offset multiplier">``
==============================  ===============================================

``damping`` -> damping, ``friction`` -> frictionloss, spring stiffness and
reference -> stiffness / springref, effort -> ``actuatorfrcrange``. MuJoCo
has no velocity limit: each is kept as ``<custom><numeric
name="velocity_limit:JOINT">`` (reported).
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

from lxml import etree

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import FlatJoint, FlatModel, where
from sdf_tools.convert.joint_names import written_name
from sdf_tools.convert.mjcf.writer import MjcfDocument, num, nums, sub
from sdf_tools.frames.graph import join
from sdf_tools.model import JointAxis
from sdf_tools.transform import Vec3

UNLIMITED = 1e16  # |limit| at or beyond this is SDFormat's "no limit"
_KINDS = {'revolute': 'hinge', 'continuous': 'hinge', 'prismatic': 'slide', 'ball': 'ball',
          'universal': 'hinge', 'revolute2': 'hinge', 'screw': 'hinge', 'gearbox': 'hinge'}
#: SDFormat joint types written as MJCF joints (the others weld the child).
MOVING = frozenset(_KINDS)


@dataclass
class JointContext:
    """What writing the joints of one model needs."""

    doc: MjcfDocument
    flat: FlatModel
    report: ConversionReport
    prefix: str = ''                      # 'model::' in a world of several models
    written: dict[str, list[str]] = field(default_factory=dict)  # flat joint -> MJCF joints

    def name(self, flat_name: str) -> str:
        return self.prefix + flat_name


def finite_range(a: JointAxis) -> tuple[float, float] | None:
    """Return (lower, upper) when both limits are finite, else None."""
    if a.lower > -UNLIMITED and a.upper < UNLIMITED:
        return a.lower, a.upper
    return None


def _axis_attrs(el: etree._Element, a: JointAxis | None, kind: str, label: str,
                ctx: JointContext) -> None:
    if a is None:
        return
    limits = finite_range(a)
    if kind in ('hinge', 'slide') and limits is not None and limits[0] < limits[1]:
        el.set('range', nums(limits))
    elif kind in ('hinge', 'slide') and limits is not None:
        # A joint locked by its limits (lower == upper: libsdformat's reading of a URDF
        # disableFixedJointLumping joint). MuJoCo refuses an empty range and autolimits takes
        # range="0 0" for no limit, so the lock is a joint equality: q = lower.
        sub(ctx.doc.section('equality'), 'joint', name=f'{el.get("name")}__locked',
            joint1=el.get('name'), polycoef=nums((limits[0], 0.0, 0.0, 0.0, 0.0)))
        ctx.report.add(ReportKind.REWRITTEN, f'{label}/limit',
                       f'locked at {num(limits[0])} (lower = upper): MuJoCo takes no empty '
                       'range, written as <equality><joint> holding it there', *where(a.loc))
    for attr, value in (('damping', a.damping), ('frictionloss', a.friction),
                        ('stiffness', a.spring_stiffness)):
        if value:
            el.set(attr, num(value))
    if a.spring_stiffness and a.spring_reference:
        el.set('springref', num(a.spring_reference))
    if kind != 'ball' and math.isfinite(a.effort) and a.effort > 0:
        el.set('actuatorfrcrange', nums((-a.effort, a.effort)))
    if math.isfinite(a.velocity) and a.velocity > 0:
        numeric = f'velocity_limit:{el.get("name")}'
        sub(ctx.doc.section('custom'), 'numeric', name=numeric, data=num(a.velocity))
        ctx.report.add(ReportKind.KEPT, f'{label}/velocity',
                       f'MuJoCo has no joint velocity limit: {num(a.velocity)} kept as '
                       f'<custom><numeric name="{numeric}">', *where(a.loc))
    if a.stiffness != 1e8 or a.dissipation != 1.0:
        ctx.report.add(ReportKind.DROPPED, f'{label}/limit',
                       'limit stiffness and dissipation: MuJoCo sets limit softness with '
                       'solreflimit/solimplimit, which have no exact counterpart', *where(a.loc))


def _one(body: etree._Element, ctx: JointContext, name: str, kind: str, anchor: Vec3,
         axis: Vec3 | None, a: JointAxis | None, label: str) -> str:
    el = sub(body, 'joint', name=ctx.name(name), type=kind,
             pos=nums(anchor) if any(anchor) else None,
             axis=nums(axis) if axis is not None and kind != 'ball' else None)
    _axis_attrs(el, a, kind, label, ctx)
    return str(el.get('name'))


def _unlimited(a: JointAxis | None) -> JointAxis | None:
    """Return ``a`` without position limits (a continuous joint has none)."""
    return None if a is None else dataclasses.replace(a, lower=-UNLIMITED, upper=UNLIMITED)


def _axis_or_default(j: FlatJoint, k: int, ctx: JointContext) -> Vec3:
    got = j.axes[k] if k < len(j.axes) else None
    if got is None:
        ctx.report.add(ReportKind.ASSUMED, f'joint[{j.scoped}]',
                       f"no <axis{'2' if k else ''}>: SDFormat's default 0 0 1", *where(j.joint.loc))
        return (0.0, 0.0, 1.0)
    return got


def write_joint(body: etree._Element, j: FlatJoint, child_vid: int, ctx: JointContext) -> None:
    """Write the MJCF joints of tree joint ``j`` into ``body`` (the child's, or a loop body's)."""
    jt, label = j.joint.type, f'joint[{j.scoped}]'
    for x in j.joint.extras:  # custom or unknown children: nothing in MJCF reads them
        ctx.report.add(ReportKind.DROPPED, f'{label}/{x.tag}', 'not exported to MJCF',
                       *where(x.loc or j.joint.loc))
    if jt == 'fixed':
        return
    if jt not in _KINDS:
        ctx.report.add(ReportKind.DROPPED, label, f'joint type [{jt}] has no MJCF counterpart: '
                       'the child is welded to its parent', *where(j.joint.loc))
        return
    x_cj = ctx.flat.rel(child_vid, j.vid)
    anchor = x_cj.p
    names: list[str] = []
    if jt == 'ball':
        names.append(_one(body, ctx, written_name(j), 'ball', anchor, None, j.joint.axis, label))
    elif jt == 'gearbox':
        axis = x_cj.rotate(_axis_or_default(j, 1, ctx))
        names.append(_one(body, ctx, written_name(j), 'hinge', anchor, axis, j.joint.axis2, label))
        ctx.report.add(ReportKind.APPROXIMATED, label, 'gearbox joint holding a link no other '
                       'joint holds: a hinge about axis2; the gear ratio is lost',
                       *where(j.joint.loc))
    else:
        axis = x_cj.rotate(_axis_or_default(j, 0, ctx))
        axis_of = j.joint.axis if jt != 'continuous' else _unlimited(j.joint.axis)
        names.append(_one(body, ctx, written_name(j), _KINDS[jt], anchor, axis, axis_of, label))
        if jt in ('universal', 'revolute2'):
            axis2 = x_cj.rotate(_axis_or_default(j, 1, ctx))
            second = ctx.flat.namer.take(f'{j.name}__axis2')
            names.append(_one(body, ctx, second, 'hinge', anchor, axis2, j.joint.axis2, label))
            ctx.report.add(ReportKind.REWRITTEN, label, f'{jt} joint written as two hinges in '
                           f'one body, [{names[0]}] about axis and [{names[1]}] about axis2 '
                           '(same motion)', *where(j.joint.loc))
        elif jt == 'screw':
            names.append(_screw(body, j, anchor, axis, ctx, names[0]))
    ctx.written[j.name] = names


def _screw(body: etree._Element, j: FlatJoint, anchor: Vec3, axis: Vec3, ctx: JointContext,
           hinge: str) -> str:
    slide = _one(body, ctx, ctx.flat.namer.take(f'{j.name}__slide'), 'slide', anchor, axis, None,
                 f'joint[{j.scoped}]')
    pitch = j.joint.thread_pitch if j.joint.thread_pitch else 1.0
    sub(ctx.doc.section('equality'), 'joint', name=ctx.name(f'{j.name}__thread'),
        joint1=slide, joint2=hinge, polycoef=nums((0.0, -1.0 / pitch, 0.0, 0.0, 0.0)))
    ctx.report.add(ReportKind.REWRITTEN, f'joint[{j.scoped}]',
                   f'screw joint written as hinge [{hinge}] and slide [{slide}] coupled by '
                   f'<equality><joint> slide = -hinge/{num(pitch)} (thread_pitch); '
                   'screw_thread_pitch is not read', *where(j.joint.loc))
    return slide


def _target(ctx: JointContext, j: FlatJoint, name: str) -> str | None:
    scoped = join(j.scope, name)[len(ctx.flat.scope) + 2:]
    flat_name = ctx.flat.names.get(scoped)
    got = ctx.written.get(flat_name) if flat_name is not None else None
    return got[0] if got else None


def write_couplings(ctx: JointContext, couplings: list[FlatJoint],
                    tree_joint_of: dict[str, FlatJoint]) -> None:
    """Write mimic and gearbox couplings as ``<equality><joint>`` (after every joint exists)."""
    for j in ctx.flat.joints:
        a = j.joint.axis
        mine = ctx.written.get(j.name)
        if a is None or not a.mimic_joint or not mine:
            continue
        target = _target(ctx, j, a.mimic_joint)
        if target is None:
            ctx.report.add(ReportKind.DROPPED, f'joint[{j.scoped}]/mimic',
                           f'mimicked joint [{a.mimic_joint}] has no MJCF joint', *where(a.loc))
            continue
        sub(ctx.doc.section('equality'), 'joint', name=f'{mine[0]}__mimic',
            joint1=mine[0], joint2=target,
            polycoef=nums((a.mimic_offset, a.mimic_multiplier, 0.0, 0.0, 0.0)))
    for g in couplings:
        _gearbox(ctx, g, tree_joint_of)


def _gearbox(ctx: JointContext, g: FlatJoint, tree_joint_of: dict[str, FlatJoint]) -> None:
    label = f'joint[{g.scoped}]'
    jc = tree_joint_of.get(g.child or '')
    jp = tree_joint_of.get(g.parent or '')
    names = [ctx.written.get(x.name) if x is not None else None for x in (jc, jp)]
    if not names[0] or not names[1]:
        ctx.report.add(ReportKind.DROPPED, label, 'gearbox joint: no hinge holds its parent and '
                       'its child, so there is nothing to couple', *where(g.joint.loc))
        return
    ratio = g.joint.gearbox_ratio if g.joint.gearbox_ratio is not None else 1.0
    sub(ctx.doc.section('equality'), 'joint', name=ctx.name(g.name), joint1=names[0][0],
        joint2=names[1][0], polycoef=nums((0.0, -ratio, 0.0, 0.0, 0.0)))
    ctx.report.add(ReportKind.REWRITTEN, label, f'gearbox joint written as <equality><joint> '
                   f"[{names[0][0]}] = -{num(ratio)} x [{names[1][0]}] (ODE's gearbox sign "
                   'convention); the reference body is not used', *where(g.joint.loc))
