#!/usr/bin/env python3
"""Start-up of our ROS nodes against a bare rclpy node started the same way (not a test).

In one run, alternated, best and median of ``--repeat`` (each a fresh process, started with
``python -m ...`` from this environment, discovery on loopback, a DDS domain of its own):

1. **bare**: a minimal rclpy node serving one ``std_srvs``-free service (``rcl_interfaces``'
   ``GetParameters``, which every node has): the time from ``Popen`` until this process sees
   its service; the floor any rclpy node starts in on this machine;
2. **converter**: until ``/converter/convert`` is available;
3. **spawner** (``exit_after_spawn`` off, no simulator): until ``/spawner/spawn`` is available;
4. **description_publisher** on the bundled example world: until the first ``/tf_static``
   message arrives here;
5. **spawn call**: the spawn pipeline of one ``~/spawn`` request (read, xacro, convert, check,
   send, confirm) on the bundled rover model, against an in-memory Gazebo that answers at
   once: what a spawn call costs beyond the simulator's own time.

Targets (issue 21 §4): services up within 1.5 x the bare node's start; a spawn answered within
0.5 s plus the simulator's own time. The machine is shared: the load average is printed.

    ./dev run python bench/bench_ros_startup.py [--repeat 5] [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'sdf_tools'))             # sdf_tools from this checkout
sys.path.insert(0, str(ROOT / 'sdf_tools' / 'test'))    # the in-memory Gazebo of the tests
EXAMPLE = ROOT / 'sdf_tools' / 'sdf_tools' / 'examples' / 'demo_world.sdf'
SERVICE_RATIO = 1.5
SPAWN_BUDGET_S = 0.5
BARE = '''
import rclpy, signal
rclpy.init()
import sys
node = rclpy.create_node(sys.argv[1])
signal.signal(signal.SIGTERM, lambda *_: rclpy.try_shutdown())
try:
    rclpy.spin(node)
except Exception:
    pass
'''


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join([str(ROOT / 'sdf_tools'), env.get('PYTHONPATH', '')])
    return env


def _start(argv: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(argv, env=_env(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _until_service(node: Any, srv_type: Any, name: str, argv: list[str]) -> float:
    client = node.create_client(srv_type, name)
    t0 = time.perf_counter()
    proc = _start(argv)
    try:
        while not client.wait_for_service(timeout_sec=0.005):
            if time.perf_counter() - t0 > 60 or proc.poll() is not None:
                raise RuntimeError(f'{name} never came up ({argv})')
        return time.perf_counter() - t0
    finally:
        node.destroy_client(client)
        _stop(proc)


def _until_tf_static(node: Any, argv: list[str]) -> float:
    import rclpy
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
    from tf2_msgs.msg import TFMessage
    got: list[float] = []
    qos = QoSProfile(depth=10, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                     reliability=ReliabilityPolicy.RELIABLE)
    sub = node.create_subscription(TFMessage, '/tf_static',
                                   lambda _m: got.append(time.perf_counter()), qos)
    t0 = time.perf_counter()
    proc = _start(argv)
    try:
        while not got:
            rclpy.spin_once(node, timeout_sec=0.005)
            if time.perf_counter() - t0 > 60 or proc.poll() is not None:
                raise RuntimeError('no /tf_static')
        return got[0] - t0
    finally:
        node.destroy_subscription(sub)
        _stop(proc)


def _spawn_call() -> float:
    from spawn.fake_gazebo import FakeGazebo

    from sdf_tools.spawn import ModelSource, SpawnRequest, spawn
    source = ModelSource(file=str(EXAMPLE), model='rover')
    t0 = time.perf_counter()
    out = spawn(FakeGazebo(), SpawnRequest(source, name=f'r{random.randint(0, 10**6)}'))
    elapsed = time.perf_counter() - t0
    if not out.ok:
        raise RuntimeError(out.details())
    return elapsed


def measure(repeat: int) -> dict[str, list[float]]:
    import rclpy
    from rcl_interfaces.srv import GetParameters
    from sdf_tools_interfaces.srv import Convert, SpawnModel
    py = sys.executable
    ros = ['--ros-args', '--log-level', 'warn']
    def fresh() -> str:  # a name never seen in this domain: no graph cache answers for it
        return f'n{random.randint(0, 10**9)}'

    def bare(n: Any) -> float:
        name = fresh()
        return _until_service(n, GetParameters, f'/{name}/get_parameters', [py, '-c', BARE, name])

    def converter(n: Any) -> float:
        name = fresh()
        return _until_service(n, Convert, f'/{name}/convert',
                              [py, '-m', 'sdf_tools.ros.converter_node', *ros, '-r',
                               f'__node:={name}'])

    def spawner(n: Any) -> float:
        name = fresh()
        return _until_service(n, SpawnModel, f'/{name}/spawn',
                              [py, '-m', 'sdf_tools.ros.spawner_node', *ros, '-r',
                               f'__node:={name}', '-p', 'exit_after_spawn:=false'])

    cases: dict[str, Callable[[Any], float]] = {
        'bare rclpy node: service up': bare,
        'converter: ~/convert up': converter,
        'spawner: ~/spawn up': spawner,
        'description_publisher: first /tf_static': lambda n: _until_tf_static(
            n, [py, '-m', 'sdf_tools.ros.description_publisher', *ros,
                '-p', f'description_file:={EXAMPLE}']),
        'spawn call beyond the simulator': lambda n: _spawn_call(),
    }
    rclpy.init()
    node = rclpy.create_node('bench_ros_startup')
    times: dict[str, list[float]] = {name: [] for name in cases}
    try:
        for _ in range(repeat):
            for name, case in cases.items():
                times[name].append(case(node))
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    return times


def report(times: dict[str, list[float]]) -> list[str]:
    bare = min(times['bare rclpy node: service up'])
    lines = [f'load average: {os.getloadavg()[0]:.2f}',
             f'{"":45s} {"best s":>8s} {"median s":>9s} {"best / bare":>12s}']
    for name, values in times.items():
        ratio = '' if name.startswith('spawn call') else f'{min(values) / bare:12.2f}'
        lines.append(f'{name:45s} {min(values):8.3f} {statistics.median(values):9.3f} {ratio}')
    for name in ('converter: ~/convert up', 'spawner: ~/spawn up',
                 'description_publisher: first /tf_static'):
        ok = min(times[name]) <= SERVICE_RATIO * bare
        lines.append(f'{"PASS" if ok else "FAIL"}: {name} within {SERVICE_RATIO} x the bare node')
    spawn_ok = min(times['spawn call beyond the simulator']) <= SPAWN_BUDGET_S
    lines.append(f'{"PASS" if spawn_ok else "FAIL"}: spawn call within {SPAWN_BUDGET_S} s plus '
                 'the simulator')
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=5)
    parser.add_argument('--json', metavar='FILE')
    args = parser.parse_args()
    os.environ.setdefault('ROS_DOMAIN_ID', str(random.randint(101, 200)))
    os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    times = measure(args.repeat)
    print('\n'.join(report(times)))
    if args.json:
        Path(args.json).write_text(json.dumps(times, indent=1))
    return 0


if __name__ == '__main__':
    sys.exit(main())
