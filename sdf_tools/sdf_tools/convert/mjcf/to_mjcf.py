"""SDFormat, URDF or xacro -> MJCF (MuJoCo), placed exactly, every loss reported.

::

    result = convert_to_mjcf(load_file('robot.urdf.xacro'), ConversionOptions())
    if result.ok:
        Path('robot.xml').write_text(result.text)

How the description becomes MJCF:

1. **Preparation.** A URDF is first made into the model Gazebo would load
   (:func:`~sdf_tools.convert.sdf.from_urdf.prepare_urdf`: ``<gazebo>`` tags,
   massless links by ``massless_links``, URDF joint types), keeping every
   fixed joint: MJCF welds a body to its parent at no cost, so each link
   stays a body. Then the model options (root transform, fixed base,
   self-collision, visual->collision, mesh collision mode, inertia from
   geometry) are applied (:mod:`~sdf_tools.convert.model_options`) and the
   frame graphs rebuilt.
2. **Flattening.** Each model (one, or every model of a world; ``model``
   picks one) is flattened (:mod:`~sdf_tools.convert.flatten`), its body
   tree chosen (:mod:`~sdf_tools.convert.mjcf.tree`) and walked
   (:mod:`~sdf_tools.convert.mjcf.bodies`).
3. **Output.** Menagerie's layout (:mod:`~sdf_tools.convert.mjcf.writer`),
   with a comment listing the report on top.

The exporter writes XML with lxml only: MuJoCo is not needed to export.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from sdf_tools import gazebo
from sdf_tools.convert.conversion_report import ConversionReport, ConversionResult, ReportEntry, ReportKind
from sdf_tools.convert.export_plan import ExportPlan, flatten_picked, pick_models, start_export
from sdf_tools.convert.joint_positions import unknown_names
from sdf_tools.convert.mjcf.actuators import write_actuators, write_effort_actuators
from sdf_tools.convert.mjcf.bodies import ModelExport, export_model
from sdf_tools.convert.mjcf.contact import CollisionBody, write_collision_filter
from sdf_tools.convert.mjcf.geometry import Assets
from sdf_tools.convert.mjcf.joints import JointContext
from sdf_tools.convert.mjcf.keyframe import collect_initial, write_initial_key
from sdf_tools.convert.mjcf.names import folded_links, record_names
from sdf_tools.convert.mjcf.tree import plan_bodies
from sdf_tools.convert.mjcf.writer import MjcfDocument, num, nums
from sdf_tools.convert.model_options import apply_model_options
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.convert.sdf.from_urdf import prepare_urdf
from sdf_tools.convert.world_gravity import world_gravity
from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.load import LoadResult
from sdf_tools.model import Document, Joint, JointAxis, Model, World
from sdf_tools.xmlsafe import parse_kept

__all__ = ['convert_to_mjcf']
HEADER_ENTRIES = 12  # report entries listed in the comment on top
# Options that only mean something for another output format.
_OTHER_FORMATS = ('sdf_version', 'keep_fixed_joints', 'uris', 'scope_separator', 'break_loops',
                  'usd_mesh_approximation')


def _fail(report: ConversionReport, *errors: Diagnostic) -> ConversionResult:
    report.diagnostics.extend(errors)
    return ConversionResult(None, 'mjcf', report)



def _for_mjcf(e: ReportEntry, drives: bool) -> ReportEntry:
    """Restate what the URDF preparation carried as SDFormat custom elements, for MJCF."""
    if e.kind is not ReportKind.KEPT or '<urdf:' not in e.message:
        return e
    if drives and e.element.endswith(('transmission', 'ros2_control')):
        return ReportEntry(ReportKind.REWRITTEN, e.element, 'read for the actuators of the joints '
                           'it commands (joint_drive_from_transmission); the block itself has '
                           'no MJCF counterpart', e.file, e.line)
    return ReportEntry(ReportKind.DROPPED, e.element, 'URDF-only element: MJCF has no place '
                       'for it', e.file, e.line)


def _prepare(plan: ExportPlan, options: ConversionOptions, report: ConversionReport) -> None:
    doc = plan.document
    if doc.format == 'urdf' and doc.model is not None:
        start = len(report.entries)
        prepare_urdf(doc.model, plan.walk(), dataclasses.replace(options, keep_fixed_joints=True),
                     report, target='mjcf')
        drives = options.joint_drive_from_transmission
        report.entries[start:] = [_for_mjcf(e, drives) for e in report.entries[start:]]
    base = Path(doc.file).parent if doc.file else None
    # Every MuJoCo mesh collision is a convex hull: 'convex' is said the SDFormat 1.11 way.
    model_opts = dataclasses.replace(options, joint_drive_from_transmission=False, uris='keep',
                                     sdf_version='1.11')
    start = len(report.entries)
    apply_model_options(doc, model_opts, report, base)
    # URIs are resolved and written as absolute paths by the geometry mapping, which
    # reports each mesh it cannot find; the SDFormat URI notes do not apply.
    report.entries[start:] = [e for e in report.entries[start:] if not e.element.startswith('uri[')]


def _world_option(world: World, version: str | None, mj: MjcfDocument,
                  report: ConversionReport) -> None:
    """Write the world's gravity and physics step as ``<option>``; report the rest of physics."""
    extras = {x.tag: x for x in world.extras}
    g, written = world_gravity(world, version)
    if written is None:
        report.add(ReportKind.ASSUMED, f'world[{world.name}]/gravity', "SDFormat's default "
                   "0 0 -9.8 written (MuJoCo's own default is 0 0 -9.81)",
                   *((world.loc.file, world.loc.line) if world.loc else (None, None)))
    option = mj.section('option')
    option.set('gravity', nums(g))
    physics = extras.get('physics')
    step = parse_kept(physics.xml).findtext('max_step_size') if physics is not None else None
    if step is not None and physics is not None:
        option.set('timestep', num(float(step)))
        report.add(ReportKind.REWRITTEN, f'world[{world.name}]/physics', 'max_step_size written '
                   'as <option timestep>; the other physics settings (solver, engine, real-time '
                   'factor...) have no MJCF counterpart', physics.loc.file if physics.loc else None,
                   physics.loc.line if physics.loc else None)


