"""The description model: dataclasses that mirror SDFormat elements.

References between elements are kept as the unresolved names written in the
file (``relative_to``, ``attached_to``, joint parent and child); the frame
graphs in :mod:`sdf_tools.frames` resolve them.
"""
from __future__ import annotations

from sdf_tools.model.common import Extra, Loc, RawPose
from sdf_tools.model.document import Document
from sdf_tools.model.elements import (
    Actor,
    Animation,
    Collision,
    Frame,
    Geometry,
    Inertial,
    Joint,
    JointAxis,
    Light,
    Link,
    Model,
    Plugin,
    Sensor,
    Trajectory,
    Visual,
    Waypoint,
    World,
)

__all__ = [
    'Actor', 'Animation', 'Collision', 'Document', 'Extra', 'Frame', 'Geometry',
    'Inertial', 'Joint', 'JointAxis', 'Light', 'Link', 'Loc', 'Model', 'Plugin',
    'RawPose', 'Sensor', 'Trajectory', 'Visual', 'Waypoint', 'World',
]
