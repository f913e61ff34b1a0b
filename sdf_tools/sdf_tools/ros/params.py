"""The parameters of the description_publisher node: names, defaults, checks.

Names follow robot_state_publisher where it has the same concept
(``robot_description``, ``publish_frequency``, ``ignore_timestamp``,
``frame_prefix``). ``config/description_publisher.yaml`` documents the same
list for users; a test keeps the two equal.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from sdf_tools.gazebo import TARGETS
from sdf_tools.ros.param_types import type_name
from sdf_tools.xacro_args import parse_name_values, parse_name_values_text

FORMATS = ('urdf', 'sdf')
MESH_URIS = ('package', 'file', 'keep')
MAX_FREQUENCY = 1000.0  # robot_state_publisher's upper bound
#: What the ``model`` parameter means: the one wording the node, the launch argument, the YAML
#: and docs/ros.md use (a test keeps them equal).
MODEL_HELP = ("Which model of a world to publish. Empty: the world's only model, or, in a world of "
              'several, every model (frame ids then start with the model name, and no URDF '
              'robot_description is published: one URDF holds one model).')


@dataclass(frozen=True)
class ParamSpec:
    """One parameter: its default (which fixes its type) and what it means."""

    name: str
    default: str | float | bool
    description: str
    dynamic_typing: bool = False  # xacro_args: a string or a list of strings


PUBLISHER_PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec('description_file', '',
              'The model to publish: a path, package://pkg/path or model://name; SDFormat, URDF or '
              'xacro (by extension and content). Wins over robot_description when both are set.'),
    ParamSpec('robot_description', '',
              'The model as text (SDFormat, URDF or xacro), used when description_file is empty. '
              'A model loaded from description_file or description_topic is put here as it is '
              'published (as robot_state_publisher does), for spawners that read the parameter.'),
    ParamSpec('xacro_args', '',
              'xacro arguments as "name:=value" pairs: one string (shell-quoted, space separated) '
              'or a list of strings.', dynamic_typing=True),
    ParamSpec('robot_description_format', 'urdf',
              'What to publish on robot_description: "urdf" (for RViz, MoveIt, ros2_control; an '
              'SDFormat model is converted) or "sdf" (the resolved SDFormat 1.9).'),
    ParamSpec('mesh_uris', 'package',
              'Mesh URIs of an SDFormat model\'s URDF robot_description: "package" (package:// '
              'where a ROS package holds the mesh, else file://: what RViz opens), "file" '
              '(file:// always) or "keep" (as written).'),
    ParamSpec('model', '', MODEL_HELP),
    ParamSpec('root_frame', 'world', 'TF frame id of the world frame.'),
    ParamSpec('scope_separator', '/',
              'Replaces "::" in scoped names (outer::inner::link) to make TF frame ids and '
              'joint_states names.'),
    ParamSpec('publish_frames', True,
              'Also publish SDFormat <frame> elements and nested model frames on /tf_static.'),
    ParamSpec('frame_prefix', '', 'Prepended to every TF frame id (robot_state_publisher).'),
    ParamSpec('publish_frequency', 20.0,
              'Maximum rate (Hz) of /tf per joint (robot_state_publisher), and the rate of actor '
              'frames; 0 to 1000, 0 publishes every joint_states message.'),
    ParamSpec('ignore_timestamp', False,
              'Publish every joint_states message whatever its stamp (robot_state_publisher).'),
    ParamSpec('description_topic', '',
              'A std_msgs/String topic to take the description from (transient local); each '
              'message replaces the current description. Empty: no subscription.'),
    ParamSpec('gazebo', '', 'The Gazebo whose libsdformat to reproduce: fortress, harmonic, '
              'ionic or jetty. Empty: from ROS_DISTRO, else the newest.'),
    ParamSpec('initial_positions', '',
              'Positions of movable joints until joint_states carries them: "NAME=VALUE,..." or '
              'a YAML file path. A joint not named is published once joint_states carries it.'),
)

#: Parameters whose change reloads the description and republishes everything.
RELOAD_PARAMS = frozenset({
    'description_file', 'robot_description', 'xacro_args', 'robot_description_format', 'model',
    'mesh_uris', 'gazebo',
    'root_frame', 'scope_separator', 'publish_frames', 'frame_prefix', 'initial_positions'})


@dataclass(frozen=True)
class PublisherParams:
    """The parameter values, checked and parsed."""

    description_file: str = ''
    robot_description: str = ''
    xacro_args: tuple[tuple[str, str], ...] = ()
    robot_description_format: str = 'urdf'
    mesh_uris: str = 'package'
    model: str = ''
    root_frame: str = 'world'
    scope_separator: str = '/'
    publish_frames: bool = True
    frame_prefix: str = ''
    publish_frequency: float = 20.0
    ignore_timestamp: bool = False
    description_topic: str = ''
    gazebo: str = ''
    initial_positions: str = ''

    @property
    def xacro_dict(self) -> dict[str, str]:
        return dict(self.xacro_args)

    @staticmethod
    def from_values(values: Mapping[str, object]) -> tuple[PublisherParams, list[str]]:
        """Build from parameter values; return the problems of the values that were refused."""
        problems: list[str] = []
        kwargs: dict[str, object] = {}
        for spec in PUBLISHER_PARAMS:
            if spec.name not in values:
                continue
            value = values[spec.name]
            reason = check_value(spec.name, value)
            if reason is not None:
                problems.append(reason)
                continue
            if spec.name == 'xacro_args':
                kwargs[spec.name] = tuple(parse_xacro_args(value)[0].items())  # type: ignore[arg-type]
            elif spec.name == 'publish_frequency':
                kwargs[spec.name] = float(value)  # type: ignore[arg-type]
            else:
                kwargs[spec.name] = value
        return PublisherParams(**kwargs), problems  # type: ignore[arg-type]


def parse_xacro_args(value: str | list[str] | tuple[str, ...]) -> tuple[dict[str, str], list[str]]:
    """Parse ``name:=value`` pairs from a string (shell-quoted) or a list of strings."""
    out, bad = parse_name_values_text(value) if isinstance(value, str) else parse_name_values(value)
    return out, [f'xacro_args {b}' for b in bad]


def check_value(name: str, value: object) -> str | None:
    """Return why ``value`` is refused for parameter ``name`` (None when it is fine)."""
    if name == 'publish_frequency':
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not 0.0 <= float(value) <= MAX_FREQUENCY:
            return (f'publish_frequency must be a number from 0 to {MAX_FREQUENCY:g}, not '
                    f'{type_name(value) + " " if isinstance(value, (bool, str)) else ""}{value!r}')
    elif name == 'initial_positions':
        if not isinstance(value, str):
            return f'initial_positions must be a string, not {type_name(value)} {value!r}'
        if not value.strip():
            return None  # the default: nothing to parse, nothing to import
        # imported here: it brings the description model and the converters' package, which
        # the converter node's start (this module is imported by it) and a URDF input do without
        from sdf_tools.convert.joint_positions import parse_joint_positions
        problems = parse_joint_positions(value)[1]
        if problems:
            return 'initial_positions: ' + '; '.join(problems)
    elif name == 'gazebo':
        if value not in ('', *TARGETS):
            return f'gazebo must be one of {", ".join(TARGETS)} (or empty), not {value!r}'
    elif name == 'robot_description_format':
        if value not in FORMATS:
            return f'robot_description_format must be one of {", ".join(FORMATS)}, not {value!r}'
    elif name == 'mesh_uris':
        if value not in MESH_URIS:
            return f'mesh_uris must be one of {", ".join(MESH_URIS)}, not {value!r}'
    elif name == 'scope_separator':
        if not isinstance(value, str) or not value:
            return 'scope_separator must be a non-empty string'
    elif name == 'root_frame':
        if not isinstance(value, str) or not value.strip('/'):
            return 'root_frame must be a non-empty frame id'
    elif name == 'xacro_args':
        if not isinstance(value, (str, list, tuple)):
            return f'xacro_args must be a string or a list of strings, not {value!r}'
        problems = parse_xacro_args(value)[1]
        if problems:
            return '; '.join(problems)
    elif name in ('publish_frames', 'ignore_timestamp'):
        if not isinstance(value, bool):
            return f'{name} must be true or false (a bool), not {type_name(value)} ({value!r})'
    elif not isinstance(value, str):
        return f'{name} must be a string, not {type_name(value)} ({value!r})'
    return None


def resolve_description_file(value: str, what: str = 'description_file'
                             ) -> tuple[Path | None, str | None]:
    """Return the file (or model directory) a path or URI names, or why not (``what`` names it)."""
    from sdf_tools.sdf.uris import resolve_uri  # here: the reader's lxml, not at node start
    uri = value.strip()
    path = resolve_uri(uri, None)
    if path is not None:
        return path, None
    if uri.startswith('package://'):
        return None, (f'{what} [{uri}]: no AMENT_PREFIX_PATH or ROS_PACKAGE_PATH entry '
                      'holds that package file')
    if uri.startswith('model://'):
        return None, (f'{what} [{uri}]: no directory of SDF_PATH, GZ_SIM_RESOURCE_PATH, '
                      'IGN_GAZEBO_RESOURCE_PATH or GAZEBO_MODEL_PATH holds that model')
    return None, f'{what} [{uri}]: no such file'
