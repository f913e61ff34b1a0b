"""description_publisher as the launch files and spawners use it (issue 13): parameter files,
the robot_description parameter, and what a world of several models logs (DDS)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from ros.ros_available import ros_missing

if ros_missing() is not None:
    pytest.skip(str(ros_missing()), allow_module_level=True)

import rclpy  # noqa: E402
from rcl_interfaces.srv import GetParameters  # noqa: E402
from rclpy.node import Node  # noqa: E402

from ros.ros_support import Listener, running_publisher, set_parameters, wait_log  # noqa: E402
from sdf_tools.ros.launch_logic import description_nodes  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / 'data'
ARM = DATA / 'urdf' / 'arm.urdf'
NESTED = DATA / 'ros' / 'nested_robot.sdf'
WORLD = DATA / 'ros' / 'two_robots_world.sdf'


def get_parameter(node: Node, target: str, name: str, timeout: float = 10.0) -> Any:
    client = node.create_client(GetParameters, f'/{target}/get_parameters')
    try:
        assert client.wait_for_service(timeout_sec=timeout), f'no /{target}/get_parameters'
        future = client.call_async(GetParameters.Request(names=[name]))
        rclpy.spin_until_future_complete(node, future, timeout_sec=timeout)
        assert future.done(), 'get_parameters timed out'
        return future.result().values[0]
    finally:
        node.destroy_client(client)


def test_robot_description_parameter_holds_what_is_published(listener: Listener,
                                                             tmp_path: Path) -> None:
    """Defect 3: the parameter stayed empty, so spawning from it failed."""
    with running_publisher(tmp_path / 'node.log', {'description_file': str(ARM)}) as proc:
        assert listener.wait(lambda: bool(listener.descriptions))
        value = get_parameter(listener.node, 'description_publisher', 'robot_description')
        assert value.string_value == listener.descriptions[-1] == ARM.read_text()
        results = set_parameters(listener.node, 'description_publisher',
                                 {'description_file': str(NESTED)})
        assert results[0].successful, results[0].reason
        assert listener.wait(lambda: '<robot name="crane"' in listener.descriptions[-1])
        value = get_parameter(listener.node, 'description_publisher', 'robot_description')
        assert value.string_value == listener.descriptions[-1]
        # One load per change: mirroring the text into the parameter reloads nothing.
        assert proc.text().count('publishing') == 2, proc.text()


def test_a_description_given_as_the_parameter_stays_as_given(listener: Listener,
                                                             tmp_path: Path) -> None:
    text = ('<robot name="x" xmlns:xacro="http://www.ros.org/wiki/xacro">'
            '<xacro:arg name="base" default="base"/><link name="$(arg base)"><inertial>'
            '<mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>'
            '</inertial></link></robot>')
    # A whole description cannot go through -p (rcl cannot parse it): a parameter file can.
    params = tmp_path / 'params.yaml'
    params.write_text(yaml.safe_dump({'/**': {'ros__parameters': {'robot_description': text}}}))
    with running_publisher(tmp_path / 'node.log', {}, params_files=(params,)):
        assert listener.wait(lambda: bool(listener.descriptions))
        assert 'xacro:' not in listener.descriptions[-1]  # expanded on the topic
        value = get_parameter(listener.node, 'description_publisher', 'robot_description')
        assert value.string_value == text  # the xacro itself: xacro_args can still change it


def test_launch_parameters_leave_the_params_file_alone(listener: Listener, tmp_path: Path) -> None:
    """Defect 1, end to end: the node gets the file, then only the arguments given (launch_ros)."""
    user = tmp_path / 'user.yaml'
    user.write_text(yaml.safe_dump({'description_publisher': {'ros__parameters': {
        'description_file': str(NESTED), 'robot_description_format': 'sdf',
        'frame_prefix': 'r1/'}}}))
    spec = description_nodes({'params_file': str(user), 'xacro_args': 'unused:=1'}, '/share')[0]
    files = []
    for i, entry in enumerate(spec.parameters):
        if isinstance(entry, dict):  # launch_ros writes a dict to a file of its own, key /**
            path = tmp_path / f'launch_params_{i}.yaml'
            path.write_text(yaml.safe_dump({'/**': {'ros__parameters': entry}}))
            entry = path
        files.append(Path(entry))
    with running_publisher(tmp_path / 'node.log', {}, params_files=tuple(files)):
        assert listener.wait(lambda: bool(listener.descriptions) and bool(listener.static))
        assert listener.descriptions[-1].lstrip().startswith(('<?xml', '<sdf'))
        assert '<sdf' in listener.descriptions[-1]
        assert listener.static and all(child.startswith('r1/') for child in listener.static)


def test_a_world_of_several_models_warns_naming_the_model_parameter(listener: Listener,
                                                                    tmp_path: Path) -> None:
    """Defect 5: this was an ERROR naming the command line's --model."""
    with running_publisher(tmp_path / 'node.log', {'description_file': str(WORLD)}) as proc:
        assert wait_log(proc, 'no robot_description is published'), proc.text()
        line = next(ln for ln in proc.text().splitlines() if 'no robot_description is' in ln)
        assert '[WARN]' in line and 'set the parameter model' in line and '--model' not in line
        assert '[ERROR]' not in proc.text(), proc.text()


def test_a_whole_xacro_in_dash_p_is_refused_without_a_traceback() -> None:
    """What confused the tester: rcl cannot parse it; the node says so and where it belongs."""
    xacro = DATA / 'urdf' / 'two_link.urdf.xacro'
    result = subprocess.run(
        [sys.executable, '-m', 'sdf_tools.ros.description_publisher', '--ros-args', '-p',
         f'robot_description:={xacro.read_text()}'], capture_output=True, text=True, timeout=60,
        check=False)
    assert result.returncode == 2, result.stderr
    assert "cannot start: failed to initialize rcl: Couldn't parse parameter override rule" \
        in result.stderr and '--params-file' in result.stderr, result.stderr
    assert 'Traceback' not in result.stderr + result.stdout
