"""Any loaded description (SDFormat, URDF, xacro; a model or a world) -> an OpenUSD stage.

::

    result = convert_to_usd(load_file('robot.urdf'), ConversionOptions())
    Path('robot.usda').write_text(result.text)

The stage is what Isaac Sim and Newton read: metres, kilograms, Z up, one
``Xform`` per model (the default prim; a world's ``Xform`` holds its models),
one ``Xform`` per link with ``RigidBodyAPI`` and ``MassAPI`` placed at the
link's resolved pose (static models' links are plain colliders, an
``<inertial>`` kept only as ``sdf_tools:inertial``), visuals
and collisions as geometry prims under their link, ``<frame>``s as plain
``Xform``s under the link they are attached to, joints in a ``joints`` scope
of the model, ``ArticulationRootAPI`` on the model, a world's own joints in a
``joints`` scope of its prim (:mod:`~sdf_tools.convert.usd.world_joints`). The options apply as
for the other exporters (:mod:`~sdf_tools.convert.export_plan`); every
loss is reported with the file and line of what was lost, and listed in
the layer's documentation string.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from pxr import Sdf, Usd, UsdGeom, UsdPhysics

from sdf_tools.convert.conversion_report import (
    ConversionReport,
    ConversionResult,
    ReportEntry,
    ReportKind,
)
from sdf_tools.convert.export_plan import ExportPlan, plan_export
from sdf_tools.convert.flatten import WORLD, FlatLink, FlatModel, pose_in_link, where
from sdf_tools.convert.joint_drives import commanded_joints
from sdf_tools.convert.joint_positions import unknown_names
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.convert.usd.couplings import write_couplings
from sdf_tools.convert.usd.drives import joint_losses, write_drive
from sdf_tools.convert.usd.exact import put_inertial
from sdf_tools.convert.usd.joint_state import write_joint_state
from sdf_tools.convert.usd.joints import JointSite, write_joint
from sdf_tools.convert.usd.losses import report_losses
from sdf_tools.convert.usd.mass import write_mass
from sdf_tools.convert.usd.materials import (
    PhysicsMaterials,
    Rgba,
    gazebo_friction,
    robot_materials,
    set_color,
    visual_color,
)
from sdf_tools.convert.usd.model_flags import FILTER, write_model_flags
from sdf_tools.convert.usd.names import Siblings, keep_name, kind_of, mark
from sdf_tools.convert.usd.nesting import write_nesting
from sdf_tools.convert.usd.scene import write_scene
from sdf_tools.convert.usd.sensors import write_gazebo_sensors, write_sensors
from sdf_tools.convert.usd.shapes import APPROXIMATION, ShapeSite, write_shape
from sdf_tools.convert.usd.world_joints import WrittenModel, write_world_joints
from sdf_tools.convert.usd.xforms import set_link_pose, set_pose
from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.load import LoadResult
from sdf_tools.model import Extra

__all__ = ['convert_to_usd', 'new_stage']


def new_stage() -> Usd.Stage:
    """Return an empty in-memory stage in metres, kilograms, Z up."""
    stage = Usd.Stage.CreateInMemory()
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    UsdPhysics.SetStageKilogramsPerUnit(stage, 1.0)
    return stage


@dataclass
class _ModelWriter:
    stage: Usd.Stage
    flat: FlatModel
    path: Sdf.Path
    plan: ExportPlan
    options: ConversionOptions
    report: ConversionReport
    bodies: dict[str, str] = field(default_factory=dict)
    children: dict[str, Siblings] = field(default_factory=dict)
    colors: dict[str, Rgba] = field(default_factory=dict)
    gazebo: dict[str, tuple[float, float, Extra]] = field(default_factory=dict)
    mesh_noted: bool = False
    roots: list[str] = field(default_factory=list)  # root links of the joint trees

    def write(self) -> None:
        prim = UsdGeom.Xform.Define(self.stage, self.path)
        keep_name(prim.GetPrim(), self.flat.name)
        mark(prim.GetPrim(), 'model')
        set_pose(prim, self.flat.world_pose(self.flat.frame_vid))
        write_nesting(prim.GetPrim(), self.flat)
        write_model_flags(prim.GetPrim(), self.flat.model, self.report)
        names = Siblings({'joints', 'materials', 'collision_filter'})
        if self.plan.source_format == 'urdf':
            self.colors = robot_materials(self.flat.model)
            self.gazebo = gazebo_friction(self.flat.model)
        materials = PhysicsMaterials(self.stage, str(self.path.AppendChild('materials')))
        for fl in self.flat.links:
            self._link(fl, names.take(fl.name), materials)
        if self.options.frames_as_links:
            self._frames()
        else:
            for fr in self.flat.frames:
                self.report.add(ReportKind.DROPPED, f'frame[{fr.scoped}]', 'frames_as_links is '
                                'off (--drop-frames)', *where(fr.frame.loc))
        write_sensors(self.stage, self.flat, self.bodies, self.children, self.report)
        if self.plan.source_format == 'urdf':
            write_gazebo_sensors(self.stage, self.flat, self.bodies, self.children, self.report)
        moving = [fl for fl in self.flat.links if not fl.static]
        tree = self._joints()
        if moving:
            self._articulations(prim.GetPrim(), tree)
        self._self_collision(prim.GetPrim(), len(moving))

    def _link(self, fl: FlatLink, name: str, materials: PhysicsMaterials) -> None:
        path = self.path.AppendChild(name)
        xf = UsdGeom.Xform.Define(self.stage, path)
        prim = xf.GetPrim()
        keep_name(prim, fl.scoped)
        mark(prim, 'link')
        set_link_pose(xf, self.flat.rel(self.flat.frame_vid, fl.vid))
        self.bodies[fl.name] = str(path)
        self.children[fl.name] = Siblings()
        link = fl.link
        if fl.static:
            _static_inertial(prim, fl, self.report)
        else:
            body = UsdPhysics.RigidBodyAPI.Apply(prim)
            if link.kinematic:
                body.CreateKinematicEnabledAttr(True)
            if not link.gravity:
                prim.CreateAttribute('physxRigidBody:disableGravity', Sdf.ValueTypeNames.Bool,
                                     custom=True).Set(True)
                self.report.add(ReportKind.REWRITTEN, f'link[{fl.scoped}]/gravity',
                                "written as PhysX's physxRigidBody:disableGravity (UsdPhysics "
                                'has no per-body gravity)', *where(link.loc))
            p = write_mass(prim, link.inertial)
            a, b, c = sorted(p.moments)
            if a <= 0.0 or a + b < c * (1.0 - 1e-9):
                self.report.add(ReportKind.KEPT, f'link[{fl.scoped}]/inertial', 'principal moments '
                                f'{p.moments} are not those of a body (not positive, or one larger '
                                'than the sum of the others): written as they are, an engine may '
                                'reject or adjust them' + (
                                    ' (all zero: UsdPhysics reads that as not authored, and an '
                                    "engine computes the inertia from the body's collision "
                                    'shapes, as Newton does)' if c == 0.0 else ''),
                                *where(link.loc))
        self._shapes(fl, path, materials)

    def _shapes(self, fl: FlatLink, path: Sdf.Path, materials: PhysicsMaterials) -> None:
        names = self.children[fl.name]
        approx = self._approximation(fl)
        items = [(v, False) for v in fl.link.visuals] + [(c, True) for c in fl.link.collisions]
        for item, collision in items:
            kind = 'collision' if collision else 'visual'
            label = f'link[{fl.scoped}]/{kind}[{item.name}]'
            site = ShapeSite(self.stage, str(path.AppendChild(names.take(item.name))),
                             pose_in_link(self.flat, fl, item.pose), collision, label,
                             item.loc, self.report, self.plan.base, approx)
            prim = write_shape(site, item.geometry)
            if prim is None:
                continue
            keep_name(prim, item.name)
            if collision:
                materials.bind(prim, item.extras, label, self.report,
                               self.gazebo.get(fl.link.name))
            else:
                rgba = visual_color(item.extras, self.colors, label, self.report)
                if rgba is not None:
                    set_color(prim, rgba)

    def _approximation(self, fl: FlatLink) -> str:
        """Return the mesh collision approximation of a link's body (reported once)."""
        if self.options.mesh_collision != 'keep' or fl.static:
            return APPROXIMATION[self.options.mesh_collision]
        approx = self.options.usd_mesh_approximation
        meshes = [c for c in fl.link.collisions if c.geometry is not None
                  and c.geometry.type == 'mesh']
        if meshes and approx != 'none' and not self.mesh_noted:
            self.mesh_noted = True
            self.report.add(ReportKind.APPROXIMATED, f'link[{fl.scoped}]/collision'
                            f'[{meshes[0].name}]', f'mesh collisions of moving bodies are '
                            f'written with approximation {approx} (PhysX simulates no triangle '
                            'mesh on a dynamic body; usd_mesh_approximation), static ones as '
                            'triangles', *where(meshes[0].loc))
        return approx

    def _frames(self) -> None:
        for fr in self.flat.frames:
            body = fr.body
            if body is None:
                self.report.add(ReportKind.DROPPED, f'frame[{fr.scoped}]', 'attached to no '
                                'link', *where(fr.frame.loc))
                continue
            if body == WORLD:
                parent, names, pose = self.path, Siblings(), self.flat.rel(self.flat.frame_vid,
                                                                           fr.vid)
            else:
                parent = Sdf.Path(self.bodies[body])
                names = self.children[body]
                pose = self.flat.rel(self.flat.vid(body), fr.vid)
            xf = UsdGeom.Xform.Define(self.stage, parent.AppendChild(names.take(fr.name)))
            keep_name(xf.GetPrim(), fr.scoped)
            set_pose(xf, pose)

    def _joints(self) -> list[tuple[str, str]]:
        """Write the joints; return the (parent, child) links of those in the articulation tree."""
        tree: list[tuple[str, str]] = []
        if not self.flat.joints:
            return tree
        scope = self.path.AppendChild('joints')
        UsdGeom.Scope.Define(self.stage, scope)
        site = JointSite(self.stage, self.flat, self.bodies, str(scope), self.report)
        commanded = (commanded_joints(self.flat.model)
                     if self.options.joint_drive_from_transmission
                     or self.options.actuators == 'ros2_control' else {})
        if self.options.actuators == 'ros2_control' and not commanded:
            self.report.add(ReportKind.DROPPED, f'model[{self.flat.model.name}]/actuators',
                            'actuators=ros2_control, but no <ros2_control> command interface or '
                            '<transmission> names a joint: no drive written',
                            *where(self.flat.model.loc))
        seen: set[str] = set()
        parent_of: dict[str, str] = {}
        prims: dict[str, Usd.Prim] = {}
        for j in self.flat.joints:
            in_tree = j.child not in seen and not _closes_cycle(parent_of, j.parent, j.child)
            if in_tree and j.parent is not None and j.child is not None:
                parent_of[j.child] = j.parent
            prim = write_joint(site, j, in_tree)
            if prim is None:
                continue
            prims[j.name] = prim
            if j.child is not None and j.parent is not None:
                seen.add(j.child)
                if in_tree:
                    tree.append((j.parent, j.child))
            write_joint_state(prim, j, self.options.joint_positions, self.report,
                              f'{self.flat.name}::' if len(self.plan.models) > 1 else '')
            interface = commanded.get(j.scoped, (None,))[0]
            write_drive(prim, j, interface, self.report, self.options.actuators)
            joint_losses(prim, j, self.report)
        write_couplings(self.flat, prims, self.report)
        self._static_joints(prims)
        return tree

    def _static_joints(self, prims: dict[str, Usd.Prim]) -> None:
        """Report the joints written between links of a static model (no rigid body holds them)."""
        static = {fl.name for fl in self.flat.links if fl.static}
        held = [j for j in self.flat.joints if j.name in prims and j.child in static
                and j.parent in static | {WORLD}]
        if held:
            self.report.add(ReportKind.KEPT, f'model[{self.flat.name}]/joint',
                            f'{len(held)} joint(s) between links of a static model '
                            f'({", ".join(j.scoped for j in held)}): written between colliders '
                            'without RigidBodyAPI, where usd-core attaches both ends to the world '
                            'and Newton imports no joint (nothing moves, as in Gazebo); '
                            'read back by sdf_tools', *where(self.flat.model.loc))

    def _articulations(self, model: Usd.Prim, tree: list[tuple[str, str]]) -> None:
        """Apply ``ArticulationRootAPI``: on the model for one tree, on each tree's root otherwise.

        A joint the graph cannot hold (a gearbox, a floating joint) can split a model
        into several trees; an engine wants one root per articulation.
        """
        roots = self.roots = articulation_roots(tree)
        if len(roots) == 1:
            UsdPhysics.ArticulationRootAPI.Apply(model)
            return
        for root in roots:
            UsdPhysics.ArticulationRootAPI.Apply(self.stage.GetPrimAtPath(self.bodies[root]))
        if roots:
            self.report.add(ReportKind.REWRITTEN, f'model[{self.flat.name}]',
                            f'{len(roots)} separate joint trees: one articulation root on each '
                            f'tree\'s root link ({", ".join(roots)})', *where(self.flat.model.loc))

    def _self_collision(self, model: Usd.Prim, moving: int) -> None:
        m = self.flat.model
        if m.self_collide or moving < 2:
            return
        for prim in [model, *(self.stage.GetPrimAtPath(p) for p in self.bodies.values())]:
            if prim.HasAPI(UsdPhysics.ArticulationRootAPI):
                prim.CreateAttribute('physxArticulation:enabledSelfCollisions',
                                     Sdf.ValueTypeNames.Bool, custom=True).Set(False)
        group = UsdPhysics.CollisionGroup.Define(self.stage, self.path.AppendChild(FILTER))
        group.CreateFilteredGroupsRel().SetTargets([group.GetPath()])
        Usd.CollectionAPI(group.GetPrim(), 'colliders').CreateIncludesRel().SetTargets([self.path])
        overrides = [lk for lk in m.links if lk.self_collide]
        if overrides:
            self.report.add(ReportKind.APPROXIMATED, f'model[{m.name}]/self_collide',
                            'links with <self_collide> true are filtered with the rest of the '
                            'model (one collision group)', *where(m.loc))


