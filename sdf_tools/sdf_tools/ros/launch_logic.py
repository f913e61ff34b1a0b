"""What the launch files compute, kept out of them so that it is tested without ``launch``.

``launch/description.launch.py`` and ``launch/convert.launch.py`` declare the
arguments listed here and, once launch has their values, turn the
:class:`NodeSpec` records these functions return into ``launch_ros`` nodes:
nothing else happens in the launch files. No ROS import here.

Arguments whose default is empty are *unset* unless the user gives them: an
unset argument passes nothing to the node, so a ``params_file`` value (or
else the node's own default) stays in charge. Everything is checked before
any node is returned, so a launch that cannot work starts nothing.
"""
from __future__ import annotations

import os
import signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, Protocol

from sdf_tools.ros.params import FORMATS, MODEL_HELP, resolve_description_file
from sdf_tools.ros.params_file import ParamsFileError, node_fqn, node_keys, node_parameters

PACKAGE = 'sdf_tools'
PUBLISHER = 'description_publisher'
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


_UNSET = ' Not given: from params_file, else'  # how the help of an unset argument goes on

DESCRIPTION_ARGS: tuple[LaunchArg, ...] = (
    LaunchArg('description_file', '',
              'The model: a path, package://pkg/path or model://name (SDFormat, URDF or xacro). '
              'Required unless params_file sets description_file or robot_description.'),
    LaunchArg('format', 'auto', 'Format of description_file; auto tells it from the extension '
              'and the root element.', INPUT_FORMATS),
    LaunchArg('xacro_args', '', f'xacro arguments, "name:=value name2:=value2".{_UNSET} none.'),
    LaunchArg('robot_description_format', '',
              'Publish robot_description as urdf (RViz, MoveIt, ros2_control) or as the resolved '
              f'sdf.{_UNSET} urdf.'),
    LaunchArg('model', '', f'{MODEL_HELP}{_UNSET} empty.'),
    LaunchArg('frame_prefix', '', f'Prepended to every TF frame id.{_UNSET} none.'),
    LaunchArg('use_sim_time', '', f'Use /clock (e.g. from Gazebo): true or false.{_UNSET} false.'),
    LaunchArg('rviz', 'false', 'Also start RViz (rviz2 must be installed: checked before anything '
              'starts).', ('true', 'false')),
    LaunchArg('rviz_config', '', f'RViz config file; empty: the bundled {BUNDLED_RVIZ}.'),
    LaunchArg('fixed_frame', 'world', "RViz's fixed frame (a free robot's root link, e.g. "
              'base_link, when nothing places it in the world).'),
    LaunchArg('params_file', '', 'A YAML file of description_publisher parameters (see '
              'config/description_publisher.yaml); the launch arguments given override it, those '
              'not given leave it alone.'),
    LaunchArg('namespace', '', 'Namespace of the nodes.'),
)
#: The arguments that become node parameters when given (else the params file or node decides).
_NODE_ARGS = ('xacro_args', 'robot_description_format', 'model', 'frame_prefix')

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
    #: An exit with code 0 is how this node ends normally (RViz: its window closed); for the
    #: others any exit before the launch shuts down is a death.
    may_exit: bool = False


def node_exit_failure(node: NodeSpec, returncode: int | None, *,
                      shutting_down: bool) -> str | None:
    """Return why the launch must fail when ``node`` exits with ``returncode`` (None: it must not).

    The description publisher and the converter run until the launch stops
    them; an exit before that, whatever its code, leaves the launch with
    nothing to do, so it fails (``ros2 launch`` exits 1 and says why). An exit
    while the launch is shutting down (Ctrl-C) is no failure.
    """
    if shutting_down or (node.may_exit and returncode == 0):
        return None
    how = f'was killed by signal {-returncode}' if returncode is not None and returncode < 0 \
        else f'exited with code {returncode}'
    return f'{node.name} {how} while the launch was running (its reason is logged above)'


