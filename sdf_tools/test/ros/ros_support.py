"""Helpers of the multi-process ROS tests: run a node, listen to it, talk to it.

Imported only by tests that already required the ``ros`` fixture, so rclpy
is importable here.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import rclpy
from rcl_interfaces.msg import Parameter as ParameterMsg
from rcl_interfaces.srv import SetParameters
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import String
from tf2_msgs.msg import TFMessage

from sdf_tools.transform import Transform

SRC = Path(__file__).resolve().parents[2]  # the sdf_tools package folder (holds sdf_tools/)
LATCHED = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                     reliability=ReliabilityPolicy.RELIABLE)
STATIC_LISTENER = QoSProfile(depth=100, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                             reliability=ReliabilityPolicy.RELIABLE)


class NodeProcess:
    """A node under test in a subprocess; its log goes to a file we can read."""

    def __init__(self, module: str, params: dict[str, Any], log: Path, name: str = '',
                 params_files: tuple[Path, ...] = (), ros_args: tuple[str, ...] = ()) -> None:
        args = [sys.executable, '-m', module, '--ros-args', *ros_args]
        for file in params_files:  # as launch_ros passes a node's parameter files, in order
            args += ['--params-file', str(file)]
        for key, value in params.items():
            text = ('true' if value else 'false') if isinstance(value, bool) else str(value)
            args += ['-p', f'{key}:={text}']
        if name:
            args += ['-r', f'__node:={name}']
        env = dict(os.environ)
        env['PYTHONPATH'] = os.pathsep.join([str(SRC), env.get('PYTHONPATH', '')])
        env['PYTHONUNBUFFERED'] = '1'
        env['RCUTILS_LOGGING_BUFFERED_STREAM'] = '0'
        self.log = log
        self._out = open(log, 'w')  # noqa: SIM115 (closed in stop())
        self.proc = subprocess.Popen(args, stdout=self._out, stderr=subprocess.STDOUT, env=env)

    def text(self) -> str:
        return self.log.read_text()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self, timeout: float = 10.0) -> int:
        """Stop with SIGTERM (kill after ``timeout``); return the exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._out.close()
        return self.proc.returncode


def wait_for(node: Node, condition: Callable[[], bool], timeout: float = 15.0) -> bool:
    """Spin ``node`` until ``condition()`` holds or ``timeout`` seconds pass."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        rclpy.spin_once(node, timeout_sec=0.05)
    return condition()


def wait_log(proc: NodeProcess, fragment: str, timeout: float = 15.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if fragment in proc.text():
            return True
        time.sleep(0.05)
    return fragment in proc.text()


def to_transform(msg: Any) -> Transform:
    t, r = msg.transform.translation, msg.transform.rotation
    return Transform((t.x, t.y, t.z), (r.w, r.x, r.y, r.z))


class Listener:
    """Subscribes to what a description publisher publishes and keeps the latest of each."""

    def __init__(self, name: str = 'listener', description_topic: str = 'robot_description') -> None:
        self.node = rclpy.create_node(name)
        self.descriptions: list[str] = []
        self.static: dict[str, tuple[str, Transform]] = {}  # child -> (parent, transform)
        self.static_msgs: list[TFMessage] = []
        self.tf: list[TFMessage] = []
        self.node.create_subscription(String, description_topic,
                                      lambda m: self.descriptions.append(m.data), LATCHED)
        self.node.create_subscription(TFMessage, '/tf_static', self._on_static, STATIC_LISTENER)
        self.node.create_subscription(TFMessage, '/tf', self.tf.append, 100)

    def _on_static(self, msg: TFMessage) -> None:
        """Merge, as a tf2 listener does: the newest transform of each child frame wins."""
        self.static_msgs.append(msg)
        self.static.update({t.child_frame_id: (t.header.frame_id, to_transform(t))
                            for t in msg.transforms})

    def wait(self, condition: Callable[[], bool], timeout: float = 15.0) -> bool:
        return wait_for(self.node, condition, timeout)

    def tf_transforms(self) -> dict[str, tuple[str, Transform, Any]]:
        """Return child -> (parent, transform, stamp) over every /tf message, latest wins."""
        out = {}
        for msg in self.tf:
            for t in msg.transforms:
                out[t.child_frame_id] = (t.header.frame_id, to_transform(t), t.header.stamp)
        return out

    def destroy(self) -> None:
        self.node.destroy_node()


def set_parameters(node: Node, target: str, values: dict[str, Any], timeout: float = 10.0) -> list[Any]:
    """Set parameters of node ``target`` through its service; return the results."""
    client = node.create_client(SetParameters, f'/{target}/set_parameters')
    try:
        assert client.wait_for_service(timeout_sec=timeout), f'no /{target}/set_parameters'
        request = SetParameters.Request()
        request.parameters = [Parameter(k, value=v).to_parameter_msg() for k, v in values.items()]
        future = client.call_async(request)
        rclpy.spin_until_future_complete(node, future, timeout_sec=timeout)
        assert future.done(), 'set_parameters timed out'
        return list(future.result().results)
    finally:
        node.destroy_client(client)


def compose_to_root(frames: dict[str, tuple[str, Transform]], frame: str) -> tuple[str, Transform]:
    """Compose parent transforms from ``frame`` up to its root; return (root, X_root_frame)."""
    x = Transform()
    seen = set()
    while frame in frames:
        assert frame not in seen, f'TF loop at {frame}'
        seen.add(frame)
        parent, t = frames[frame]
        x = t * x
        frame = parent
    return frame, x


def close(a: Transform, b: Transform, tol: float = 1e-9) -> bool:
    """True when two transforms are equal within ``tol`` (q and -q are the same rotation)."""
    dp = max(abs(x - y) for x, y in zip(a.p, b.p, strict=True))
    dq = min(max(abs(x - y) for x, y in zip(a.q, b.q, strict=True)),
             max(abs(x + y) for x, y in zip(a.q, b.q, strict=True)))
    return dp <= tol and dq <= tol


__all__ = ['LATCHED', 'Listener', 'NodeProcess', 'ParameterMsg', 'close', 'compose_to_root',
           'set_parameters', 'to_transform', 'wait_for', 'wait_log']


@contextmanager
def running_publisher(log: Path, params: dict[str, Any],
                      params_files: tuple[Path, ...] = ()) -> Iterator[NodeProcess]:
    """Run description_publisher with ``params`` until the block ends, then stop it cleanly.

    It must come up (log says 'publishing'), still be alive at the end, and
    exit 0 on SIGTERM.
    """
    proc = NodeProcess('sdf_tools.ros.description_publisher', params, log,
                       params_files=params_files)
    try:
        assert wait_log(proc, 'publishing'), proc.text()
        yield proc
        assert proc.alive(), proc.text()
    finally:  # stopped whatever failed: no node outlives its test
        code = proc.stop()
    assert code == 0, f'exit code {code}\n{proc.text()}'
