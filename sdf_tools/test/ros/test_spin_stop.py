"""A signalled node stops even when something it runs does not end (ros/spin.py)."""
from __future__ import annotations

import signal
import subprocess
import sys
import time

CHILD = '''
import threading, time, sys
from sdf_tools.ros import spin
spin.STOP_GRACE_S = 0.5
stop = spin.stop_on_signals()
threading.Thread(target=time.sleep, args=(3600,)).start()  # a thread that never ends
print('ready', flush=True)
stop.wait()
'''


def _stops_after_grace(proc: subprocess.Popen[str], once: str) -> None:
    """Once the child prints ``once``, SIGTERM ends it with 0 well within 10 s, saying that
    what it ran did not stop within its 0.5 s grace period."""
    assert proc.stdout is not None and proc.stdout.readline().strip() == once
    start = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    code = proc.wait(timeout=20)
    assert code == 0 and time.monotonic() - start < 10
    assert 'did not stop within 0.5 s' in (proc.stderr.read() if proc.stderr else '')


def test_a_hung_stop_ends_after_the_grace_period() -> None:
    proc = subprocess.Popen([sys.executable, '-c', CHILD], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        _stops_after_grace(proc, once='ready')
    finally:
        if proc.poll() is None:
            proc.kill()


SPAWNER = '''
import sys, time
from sdf_tools.ros import spin, spawner_node
spin.STOP_GRACE_S = 0.5
def hang(self, request, response):  # a request that waits on Gazebo for ever
    print('listing', flush=True)
    time.sleep(3600)
spawner_node.SpawnerNode._on_list = hang
sys.exit(spawner_node.main(['x', '--ros-args', '-r', '__node:=hung_spawner']))
'''


def test_a_spawner_waiting_on_gazebo_stops_after_the_grace_period(ros: None) -> None:
    """CI's Jazzy pass saw the spawner outlive SIGTERM by 10 s: it ran rclpy's handlers, no grace."""
    import rclpy
    from rclpy.node import Node

    from sdf_tools_interfaces.srv import ListEntities
    proc = subprocess.Popen([sys.executable, '-c', SPAWNER], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    node = Node('hung_spawner_client')
    try:
        client = node.create_client(ListEntities, '/hung_spawner/list')
        assert client.wait_for_service(timeout_sec=30)
        client.call_async(ListEntities.Request())
        _stops_after_grace(proc, once='listing')
    finally:
        node.destroy_node()
        if proc.poll() is None:
            proc.kill()
    assert rclpy.ok()