def _world_losses(doc: Document, report: ConversionReport) -> None:
    for world in doc.worlds:
        lost = [('light', x.name, x.loc) for x in world.lights]
        lost += [('actor', x.name, x.loc) for x in world.actors]
        lost += [('plugin', x.name, x.loc) for x in world.plugins]
        lost += [('joint', x.name, x.loc) for x in world.joints]
        lost += [(x.tag, '', x.loc) for x in world.extras
                 if ':' not in x.tag and x.tag not in ('gravity', 'physics')]
        for kind, name, loc in lost:
            report.add(ReportKind.DROPPED, f'world[{world.name}]/{kind}[{name}]',
                       'world element not exported to MJCF', loc.file if loc else None,
                       loc.line if loc else None)


def _model_losses(model: Model, report: ConversionReport) -> None:
    for p in model.plugins:
        report.add(ReportKind.DROPPED, f'model[{model.name}]/plugin[{p.name}]',
                   f'plugin [{p.filename}]: MuJoCo does not load Gazebo plugins',
                   p.loc.file if p.loc else None, p.loc.line if p.loc else None)
    for m in model.models:
        _model_losses(m, report)


def _option_notes(options: ConversionOptions, report: ConversionReport) -> None:
    defaults = ConversionOptions()
    for name in _OTHER_FORMATS:
        if getattr(options, name) != getattr(defaults, name):
            report.add(ReportKind.ASSUMED, f'option[{name}]', 'has no effect on an export to '
                       'MJCF (fixed joints are welded bodies or, with collapse_fixed_joints, '
                       'merged; loops are always closed by '
                       'equalities; mesh files are copied to assets_dir with the output)')


def _header(source: str | None, names: list[str], report: ConversionReport) -> str:
    # The source's name only: a shipped model does not carry the converting machine's paths;
    # the first entries only: the model stays a model (the full report is --report's).
    origin = Path(source).name if source else '<string>'
    lines = report.header_lines(f'Converted to MJCF by sdf_tools: {", ".join(names)} of {origin}.',
                                HEADER_ENTRIES)
    text = '\n'.join(f'  {line}' for line in lines).replace('--', '- -')
    return '\n' + text + '\n'


