"""Spawn, delete, move and list models in a running simulator (Gazebo), with results you can trust.

Pure Python (no rclpy): the ROS node (:mod:`sdf_tools.ros.spawner_node`) and
the ``sdf_tools spawn`` command are thin layers over :func:`spawn`,
:func:`delete`, :func:`set_pose` and :func:`list_entities`. A simulator is a
:class:`SimulatorBackend`; :func:`make_backend` returns Gazebo's over the
``gz``/``ign`` tools or gz-transport's Python bindings.

    backend = make_backend('auto')
    outcome = spawn(backend, SpawnRequest(ModelSource(file='robot.urdf.xacro',
                                                      xacro_args={'arm': 'true'}),
                                          name='robot', pose=Transform((0, 0, 0.1))))
    print(outcome.code.name, outcome.entity_name, outcome.details())
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from sdf_tools.spawn.backend_choice import BACKENDS, make_backend
from sdf_tools.spawn.errors import BackendError, BackendTimeoutError, BackendUnavailableError
from sdf_tools.spawn.result import Outcome, ResultCode, to_simulation_interfaces
from sdf_tools.spawn.simulator import CreateRequest, EntityInfo, SimulatorBackend

if TYPE_CHECKING:
    from sdf_tools.spawn.pipeline import SpawnRequest, delete, list_entities, set_pose, spawn
    from sdf_tools.spawn.prepare import FORMATS, ModelSource, PreparedModel, prepare_model

# Imported on first use: they bring the reader and the converters (~40 ms), which importing a
# light submodule (result, simulator: the spawner node's services) must not pay for.
_LAZY = {'SpawnRequest': 'pipeline', 'delete': 'pipeline', 'list_entities': 'pipeline',
         'set_pose': 'pipeline', 'spawn': 'pipeline', 'FORMATS': 'prepare',
         'ModelSource': 'prepare', 'PreparedModel': 'prepare', 'prepare_model': 'prepare'}


def __getattr__(name: str) -> Any:
    """Return a name of the pipeline or the model preparation, importing its module."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    return getattr(import_module(f'sdf_tools.spawn.{module}'), name)


__all__ = [
    'BACKENDS',
    'FORMATS',
    'BackendError',
    'BackendTimeoutError',
    'BackendUnavailableError',
    'CreateRequest',
    'EntityInfo',
    'ModelSource',
    'Outcome',
    'PreparedModel',
    'ResultCode',
    'SimulatorBackend',
    'SpawnRequest',
    'delete',
    'list_entities',
    'make_backend',
    'prepare_model',
    'set_pose',
    'spawn',
    'to_simulation_interfaces',
]
