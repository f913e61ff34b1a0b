"""SDFormat -> URDF: one model, every frame resolved first, every loss reported.

The URDF keeps every link of the SDFormat model at the pose the SDFormat
gave it (exact to rounding, for tree-shaped models), whoever reads it back:
our reader, libsdformat (which merges fixed-jointed links and drops massless
ones; the file is written so that it drops none of the model's), or a ROS
tool. How:

* **Frames.** URDF link frames are the SDFormat link frames. Each joint's
  origin is its SDFormat frame in its parent link's frame; where the joint
  frame is not the child link's frame an extra massless link carries the
  joint (:mod:`~sdf_tools.convert.urdf.joints`). Axes are expressed in the
  joint frame.
* **Placement.** The root link's pose in the world (the model's pose, and
  the root link's pose in the model) is written as libsdformat's
  ``<robot><origin>`` extension. A ``world`` root link, when the model has
  joints to the world, is the model frame, as libsdformat reads it.
* **Nesting.** Nested models are flattened: ``inner::link`` becomes
  ``inner<separator>link`` (``scope_separator``, default ``::``).
* **Frames as links.** Each ``<frame>`` becomes a massless link on a fixed
  joint ``<frame>__frame_joint`` (``frames_as_links=False`` drops them).
* **Defaults.** A link without ``<inertial>`` gets libsdformat's 1 kg and
  unit inertia, and the file says so in a comment on the link.
* **Losses.** Sensors, lights, plugins and link flags go into ``<gazebo>``
  blocks (:mod:`~sdf_tools.convert.urdf.extensions`); shapes URDF lacks are
  approximated (:mod:`~sdf_tools.convert.urdf.shapes`); kinematic loops
  fail unless ``break_loops`` (:mod:`~sdf_tools.convert.urdf.tree`).

Every assumption and loss is a report entry with its source file:line, and
the output starts with a comment listing them.
"""
from __future__ import annotations

from sdf_tools.convert.conversion_report import ConversionReport, ConversionResult, ReportKind
from sdf_tools.convert.export_plan import flatten_picked, pick_models, start_export
from sdf_tools.convert.flatten import WORLD, FlatLink, FlatModel, pose_in_link, where
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.convert.urdf.extensions import gazebo_blocks
from sdf_tools.convert.urdf.joints import JointBuilder
from sdf_tools.convert.urdf.ros_control import restored_elements
from sdf_tools.convert.urdf.shapes import ShapeContext, convert_shapes
from sdf_tools.convert.urdf.tree import TreePlan, plan_tree
from sdf_tools.convert.urdf.writer import UInertial, UJoint, ULink, URobot, write_urdf
from sdf_tools.errors import Diagnostic
from sdf_tools.load import LoadResult
from sdf_tools.model import Loc, Model
from sdf_tools.model.elements import UNIT_INERTIA
from sdf_tools.model.material import named_colors
from sdf_tools.resolved import Resolved
from sdf_tools.transform import IDENTITY

# Options that have no effect on a conversion to URDF (SDFormat-only, or engine exports only).
_SDF_ONLY = ('sdf_version', 'keep_fixed_joints', 'massless_links', 'self_collide', 'assets_dir',
             'inertia_from_geometry', 'mesh_collision', 'joint_drive_from_transmission',
             'collapse_fixed_joints', 'usd_mesh_approximation', 'actuators')

