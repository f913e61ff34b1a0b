"""What the launch files compute (no launch import needed)."""
from __future__ import annotations

from pathlib import Path

import pytest

from sdf_tools.ros.launch_logic import (
    DESCRIPTION_ARGS,
    LaunchArgumentError,
    convert_nodes,
    description_nodes,
    detect_format,
)

DATA = Path(__file__).resolve().parents[1] / 'data'
ARM = DATA / 'urdf' / 'arm.urdf'


def test_description_node_parameters() -> None:
    nodes = description_nodes({'description_file': str(ARM), 'xacro_args': 'a:=1',
                               'frame_prefix': 'r1/', 'use_sim_time': 'true'}, '/share/sdf_tools')
    assert [n.executable for n in nodes] == ['description_publisher']
    params = nodes[0].parameters[-1]
    assert params['description_file'] == str(ARM) and params['use_sim_time'] is True
    assert params['xacro_args'] == 'a:=1' and params['frame_prefix'] == 'r1/'
    assert params['robot_description_format'] == 'urdf'


def test_rviz_with_the_bundled_config_and_a_params_file() -> None:
    nodes = description_nodes({'description_file': str(ARM), 'rviz': 'true',
                               'params_file': '/tmp/p.yaml'}, '/share/sdf_tools')
    assert nodes[0].parameters[0] == '/tmp/p.yaml'  # launch arguments come after: they win
    assert nodes[1].executable == 'rviz2'
    assert nodes[1].arguments == ['-d', '/share/sdf_tools/config/description.rviz', '-f', 'world']


@pytest.mark.parametrize('values,fragment', [
    ({}, 'description_file is required'),
    ({'description_file': '/nonexistent.urdf'}, 'no such file'),
    ({'description_file': str(ARM), 'format': 'sdf'}, 'is urdf, not sdf'),
    ({'description_file': str(ARM), 'format': 'mjcf'}, 'format must be one of'),
    ({'description_file': str(ARM), 'rviz': 'maybe'}, 'rviz must be true or false'),
])
def test_bad_arguments_stop_the_launch_with_a_reason(values: dict[str, str], fragment: str) -> None:
    with pytest.raises(LaunchArgumentError, match=fragment):
        description_nodes(values, '/share')


def test_format_detection() -> None:
    assert detect_format(ARM) == 'urdf'
    assert detect_format(DATA / 'urdf' / 'two_link.urdf.xacro') == 'xacro'
    assert detect_format(DATA / 'ros' / 'nested_robot.sdf') == 'sdf'


def test_argument_names_are_unique_and_converter_node() -> None:
    names = [a.name for a in DESCRIPTION_ARGS]
    assert len(names) == len(set(names))
    assert convert_nodes({})[0].executable == 'converter'
