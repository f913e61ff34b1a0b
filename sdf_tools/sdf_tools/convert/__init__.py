"""Conversions between formats, each with a report of every loss and assumption.

Data flows one way: a :class:`~sdf_tools.load.LoadResult` (any input format,
frames resolved) goes in; a :class:`ConversionResult` (output text plus
report) comes out. Writers never raise for bad input: a failed conversion
is a result with ``ok`` False and the errors in its report.

Entry points (one module each):

* :func:`sdf_tools.convert.to_sdf.convert_to_sdf` — URDF/xacro (with
  ``<gazebo>`` tags, fixed-joint lumping) or older SDFormat -> SDFormat 1.9+.
* :func:`sdf_tools.convert.to_urdf.convert_to_urdf` — SDFormat -> URDF.
* :func:`sdf_tools.convert.api.convert_file` — format detection, options,
  output file and report file: what the CLI and the ROS service call.
"""
from __future__ import annotations

from sdf_tools.convert.options import ConversionOptions
from sdf_tools.convert.report import ConversionReport, ConversionResult, ReportEntry, ReportKind

__all__ = ['ConversionOptions', 'ConversionReport', 'ConversionResult', 'ReportEntry', 'ReportKind']