def _link(flat: FlatModel, fl: FlatLink, options: ConversionOptions,
          report: ConversionReport) -> ULink:
    label = f'link[{fl.scoped}]'
    i = fl.link.inertial
    if i is None:
        inertial = UInertial(1.0, UNIT_INERTIA, comment='no <inertial> in the SDFormat: '
                             "libsdformat's default, 1 kg and unit inertia at the link origin")
        report.add(ReportKind.ASSUMED, label, "no <inertial>: written with libsdformat's "
                   'default, 1 kg and unit inertia', *where(fl.link.loc))
    else:
        inertial = UInertial(i.mass, i.inertia, i.pose.value if i.pose else IDENTITY)
        if i.mass == 0.0:
            report.add(ReportKind.KEPT, label, 'mass 0 written as is: libsdformat drops a '
                       'massless URDF link, and everything below it', *where(i.loc))
    ctx = ShapeContext(report, options.uris, fl.name, label,
                       lambda raw: pose_in_link(flat, fl, raw),
                       named_colors(flat.model.extras, default=(0.0, 0.0, 0.0, 1.0)))
    visuals, collisions = convert_shapes(fl.link.visuals, fl.link.collisions, ctx)
    if options.visual_as_collision and not collisions and visuals:
        collisions = list(visuals)
        report.add(ReportKind.REWRITTEN, label, 'no collision: its visuals are used as '
                   'collisions (visual_as_collision)', *where(fl.link.loc))
    return ULink(fl.name, inertial, visuals, collisions)


def _frames(flat: FlatModel, robot: URobot, report: ConversionReport) -> None:
    for fr in flat.frames:
        body = fr.body
        if body is None:
            report.add(ReportKind.DROPPED, f'frame[{fr.scoped}]', 'attached to no link',
                       *where(fr.frame.loc))
            continue
        robot.links.append(ULink(fr.name, comment=f'SDFormat <frame> [{fr.scoped}], fixed '
                                 f'to [{body}]'))
        name = flat.namer.take(f'{fr.name}__frame_joint')
        origin = flat.rel(flat.vid(body), fr.vid)
        robot.joints.append(UJoint(name, 'fixed', body, fr.name, origin))
    if flat.frames:
        report.add(ReportKind.REWRITTEN, f'model[{flat.name}]',
                   f'{len(flat.frames)} <frame>(s) written as massless links on fixed joints '
                   '(frames_as_links)', *where(flat.model.loc))


def _welds(flat: FlatModel, plan: TreePlan, robot: URobot,
           report: ConversionReport) -> list[UJoint]:
    scoped = {fl.name: fl.scoped for fl in flat.links}
    out = []
    for w in plan.welds:
        name = flat.namer.take(f'{w.child}__fixed')
        origin = flat.rel(flat.vid(w.parent), flat.vid(w.child))
        out.append(UJoint(name, 'fixed', w.parent, w.child, origin))
        fl = flat.link(w.child)
        report.add(w.kind, f'link[{scoped[w.child]}]', f'{w.reason} (fixed joint [{name}])',
                   *where(fl.link.loc if fl else None))
    robot.joints += out
    return out


def _build(flat: FlatModel, plan: TreePlan, options: ConversionOptions,
           report: ConversionReport, urdf_source: bool) -> URobot:
    robot = URobot(flat.name)
    if plan.root == WORLD:
        robot.links.append(ULink(WORLD, comment='the model frame: libsdformat hangs joints from '
                                 'a URDF link named world in the model frame'))
    robot.links += [_link(flat, fl, options, report) for fl in flat.links]
    builder = JointBuilder(flat, options.default_mass, report)
    fixed: list[UJoint] = []
    for j in plan.joints:
        out = builder.expand(j)
        robot.joints += out.joints
        robot.links += out.links
        if j.joint.type == 'fixed':
            fixed += out.joints
    fixed += _welds(flat, plan, robot, report)
    if options.frames_as_links:
        _frames(flat, robot, report)
    robot.origin = options.root_transform * flat.world_pose(flat.vid(plan.root))
    if options.root_transform != IDENTITY:
        report.add(ReportKind.REWRITTEN, f'model[{flat.name}]', 'placed by root_transform',
                   *where(flat.model.loc))
    robot.control = restored_elements(flat, report)
    robot.gazebo = gazebo_blocks(flat, fixed, report, urdf_source=urdf_source)
    return robot


