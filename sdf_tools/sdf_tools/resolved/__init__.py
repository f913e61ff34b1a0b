"""The resolved description: one typed, frozen view of a loaded document.

``resolve(load_file(path))`` places every model, link, joint, frame, sensor and
actor once; ``to_json`` is the ``inspect --json`` view of it.
"""
from __future__ import annotations

from sdf_tools.resolved.build import resolve
from sdf_tools.resolved.json_view import inspect_json, to_json
from sdf_tools.resolved.records import (
    Resolved,
    ResolvedActor,
    ResolvedAxis,
    ResolvedFrame,
    ResolvedInertial,
    ResolvedJoint,
    ResolvedLink,
    ResolvedModel,
    ResolvedSensor,
    ResolvedShape,
)

__all__ = [
    'Resolved', 'ResolvedActor', 'ResolvedAxis', 'ResolvedFrame', 'ResolvedInertial',
    'ResolvedJoint', 'ResolvedLink', 'ResolvedModel', 'ResolvedSensor', 'ResolvedShape',
    'inspect_json', 'resolve', 'to_json',
]
