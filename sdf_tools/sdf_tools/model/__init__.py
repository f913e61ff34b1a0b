"""The description model: dataclasses that mirror SDFormat elements.

References between elements are kept as the unresolved names written in the
file (``relative_to``, ``attached_to``, joint parent and child); the frame
graphs in :mod:`sdf_tools.frames` resolve them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from sdf_tools.model.common import Extra, Loc, RawPose
from sdf_tools.model.document import Document
from sdf_tools.model.elements import (
    Collision,
    Frame,
    Geometry,
    Inertial,
    Joint,
    JointAxis,
    Link,
    Model,
    Visual,
    World,
)

if TYPE_CHECKING:
    from sdf_tools.model.actor import Actor, Animation, Trajectory, Waypoint
    from sdf_tools.model.verbatim import Light, Plugin, Sensor

__all__ = [
    'Actor', 'Animation', 'Collision', 'Document', 'Extra', 'Frame', 'Geometry',
    'Inertial', 'Joint', 'JointAxis', 'Light', 'Link', 'Loc', 'Model', 'Plugin',
    'RawPose', 'Sensor', 'Trajectory', 'Visual', 'Waypoint', 'World',
]

# The classes of elements many files do not have, made on first use (each dataclass costs
# about a small module's import; ``check`` of a file without them starts faster).
_LAZY = {'Actor': 'actor', 'Animation': 'actor', 'Trajectory': 'actor', 'Waypoint': 'actor',
         'Light': 'verbatim', 'Plugin': 'verbatim', 'Sensor': 'verbatim'}


def __getattr__(name: str) -> object:
    """``from sdf_tools.model import Actor`` and the like, imported on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    import importlib
    return getattr(importlib.import_module(f'{__name__}.{module}'), name)
