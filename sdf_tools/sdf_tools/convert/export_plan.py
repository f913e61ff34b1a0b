"""What a physics-engine exporter (USD, MJCF) starts from: the options applied, every model flattened.

SDFormat and URDF exporters print a description; USD and MJCF exporters
build bodies from it. Both need the same preparation, done here once:

1. refuse an input with errors (its diagnostics go to the report);
2. copy the document and apply the model-changing options (URIs,
   ``visual_as_collision``, mesh boxes, ``inertia_from_geometry``,
   ``self_collide``, ``root_transform``, ``floating_base``) as the SDFormat
   converter applies them (:mod:`~sdf_tools.convert.model_options`);
   ``joint_drive_from_transmission`` and ``mesh_collision='convex'`` are left
   to the exporter, which has its own way to say them;
3. give URDF links without mass the policy's answer (``massless_links``):
   an engine treats a zero mass as "compute it from the shapes";
4. rebuild the frame graphs of the changed document and flatten each model
   (:func:`~sdf_tools.convert.flatten.flatten`); with ``collapse_fixed_joints``,
   merge fixed-jointed links into their parent bodies
   (:mod:`~sdf_tools.convert.collapse`).
"""
from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from sdf_tools.convert.collapse import collapse_fixed_joints
from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import FlatModel, flatten
from sdf_tools.convert.massless import default_inertial, no_mass_for, replaced_mass_message
from sdf_tools.convert.model_options import all_models, apply_model_options
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.convert.refusal import refuse
from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.frames import FrameGraphs, build_model_graphs, build_world_graphs
from sdf_tools.load import LoadResult
from sdf_tools.model import Document, Model, World


@dataclass
class ExportPlan:
    """The prepared document and its flattened models, in document order."""

    document: Document
    models: list[FlatModel] = field(default_factory=list)
    base: Path | None = None        # directory of the input (relative URIs)

    @property
    def source_format(self) -> str:
        return self.document.format



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


def _flatten_all(doc: Document, options: ConversionOptions, report: ConversionReport
                 ) -> list[FlatModel] | None:
    out: list[FlatModel] = []
    groups: list[tuple[list[Model], FrameGraphs, World | None]] = []
    if doc.model is not None:
        groups.append(([doc.model], build_model_graphs(doc.model), None))
    for world in doc.worlds:
        groups.append((world.models, build_world_graphs(world), world))
    for models, graphs, holder in groups:
        if graphs.errors:
            report.diagnostics.extend(graphs.errors)
            return None
        for m in models:
            flat = flatten(m, graphs, holder, separator=options.scope_separator, frames=True,
                           report=report)
            if options.collapse_fixed_joints:
                collapse_fixed_joints(flat, doc.format == 'urdf', report)
            out.append(flat)
    return out


def plan_export(result: LoadResult, options: ConversionOptions, report: ConversionReport, *,
                target: str = 'usd') -> ExportPlan | None:
    """Prepare a loaded file for an engine exporter; None (errors in the report) when it cannot.

    ``target`` says which masses are no mass (:data:`~sdf_tools.convert.massless.NO_MASS`).
    """
    if refuse(result, options, report) or result.document is None:
        return None
    doc = copy.deepcopy(result.document)
    base = Path(doc.file).parent if doc.file else None
    tops = [doc.model] if doc.model is not None else [m for w in doc.worlds for m in w.models]
    if doc.format == 'urdf' and doc.model is not None:
        _urdf_masses(doc.model, options, report, target)
    else:
        _sdf_defaults(all_models(tops), report)
    mesh = options.mesh_collision if options.mesh_collision == 'box' else 'keep'
    shared = dataclasses.replace(options, joint_drive_from_transmission=False, mesh_collision=mesh)
    apply_model_options(doc, shared, report, base)
    if report.errors:
        return None
    models = _flatten_all(doc, options, report)
    if models is None:
        return None
    return ExportPlan(doc, models, base)
