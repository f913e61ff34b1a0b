"""What ``launch/spawn.launch.py`` computes, without ``launch``: its arguments and the node's parameters.

The launch file declares :data:`LAUNCH_ARGUMENTS` and starts the
``spawner`` node with :func:`spawner_parameters` of their values: a model
given by ``file`` (a path or URI), ``string``, ``topic`` or ``param`` is
spawned once at start-up; the node then exits (``exit_after_spawn``, the
default, like ``ros_gz_sim create``) or keeps serving its services.

The launch also ends the way the spawn did: :func:`spawner_exit_failure` says
whether the spawner's exit fails the launch (``ros2 launch`` then exits 1 with
the reason), and :func:`spawner_parameters` refuses a launch that would spawn
nothing and wait forever.
"""
from __future__ import annotations

import math
import shlex
from collections.abc import Mapping
from typing import Any

from sdf_tools.spawn.assets import URI_MODES
from sdf_tools.spawn.backend_choice import BACKENDS
from sdf_tools.spawn.prepare import FORMATS
from sdf_tools.xacro_args import parse_name_values

#: (name, default, description) of each launch argument.
LAUNCH_ARGUMENTS: tuple[tuple[str, str, str], ...] = (
    ('file', '', 'Model file or URI (path, package://, model://); SDFormat, URDF or xacro.'),
    ('string', '', 'The model as text (instead of file).'),
    ('topic', '', 'A std_msgs/String topic publishing the model, e.g. robot_description.'),
    ('param', '', 'A parameter holding the model: "node/parameter" or a parameter of the spawner.'),
    ('format', 'auto', 'Model format: auto, sdf, urdf or xacro.'),
    ('xacro_args', '', 'xacro arguments: "name:=value name2:=value2".'),
    ('model', '', "For a world file: which of its models to spawn (default: the world's only one)."),
    ('name', '', "Entity name (default: the model's own name)."),
    ('allow_renaming', 'false', 'Take name_0, name_1... when the name is taken.'),
    ('world', '', 'Gazebo world (default: the running one).'),
    ('x', '0', 'Initial X (m).'), ('y', '0', 'Initial Y (m).'), ('z', '0', 'Initial Z (m).'),
    ('R', '0', 'Initial roll (rad).'), ('P', '0', 'Initial pitch (rad).'),
    ('Y', '0', 'Initial yaw (rad).'),
    ('relative_to', '', 'Frame of the initial pose: an entity of the world (default: the world).'),
    ('entity_namespace', '', "ROS namespace for the model's ROS plugins (<ros><namespace>)."),
    ('uris', 'file', 'How mesh URIs are made resolvable for Gazebo: file, model or keep.'),
    ('backend', 'auto', 'How to reach Gazebo: auto, gz_cli or gz_python.'),
    ('timeout', '5.0', 'Seconds to wait for Gazebo and for the entity to appear.'),
    ('exit_after_spawn', 'true', 'Exit once the model is spawned (false: keep serving ~/spawn...).'),
    ('node_name', 'spawner', 'Name of the spawner node.'),
)
_FLOATS = ('x', 'y', 'z', 'R', 'P', 'Y', 'timeout')
_BOOLS = ('allow_renaming', 'exit_after_spawn')
_CHOICES = {'format': FORMATS, 'uris': URI_MODES, 'backend': BACKENDS}
_TRUE, _FALSE = ('true', '1', 'yes', 'on'), ('false', '0', 'no', 'off', '')
_SOURCES = ('file', 'string', 'topic', 'param')


def _bool(name: str, text: str) -> bool:
    low = text.strip().lower()
    if low not in _TRUE + _FALSE:
        raise ValueError(f'launch argument {name}:={text!r} must be true or false')
    return low in _TRUE


def _float(name: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f'launch argument {name}:={text!r} must be a number') from None
    if not math.isfinite(value):
        raise ValueError(f'launch argument {name}:={text!r} must be finite')
    return value


def spawner_parameters(values: Mapping[str, str]) -> dict[str, Any]:
    """Return the spawner's parameters for launch argument values (defaults fill the gaps).

    Raises:
        ValueError: a value has the wrong type, or is not one of its choices.
    """
    given = {name: values.get(name, default) for name, default, _ in LAUNCH_ARGUMENTS}
    params: dict[str, Any] = {}
    for name, text in given.items():
        if name == 'node_name':
            continue
        if name in _FLOATS:
            params[name] = _float(name, text)
        elif name in _BOOLS:
            params[name] = _bool(name, text)
        elif name in _CHOICES and text not in _CHOICES[name]:
            raise ValueError(f'launch argument {name}:={text!r} must be one of '
                             f'{", ".join(_CHOICES[name])}')
        else:
            params[name] = text
    args = shlex.split(given['xacro_args'])
    bad = parse_name_values(args)[1]
    if bad:
        raise ValueError(f'launch argument xacro_args: {bad[0]}')
    params['xacro_args'] = args or ''  # launch_ros cannot type an empty list
    if params['timeout'] <= 0:
        raise ValueError('launch argument timeout must be > 0')
    if params['exit_after_spawn'] and not any(params[name] for name in _SOURCES):
        raise ValueError('nothing to spawn: give file:=, string:=, topic:= or param:= (or '
                         "exit_after_spawn:=false to only serve the spawner's services)")
    return params


def spawner_exit_failure(returncode: int | None, *, shutting_down: bool) -> str | None:
    """Return why the launch must fail when the spawner exits with ``returncode`` (None: it must not).

    The spawner exits 0 after a spawn, 1 after a failed one (its error is
    logged once, just before). An exit while the launch is shutting down
    (Ctrl-C) is no failure.
    """
    if shutting_down or returncode == 0:
        return None
    how = f'was killed by signal {-returncode}' if returncode is not None and returncode < 0 \
        else f'exited with code {returncode}'
    return f'the spawner {how}: the model was not spawned (the reason is logged above)'


class SpawnLaunchError(RuntimeError):
    """Raised in the launch when the spawner failed: ``ros2 launch`` exits 1 with the message."""
