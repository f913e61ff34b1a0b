"""``collapse_fixed_joints``: merge each link held by a fixed joint into its parent body.

Shared by the engine exporters (MJCF, USD), which build one body per
flattened link: with the option, a link whose only parent joint is a fixed
joint to another link stops being a body of its own. Its mass is added to
the body it is merged into (:func:`~sdf_tools.model.inertia.combine_inertials`,
about the new centre of mass), its visuals, collisions and sensors move there
with their poses composed (a sensor whose name the body already has is dropped,
reported; lights are dropped, reported), its joints hang from that body, and the link itself
stays a frame (an MJCF ``<site>``, a USD ``Xform``) at its resolved pose, so
no frame name is lost. Chains of fixed joints collapse into the first link
above them that is held by something else. Each merge is reported.

Not merged: fixed joints to the world (the fixed base), joints whose ends
are not links of the model, and links with more than one parent joint
(a kinematic loop: the loop closure needs the link's own body).

Poses are taken from the frame graphs (:meth:`FlatModel.rel`), so the
frame vertex of a merged link keeps resolving to the link's own pose.
"""
from __future__ import annotations

import dataclasses
from typing import TypeVar

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import WORLD, FlatFrame, FlatJoint, FlatLink, FlatModel, pose_in_link, where
from sdf_tools.model import Collision, Frame, Inertial, Sensor, Visual
from sdf_tools.model.common import RawPose
from sdf_tools.model.inertia import combine_inertials
from sdf_tools.transform import Transform

Shape = TypeVar('Shape', Visual, Collision)
# libsdformat's mass properties of a link without <inertial>.
_SDF_DEFAULT = Inertial()  # libsdformat's default: 1 kg, unit inertia at the link origin


def _mergeable(flat: FlatModel) -> dict[str, FlatJoint]:
    """Return child link -> fixed joint, for the fixed joints that can be collapsed."""
    parents: dict[str, int] = {}
    for j in flat.joints:
        if j.child is not None:
            parents[j.child] = parents.get(j.child, 0) + 1
    out = {}
    for j in flat.joints:
        if (j.joint.type == 'fixed' and j.parent not in (None, WORLD) and j.child is not None
                and j.child != WORLD and j.child != j.parent and parents[j.child] == 1
                and flat.link(j.child) is not None and flat.link(j.parent or '') is not None):
            out[j.child] = j
    return out


def _target(link: str, merged: dict[str, FlatJoint]) -> str:
    """Return the link ``link`` ends up in, following fixed joints upwards (cycles stop)."""
    seen = {link}
    while link in merged:
        up = merged[link].parent
        assert up is not None
        if up in seen:
            break
        seen.add(up)
        link = up
    return link


def _in_frame(flat: FlatModel, fl: FlatLink, urdf: bool, report: ConversionReport
              ) -> Inertial | None:
    """Return the link's inertial with its pose in the link frame (SDFormat's default if none)."""
    got = fl.link.inertial
    if got is None:
        if urdf:
            return None
        said = any(e.kind is ReportKind.ASSUMED and e.element.endswith(f'link[{fl.link.name}]/inertial')
                   for e in report.entries)  # the USD plan reports every default up front
        if not said:
            report.add(ReportKind.ASSUMED, f'link[{fl.scoped}]', "no <inertial>: libsdformat's "
                       'default, 1 kg and unit inertia at the link origin', *where(fl.link.loc))
        got = _SDF_DEFAULT
    pose = RawPose(pose_in_link(flat, fl, got.pose))
    return dataclasses.replace(got, pose=pose)


def _moved(flat: FlatModel, src: FlatLink, x_tl: Transform, items: list[Shape], prefix: str
           ) -> list[Shape]:
    """Return the visuals or collisions of ``src`` placed in the target's frame, renamed."""
    out = []
    for item in items:
        pose = RawPose(x_tl * pose_in_link(flat, src, item.pose))
        out.append(dataclasses.replace(item, name=f'{prefix}{item.name}', pose=pose))
    return out


