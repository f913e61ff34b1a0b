"""Convert a loaded URDF, xacro or SDFormat file to SDFormat 1.9, 1.10, 1.11 or 1.12.

::

    result = convert_to_sdf(load_file('robot.urdf.xacro'), ConversionOptions())
    if result.ok:
        Path('robot.sdf').write_text(result.text)
    print(result.report.summary())

URDF input is converted as libsdformat converts it when Gazebo loads a URDF
(fixed-joint lumping, ``<gazebo>`` tags), with every choice reported and
nothing dropped silently (:mod:`~sdf_tools.convert.sdf.from_urdf`). SDFormat
input of any version is written again in the requested version with every
resolved pose unchanged (:mod:`~sdf_tools.convert.sdf.upgrade`). Then the
options that change the model (root transform, fixed base, self-collision,
URIs, collision and inertia from geometry) are applied
(:mod:`~sdf_tools.convert.model_options`), and the text is written with a
comment block listing the report.

An input with errors is refused: the result has no text and the input's
diagnostics, errors first, in its report.
"""
from __future__ import annotations

import dataclasses

from sdf_tools import gazebo
from sdf_tools.convert.conversion_report import ConversionReport, ConversionResult, ReportKind
from sdf_tools.convert.export_plan import ExportPlan, start_export
from sdf_tools.convert.model_options import all_models, apply_model_options, top_models
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.convert.sdf.from_urdf import prepare_urdf
from sdf_tools.convert.sdf.joint_types import mimic_as_custom
from sdf_tools.convert.sdf.upgrade import SourceIndex, upgrade_model, upgrade_world
from sdf_tools.convert.sdf.writer import WriteOptions, to_text, write_document
from sdf_tools.errors import ErrorCode
from sdf_tools.load import LoadResult
from sdf_tools.model import Document
from sdf_tools.sdf.context import version_tuple

__all__ = ['convert_to_sdf']



def _prepare(plan: ExportPlan, options: ConversionOptions, report: ConversionReport) -> None:
    doc = plan.document
    if doc.format == 'urdf' and doc.model is not None:
        for j in doc.model.joints:
            if j.file_name:
                report.add(ReportKind.RENAMED, f'joint[{j.file_name}]', f'written as [{j.name}]: '
                           'the URDF names a link so too, and SDFormat has one namespace for '
                           'links and joints', *((j.loc.file, j.loc.line) if j.loc else ()))
        prepare_urdf(doc.model, plan.walk(), options, report)
        return
    src = SourceIndex()
    for world in doc.worlds:
        upgrade_world(world, doc.version or '1.9', src, report)
    if doc.model is not None:
        upgrade_model(doc.model, src, report)
    if doc.version and doc.version.strip() != options.sdf_version:
        loc = doc.loc
        report.add(ReportKind.REWRITTEN, 'sdf/@version',
                   f'SDFormat {doc.version.strip()} written as {options.sdf_version}',
                   loc.file if loc else None, loc.line if loc else None)


def _assumed_by_reader(result: LoadResult, report: ConversionReport, urdf: bool) -> None:
    """List the reader's assumed defaults (an axis, a limit...) as report entries.

    A URDF link without mass is left out: the massless_links policy reports
    what happens to it.
    """
    for d in result.diagnostics:
        if d.code is not ErrorCode.DEFAULT_ASSUMED or (urdf and '<inertial>' in d.message):
            continue
        report.add(ReportKind.ASSUMED, d.xml_path or 'input', d.message, d.file, d.line)


def _newer_than_output(doc: Document, version: str, report: ConversionReport) -> None:
    """Report shapes the output version does not have (libsdformat of that version ignores them)."""
    if version_tuple(version) < (1, 10):
        # libsdformat 12 (Fortress) reads a 1.9 world's <joint>s as nothing, without a word
        # (its spec has none); 13 and later read them in any version.
        for world in doc.worlds:
            for j in world.joints:
                report.add(ReportKind.KEPT, f'world[{world.name}]/joint[{j.name}]',
                           f'world joints are SDFormat 1.10: kept, and ignored by libsdformat 12 '
                           f'(Fortress) reading {version}', j.loc.file if j.loc else None,
                           j.loc.line if j.loc else None)
    if version_tuple(version) >= (1, 11):
        return
    for model in all_models(top_models(doc)):
        for link in model.links:
            named = [(v.name, v.geometry) for v in link.visuals]
            named += [(c.name, c.geometry) for c in link.collisions]
            for name, g in named:
                if g is not None and g.type == 'cone':
                    report.add(ReportKind.KEPT, f'model[{model.name}]/link[{link.name}]/{name}',
                               f'<cone> is SDFormat 1.11: kept, and ignored by readers of {version}',
                               g.loc.file if g.loc else None, g.loc.line if g.loc else None)


def convert_to_sdf(result: LoadResult, options: ConversionOptions) -> ConversionResult:
    """Convert a loaded URDF, xacro or SDFormat document to SDFormat text.

    Args:
        result: what :func:`sdf_tools.load.load_file` returned for the input.
        options: the conversion options (``sdf_version``, ``keep_fixed_joints``,
            ``massless_links``, ``uris``...).

    Returns:
        The SDFormat text (None on failure) and the report of every default
        assumed and every element renamed, merged, rewritten or dropped.
    """
    report = ConversionReport()
    plan = start_export(result, options, report)  # the whole document is written: no picking
    if plan is None or result.document is None:
        return ConversionResult(None, 'sdf', report)
    # None: the target's, the version its libsdformat writes a URDF as
    version = options.sdf_version or result.gazebo.convert_version
    options = dataclasses.replace(options, sdf_version=version)
    doc = plan.document
    _assumed_by_reader(result, report, doc.format == 'urdf')
    with gazebo.using(result.gazebo):  # a URDF is converted as the target's libsdformat does
        _prepare(plan, options, report)
    if options.collapse_fixed_joints:
        report.add(ReportKind.ASSUMED, 'option[collapse_fixed_joints]', 'has no effect on a '
                   'conversion to SDFormat (it merges bodies of MJCF/USD exports); URDF -> SDF '
                   'lumps fixed joints unless keep_fixed_joints')
    apply_model_options(doc, options, report, plan.base)
    for model in all_models(top_models(doc)):
        for joint in model.joints:
            mimic_as_custom(joint, report, version)
    _newer_than_output(doc, version, report)
    _auto_inertials(doc, version, report)
    if report.errors:
        return ConversionResult(None, 'sdf', report)
    opts = WriteOptions(version=version, joint_before_child=doc.format == 'urdf',
                        expand_auto_inertials=options.expand_auto_inertials)
    text = to_text(write_document(doc, opts), report.entries, result.document.file)
    return ConversionResult(text, 'sdf', report)


def _auto_inertials(doc: Document, version: str, report: ConversionReport) -> None:
    """Write ``<inertial auto="true">`` as computed where the output version has no ``auto``."""
    if version_tuple(version) >= (1, 11):
        return
    for model in all_models(top_models(doc)):
        for link in model.links:
            if link.inertial is not None and link.inertial.auto:
                link.inertial.auto = False
                report.add(ReportKind.REWRITTEN, f'link[{link.name}]/inertial',
                           f'auto="true" written as the values it computes (mass '
                           f'{link.inertial.mass:g} kg): SDFormat {version} has no '
                           'automatic inertials')