def _static_inertial(prim: Usd.Prim, fl: FlatLink, report: ConversionReport) -> None:
    """Keep a static link's ``<inertial>`` for the way back: UsdPhysics gives a collider without
    a rigid body no mass (gz-sim's sensor.sdf: the static camera::link of 0.1 kg)."""
    if fl.link.inertial is None:
        return
    put_inertial(prim, fl.link.inertial)
    report.add(ReportKind.KEPT, f'link[{fl.scoped}]/inertial', 'a link of a static model is a '
               'collider without RigidBodyAPI, which has no mass in UsdPhysics: its mass '
               f'({fl.link.inertial.mass} kg) and inertia are kept as sdf_tools:inertial only',
               *where(fl.link.loc))


def _closes_cycle(parent_of: dict[str, str], parent: str | None, child: str | None) -> bool:
    """Return whether a joint parent -> child would close a chain of parents into a cycle."""
    seen: set[str] = set()
    link = parent
    while link is not None and link not in seen:
        if link == child:
            return True
        seen.add(link)
        link = parent_of.get(link)
    return False


def articulation_roots(tree: list[tuple[str, str]]) -> list[str]:
    """Return the root link of each tree of (parent, child) joints (a child of the world)."""
    parent = {c: p for p, c in tree}
    roots: list[str] = []
    for _, c in tree:
        top, seen = c, {c}
        while parent.get(top, WORLD) != WORLD and parent[top] in parent and parent[top] not in seen:
            top = parent[top]
            seen.add(top)
        if parent.get(top) not in (None, WORLD):
            top = parent[top]
        if top not in roots:
            roots.append(top)
    return roots


