"""Read a URDF ``<robot>`` into the description model, in SDFormat 1.9 frame terms.

The model says what the URDF means, placed the way libsdformat places a
converted URDF, so the frame graphs resolve it like any SDFormat model::

    <joint name="j" type="revolute">          joint j:  pose = origin, relative_to = "a"
      <parent link="a"/> <child link="b"/>     link b:   pose = identity, relative_to = "j"
      <origin xyz="0 0 1"/> ...                root link: no pose (the model frame)

A ``world`` root link is not a link of the model: joints from it have
parent ``world`` and are placed relative to ``__model__``. Nothing is
lumped or dropped here (libsdformat's fixed-joint lumping and its dropping
of massless links belong to the converter); ``<transmission>``,
``<gazebo>``, ``<ros2_control>``, materials and unknown elements are kept
verbatim in ``Model.extras``.
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from lxml import etree

from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.model import Document, Extra, Joint, Link, Model, RawPose
from sdf_tools.sdf.context import ReadContext
from sdf_tools.sdf.names import is_reserved_name
from sdf_tools.sdf.values import parse_bool_text, parse_pose_element
from sdf_tools.transform import IDENTITY
from sdf_tools.urdf.attrs import first_child, read_origin
from sdf_tools.urdf.conversion import (
    check_converted,
    check_massless_root,
    check_reserved_names,
    locked_joints,
    warn_dropped_links,
)
from sdf_tools.urdf.gazebo_blobs import check_gazebo_blobs
from sdf_tools.urdf.gazebo_entities import check_gazebo_entities
from sdf_tools.urdf.joint import read_joint
from sdf_tools.urdf.link import Materials, read_link
from sdf_tools.urdf.lumped_frames import check_lumped_frames
from sdf_tools.urdf.lumping_walk import UrdfWalk, urdf_walk
from sdf_tools.urdf.mimic import check_mimic_leaders
from sdf_tools.urdf.releases import rules
from sdf_tools.urdf.tree import Tree, build_tree
from sdf_tools.urdf.zero_mass_sum import check_zero_mass_sums
from sdf_tools.xmlsafe import parse_file, to_xml

# Robot-level elements kept for the converter without a warning.
KNOWN_EXTRAS = ('material', 'gazebo', 'transmission', 'ros2_control')


def _name(ctx: ReadContext, el: etree._Element, kind: str,
          seen: dict[str, etree._Element]) -> str | None:
    """Return the element's name, or None (reported) when it cannot be used."""
    name = el.get('name')
    if name is None:
        ctx.error(ErrorCode.URDF_INVALID, f'<{kind}> needs attribute [name]', el)
        return None
    if name in seen:
        ctx.error(ErrorCode.URDF_INVALID,
                  f'{kind} name [{name}] is used twice (first at line {seen[name].sourceline})', el)
        return None
    # '::' is allowed here: libsdformat 12 converts a URDF to SDFormat 1.7, where names may
    # hold it (14+ converts to 1.11 and refuses it: conversion.check_reserved_names).
    if is_reserved_name(name) and not (kind == 'link' and name == 'world'):
        ctx.error(ErrorCode.RESERVED_NAME,
                  f'{kind} name [{name}] is reserved in SDFormat 1.9, which libsdformat '
                  'converts a URDF to', el)
    seen[name] = el
    return name


def _read_links(ctx: ReadContext, robot: etree._Element, robot_name: str
                ) -> tuple[list[Link], dict[str, etree._Element]]:
    materials = Materials()
    for m in robot:
        if m.tag == 'material':
            materials.read_global(ctx, m)
    links: list[Link] = []
    elements: dict[str, etree._Element] = {}
    for el in robot:
        if el.tag == 'link' and _name(ctx, el, 'link', elements) is not None:
            links.append(read_link(ctx, el, materials))
    if not links:
        ctx.error(ErrorCode.URDF_INVALID, f'robot [{robot_name}] has no <link>', robot)
    return links, elements


def _read_joints(ctx: ReadContext, robot: etree._Element) -> list[tuple[Joint, etree._Element]]:
    seen: dict[str, etree._Element] = {}
    return [(read_joint(ctx, el), el) for el in robot
            if el.tag == 'joint' and _name(ctx, el, 'joint', seen) is not None]


