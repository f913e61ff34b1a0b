"""Conversions between formats, each with a report of every loss and assumption.

Data flows one way: a :class:`~sdf_tools.load.LoadResult` (any input format,
frames resolved) goes in; a :class:`ConversionResult` (output text plus
report) comes out. Writers never raise for bad input: a failed conversion
is a result with ``ok`` False and the errors in its report.

Layout: one subpackage per target format, around the shared parts.

* :mod:`.sdf` — URDF/xacro (``<gazebo>`` tags, fixed-joint lumping) or older
  SDFormat -> SDFormat 1.9+ (:func:`sdf_tools.convert.sdf.to_sdf.convert_to_sdf`).
* :mod:`.urdf` — SDFormat -> URDF
  (:func:`sdf_tools.convert.urdf.to_urdf.convert_to_urdf`).
* Shared: :mod:`.api` (format detection, dispatch, output and report files:
  what the CLI and the ROS service call), :mod:`.command` (the CLI),
  :mod:`.options` and :mod:`.report`; :mod:`.flatten` (a model's links,
  joints and frames named and placed by the resolved frame graphs, for every
  writer); the model-changing options (:mod:`.model_options`,
  :mod:`.geometry_ops`, :mod:`.joint_drives`, :mod:`.uris`, :mod:`.lumping`,
  :mod:`.massless`) and :mod:`.poses`.
"""
from __future__ import annotations

from sdf_tools.convert.conversion_report import ConversionReport, ConversionResult, ReportEntry, ReportKind
from sdf_tools.convert.options import ConversionOptions

__all__ = ['ConversionOptions', 'ConversionReport', 'ConversionResult', 'ReportEntry', 'ReportKind']
