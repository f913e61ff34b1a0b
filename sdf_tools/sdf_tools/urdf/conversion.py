"""What libsdformat's URDF conversion keeps: the one home of its lumping rules.

libsdformat converts a URDF before it validates it: fixed joints are lumped
(the child link's mass folds into its parent), so inertia is judged on the
lumped sums and a joint/link name clash matters only when both survive.
Our model keeps every link; these checks reproduce libsdformat's verdict.
Which fixed joints are lumped, kept (``preserveFixedJoint``) or locked
(``disableFixedJointLumping``) is decided here (:func:`reducible_joints`,
:func:`lumped_of`, :func:`locked_joints`); the order of the lumps, the lumped
sums and the links ``CreateSDF`` writes are :mod:`sdf_tools.urdf.lumping_walk`'s,
built once per load on these rules. The reader's verdicts below, the ``<gazebo>``
blob check and the URDF -> SDFormat converter all read them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from lxml import etree

from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.gazebo import GazeboTarget, using
from sdf_tools.model import Inertial, Joint, Link, Model
from sdf_tools.model.inertia import inertia_is_valid
from sdf_tools.sdf.context import ReadContext
from sdf_tools.urdf.joint import unlimited_axis
from sdf_tools.urdf.releases import rules
from sdf_tools.xmlsafe import parse_kept

if TYPE_CHECKING:
    from sdf_tools.urdf.lumping_walk import UrdfWalk

#: The ``<gazebo reference="joint">`` switches that keep a fixed joint from being lumped.
LUMPING_SWITCHES = ('preserveFixedJoint', 'disableFixedJointLumping')


def switch_on(el: etree._Element) -> bool:
    """Whether a ``<gazebo>`` switch is on, as ``parser_urdf.cc`` reads it.

    Its ``value`` attribute, else its text, trimmed (``GetKeyValueAsString``), is
    ``true`` or ``yes`` in any case, or ``1``.
    """
    value = el.get('value')
    text = (value if value is not None else el.text or '').strip()
    return text.lower() in ('true', 'yes') or text == '1'


def urdf_name(joint: Joint) -> str:
    """The joint's name in the URDF, which ``<gazebo reference>`` names.

    The reader renames a joint named like a link (SDFormat has one namespace for both);
    libsdformat keeps the URDF's name, and so do its switches.
    """
    return joint.file_name or joint.name


def _gazebo_blocks(model: Model) -> Iterator[etree._Element]:
    """The robot's ``<gazebo>`` blocks, parsed (kept verbatim by the reader)."""
    for extra in model.extras:
        if extra.tag != 'gazebo':
            continue
        try:
            yield parse_kept(extra.xml)
        except etree.XMLSyntaxError:
            continue


def _switches(model: Model) -> dict[str, set[str]]:
    """Joints named by each lumping switch of a ``<gazebo reference>`` block."""
    out: dict[str, set[str]] = {tag: set() for tag in LUMPING_SWITCHES}
    for el in _gazebo_blocks(model):
        ref = el.get('reference')
        for c in el:
            if ref and c.tag in out and switch_on(c):
                out[str(c.tag)].add(ref)
    return out


def locked_joints(model: Model) -> set[str]:
    """Fixed joints libsdformat turns into revolute joints locked by limits [0, 0].

    Those named with ``disableFixedJointLumping`` and not with ``preserveFixedJoint``
    (which keeps a joint fixed and wins when both are given).
    """
    sw = _switches(model)
    names = sw['disableFixedJointLumping'] - sw['preserveFixedJoint']
    return {j.name for j in model.joints if j.type == 'fixed' and urdf_name(j) in names}


def _gazebo_references(model: Model) -> set[str]:
    """Every name a ``<gazebo reference="...">`` block of the robot names."""
    return {ref for el in _gazebo_blocks(model) if (ref := el.get('reference'))}


def axis_given_joints(model: Model) -> set[str]:
    """Fixed joints libsdformat writes with an ``<axis>`` it adds.

    libsdformat copies a ``<gazebo reference>`` block into the joint it names
    (``InsertSDFExtensionJoint``) and adds an empty ``<axis>`` there when the joint
    has none, so a written fixed joint (parent ``world``, or ``preserveFixedJoint``)
    named by any such block gets the spec's axis: ``0 0 1`` in the joint frame,
    unbounded limits, no damping or friction. Lumped joints are not written.
    """
    refs = _gazebo_references(model)
    kept = {j.name for j in model.joints} - lumped_joints(model) - locked_joints(model)
    return {j.name for j in model.joints
            if j.type == 'fixed' and j.axis is None and urdf_name(j) in refs and j.name in kept}


