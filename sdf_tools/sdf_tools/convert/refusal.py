"""Whether a loaded input can be converted at all: the one rule every writer shares.

The loader's diagnostics go into the report (errors first). An input that could
not be read, or that has errors, is refused, with two exceptions for a URDF, whose
errors are then kept as warnings and the conversion goes on (``check`` keeps them
as errors: they are libsdformat's verdict, and Gazebo's):

* libsdformat's refusal of a massless root link (``MODEL_WITHOUT_LINK``):
  libsdformat drops such a robot; with ``massless_links`` ``lump`` or
  ``default-mass`` every writer's preparation gives that link a reported mass
  (so too a massless link fixed to ``world``, which libsdformat 14+ leaves
  unwritten under its children's joints, a zero-mass link lumped into a parent of
  mass 0, whose 0/0 centre of mass libsdformat cannot write, and a massless link whose
  lumped children's frames libsdformat 13.1+ attaches to it, unwritten);
* a joint named like a link (``DUPLICATE_NAME``, ANYmal's ``LF_HAA``): URDF allows
  it, SDFormat does not. The reader already calls the joint ``<name>_joint``; the
  SDFormat writer keeps that name and reports it, the URDF, MJCF and USD writers
  give the joint its own name back (their links and joints are apart).
"""
from __future__ import annotations

import dataclasses

from sdf_tools.convert.conversion_report import ConversionReport
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.errors import Diagnostic, ErrorCode, Severity
from sdf_tools.load import LoadResult
from sdf_tools.urdf.conversion import is_massless_root, is_massless_world_child, is_name_clash
from sdf_tools.urdf.lumped_frames import is_unattached_lumped_frame
from sdf_tools.urdf.zero_mass_sum import is_zero_mass_sum


def _repairable(d: Diagnostic, options: ConversionOptions) -> bool:
    massless = (is_massless_root(d) or is_massless_world_child(d) or is_zero_mass_sum(d)
                or is_unattached_lumped_frame(d))
    return is_name_clash(d) or (massless and options.massless_links in ('lump', 'default-mass'))


def refuse(result: LoadResult, options: ConversionOptions, report: ConversionReport) -> bool:
    """Record why the input cannot be converted in ``report``; return True when it cannot."""
    problems = options.validate()
    for p in problems:
        report.diagnostics.append(Diagnostic(ErrorCode.PARAMETER_ERROR, p))
    repaired = (result.document is not None and result.document.format == 'urdf'
                and all(_repairable(d, options) for d in result.errors))
    report.diagnostics.extend(
        dataclasses.replace(d, severity=Severity.WARNING) if repaired and _repairable(d, options)
        else d
        for d in sorted(result.diagnostics, key=lambda d: d.severity.value))
    if problems:
        return True
    if result.document is None or not result.usable:
        if not report.errors:
            file = result.document.file if result.document else None
            report.diagnostics.append(Diagnostic(ErrorCode.FILE_READ,
                                                 'the input could not be read', file))
        return True
    return bool(result.errors) and not repaired
