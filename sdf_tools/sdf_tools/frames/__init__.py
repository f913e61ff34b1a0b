"""Frame semantics: the pose-relative-to and attached-to graphs of the spec.

Built from the description model, validated with libsdformat's error codes,
and queried to place any frame in any other.
"""
from __future__ import annotations

from sdf_tools.frames.build import build_model_graphs, build_world_graphs
from sdf_tools.frames.graph import FrameGraphs, Kind
from sdf_tools.frames.resolve import resolve_attached_body, resolve_pose

__all__ = ['FrameGraphs', 'Kind', 'build_model_graphs', 'build_world_graphs',
           'resolve_attached_body', 'resolve_pose']