def _root(stage: Usd.Stage, plan: ExportPlan) -> list[tuple[FlatModel, Sdf.Path]]:
    """Define the world prims; return where each model goes."""
    doc = plan.document
    out: list[tuple[FlatModel, Sdf.Path]] = []
    top = Siblings()
    if doc.model is not None:
        path = Sdf.Path.absoluteRootPath.AppendChild(top.take(doc.model.name))
        out.append((plan.models[0], path))
        return out
    rest = iter(plan.models)
    for world in doc.worlds:
        wpath = Sdf.Path.absoluteRootPath.AppendChild(top.take(world.name))
        wprim = UsdGeom.Xform.Define(stage, wpath).GetPrim()
        keep_name(wprim, world.name)
        mark(wprim, 'world')
        names = Siblings()
        for _ in world.models:
            flat = next(rest)
            out.append((flat, wpath.AppendChild(names.take(flat.name))))
    return out


#: Report entries listed in the stage's documentation (the full report is --report's).
HEADER_ENTRIES = 12


def _header(plan: ExportPlan, report: ConversionReport) -> str:
    # The source's name only, and the first entries only: a shipped stage carries neither
    # the converting machine's paths nor a report longer than the robot.
    source = Path(plan.document.file).name if plan.document.file else '<string>'
    return '\n'.join(report.header_lines(f'Converted to OpenUSD by sdf_tools from {source}.',
                                          HEADER_ENTRIES))


