"""What every exporter starts from: the input refused or copied, the models picked and flattened.

Each writer (SDFormat, URDF, MJCF, USD) goes through the same steps, in this
order, with its own preparation between the first two:

1. :func:`start_export` refuses an input with errors (its diagnostics go to
   the report) and copies the document, which the writer may then change
   (the SDFormat writer stops here: it writes the whole document; the URDF
   writer changes nothing, and reads the loaded document and its graphs);
2. the writer prepares the copy: the model-changing options
   (:mod:`~sdf_tools.convert.model_options`) and, for a URDF, the masses its
   target needs (:func:`plan_export` is the USD exporter's preparation; the
   MJCF exporter first makes a URDF the model Gazebo would load, its fixed
   joints kept, :func:`~sdf_tools.convert.sdf.from_urdf.prepare_urdf`);
3. :func:`pick_models` builds the frame graphs of the prepared document and
   keeps the model(s) to export: one, or every model of a world, and the
   ``model`` option's choice, with one wording for every writer;
4. :func:`flatten_picked` flattens a picked model for the target
   (:func:`~sdf_tools.convert.flatten.flatten`); with ``collapse_fixed_joints``
   fixed-jointed links merge into their parent bodies
   (:mod:`~sdf_tools.convert.collapse`).
"""
from __future__ import annotations

import copy as copy_module
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from sdf_tools.convert.collapse import collapse_fixed_joints
from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import FlatModel, flatten
from sdf_tools.convert.massless import default_inertial, no_mass_for, replaced_mass_message
from sdf_tools.convert.model_options import all_models, apply_model_options, top_models
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.convert.refusal import refuse
from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.frames import FrameGraphs, build_model_graphs, build_world_graphs
from sdf_tools.load import LoadResult
from sdf_tools.model import Document, Model, World
from sdf_tools.resolved import Resolved
from sdf_tools.urdf.lumping_walk import UrdfWalk


class Picked(NamedTuple):
    """A model to export, the frame graphs it was resolved in, and its world (if any)."""

    model: Model
    graphs: FrameGraphs
    world: World | None


@dataclass
class ExportPlan:
    """The document to export (a copy the writer may change) and what it exports of it."""

    document: Document
    base: Path | None = None        # directory of the input (relative URIs)
    # The loaded document's graphs (its model's, then each world's), when the document is
    # the loaded one and not a copy: picking reuses them instead of building them again.
    graphs: list[FrameGraphs] | None = None
    picked: list[Picked] = field(default_factory=list)
    models: list[FlatModel] = field(default_factory=list)  # flattened, as :func:`plan_export` does
    # A URDF's walk (the load's), over this plan's document: a copy's walk is copied with it.
    urdf_walk: UrdfWalk | None = None

    @property
    def source_format(self) -> str:
        return self.document.format

    def walk(self) -> UrdfWalk:
        """Return the URDF's walk, which every load of a URDF makes (:mod:`sdf_tools.load`).

        Raises:
            ValueError: the plan was started from a ``LoadResult`` made by hand, without one.
        """
        if self.urdf_walk is None:
            msg = 'a URDF is converted from a load (load_file, load_string, load_document)'
            raise ValueError(msg)
        return self.urdf_walk


def start_export(result: LoadResult, options: ConversionOptions, report: ConversionReport, *,
                 copy: bool = True) -> ExportPlan | None:
    """Return a plan holding a copy of the loaded document; None (errors in the report) if refused.

    ``copy=False``: the plan holds the loaded document itself, with its frame
    graphs, for a writer that changes nothing in it.
    """
    if refuse(result, options, report) or result.document is None:
        return None
    doc, walk = result.document, result.urdf_walk
    if copy:  # one copy of both: the walk's links and joints are then the copy's
        doc, walk = copy_module.deepcopy((doc, walk))
    graphs = None if copy else [*([result.model_graphs] if result.model_graphs else []),
                                *result.world_graphs]
    return ExportPlan(doc, Path(doc.file).parent if doc.file else None, graphs, urdf_walk=walk)


def _no_model(plan: ExportPlan, name: str, found: list[Picked]) -> Diagnostic:
    doc = plan.document
    if doc.model is not None:
        return Diagnostic(ErrorCode.PARAMETER_ERROR, f'no model [{name}]: the file holds model '
                          f'[{doc.model.name}]', doc.file)
    names = ', '.join(f'[{p.model.name}]' for p in found) or 'none'
    return Diagnostic(ErrorCode.PARAMETER_ERROR, f'no model [{name}] in the file (models: '
                      f'{names})', doc.file)


