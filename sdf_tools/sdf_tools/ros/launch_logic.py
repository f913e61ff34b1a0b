"""What the launch files compute, kept out of them so that it is tested without ``launch``.

``launch/description.launch.py`` and ``launch/convert.launch.py`` declare the
arguments listed here and, once launch has their values, turn the
:class:`NodeSpec` records these functions return into ``launch_ros`` nodes:
nothing else happens in the launch files. No ROS import here.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sdf_tools.ros.params import resolve_description_file

PACKAGE = 'sdf_tools'
BUNDLED_RVIZ = 'config/description.rviz'
INPUT_FORMATS = ('auto', 'sdf', 'urdf', 'xacro')
_BOOLS = {'true': True, 'false': False, '1': True, '0': False, 'yes': True, 'no': False,
          'on': True, 'off': False}


@dataclass(frozen=True)
class LaunchArg:
    """A launch argument: name, default (text, as launch wants it), meaning, allowed values."""

    name: str
    default: str
    description: str
    choices: tuple[str, ...] = ()


DESCRIPTION_ARGS: tuple[LaunchArg, ...] = (
    LaunchArg('description_file', '',
              'The model: a path, package://pkg/path or model://name (SDFormat, URDF or xacro).'),
    LaunchArg('format', 'auto', 'Format of description_file; auto tells it from the extension '
              'and the root element.', INPUT_FORMATS),
    LaunchArg('xacro_args', '', 'xacro arguments, "name:=value name2:=value2".'),
    LaunchArg('robot_description_format', 'urdf',
              'Publish robot_description as urdf (RViz, MoveIt, ros2_control) or as the resolved '
              'sdf.', ('urdf', 'sdf')),
    LaunchArg('model', '', 'Which model of a world to publish (empty: the whole world).'),
    LaunchArg('frame_prefix', '', 'Prepended to every TF frame id.'),
    LaunchArg('use_sim_time', 'false', 'Use /clock (e.g. from Gazebo).', ('true', 'false')),
    LaunchArg('rviz', 'false', 'Also start RViz.', ('true', 'false')),
    LaunchArg('rviz_config', '', f'RViz config file; empty: the bundled {BUNDLED_RVIZ}.'),
    LaunchArg('fixed_frame', 'world', "RViz's fixed frame (a free robot's root link, e.g. "
              'base_link, when nothing places it in the world).'),
    LaunchArg('params_file', '', 'A YAML file of description_publisher parameters (see '
              'config/description_publisher.yaml); launch arguments override it.'),
    LaunchArg('namespace', '', 'Namespace of the nodes.'),
)

CONVERT_ARGS: tuple[LaunchArg, ...] = (
    LaunchArg('namespace', '', 'Namespace of the converter node.'),
    LaunchArg('use_sim_time', 'false', 'Use /clock.', ('true', 'false')),
)


@dataclass(frozen=True)
class NodeSpec:
    """What a ``launch_ros.actions.Node`` needs."""

    package: str
    executable: str
    name: str
    namespace: str = ''
    parameters: list[Any] = field(default_factory=list)
    arguments: list[str] = field(default_factory=list)


class LaunchArgumentError(ValueError):
    """A launch argument has a value the launch cannot use."""


def parse_bool(name: str, text: str) -> bool:
    """Read a true/false launch argument."""
    value = _BOOLS.get(text.strip().lower())
    if value is None:
        raise LaunchArgumentError(f'launch argument {name} must be true or false, not [{text}]')
    return value


def detect_format(path: Path) -> str:
    """Return 'sdf', 'urdf' or 'xacro' for a file, from its name and then its root element."""
    name = path.name.lower()
    if name.endswith('.xacro'):
        return 'xacro'
    if name.endswith('.urdf'):
        return 'urdf'
    if name.endswith(('.sdf', '.world')) or path.is_dir():
        return 'sdf'
    head = path.read_text(encoding='utf-8', errors='replace')[:4096]
    if 'xmlns:xacro' in head:
        return 'xacro'
    return 'urdf' if '<robot' in head else 'sdf'


def check_description_file(value: str, fmt: str) -> str:
    """Return the file ``value`` names, checked against ``fmt``; raise when it cannot be used."""
    if fmt not in INPUT_FORMATS:
        raise LaunchArgumentError(f'launch argument format must be one of {", ".join(INPUT_FORMATS)}'
                                  f', not [{fmt}]')
    if not value:
        raise LaunchArgumentError('launch argument description_file is required, e.g. '
                                  'description_file:=/path/to/robot.urdf.xacro')
    path, why = resolve_description_file(value)
    if path is None:
        raise LaunchArgumentError(why or f'no such file [{value}]')
    found = detect_format(path)
    if fmt != 'auto' and found != fmt:
        raise LaunchArgumentError(f'description_file [{value}] is {found}, not {fmt} (format:={fmt})')
    return str(path)


def description_nodes(values: Mapping[str, str], share_dir: str) -> list[NodeSpec]:
    """Return the nodes of ``description.launch.py`` for its argument values."""
    get = {a.name: values.get(a.name, a.default) for a in DESCRIPTION_ARGS}
    path = check_description_file(get['description_file'], get['format'])
    sim = parse_bool('use_sim_time', get['use_sim_time'])
    params: dict[str, Any] = {
        'description_file': path,
        'xacro_args': get['xacro_args'],
        'robot_description_format': get['robot_description_format'],
        'model': get['model'],
        'frame_prefix': get['frame_prefix'],
        'use_sim_time': sim,
    }
    parameters: list[Any] = ([get['params_file']] if get['params_file'] else []) + [params]
    nodes = [NodeSpec(PACKAGE, 'description_publisher', 'description_publisher', get['namespace'],
                      parameters)]
    if parse_bool('rviz', get['rviz']):
        config = get['rviz_config'] or str(Path(share_dir) / BUNDLED_RVIZ)
        nodes.append(NodeSpec('rviz2', 'rviz2', 'rviz2', get['namespace'],
                              [{'use_sim_time': sim}],
                              ['-d', config, '-f', get['frame_prefix'] + get['fixed_frame']]))
    return nodes


def convert_nodes(values: Mapping[str, str]) -> list[NodeSpec]:
    """Return the nodes of ``convert.launch.py`` for its argument values."""
    get = {a.name: values.get(a.name, a.default) for a in CONVERT_ARGS}
    return [NodeSpec(PACKAGE, 'converter', 'converter', get['namespace'],
                     [{'use_sim_time': parse_bool('use_sim_time', get['use_sim_time'])}])]