def _joint_index(ex: ModelExport, source: Model) -> dict[str, tuple[str, Joint]]:
    by_name = {j.joint.name: j for j in ex.flat.joints}
    out = {}
    for joint in source.joints:
        fj = by_name.get(joint.name)
        names = ex.joints.written.get(fj.name) if fj is not None else None
        if fj is not None and names:
            out[joint.name] = (names[0], fj.joint)
    return out


def _unactuated(ex: ModelExport, mj: MjcfDocument) -> list[tuple[str, Joint, JointAxis | None]]:
    """Return the hinges and slides written for ``ex`` that no actuator drives yet."""
    driven = {el.get('joint') for el in mj.section('actuator')}
    out: list[tuple[str, Joint, JointAxis | None]] = []
    for j in ex.flat.joints:
        names = ex.joints.written.get(j.name, [])
        axes = [j.joint.axis, j.joint.axis2] if j.joint.type in ('universal', 'revolute2') \
            else [j.joint.axis2 if j.joint.type == 'gearbox' else j.joint.axis]
        if j.joint.type in ('ball', 'screw'):
            continue  # a ball has no axis to servo; a screw's slide follows its hinge
        out += [(n, j.joint, a) for n, a in zip(names, axes, strict=False) if n not in driven]
    return out


def convert_to_mjcf(result: LoadResult, options: ConversionOptions) -> ConversionResult:
    """Export the model(s) of a loaded file to MJCF text.

    Returns:
        The MJCF text (None on failure) and the report of every default
        assumed and every element rewritten, approximated or dropped.
    """
    report = ConversionReport()
    plan = start_export(result, options, report)
    source = result.document  # the loaded document (the plan's is a copy the options change)
    if plan is None or source is None:
        return _fail(report)
    doc = plan.document
    with gazebo.using(result.gazebo):  # whose libsdformat a URDF's lumping follows
        _prepare(plan, options, report)
    errors = pick_models(plan, options.model)
    if errors:
        return _fail(report, *errors)
    picked = plan.picked
    _option_notes(options, report)
    _world_losses(doc, report)
    world = picked[0].world
    mj = MjcfDocument(picked[0].model.name if len(picked) == 1 or world is None else world.name)
    if world is not None:
        _world_option(world, doc.version, mj, report)
    assets = Assets(mj, report)
    bodies: list[CollisionBody] = []
    balance = False
    initial: dict[str, float] = {}
    known: list[tuple[str, Joint]] = []
    for p in picked:
        model = p.model
        flat = flatten_picked(plan, p, report, separator='::',
                              collapse=options.collapse_fixed_joints)
        prefix = f'{model.name}::' if len(picked) > 1 else ''
        ex = ModelExport(flat, plan_bodies(flat, report), JointContext(mj, flat, report, prefix),
                         assets, options, doc.format == 'urdf')
        folded = folded_links(source.model if doc.format == 'urdf' else None, flat)
        ex.skip_sites = set(folded.values())
        export_model(ex, mj.section('worldbody'))
        initial.update(collect_initial(flat, ex.joints.written, options.joint_positions, report,
                                       prefix))
        known += [(prefix + j.scoped, j.joint) for j in flat.joints]
        record_names(mj, ex.tree, ex.joints.written, folded, prefix)
        _model_losses(model, report)
        if (options.joint_drive_from_transmission or options.actuators == 'ros2_control') \
                and source.model is not None:
            write_actuators(mj, source.model, _joint_index(ex, model), report,
                            asked=options.actuators == 'ros2_control')
        if options.actuators in ('position', 'motor'):
            write_effort_actuators(mj, _unactuated(ex, mj), options.actuators, report)
        bodies += ex.collision_bodies
        errors += ex.errors
        balance = balance or ex.balance
    errors += [Diagnostic(ErrorCode.PARAMETER_ERROR, f'joint_positions: no joint [{name}] in '
                          'the exported model(s)')
               for name in unknown_names(options.joint_positions, known)]
    if errors:
        return _fail(report, *errors)
    write_initial_key(mj, initial)
    write_collision_filter(mj, bodies, report)
    if balance:
        mj.compiler.set('balanceinertia', 'true')
    names = [f'model [{p.model.name}]' for p in picked]
    return ConversionResult(mj.to_text(_header(doc.file, names, report)), 'mjcf', report)