def pick_models(plan: ExportPlan, name: str | None, *, required: bool = True,
                one: bool = False) -> list[Diagnostic]:
    """Resolve the prepared document and fill ``plan.picked``; return why it cannot be exported.

    Args:
        plan: a started (and prepared) plan.
        name: the ``model`` option: the one model of a world to export; None for all.
        required: a file without any model is an error (else nothing is picked).
        one: the target holds one model (URDF): a world of several needs ``name``.
    """
    doc = plan.document
    loaded = iter(plan.graphs) if plan.graphs is not None else None
    found: list[Picked] = []
    errors: list[Diagnostic] = []
    if doc.model is not None:
        graphs = next(loaded) if loaded is not None else build_model_graphs(doc.model)
        errors += graphs.errors
        found.append(Picked(doc.model, graphs, None))
    for world in doc.worlds:
        graphs = next(loaded) if loaded is not None else build_world_graphs(world)
        errors += graphs.errors
        found += [Picked(m, graphs, world) for m in world.models]
    if errors:
        return errors
    chosen = [p for p in found if p.model.name == name] if name else found
    if name and not chosen:
        return [_no_model(plan, name, found)]
    # At the (first) <world>'s line: the models are its children.
    line = doc.worlds[0].loc.line if doc.worlds and doc.worlds[0].loc is not None else None
    if one and len(chosen) != 1 and (chosen or required):
        # URDF_INVALID, libsdformat's code for a URDF it cannot use: a URDF is one robot.
        names = ', '.join(f'[{p.model.name}]' for p in chosen)
        return [Diagnostic(ErrorCode.URDF_INVALID, f'the file holds {len(chosen)} models '
                           f'({names}); name one with the model option (--model NAME)' if chosen
                           else 'the file holds no model to convert', doc.file, line)]
    if required and not chosen:
        return [Diagnostic(ErrorCode.MODEL_WITHOUT_LINK, 'the file holds no model to export',
                           doc.file, line)]
    plan.picked = chosen
    return []


def flatten_picked(plan: ExportPlan, picked: Picked, report: ConversionReport, *,
                   separator: str, frames: bool = True, collapse: bool = False,
                   resolved: Resolved | None = None) -> FlatModel:
    """Flatten a picked model for the target; ``collapse``: merge fixed-jointed bodies.

    ``resolved``: the loaded document already resolved (only for a plan that holds
    the loaded document: ``start_export(copy=False)``).
    """
    flat = flatten(picked.model, picked.graphs, picked.world, separator=separator, frames=frames,
                   report=report, resolved=resolved)
    if collapse:
        collapse_fixed_joints(flat, plan.source_format == 'urdf', report)
    return flat


def _urdf_masses(model: Model, options: ConversionOptions, report: ConversionReport,
                 target: str) -> None:
    """Give URDF links without mass ``default_mass`` (reported), or fail with 'error'."""
    for link in model.links:
        if not no_mass_for(link.inertial, target):
            continue
        where = (link.loc.file, link.loc.line) if link.loc else (None, None)
        if options.massless_links == 'error':
            report.diagnostics.append(Diagnostic(
                ErrorCode.URDF_INVALID, f'link [{link.name}] has no mass (massless_links=error)',
                *where))
            continue
        message = replaced_mass_message(link.inertial, options.default_mass, target)
        link.inertial = default_inertial(link, options.default_mass)
        report.add(ReportKind.ASSUMED, f'link[{link.name}]/inertial', message, *where)


def _sdf_defaults(models: list[Model], report: ConversionReport) -> None:
    """Report links without ``<inertial>``: libsdformat's 1 kg and unit inertia are written."""
    for model in models:
        for link in model.links:
            if link.inertial is None:
                where = (link.loc.file, link.loc.line) if link.loc else (None, None)
                report.add(ReportKind.ASSUMED, f'model[{model.name}]/link[{link.name}]/inertial',
                           "no <inertial>: libsdformat's default, 1 kg and unit inertia at the "
                           'link origin', *where)


def plan_export(result: LoadResult, options: ConversionOptions, report: ConversionReport, *,
                target: str = 'usd') -> ExportPlan | None:
    """Prepare a loaded file for the USD exporter; None (errors in the report) when it cannot.

    The options are applied as the SDFormat converter applies them
    (:mod:`~sdf_tools.convert.model_options`); ``joint_drive_from_transmission``
    and ``mesh_collision='convex'`` are left to the exporter, which has its own
    way to say them. URDF links without mass get the policy's answer
    (``massless_links``): an engine treats a zero mass as "compute it from the
    shapes". Every picked model is flattened into ``plan.models``.

    ``target`` says which masses are no mass (:data:`~sdf_tools.convert.massless.NO_MASS`).
    """
    plan = start_export(result, options, report)
    if plan is None:
        return None
    doc = plan.document
    if doc.format == 'urdf' and doc.model is not None:
        _urdf_masses(doc.model, options, report, target)
    else:
        _sdf_defaults(all_models(top_models(doc)), report)
    mesh = options.mesh_collision if options.mesh_collision == 'box' else 'keep'
    shared = dataclasses.replace(options, joint_drive_from_transmission=False, mesh_collision=mesh)
    apply_model_options(doc, shared, report, plan.base)
    if report.errors:
        return None
    errors = pick_models(plan, options.model, required=False)
    if errors:
        report.diagnostics.extend(errors)
        return None
    if options.model:  # the stage is built from the document's worlds: keep the model alone
        for world in doc.worlds:
            world.models = [m for m in world.models if m.name == options.model]
    plan.models = [flatten_picked(plan, p, report, separator=options.scope_separator,
                                  collapse=options.collapse_fixed_joints) for p in plan.picked]
    return plan