def _canonical_link(walk: UrdfWalk) -> str:
    """Return the link libsdformat writes first: the root, or one below ``world``.

    ``CreateSDF`` writes links in its walk's order (:meth:`UrdfWalk.create_sdf`); when it
    writes none (the robot is refused), the root or ``world``'s first child stands in.
    """
    first = next((v.link for v in walk.create_sdf() if v.written), None)
    if first is not None:
        return first
    tops = walk.tops()
    return tops[0] if tops else ''


def _rename_clashing_joints(ctx: ReadContext, links: list[Link],
                            joints: list[tuple[Joint, etree._Element]]) -> dict[str, str]:
    """Give joints named like a link a distinct name; return old -> new.

    URDF keeps links and joints in separate namespaces, SDFormat (whose
    frame graph we resolve URDF with) in one. The joint becomes
    ``<name>_joint``, the rule libsdformat applies to such clashes in old
    SDFormat files, and the renaming is reported.
    """
    taken = {lk.name for lk in links} | {j.name for j, _ in joints}
    link_names = {lk.name for lk in links}
    renamed: dict[str, str] = {}
    for joint, el in joints:
        if joint.name not in link_names:
            continue
        new, i = joint.name + '_joint', 0
        while new in taken:
            new, i = f'{joint.name}_joint{i}', i + 1
        ctx.warn(ErrorCode.DUPLICATE_NAME,
                 f'joint [{joint.name}] has the name of a link; it is called [{new}] in the '
                 'SDFormat model (one namespace for links and joints)', el)
        renamed[joint.name] = new
        taken.add(new)
        joint.file_name, joint.name = joint.name, new
    for joint, _ in joints:
        for axis in (joint.axis, joint.axis2):
            if axis is not None and axis.mimic_joint in renamed:
                axis.mimic_joint = renamed[axis.mimic_joint]
    return renamed


def _assemble(ctx: ReadContext, model: Model, links: list[Link],
              joints: list[tuple[Joint, etree._Element]], tree: Tree,
              link_elements: dict[str, etree._Element]) -> UrdfWalk:
    """Put the links and joints in the model; return libsdformat's walk of it (one per load).

    The ``<gazebo>`` blocks are in ``model.extras`` already: they say which joints are lumped.
    """
    renamed = _rename_clashing_joints(ctx, links, joints)
    tree.usable = {renamed.get(n, n) for n in tree.usable}
    tree.parent_joint = {k: renamed.get(v, v) for k, v in tree.parent_joint.items()}
    by_name = {j.name: j for j, _ in joints}
    for link in links:
        if link.name == 'world':
            if link.inertial is not None or link.visuals or link.collisions:
                ctx.warn(ErrorCode.URDF_WORLD_LINK_CONTENT, 'link [world] is the fixed world frame: its '
                         'inertial, visuals and collisions are ignored', link_elements.get('world'))
            continue
        jname = tree.parent_joint.get(link.name)
        if jname is not None and link.name not in tree.loop_breaks:
            joint = by_name[jname]
            link.pose = RawPose(IDENTITY, jname, loc=joint.loc)
        model.links.append(link)
    model.joints = [j for j, _ in joints if j.name in tree.usable]
    walk = urdf_walk(model, tree.roots[:1])
    check_converted(ctx, model, renamed, link_elements, walk)
    canonical = _canonical_link(walk)
    if model.links and canonical and model.links[0].name != canonical:
        model.canonical_link = canonical
    return walk


def _as_converted(ctx: ReadContext, model: Model, walk: UrdfWalk,
                  joints: list[tuple[Joint, etree._Element]],
                  link_elements: dict[str, etree._Element]) -> None:
    """Apply what libsdformat's conversion does that changes the verdict or a joint's type.

    Runs once the ``<gazebo>`` blocks are in ``model.extras`` (they name the joints).
    """
    elements = {j.name: el for j, el in joints}
    for name in sorted(locked_joints(model)):
        ctx.warn(ErrorCode.DEFAULT_ASSUMED,
                 f'fixed joint [{name}] is named with disableFixedJointLumping: libsdformat '
                 'makes it a revolute joint about its z axis locked by limits [0, 0] '
                 '(preserveFixedJoint keeps it fixed)', elements.get(name))
    warn_dropped_links(ctx, model, walk, link_elements, elements)
    if not model.static:  # a static model may have no link: libsdformat (12-16) loads it empty
        check_massless_root(ctx, walk, link_elements)
    if rules().mimic_checked:
        check_mimic_leaders(ctx, model, elements, walk)
    check_lumped_frames(ctx, model, elements, walk)
    if rules().colons_refused:
        check_reserved_names(ctx, model, link_elements, elements)
    check_zero_mass_sums(ctx, link_elements, walk)