def build_stage(plan: ExportPlan, options: ConversionOptions, report: ConversionReport
                ) -> Usd.Stage:
    """Return the stage of a prepared export plan."""
    stage = new_stage()
    placed = _root(stage, plan)
    written: list[WrittenModel] = []
    for flat, path in placed:
        writer = _ModelWriter(stage, flat, path, plan, options, report)
        writer.write()
        written.append(WrittenModel(flat, writer.bodies, str(path), writer.roots))
    _world_joints(stage, plan, written, report)
    report_losses(plan.document, report)
    roots = list(stage.GetPseudoRoot().GetChildren())
    if roots:
        stage.SetDefaultPrim(roots[0])
    if len(plan.document.worlds) > 1:
        report.add(ReportKind.REWRITTEN, 'sdf', f'{len(plan.document.worlds)} worlds: one root '
                   'prim each, the first is the default prim')
    write_scene(stage, plan.document, report)
    return stage


def _world_joints(stage: Usd.Stage, plan: ExportPlan, written: list[WrittenModel],
                  report: ConversionReport) -> None:
    """Write each world's own joints under its prim (a root prim named as _root names it)."""
    graphs = {id(p.world): p.graphs for p in plan.picked if p.world is not None}
    prims = [p for p in stage.GetPseudoRoot().GetChildren() if kind_of(p) == 'world']
    for world, prim in zip(plan.document.worlds, prims, strict=True):
        write_world_joints(stage, world, prim, graphs.get(id(world)), written, report)