def _scope_note(flat: FlatModel, options: ConversionOptions, report: ConversionReport) -> None:
    """Say that Gazebo Harmonic+ refuses the URDF when flattened names keep ``::``."""
    from sdf_tools import gazebo

    scoped = [(lk.name, lk.link.loc) for lk in flat.links if '::' in lk.name]
    scoped += [(j.name, j.joint.loc) for j in flat.joints if '::' in j.name]
    if not scoped or gazebo.target(options.gazebo).libsdformat < 14:
        return
    name, loc = scoped[0]
    report.add(ReportKind.KEPT, f'link[{name}]' if flat.by_name.get(name) else f'joint[{name}]',
               f'names of nested links and joints ({len(scoped)}) keep the scope delimiter "::", which '
               'libsdformat 14+ (Gazebo Harmonic, Ionic, Jetty) refuses in a URDF '
               '(RESERVED_NAME): ROS tools read it; --scope-separator __ writes names Gazebo '
               'reads', *where(loc))


def _option_notes(options: ConversionOptions, flat_model: Model,
                  report: ConversionReport) -> None:
    defaults = ConversionOptions()
    for name in _SDF_ONLY:
        if getattr(options, name) != getattr(defaults, name):
            report.add(ReportKind.ASSUMED, f'option[{name}]',
                       'has no effect on a conversion to URDF')
    if not options.frames_as_links:
        for fr in _all_frames(flat_model):
            report.add(ReportKind.DROPPED, f'frame[{fr[0]}]', 'frames_as_links is off',
                       *where(fr[1]))


def _all_frames(model: Model, prefix: str = '') -> list[tuple[str, Loc | None]]:
    out: list[tuple[str, Loc | None]] = [(prefix + f.name, f.loc) for f in model.frames]
    for m in model.models:
        out += _all_frames(m, f'{prefix}{m.name}::')
    return out


def _header(flat: FlatModel, report: ConversionReport) -> str:
    source = flat.model.loc.file if flat.model.loc and flat.model.loc.file else '<string>'
    lines = report.header_lines(f'Converted to URDF by sdf_tools: model [{flat.name}] of {source}.')
    return '\n' + '\n'.join(f'  {line}' for line in lines) + '\n'


def _fail(report: ConversionReport, *errors: Diagnostic) -> ConversionResult:
    report.diagnostics.extend(errors)
    return ConversionResult(None, 'urdf', report)


def convert_to_urdf(result: LoadResult, options: ConversionOptions,
                    resolved: Resolved | None = None) -> ConversionResult:
    """Convert the model of a loaded file to URDF.

    Args:
        result: a loaded SDFormat file (URDF and xacro work too: the URDF is
            normalised). A world must hold one model, or ``options.model``
            must name one.
        options: ``model``, ``scope_separator``, ``frames_as_links``,
            ``break_loops``, ``floating_base``, ``root_transform``, ``uris``,
            ``default_mass`` and ``visual_as_collision`` apply here.
        resolved: ``result`` already resolved (:func:`sdf_tools.resolved.resolve`),
            when the caller has it: the conversion then does not resolve again.

    Returns:
        The URDF text and the report; on failure the text is None and the
        report's errors say why (input errors, a loop, no model...).
    """
    report = ConversionReport()
    export = start_export(result, options, report, copy=False)  # no option changes the model
    if export is None:
        return _fail(report)
    errors = pick_models(export, options.model, one=True)
    if errors:
        return _fail(report, *errors)
    picked = export.picked[0]
    model = picked.model
    flat = flatten_picked(export, picked, report, separator=options.scope_separator,
                          frames=options.frames_as_links, resolved=resolved)
    world_frames = any(f.body == WORLD for f in flat.frames)
    plan, errors = plan_tree(flat, break_loops=options.break_loops,
                             fixed_base=not options.floating_base, world_frames=world_frames,
                             report=report)
    if plan is None:
        return _fail(report, *errors)
    _option_notes(options, model, report)
    _scope_note(flat, options, report)
    robot = _build(flat, plan, options, report, export.source_format == 'urdf')
    robot.header = [_header(flat, report)]
    return ConversionResult(write_urdf(robot), 'urdf', report)