class NodeDiedError(RuntimeError):
    """Raised in a launch whose node died: ``ros2 launch`` exits 1 with the message."""


class SignalManager(Protocol):
    """What of launch's ``AsyncSafeSignalManager`` a SIGTERM handler needs."""

    def handle(self, signum: signal.Signals | int,
               handler: Callable[[int], None] | None) -> Callable[[int], None] | None: ...


def _wake_only(signum: int, frame: FrameType | None) -> None:
    """A Python-level handler: Python then writes the signal to launch's wakeup fd, nothing more."""


def stop_on_sigterm(manager: SignalManager, stop: Callable[[str], None]) -> None:
    """Make a SIGTERM stop the launch as Ctrl-C does: its nodes stopped, then exit status 0.

    ``docker stop``, systemd and supervising scripts stop a launch with
    SIGTERM. ``ros2 launch`` (launch 3.4 on Jazzy, 3.7 on Kilted) installs no
    Python handler for it, so the default action kills the launch process
    at once (status 143) and its nodes live on, orphaned; with a Python
    handler, launch's own cancels its run task ("run task was canceled",
    status 1, nodes orphaned too). Here the SIGTERM goes to ``stop`` instead
    (which emits launch's Shutdown event: each node gets SIGINT, then SIGTERM
    and SIGKILL if it lingers, and their exits during the shutdown fail
    nothing, see :func:`node_exit_failure`). A second SIGTERM while stopping
    changes nothing; a node that dies by itself still fails the launch.

    Args:
        manager: the signal manager ``ros2 launch`` runs (its ``handle`` replaces
            the callback of a signal number).
        stop: called once, with the reason, to shut the launch down.
    """
    stopping = False

    def on_sigterm(signum: int) -> None:
        nonlocal stopping
        if not stopping:
            stopping = True
            stop(f'received {signal.Signals(signum).name}')

    manager.handle(signal.SIGTERM, on_sigterm)
    if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
        signal.signal(signal.SIGTERM, _wake_only)


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


def find_executable(package: str, executable: str,
                    prefixes: Sequence[str] | None = None) -> str | None:
    """Return ``<prefix>/lib/<package>/<executable>`` as launch_ros finds it, or None.

    launch_ros takes the first prefix of ``AMENT_PREFIX_PATH`` whose ament
    index lists ``package``; ``prefixes`` replaces that variable (tests).
    """
    if prefixes is None:
        prefixes = [p for p in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep) if p]
    for prefix in prefixes:
        if (Path(prefix) / 'share' / 'ament_index' / 'resource_index' / 'packages'
                / package).is_file():
            path = Path(prefix) / 'lib' / package / executable
            return str(path) if path.is_file() and os.access(path, os.X_OK) else None
    return None


def _file_parameters(params_file: str, namespace: str) -> dict[str, Any]:
    """Return what ``params_file`` gives the description_publisher (empty without a file)."""
    if not params_file:
        return {}
    try:
        return node_parameters(params_file, node_fqn(PUBLISHER, namespace))
    except ParamsFileError as err:
        raise LaunchArgumentError(str(err)) from None


def _description_source(get: Mapping[str, str], from_file: Mapping[str, Any]) -> dict[str, Any]:
    """Return the description_file override; check whatever names the model, wherever it is."""
    fmt = get['format']
    if get['description_file']:
        return {'description_file': check_description_file(get['description_file'], fmt)}
    in_file = from_file.get('description_file')
    if isinstance(in_file, str) and in_file:
        check_description_file(in_file, fmt)
        return {}
    text = from_file.get('robot_description')
    if isinstance(text, str) and text.strip():
        return {}
    if get['params_file']:
        fqn = node_fqn(PUBLISHER, get['namespace'])
        raise LaunchArgumentError(
            f'no model: neither launch argument description_file nor params_file '
            f'[{get["params_file"]}] (description_file or robot_description for node [{fqn}]; its '
            f'entries: {", ".join(node_keys(get["params_file"])) or "none"}) names one')
    return {'description_file': check_description_file('', fmt)}  # raises: required