def as_written(model: Model, target: GazeboTarget | None = None) -> Callable[[Joint], Joint]:
    """A function giving each joint of ``model`` as libsdformat's conversion writes it.

    In every libsdformat version (``parser_urdf.cc`` ``CreateJoint``): a
    ``continuous`` joint is a ``revolute`` one with no position limits written (the
    spec's unbounded defaults apply); a ``disableFixedJointLumping`` joint is a
    revolute joint about its z axis locked by limits [0, 0]; a fixed joint named by
    ``<gazebo reference>`` gets an axis (:func:`axis_given_joints`).
    """
    locked, given = locked_joints(model), axis_given_joints(model)
    with using(target):  # the limit defaults of the target the model was read for
        unlimited = unlimited_axis()

    def written(joint: Joint) -> Joint:
        if joint.name in locked:
            return replace(joint, type='revolute',
                           axis=replace(unlimited, xyz=(0.0, 0.0, 1.0), lower=0.0, upper=0.0))
        if joint.name in given:
            return replace(joint, axis=replace(unlimited))
        if joint.type == 'continuous':
            return replace(joint, type='revolute')
        return joint
    return written


def preserved_joints(model: Model) -> set[str]:
    """Joints a ``<gazebo reference>`` block tells libsdformat not to lump."""
    return set().union(*_switches(model).values())


def reducible_joints(model: Model) -> frozenset[str]:
    """Fixed joints ``FixedJointShouldBeReduced`` accepts: not preserved (``world``'s too)."""
    keep = preserved_joints(model)
    return frozenset(j.name for j in model.joints
                     if j.type == 'fixed' and urdf_name(j) not in keep)


def lumped_of(model: Model, reducible: frozenset[str]) -> frozenset[str]:
    """The ``reducible`` joints ``ReduceFixedJoints`` lumps: all but those from ``world``."""
    return frozenset(j.name for j in model.joints if j.name in reducible and j.parent != 'world')


def lumped_joints(model: Model) -> frozenset[str]:
    """Fixed joints libsdformat lumps away (a fixed joint to ``world`` stays)."""
    return lumped_of(model, reducible_joints(model))


def check_converted(ctx: ReadContext, model: Model, renamed: dict[str, str],
                    elements: dict[str, etree._Element], walk: UrdfWalk) -> None:
    """Report what libsdformat rejects in the converted URDF, at the right element."""
    drops_by_sign = rules().warns_dropped_links
    for link in model.links:
        joint = walk.parent_joint.get(link.name)
        if joint is not None and joint.name in walk.lumped:
            inertial = link.inertial
            if inertial is not None and not inertia_is_valid(inertial.mass, inertial.inertia):
                ctx.warn(ErrorCode.LINK_INERTIA_INVALID,
                         f'link [{link.name}] has invalid inertia; libsdformat lumps it into its '
                         'parent and checks only the sum', elements.get(link.name))
            continue
        # A link without <inertial> is judged too when lumped links give it one.
        summed = walk.lumped_inertial(link.name)
        if summed is None or (drops_by_sign and walk.massless(link.name)):
            continue  # 14+ leaves a link of mass <= 0 out (warn_dropped_links): nothing to judge
        # Judged on libsdformat's own arithmetic when links were lumped into it: its
        # round-off can take a tiny moment to 0 (urdf/ode_mass.py).
        exact = walk.ode_lumped_inertial(link.name) if walk.absorbs(link.name) else summed
        if not inertia_is_valid(summed.mass, (exact or summed).inertia):
            ctx.error(ErrorCode.LINK_INERTIA_INVALID,
                      f'A link named {link.name} has invalid inertia'
                      + (' (with the links lumped into it)' if walk.absorbs(link.name) else '')
                      + '.', elements.get(link.name))
    # #1148 (13.1): a lumped joint leaves a frame of its own name, which clashes as well.
    frames_kept = rules().lumped_frames
    for old, new in renamed.items():
        joint = next((j for j in model.joints if j.name == new), None)
        if joint is not None and (joint.name not in walk.lumped or frames_kept):
            kept = ' (as the frame of the lumped joint)' if joint.name in walk.lumped else ''
            ctx.error(ErrorCode.DUPLICATE_NAME, f'joint [{old}]{NAME_CLASH}{kept} when it '
                      'converts the URDF: Gazebo refuses the model', elements.get(old))


