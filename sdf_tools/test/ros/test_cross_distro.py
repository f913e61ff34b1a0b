"""A Jazzy process and Kilted nodes talk: our interfaces, tf2_msgs and the QoS match across distros.

Users mix distros on one network (a Jazzy robot, a Kilted workstation). This
runs in CI's Jazzy pass (``SDF_TOOLS_ROS_DISTRO=jazzy ./dev test``): the nodes
under test run in ./dev's Kilted environment, this process is Jazzy's rclpy.
A type hash or a QoS that differed between the distros would leave the
service unanswered or the topics silent.
"""
from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from ros.ros_available import ros_missing

if ros_missing() is not None:
    pytest.skip(str(ros_missing()), allow_module_level=True)
if os.environ.get('ROS_DISTRO') != 'jazzy':
    pytest.skip('runs in the Jazzy pass (SDF_TOOLS_ROS_DISTRO=jazzy ./dev test), against Kilted '
                'nodes', allow_module_level=True)

import rclpy  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402

from ros.ros_support import Listener, wait_for  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
ARM = Path(__file__).resolve().parents[1] / 'data' / 'urdf' / 'arm.urdf'


def kilted_env() -> dict[str, str]:
    """This environment without anything of Jazzy's: ./dev then enters Kilted's."""
    env = {k: v for k, v in os.environ.items()
           if k not in ('PYTHONPATH', 'LD_LIBRARY_PATH', 'AMENT_PREFIX_PATH', 'CMAKE_PREFIX_PATH',
                        'COLCON_PREFIX_PATH', 'VIRTUAL_ENV',
                        # the ROS wheels' interpreter re-exec guard: Kilted's must run again to
                        # put Kilted's libraries on LD_LIBRARY_PATH
                        '_ROS_WHEELS_BOOTSTRAP_COMPLETE')}
    env['PATH'] = os.pathsep.join(p for p in env.get('PATH', '').split(os.pathsep)
                                  if '-jazzy' not in p)
    env['SDF_TOOLS_ROS_DISTRO'] = 'kilted'
    env['PYTHONUNBUFFERED'] = '1'
    return env


class KiltedNode:
    """A node of ours run by ./dev in the Kilted environment (./dev run execs it: signals reach it)."""

    def __init__(self, module: str, args: list[str], log: Path) -> None:
        self.log = log
        self._out = open(log, 'w')  # noqa: SIM115 (closed in stop())
        self.proc = subprocess.Popen(
            [str(ROOT / 'dev'), 'run', 'python', '-m', module, '--ros-args', *args],
            env=kilted_env(), stdout=self._out, stderr=subprocess.STDOUT)

    def text(self) -> str:
        return self.log.read_text()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._out.close()


@pytest.fixture(scope='module')
def kilted() -> None:
    if not (ROOT / '.venv' / 'bin' / 'python').is_file() or \
            not (ROOT / 'install' / 'setup.bash').is_file():
        reason = 'no Kilted environment here: run ./dev setup first (CI runs Kilted first)'
        if os.environ.get('SDF_TOOLS_REQUIRE_TOOLS'):
            pytest.fail(reason)
        pytest.skip(reason)


def wait_log(node: KiltedNode, fragment: str, timeout: float = 60.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end and node.proc.poll() is None:
        if fragment in node.text():
            return True
        time.sleep(0.1)
    return fragment in node.text()


@pytest.fixture
def node_log(tmp_path: Path) -> Path:
    return tmp_path / 'kilted.log'


def test_jazzy_client_calls_the_kilted_converter(kilted: None, ros: None, node_log: Path) -> None:
    from sdf_tools_interfaces.srv import Convert
    node = KiltedNode('sdf_tools.ros.converter_node', ['-r', '__node:=kilted_converter'], node_log)
    client_node = rclpy.create_node('jazzy_convert_client')
    try:
        assert wait_log(node, 'serving'), node.text()
        client = client_node.create_client(Convert, '/kilted_converter/convert')
        assert client.wait_for_service(timeout_sec=20.0), node.text()
        future = client.call_async(Convert.Request(input_path=str(ARM), output_format='sdf'))
        assert wait_for(client_node, future.done, 30.0), 'the Kilted converter did not answer'
        reply = future.result()
        assert reply.success and '<sdf ' in reply.output_text, reply.error_message
    finally:
        client_node.destroy_node()
        node.stop()


def test_jazzy_listener_gets_tf_from_the_kilted_publisher(kilted: None, ros: None,
                                                          node_log: Path) -> None:
    node = KiltedNode('sdf_tools.ros.description_publisher',
                      ['-p', f'description_file:={ARM}', '-p', 'publish_frequency:=0.0'], node_log)
    listener = Listener('jazzy_listener')
    publisher = listener.node.create_publisher(JointState, 'joint_states', 10)
    try:
        assert wait_log(node, 'publishing'), node.text()
        assert listener.wait(lambda: bool(listener.descriptions) and bool(listener.static), 30.0)
        assert listener.descriptions[-1] == ARM.read_text()

        def moved() -> bool:
            msg = JointState(name=['elbow'], position=[0.5])
            msg.header.stamp = listener.node.get_clock().now().to_msg()
            publisher.publish(msg)
            return bool(listener.tf_transforms())

        assert listener.wait(moved, 30.0), node.text()
    finally:
        listener.destroy()
        node.stop()