def publisher_overrides(get: Mapping[str, str], from_file: Mapping[str, Any]) -> dict[str, Any]:
    """Return the node parameters the given launch arguments set (unset ones: nothing)."""
    params = _description_source(get, from_file)
    for name in _NODE_ARGS:
        if get[name]:
            params[name] = get[name]
    fmt = params.get('robot_description_format')
    if fmt is not None and fmt not in FORMATS:
        raise LaunchArgumentError(f'launch argument robot_description_format must be one of '
                                  f'{", ".join(FORMATS)}, not [{fmt}]')
    if get['use_sim_time']:
        params['use_sim_time'] = parse_bool('use_sim_time', get['use_sim_time'])
    return params


def _rviz_node(get: Mapping[str, str], effective: Mapping[str, Any], share_dir: str,
               prefixes: Sequence[str] | None) -> NodeSpec:
    if find_executable('rviz2', 'rviz2', prefixes) is None:
        raise LaunchArgumentError(
            'rviz:=true, but rviz2 is not installed (no package rviz2 with lib/rviz2/rviz2 on '
            f'AMENT_PREFIX_PATH): install it ({rviz_package()}) or leave rviz:=false; '
            'nothing was started')
    config = get['rviz_config'] or str(Path(share_dir) / BUNDLED_RVIZ)
    prefix = str(effective.get('frame_prefix') or '')
    return NodeSpec('rviz2', 'rviz2', 'rviz2', get['namespace'],
                    [{'use_sim_time': effective.get('use_sim_time') is True}],
                    ['-d', config, '-f', prefix + get['fixed_frame']], may_exit=True)


def rviz_package(env: Mapping[str, str] | None = None) -> str:
    """Name the Debian package of rviz2 for this ROS (``ROS_DISTRO``), or both supported ones."""
    distro = (os.environ if env is None else env).get('ROS_DISTRO', '').strip()
    if distro:
        return f'apt install ros-{distro}-rviz2'
    return 'apt install ros-jazzy-rviz2 or ros-kilted-rviz2, for the ROS 2 you source'


def description_nodes(values: Mapping[str, str], share_dir: str,
                      prefixes: Sequence[str] | None = None) -> list[NodeSpec]:
    """Return the nodes of ``description.launch.py`` for its argument values.

    Args:
        values: the launch arguments (an empty value: not given).
        share_dir: sdf_tools' share directory (the bundled RViz config).
        prefixes: where to look for rviz2 (default: ``AMENT_PREFIX_PATH``).

    Raises:
        LaunchArgumentError: a value is unusable, no model is named, or
            rviz:=true without rviz2; nothing must be started then.
    """
    get = {a.name: values.get(a.name, a.default) for a in DESCRIPTION_ARGS}
    from_file = _file_parameters(get['params_file'], get['namespace'])
    overrides = publisher_overrides(get, from_file)
    parameters: list[Any] = ([get['params_file']] if get['params_file'] else []) \
        + ([overrides] if overrides else [])
    nodes = [NodeSpec(PACKAGE, PUBLISHER, PUBLISHER, get['namespace'], parameters)]
    if parse_bool('rviz', get['rviz']):
        nodes.append(_rviz_node(get, {**from_file, **overrides}, share_dir, prefixes))
    return nodes


def convert_nodes(values: Mapping[str, str]) -> list[NodeSpec]:
    """Return the nodes of ``convert.launch.py`` for its argument values."""
    get = {a.name: values.get(a.name, a.default) for a in CONVERT_ARGS}
    return [NodeSpec(PACKAGE, 'converter', 'converter', get['namespace'],
                     [{'use_sim_time': parse_bool('use_sim_time', get['use_sim_time'])}])]