NAME_CLASH = ' has the name of a link, and libsdformat keeps both'  # see is_name_clash


def check_reserved_names(ctx: ReadContext, model: Model, links: dict[str, etree._Element],
                         joints: dict[str, etree._Element]) -> None:
    """Refuse ``::`` in a name, as libsdformat 14+ does in the SDFormat 1.11 it converts to.

    ``recursiveSiblingNoDoubleColonInNames`` checks every named element of the converted
    model: the robot, its links and joints (lumped ones too: 13.1+ keeps them as frames),
    and the visuals and collisions, whose names start with their link's.
    """
    why = ': libsdformat 14+ refuses "::" in names (the SDFormat scope delimiter)'
    if '::' in model.name:
        ctx.error(ErrorCode.RESERVED_NAME, f'robot [{model.name}]{why}', None)
    for link in model.links:
        if '::' in link.name:
            ctx.error(ErrorCode.RESERVED_NAME, f'link [{link.name}]{why}', links.get(link.name))
            continue
        for shape in [v.name for v in link.visuals] + [c.name for c in link.collisions]:
            if '::' in shape:
                ctx.error(ErrorCode.RESERVED_NAME, f'[{shape}] of link [{link.name}]{why}',
                          links.get(link.name))
    for joint in model.joints:
        if '::' in urdf_name(joint):
            ctx.error(ErrorCode.RESERVED_NAME, f'joint [{urdf_name(joint)}]{why}',
                      joints.get(joint.name))


def is_name_clash(d: Diagnostic) -> bool:
    """Whether ``d`` is libsdformat's refusal of a URDF joint named like a link.

    URDF keeps links and joints apart; only SDFormat (and so Gazebo) has one namespace.
    A conversion renames the joint where the target forbids the clash (SDFormat) and keeps
    the name where it does not (URDF, MJCF, USD), so the error is libsdformat's verdict,
    not a reason to refuse the file.
    """
    return d.code is ErrorCode.DUPLICATE_NAME and NAME_CLASH in d.message


def warn_dropped_links(ctx: ReadContext, model: Model, walk: UrdfWalk,
                       elements: dict[str, etree._Element],
                       joint_elements: dict[str, etree._Element] | None = None) -> None:
    """Warn, as libsdformat 14+ does, about each URDF link it leaves out for its mass.

    gazebosim/sdformat#1238 (12.7.2, 13.5, 14.0) made ``CreateSDF``'s silent drop a
    ``LINK_INERTIA_INVALID`` warning: a link (other than ``world``) with no ``<inertial>``
    or a mass <= 0, after the links lumped into it, is not modeled, nor its parent joint
    and subtree -- unless its own fixed parent joint is one lumping may reduce (it is then
    part of its parent). That includes a fixed joint from ``world``, which is never
    lumped: such a link is silently not written, and the joints to its children name a
    link that is not there (:func:`_refuse_world_child`). libsdformat 12.3 says nothing
    (the reader's ``MASSLESS_LINK`` does). The links are judged in ``CreateSDF``'s order
    (:meth:`~sdf_tools.urdf.lumping_walk.UrdfWalk.create_sdf`).
    """
    if not rules().warns_dropped_links:
        return
    for visit in walk.create_sdf():
        if not visit.massless:
            continue
        name = visit.link
        joint = walk.parent_joint.get(name)
        kids = walk.children.get(name, [])
        if visit.stops:
            ctx.warn(ErrorCode.LINK_INERTIA_INVALID, _dropped_message(
                walk.links[name], walk.lumped_inertial(name), joint, kids), elements.get(name))
        elif joint is not None and joint.name not in walk.lumped:
            _refuse_world_child(ctx, model, name, joint, kids, walk.lumped, joint_elements or {})


WORLD_CHILD = 'has no mass and is fixed to world'  # in the error _refuse_world_child gives