def _moved_sensors(flat: FlatModel, tgt: FlatLink, src: FlatLink, x_tl: Transform,
                   report: ConversionReport) -> tuple[list[Sensor], list[Sensor]]:
    """Return the sensors of ``src`` placed on the target at the same pose, and those whose
    name the target already has (Menagerie's aloha: the wrist cameras of left/gripper_base)."""
    taken = {x.name for x in tgt.link.sensors}
    moved: list[Sensor] = []
    lost: list[Sensor] = []
    for x in src.link.sensors:
        if x.name in taken:
            lost.append(x)
            continue
        taken.add(x.name)
        moved.append(dataclasses.replace(x, pose=RawPose(x_tl * pose_in_link(flat, src, x.pose))))
        report.add(ReportKind.REWRITTEN, f'link[{src.scoped}]/sensor[{x.name}]', f'its link was '
                   f'merged into [{tgt.name}] (collapse_fixed_joints): written on [{tgt.name}] '
                   'at the same pose', *where(x.loc))
    return moved, lost


def _merge(flat: FlatModel, tgt: FlatLink, src: FlatLink, urdf: bool,
           report: ConversionReport) -> None:
    """Move the mass, shapes and frames of ``src`` into ``tgt``."""
    x_tl = flat.rel(tgt.vid, src.vid)
    mine = _in_frame(flat, tgt, urdf, report)
    theirs = _in_frame(flat, src, urdf, report)
    inertial = mine
    if theirs is not None:
        inertial = combine_inertials(mine, theirs, x_tl)
    prefix = f'{src.name}__'
    sensors, lost_sensors = _moved_sensors(flat, tgt, src, x_tl, report)
    tgt.link = dataclasses.replace(
        tgt.link, inertial=inertial,
        visuals=tgt.link.visuals + _moved(flat, src, x_tl, src.link.visuals, prefix),
        collisions=tgt.link.collisions + _moved(flat, src, x_tl, src.link.collisions, prefix),
        sensors=tgt.link.sensors + sensors)
    for what, lost in (('sensor', lost_sensors), ('light', src.link.lights)):
        for x in lost:
            report.add(ReportKind.DROPPED, f'link[{src.scoped}]/{what}[{x.name}]',
                       f'its link was merged into [{tgt.name}] (collapse_fixed_joints)',
                       *where(x.loc))


def collapse_fixed_joints(flat: FlatModel, urdf: bool, report: ConversionReport) -> int:
    """Merge every collapsible fixed joint of ``flat`` (in place); return how many were merged.

    Args:
        flat: the flattened model; its links, joints and frames are rewritten.
        urdf: the input was URDF (a link without inertial has no mass, not 1 kg).
        report: receives one MERGED entry per collapsed joint.
    """
    merged = _mergeable(flat)
    if not merged:
        return 0
    target = {name: _target(name, merged) for name in merged}
    for fl in flat.links:
        if fl.name in merged and target[fl.name] != fl.name:
            tgt = flat.link(target[fl.name])
            assert tgt is not None
            _merge(flat, tgt, fl, urdf, report)
            j = merged[fl.name]
            report.add(ReportKind.MERGED, f'link[{fl.scoped}]',
                       f'held by fixed joint [{j.scoped}]: merged into link [{tgt.scoped}] '
                       '(collapse_fixed_joints); kept as a frame', *where(j.joint.loc))
    gone = {n for n, t in target.items() if t != n}
    _rehang(flat, gone, target)
    return len(gone)


def _rehang(flat: FlatModel, gone: set[str], target: dict[str, str]) -> None:
    """Drop merged links and their fixed joints; their joints and frames go to the target."""
    flat.joints = [j for j in flat.joints if j.child not in gone]
    for j in flat.joints:
        if j.parent in gone:
            j.parent = target[j.parent]
    for fr in flat.frames:
        if fr.body in gone:
            fr.body = target[fr.body]
    kept = [fl for fl in flat.links if fl.name not in gone]
    for fl in flat.links:
        if fl.name in gone:
            flat.frames.append(FlatFrame(fl.name, fl.scoped, Frame(fl.link.name, loc=fl.link.loc),
                                         target[fl.name], fl.vid))
            del flat.by_name[fl.name]
    flat.links = kept
    if flat.canonical in gone:
        flat.canonical = target[flat.canonical]
