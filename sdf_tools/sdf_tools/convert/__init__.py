"""Conversions between formats, each with a report of every loss and assumption.

Data flows one way: a :class:`~sdf_tools.load.LoadResult` (SDFormat, URDF
or xacro from :func:`~sdf_tools.load.load_file`; MJCF or USD from their
importers) goes in; a :class:`ConversionResult` (output text plus report)
comes out. Writers never raise for bad input: a failed conversion is a
result with ``ok`` False and the errors in its report.

Layout: one subpackage per format, around the shared parts.

* :mod:`.sdf` — URDF/xacro (``<gazebo>`` tags, fixed-joint lumping) or older
  SDFormat -> SDFormat 1.9+ (:func:`sdf_tools.convert.sdf.to_sdf.convert_to_sdf`).
* :mod:`.urdf` — SDFormat -> URDF (:func:`sdf_tools.convert.urdf.to_urdf.convert_to_urdf`).
* :mod:`.mjcf` — SDFormat/URDF -> MJCF, and MJCF -> a load result (MuJoCo reads it).
* :mod:`.usd` — SDFormat/URDF -> OpenUSD, and USD -> a load result (usd-core reads it).
* Shared: :mod:`.api` (format detection, dispatch, output and report files:
  what the CLI, the ROS service and a Python user call), :mod:`.command` (the
  CLI's flags), :mod:`.options`, :mod:`.conversion_report`, :mod:`.imported`;
  :mod:`.flatten` (a model's links, joints and frames from the resolved
  description, named for the target), :mod:`.loop_cut` (the tree URDF and MJCF
  nest), :mod:`.export_plan` (what every exporter starts from: the input
  refused or copied, its models picked and flattened); the model-changing
  options (:mod:`.model_options`, :mod:`.geometry_ops`, :mod:`.joint_drives`,
  :mod:`.uris`, :mod:`.massless`) and :mod:`.poses`.
"""
from __future__ import annotations

from sdf_tools.convert.conversion_report import ConversionReport, ConversionResult, ReportEntry, ReportKind
from sdf_tools.convert.options import ConversionOptions

__all__ = ['ConversionOptions', 'ConversionReport', 'ConversionResult', 'ReportEntry', 'ReportKind']