def _refuse_world_child(ctx: ReadContext, model: Model, name: str, joint: Joint,
                        kids: list[Joint], lumped: frozenset[str],
                        elements: dict[str, etree._Element]) -> None:
    """libsdformat 14+'s verdict on the joints below a massless link fixed to ``world``.

    ``CreateSDF`` takes that fixed joint for one lumping reduces, so it neither drops
    the link nor writes it, and goes on to its children: each joint to a child names a
    link that is not in the model (libsdformat 14.9 gives POSE_RELATIVE_TO_INVALID first,
    then JOINT_PARENT_LINK_INVALID). A conversion that gives the link a mass repairs it.
    """
    for j in kids:
        if j.name in lumped:
            continue
        ctx.error(ErrorCode.POSE_RELATIVE_TO_INVALID,
                  f'relative_to name[{name}] specified by joint with name[{j.name}] does not '
                  f'match a nested model, link, joint, or frame name in model with name'
                  f'[{model.name}]: libsdformat 14+ does not write link [{name}], which '
                  f'{WORLD_CHILD} (joint [{joint.name}]). Fix: give it an <inertial> with a '
                  'positive mass', elements.get(j.name))


def is_massless_world_child(d: Diagnostic) -> bool:
    """Whether ``d`` is the error :func:`_refuse_world_child` gives (a conversion repairs it)."""
    return d.code is ErrorCode.POSE_RELATIVE_TO_INVALID and WORLD_CHILD in d.message


def _dropped_message(link: Link, summed: Inertial | None, joint: Joint | None,
                     kids: list[Joint]) -> str:
    """libsdformat 14's words for a link it leaves out (``urdf2sdf: link[...] has ...``)."""
    had = ('has no <inertial> block defined' if link.inertial is None and summed is None else
           f'has a mass value of {summed.mass if summed else 0.0:g}, less than or equal to zero')
    lost = []
    if joint is not None:
        lost.append(f'parent joint [{joint.name}]')
    if kids:
        lost.append(f'{len(kids)} child link(s) [{", ".join(j.child for j in kids)}] and '
                    'everything below')
    fixed = [j.name for j in ([joint] if joint is not None else []) + kids
             if j.type == 'fixed']
    hint = (f'; allowing joint lumping (no preserveFixedJoint/disableFixedJointLumping on '
            f'[{", ".join(fixed)}]) could resolve it' if fixed else '')
    return (f'link [{link.name}] {had}: libsdformat 14+ leaves it out of the SDF model'
            + (f' with its {" and ".join(lost)}' if lost else '')
            + f' ("urdf2sdf: link[{link.name}] is not modeled in sdf"). Fix: give it an '
            f'<inertial> with a positive mass{hint}')


MASSLESS_ROOT = 'root link ['  # how the massless-root error starts (see is_massless_root)


def is_massless_root(d: Diagnostic) -> bool:
    """Whether ``d`` is the error :func:`check_massless_root` gives.

    Only libsdformat (and so Gazebo) refuses such a robot: its frames are all known (ROS
    tools read it), and a conversion that gives massless links a mass repairs it.
    """
    return d.code is ErrorCode.MODEL_WITHOUT_LINK and d.message.startswith(MASSLESS_ROOT)


def check_massless_root(ctx: ReadContext, walk: UrdfWalk,
                        elements: dict[str, etree._Element]) -> None:
    """Refuse the robot, as libsdformat does, when its conversion writes no link.

    libsdformat's URDF conversion skips a link without ``<inertial>`` or with mass
    0 (after fixed-joint lumping has added its fixed children's masses), together
    with its parent joint and everything below it (:meth:`UrdfWalk.create_sdf`). For
    the root link that is the whole robot: the model is left without a link
    (``MODEL_WITHOUT_LINK``). A robot rooted at ``world`` loses every link when each
    child of ``world`` is such a link, or (14+) a massless one under a fixed joint with
    no written link below it. Our model keeps the links (every frame is still known
    to ROS tools).
    """
    tops = walk.tops()
    if not tops or tops[0] not in walk.links or any(v.written for v in walk.create_sdf()):
        return
    first = tops[0]
    if walk.roots != ['world']:
        ctx.error(ErrorCode.MODEL_WITHOUT_LINK,
                  f'{MASSLESS_ROOT}{first}] has no mass (no <inertial>, or mass 0, also with its '
                  'fixed children lumped in): libsdformat drops a massless link with everything '
                  'below it, so no link is left and Gazebo refuses the robot. Fix: give it an '
                  '<inertial> with a positive mass (`sdf_tools convert` to SDFormat gives it a '
                  'reported small mass unless --massless-links drop|error)', elements.get(first))
        return
    ctx.error(ErrorCode.MODEL_WITHOUT_LINK,
              f'{MASSLESS_ROOT}{first}] (a child of world) has no mass, nor any other link '
              'libsdformat would write: it leaves out each massless link with everything below '
              'it, so no link is left and Gazebo refuses the robot. Fix: give it an <inertial> '
              'with a positive mass', elements.get(first))
