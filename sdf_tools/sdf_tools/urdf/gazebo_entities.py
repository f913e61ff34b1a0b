"""Names and joint ends of the SDFormat entities a URDF's ``<gazebo>`` blocks add.

A ``<gazebo>`` block without ``reference`` is copied into libsdformat's converted
``<model>`` (``parser_urdf.cc`` ``InsertSDFExtensionRobot``), so the ``<link>``, ``<joint>``,
``<frame>`` and ``<model>`` elements it holds become entities of that model, beside the
links and joints left after fixed-joint lumping (a lumped link is gone in libsdformat
12.3; from 13.1 on a ``<frame>`` keeps its name and its joint's, gazebosim/sdformat#1148).
libsdformat then builds the model's frame graph (``FrameSemantics.cc``): links, joints,
frames, nested models are added in that order and a name taken already is
``DUPLICATE_NAME``; a joint whose parent or child names no entity is
``JOINT_PARENT_LINK_INVALID`` / ``JOINT_CHILD_LINK_INVALID``. Our reader keeps the blocks
for the converter; this module gives libsdformat's verdict on them, at their lines.
Entities of the URDF itself are judged elsewhere (``conversion.py``).
"""
from __future__ import annotations

from lxml import etree

from sdf_tools.errors import ErrorCode
from sdf_tools.model import Model
from sdf_tools.sdf.context import ReadContext
from sdf_tools.urdf.lumping_walk import UrdfWalk
from sdf_tools.urdf.releases import rules

_KINDS = (('link', 'Link'), ('joint', 'Joint'), ('frame', 'Frame'), ('model', 'Nested model'))


def _added(root: etree._Element) -> dict[str, list[etree._Element]]:
    """The entities reference-less ``<gazebo>`` blocks add, by kind, in document order."""
    out: dict[str, list[etree._Element]] = {kind: [] for kind, _ in _KINDS}
    for g in root.iterchildren('gazebo'):
        if g.get('reference'):
            continue
        for c in g:
            if isinstance(c.tag, str) and c.tag in out:
                out[c.tag].append(c)
    return out


def _names(ctx: ReadContext, model: Model, added: dict[str, list[etree._Element]],
           lumped: frozenset[str]) -> set[str]:
    """The converted model's entity names; a clash with an added entity is reported."""
    gone = {j.child for j in model.joints if j.name in lumped}
    names = {lk.name for lk in model.links if lk.name not in gone}
    kept = [j.name for j in model.joints if j.name not in lumped]
    if rules().lumped_frames:
        # libsdformat 13.1+ keeps each lumped link and joint as a <frame> (#1148)
        names |= gone | lumped
    for kind, label in _KINDS:
        if kind == 'joint':
            names.update(kept)
        for el in added[kind]:
            name = el.get('name', '')
            if name in names:
                ctx.error(ErrorCode.DUPLICATE_NAME,
                          f'{label} with non-unique name [{name}] detected in model with name '
                          f"[{model.name}] (a <gazebo> block adds it to libsdformat's model)", el)
                continue
            names.add(name)
    return names


def _resolves(name: str, names: set[str], nested: set[str]) -> bool:
    if name == 'world' or name in names:
        return True
    scope, sep, _ = name.partition('::')
    return bool(sep) and scope in nested


def check_gazebo_entities(ctx: ReadContext, root: etree._Element, model: Model,
                          walk: UrdfWalk) -> None:
    """Report what libsdformat refuses in the entities ``<gazebo>`` blocks add."""
    added = _added(root)
    if not any(added.values()):
        return
    names = _names(ctx, model, added, walk.lumped)
    nested = {m.get('name', '') for m in added['model']}
    _check_frames(ctx, added, names, nested)
    for joint in added['joint']:
        for end, code in (('parent', ErrorCode.JOINT_PARENT_LINK_INVALID),
                          ('child', ErrorCode.JOINT_CHILD_LINK_INVALID)):
            el = joint.find(end)
            target = (el.text or '').strip() if el is not None else ''
            if el is not None and not _resolves(target, names, nested):
                ctx.error(code, f'{end} frame with name[{target}] specified by joint with '
                          f'name[{joint.get("name", "")}] not found in model with name'
                          f"[{model.name}] (lumped links are gone from libsdformat's model)", el)


def _check_frames(ctx: ReadContext, added: dict[str, list[etree._Element]], names: set[str],
                  nested: set[str]) -> None:
    """A frame's ``attached_to`` and each added entity's ``<pose relative_to>`` must resolve."""
    for kind, label in _KINDS:
        for el in added[kind]:
            attached = el.get('attached_to') if kind == 'frame' else None
            if attached and not _resolves(attached, names, nested):
                ctx.error(ErrorCode.FRAME_ATTACHED_TO_INVALID,
                          f'attached_to name[{attached}] specified by frame with name'
                          f'[{el.get("name", "")}] does not match a link, joint, frame or '
                          "nested model of libsdformat's model", el)
            pose = el.find('pose')
            relative = pose.get('relative_to') if pose is not None else None
            if pose is not None and relative and not _resolves(relative, names, nested):
                ctx.error(ErrorCode.POSE_RELATIVE_TO_INVALID,
                          f'relative_to name[{relative}] specified by {label.lower()} with name'
                          f'[{el.get("name", "")}] does not match an entity of libsdformat\'s '
                          'model', pose)