def _robot_gazebo(ctx: ReadContext, root: etree._Element, model: Model) -> None:
    """Apply ``<pose>`` and ``<static>`` of reference-less ``<gazebo>`` blocks.

    libsdformat copies such blocks into the converted model, so they set the
    model's pose and static flag (a ``<robot><origin>`` still wins the pose).
    libsdformat 12 sets the flag from every such block (false without ``<static>``:
    the last block decides); 13.3+ only from a block holding one (#1193).
    """
    only_given = rules().static_only_when_given
    for g in root.iterchildren('gazebo'):
        if g.get('reference'):
            continue
        pose_el = g.find('pose')
        if pose_el is not None and first_child(root, 'origin') is None:
            model.pose = parse_pose_element(ctx, pose_el)
        static_el = g.find('static')
        if static_el is None and not only_given:
            model.static = False
        if static_el is not None:
            value = parse_bool_text(static_el.text or '')
            if value is None:
                ctx.error(ErrorCode.URDF_INVALID, f'<static> [{static_el.text}] is not a bool', static_el)
            else:
                model.static = value


class UrdfRead(NamedTuple):
    """What reading a URDF gave: the document, its diagnostics, and libsdformat's walk of it."""

    document: Document | None
    diagnostics: list[Diagnostic]
    walk: UrdfWalk | None  # None when there is no document


def read_urdf_root(root: etree._Element, file: str | None
                   ) -> tuple[Document | None, list[Diagnostic]]:
    """Read a parsed URDF; return the document (None if the root is no ``<robot>``).

    Never raises for bad input: every problem is a diagnostic with its line,
    and reading goes on after each one so that all of them are reported.
    """
    read = read_urdf(root, file)
    return read.document, read.diagnostics


def read_urdf(root: etree._Element, file: str | None) -> UrdfRead:
    """Read a parsed URDF as :func:`read_urdf_root` does, keeping the walk its verdicts read.

    The loader keeps that walk on its ``LoadResult`` so that every later reader of
    libsdformat's lumping (the converter, the lint, the frame listings) reads the same one.
    """
    ctx = ReadContext(file, '1.9')
    if root.tag != 'robot':
        ctx.error(ErrorCode.URDF_INVALID, f'the root element is <{root.tag}>, not <robot>', root)
        return UrdfRead(None, ctx.diagnostics, None)
    name = root.get('name')
    if name is None:
        ctx.error(ErrorCode.URDF_INVALID, '<robot> needs attribute [name]', root)
        name = ''
    model = Model(name, version='1.9', loc=ctx.loc(root))
    if first_child(root, 'origin') is not None:
        # libsdformat's extension: <robot><origin> becomes the model's pose.
        model.pose = read_origin(ctx, root, f'robot [{name}]', '')
    _robot_gazebo(ctx, root, model)
    check_gazebo_blobs(ctx, root)
    links, link_elements = _read_links(ctx, root, name)
    joints = _read_joints(ctx, root)
    tree = build_tree(ctx, name, link_elements, joints)
    kept = [c for c in root
            if isinstance(c.tag, str) and c.tag not in ('link', 'joint', 'origin')]
    model.extras.extend(Extra(c.tag, to_xml(c), ctx.loc(c)) for c in kept)
    walk = _assemble(ctx, model, links, joints, tree, link_elements)
    for c in kept:
        if c.tag not in KNOWN_EXTRAS:
            ctx.warn(ErrorCode.ELEMENT_UNKNOWN,
                     f'<{c.tag}> is not a URDF child of <robot>; kept verbatim', c)
    _as_converted(ctx, model, walk, joints, link_elements)
    check_gazebo_entities(ctx, root, model, walk)
    return UrdfRead(Document(file, 'urdf', None, model=model, loc=ctx.loc(root)), ctx.diagnostics,
                    walk)


def read_urdf_file(path: str | Path) -> tuple[Document | None, list[Diagnostic]]:
    """Parse and read a URDF file; never raises for bad input."""
    root, bad = parse_file(path)
    if root is None:
        return None, [bad] if bad is not None else []
    return read_urdf_root(root, str(path))