#: Options about SDFormat or URDF text only: fixed joints are always FixedJoints in USD, a
#: loop-closing joint is always kept (excludeFromArticulation).
_NOT_USD = ('sdf_version', 'keep_fixed_joints', 'break_loops', 'assets_dir')


def _option_notes(options: ConversionOptions, report: ConversionReport) -> None:
    defaults = ConversionOptions()
    for name in _NOT_USD:
        if getattr(options, name) != getattr(defaults, name):
            report.add(ReportKind.ASSUMED, f'option[{name}]',
                       'has no effect on a conversion to USD')


def _known_joints(plan: ExportPlan, options: ConversionOptions, report: ConversionReport) -> bool:
    """Refuse ``joint_positions`` naming no joint of the exported models."""
    many = len(plan.models) > 1
    known = [(f'{f.name}::{j.scoped}' if many else j.scoped, j.joint)
             for f in plan.models for j in f.joints]
    for name in unknown_names(options.joint_positions, known):
        report.diagnostics.append(Diagnostic(ErrorCode.PARAMETER_ERROR, f'joint_positions: no '
                                             f'joint [{name}] in the exported model(s)'))
    return not report.errors


def _nesting_note(e: ReportEntry) -> ReportEntry:
    """Say where a flattened nested model is kept (nesting.py), so the reader knows it is not lost."""
    if e.kind is not ReportKind.RENAMED or 'nested model flattened' not in e.message:
        return e
    return replace(e, message=f'{e.message}; its frame and canonical link are kept in '
                   "sdf_tools:models on the model prim, and sdf_tools' import rebuilds it")


def convert_to_usd(result: LoadResult, options: ConversionOptions) -> ConversionResult:
    """Convert a loaded file to a USD stage, returned as ``.usda`` text.

    Args:
        result: what :func:`sdf_tools.load.load_file` returned.
        options: the conversion options (every one applies; see
            :mod:`~sdf_tools.convert.export_plan`).

    Returns:
        The ``.usda`` text (None on failure) and the report.
    """
    report = ConversionReport()
    plan = plan_export(result, options, report)
    if plan is None or report.errors:
        return ConversionResult(None, 'usd', report)
    _option_notes(options, report)
    if not _known_joints(plan, options, report):
        return ConversionResult(None, 'usd', report)
    # Meshes are embedded as Mesh prims: where the output file goes does not matter to them.
    report.entries = [_nesting_note(e) for e in report.entries
                      if not (e.element.startswith('uri[') and 'relative to the input' in e.message)]
    stage = build_stage(plan, options, report)
    stage.GetRootLayer().documentation = _header(plan, report)
    return ConversionResult(stage.GetRootLayer().ExportToString(), 'usd', report)
