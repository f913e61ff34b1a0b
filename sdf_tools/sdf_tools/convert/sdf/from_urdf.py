"""URDF (and xacro) -> SDFormat: the model the URDF reader built, made into what Gazebo loads.

The URDF reader already places the robot in SDFormat 1.9 terms (each joint
relative to its parent link, each link relative to its joint). This module
does what libsdformat's URDF parser does on top of that, and reports it:

1. ``<gazebo>`` blocks are read (:mod:`~sdf_tools.convert.sdf.gazebo_tags`);
2. fixed joints are lumped (:mod:`~sdf_tools.convert.sdf.lumping`), the blocks of
   a lumped link moving with it; ``<frame>``\\ s named after each lumped
   joint and link keep those names usable (sensors, plugins, TF);
3. links without mass are folded, given a mass or dropped
   (:mod:`~sdf_tools.convert.massless`);
4. visuals and collisions get libsdformat's names, joints SDFormat types
   (:mod:`~sdf_tools.convert.sdf.joint_types`);
5. every ``<gazebo>`` tag is put where libsdformat puts it
   (:mod:`~sdf_tools.convert.sdf.gazebo_apply`), URDF colors become SDFormat
   materials, and URDF-only elements are carried as ``<urdf:...>``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.massless import (
    default_inertial,
    folds_massless,
    no_mass_for,
    replaced_mass_message,
)
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.convert.poses import identity_pose
from sdf_tools.convert.sdf import gazebo_apply as ga
from sdf_tools.convert.sdf.gazebo_model import Targets, apply_to_model, check_blocks
from sdf_tools.convert.sdf.gazebo_tags import GazeboBlock, parse_blocks
from sdf_tools.convert.sdf.joint_types import JointOutput, floating, locked_revolute, planar
from sdf_tools.convert.sdf.lumping import Body, Lumping, make_bodies, reduce_fixed_joints
from sdf_tools.convert.sdf.material_colors import Rgba, carry_custom, visual_colors
from sdf_tools.convert.sdf.plugin_frames import rewrite_references
from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.model import Frame, Joint, Link, Model
from sdf_tools.urdf.conversion import locked_joints, urdf_name
from sdf_tools.urdf.link import sdf_shape_name
from sdf_tools.urdf.lumping_walk import UrdfWalk


@dataclass
class UrdfState:
    """Everything the conversion of one robot works on."""

    model: Model
    options: ConversionOptions
    report: ConversionReport
    walk: UrdfWalk  # libsdformat's walk of the URDF as read (before anything is lumped here)
    bodies: dict[str, Body]
    blocks: list[GazeboBlock]
    keyed: dict[str, list[GazeboBlock]] = field(default_factory=dict)
    lumping: Lumping = field(default_factory=Lumping)
    dropped: set[str] = field(default_factory=set)
    libsdf_drops: set[str] = field(default_factory=set)
    locked: set[str] = field(default_factory=set)  # disableFixedJointLumping joints
    renamed: dict[tuple[str, str], str] = field(default_factory=dict)
    target: str = 'sdf'  # whose "no mass" massless links are judged by (massless.NO_MASS)


def _where(item: Link | Joint) -> tuple[str | None, int | None]:
    return (item.loc.file if item.loc else None, item.loc.line if item.loc else None)


def _on_lump(state: UrdfState, link: str, joint: Joint) -> None:
    """Move the blocks of a lumped link to its parent, re-posing them (libsdformat's order)."""
    moved = state.keyed.pop(link, [])
    x_pc = joint.pose.value if joint.pose is not None else None
    for b in moved:
        if x_pc is not None:
            b.reduction = x_pc * b.reduction
    state.keyed.setdefault(joint.parent, []).extend(moved)
    absorber = state.bodies[joint.parent].link.name
    state.report.add(ReportKind.MERGED, f'link[{link}]',
                     f'merged into link [{absorber}] through fixed joint [{joint.name}] (mass, '
                     f'visuals and collisions moved); <frame>s [{joint.name}] and [{link}] keep '
                     'their names', *_where(state.bodies[link].link))


def _lump(state: UrdfState) -> None:
    walk = state.walk  # libsdformat's rules (urdf/conversion.py), its order (urdf/lumping_walk.py)
    state.locked = locked_joints(state.model)
    opts = state.options
    fold = folds_massless(opts.massless_links)
    lumpable = set(walk.lumped) if not opts.keep_fixed_joints or fold else set()

    def should_lump(joint: Joint) -> bool:
        return not opts.keep_fixed_joints or no_mass_for(state.bodies[joint.child].link.inertial,
                                                         state.target)

    state.lumping = reduce_fixed_joints(walk, state.bodies, lumpable, should_lump,
                                        lambda link, joint: _on_lump(state, link, joint))
    by_urdf_name = {urdf_name(j): j for j in walk.joints.values()}
    for b in state.blocks:
        for tag, what in (('preserveFixedJoint', 'kept as a fixed joint'),
                          ('disableFixedJointLumping', 'kept, as a locked revolute joint')):
            value = b.values.pop(tag, None)
            if value is None:
                continue
            joint = by_urdf_name.get(b.reference)
            file = b.loc.file if b.loc else None
            if joint is None or joint.type != 'fixed':
                state.report.add(ReportKind.DROPPED, f'gazebo[reference={b.reference}]/{tag}',
                                 f'[{b.reference}] is not a fixed joint: libsdformat ignores it',
                                 file, value.line)
            elif value.value is True and joint.name not in walk.reducible:
                state.report.add(ReportKind.KEPT, f'gazebo[reference={b.reference}]/{tag}',
                                 f'joint [{b.reference}] {what}', file, value.line)
            else:
                state.report.add(ReportKind.KEPT, f'gazebo[reference={b.reference}]/{tag}',
                                 f'[{value.value}]: joint [{b.reference}] is lumped as usual',
                                 file, value.line)


def _libsdformat_drops(state: UrdfState) -> set[str]:
    """Return the links libsdformat leaves out: massless ones (after lumping) and everything below.

    libsdformat's walk decides (not our options: keep_fixed_joints, massless_links):
    :meth:`~sdf_tools.urdf.lumping_walk.UrdfWalk.create_sdf`. libsdformat 12 leaves out a
    massless link even when it is lumped (and so its subtree); 14+ keeps a massless link
    whose fixed parent joint is lumped (gazebosim/sdformat#1238). A massless link fixed to
    ``world``, which 14+ neither writes nor drops (the joints below it then name nothing:
    the reader's error), is left out with its subtree.
    """
    walk = state.walk
    out: set[str] = set()
    for visit in walk.create_sdf():
        joint = walk.parent_joint.get(visit.link)
        if visit.link in out or not visit.massless:
            continue
        if visit.stops or joint is None or joint.name not in walk.lumped:
            out.update(walk.below(visit.link))
    return out


def _settle_mass(state: UrdfState) -> None:
    policy, mass = state.options.massless_links, state.options.default_mass
    libsdf = _libsdformat_drops(state)
    state.libsdf_drops = libsdf
    lumped = state.lumping.into
    if policy == 'drop':
        for name in state.walk.preorder():
            if name in libsdf and name not in lumped:
                state.report.add(ReportKind.DROPPED, f'link[{name}]',
                                 'left out with its parent joint: it has no mass, or a link above '
                                 'it has none (massless_links=drop, as libsdformat does)',
                                 *_where(state.bodies[name].link))
        state.dropped = libsdf
        return
    for name in state.walk.preorder():
        link = state.bodies[name].link
        if name in lumped or not no_mass_for(link.inertial, state.target):
            continue
        if policy == 'error':
            state.report.diagnostics.append(Diagnostic(
                ErrorCode.URDF_INVALID, f'link [{name}] has no mass: libsdformat would drop it with '
                'its parent joint and subtree (massless_links=error)', *_where(link)))
            continue
        parent = state.walk.parent_joint.get(name)
        jtype = parent.type if parent is not None else ''
        why = ('the root link' if parent is None else
               'its fixed joint is kept' if jtype == 'fixed' else f'behind a {jtype} joint')
        message = replaced_mass_message(link.inertial, mass, state.target, why)
        link.inertial = default_inertial(link, mass)
        state.report.add(ReportKind.ASSUMED, f'link[{name}]/inertial', message, *_where(link))


def _name_shapes(state: UrdfState, out_links: list[str]) -> None:
    """Give visuals and collisions libsdformat's names; report the ones that changed."""
    for name in out_links:
        body = state.bodies[name]
        for kind, shapes in (('visual', body.visuals), ('collision', body.collisions)):
            for i, s in enumerate(shapes):
                new = sdf_shape_name(name, s.work_name, f'_{kind}', i)
                if s.origin != name or new != s.original:
                    state.renamed[(s.origin, s.original)] = new
                    loc = s.item.loc
                    state.report.add(ReportKind.RENAMED, f'link[{s.origin}]/{kind}[{s.original}]',
                                     f'is {kind} [{new}] of link [{name}]',
                                     loc.file if loc else None, loc.line if loc else None)
                s.item.name = new
        body.link.visuals = [s.item for s in body.visuals]  # type: ignore[misc]
        body.link.collisions = [s.item for s in body.collisions]  # type: ignore[misc]


def _joint_output(state: UrdfState, joint: Joint, taken: set[str]) -> JointOutput:
    parent = joint.parent
    if parent != 'world' and parent in state.lumping.into:
        joint.parent = state.lumping.absorber(parent)
        state.report.add(ReportKind.REWRITTEN, f'joint[{joint.name}]/parent',
                         f'link [{parent}] is merged into [{joint.parent}]: the joint hangs from '
                         f'[{joint.parent}], placed as before from <frame> [{parent}]', *_where(joint))
    if joint.type == 'fixed' and joint.name in state.locked:
        locked_revolute(joint, state.report)
    if joint.type == 'floating':
        return floating(joint, state.report)
    if joint.type == 'planar':
        return planar(joint, state.options.default_mass, taken, state.report)
    return JointOutput([joint])


def _frames(state: UrdfState) -> list[Frame]:
    """Return a ``<frame>`` for each lumped joint and link, in lumping order."""
    frames: list[Frame] = []
    for link, parent in state.lumping.into.items():
        if state.lumping.absorber(link) in state.dropped:
            continue
        joint = state.walk.joints[state.lumping.joint_of[link]]
        frames.append(Frame(joint.name, parent, joint.pose, joint.loc))
        frames.append(Frame(link, joint.name, identity_pose(joint.name), state.bodies[link].link.loc))
    return frames


def _assemble(state: UrdfState) -> None:
    model, walk = state.model, state.walk
    order = [n for n in walk.preorder() if n not in state.lumping.into and n not in state.dropped]
    _name_shapes(state, order)
    taken = {lk.name for lk in model.links} | set(walk.joints)
    links: list[Link] = []
    joints: list[Joint] = []
    frames: list[Frame] = []
    for name in order:
        parent = walk.parent_joint.get(name)
        out = _joint_output(state, parent, taken) if parent is not None else JointOutput()
        links.extend(out.links_before_child)
        links.append(state.bodies[name].link)
        joints.extend(out.joints)
        frames.extend(out.frames)
    model.links, model.joints, model.frames = links, joints, frames + _frames(state)
    libsdf_first = next((n for n in order if n not in state.libsdf_drops), '')
    first = links[0].name if links else ''
    model.canonical_link = libsdf_first if libsdf_first and libsdf_first != first else ''


def _apply_gazebo(state: UrdfState, colors: dict[int, Rgba]) -> None:
    model = state.model
    landing = ga.Landing()
    # A <gazebo reference> names a joint by its URDF name (urdf_name): a joint the reader
    # renamed [tool] -> [tool_joint] (named like link [tool]) takes the block of [tool]
    # too, as libsdformat's converted joint [tool] does (it keeps the URDF's name).
    lumped_joints = {urdf_name(state.walk.joints[state.lumping.joint_of[k]])
                     for k in state.lumping.into}
    targets = Targets({lk.name for lk in model.links}, {urdf_name(j) for j in model.joints},
                      set(state.lumping.into), lumped_joints, state.dropped)
    check_blocks(state.blocks, targets, landing, state.report)
    rewrite_references(state.blocks, state.lumping, state.walk, state.renamed, state.report)
    for link in model.links:
        blocks = state.keyed.get(link.name, [])
        for c in link.collisions:
            ga.apply_to_collision(c, link.name, blocks, landing)
        for v in link.visuals:
            ga.apply_to_visual(v, link.name, blocks, landing, colors.get(id(v)))
        ga.apply_to_link(link, blocks, landing)
    for joint in model.joints:
        ga.apply_to_joint(joint, state.keyed.get(urdf_name(joint), []), landing)
    apply_to_model(model, [b for b in state.blocks if not b.reference], landing,
                   model.pose is not None)
    landing.report(state.report)


def _carry_urdf_only(state: UrdfState) -> None:
    """Write URDF elements SDFormat lacks as ``<urdf:...>`` custom elements."""
    model, report = state.model, state.report
    for link in model.links:
        link.extras = carry_custom(link.extras, f'link[{link.name}]', report)
        for v in link.visuals:
            v.extras = carry_custom(v.extras, f'link[{link.name}]/visual[{v.name}]', report)
        for c in link.collisions:
            c.extras = carry_custom(c.extras, f'link[{link.name}]/collision[{c.name}]', report)
    for joint in model.joints:
        joint.extras = carry_custom(joint.extras, f'joint[{joint.name}]', report)
    kept = [e for e in model.extras if e.tag not in ('gazebo', 'material')]
    model.extras = carry_custom(kept, 'robot', report,
                                'read by ros2_control and robot_state_publisher from the URDF')


def prepare_urdf(model: Model, walk: UrdfWalk, options: ConversionOptions,
                 report: ConversionReport, *, target: str = 'sdf') -> None:
    """Turn a URDF-derived model into the model written as SDFormat (in place).

    ``walk`` is the load's walk of ``model`` as read (``ExportPlan.urdf_walk``: its links
    and joints are ``model``'s). ``target`` is the format the model is then written to:
    massless links are the ones it reads as having no mass
    (:data:`~sdf_tools.convert.massless.NO_MASS`).
    """
    blocks = parse_blocks(model.extras)
    state = UrdfState(model, options, report, walk, make_bodies(model), blocks,
                      target=target)
    for b in blocks:
        if b.reference:
            state.keyed.setdefault(b.reference, []).append(b)
    colors = visual_colors(model, report)
    _lump(state)
    _settle_mass(state)
    _assemble(state)
    _carry_urdf_only(state)
    _apply_gazebo(state, colors)
    if not model.links and not report.errors:
        loc = model.loc
        report.diagnostics.append(Diagnostic(
            ErrorCode.MODEL_WITHOUT_LINK, f'no link of robot [{model.name}] is left: each has no mass '
            'or hangs below one without (massless_links=drop, as libsdformat does)',
            loc.file if loc else None, loc.line if loc else None))
