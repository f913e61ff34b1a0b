#!/usr/bin/env python3
"""Start-up of our ROS nodes against a bare rclpy node started the same way (not a test).

In one run, alternated, best and median of ``--repeat`` (each a fresh process, started with
``python -m ...`` from this environment, discovery on loopback, a DDS domain of its own, with
bytecode compiled beforehand as an install has it):

1. **bare**: a minimal rclpy node serving one ``std_srvs``-free service (``rcl_interfaces``'
   ``GetParameters``, which every node has): the time from ``Popen`` until this process sees
   its service; the floor any rclpy node starts in on this machine;
2. **converter**: until ``/converter/convert`` is available;
3. **spawner** (``exit_after_spawn`` off, no simulator): until ``/spawner/spawn`` is available;
4. **description_publisher** on the bundled example world: until the first ``/tf_static``
   message arrives here; its reference is **bare /tf_static**, a minimal rclpy node that
   publishes one latched ``/tf_static`` message, timed the same way (a message seen by a
   subscription arrives sooner than a service appears in the ROS graph, which rclpy
   refreshes in steps of about 0.25 s: against the bare service the publisher would look
   faster than an empty node);
5. **spawn call**: the spawn pipeline of one ``~/spawn`` request (read, convert, check, send,
   confirm) on the bundled rover model, against the Gazebo stand-in (tools/gazebo_standin:
   gz-sim's services on Debian's ignition-transport 11, libsdformat 12 loading the model)
   over real gz-transport and the ``ign service`` tool, as against Gazebo; run in a private
   network namespace (``unshare -n``, multicast on loopback: needs root), ``--repeat`` spawns
   after one to warm up. The simulator's own time is the time spent in the backend's calls
   before the model is sent (finding the world, listing its entities) plus everything from
   sending it until the last poll that saw it appear (the create request, the stand-in
   loading the model, the confirmation queries and the waits between them); the rest is
   ours (reading, converting, checking the model).

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


# Bytecode as an install has it (pip and colcon byte-compile; ./dev sets PYTHONDONTWRITEBYTECODE
# for the checkout): kept outside the tree, written by a warm-up start, used by every process.
PYCACHE = ROOT / '.cache' / 'bench_pycache'


BARE_TF = '''
import rclpy, signal
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from tf2_msgs.msg import TFMessage
rclpy.init()
node = rclpy.create_node('bare_tf_static')
pub = node.create_publisher(TFMessage, '/tf_static', QoSProfile(
    depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL, reliability=ReliabilityPolicy.RELIABLE))
pub.publish(TFMessage())
signal.signal(signal.SIGTERM, lambda *_: rclpy.try_shutdown())
try:
    rclpy.spin(node)
except Exception:
    pass
'''


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join([str(ROOT / 'sdf_tools'), env.get('PYTHONPATH', '')])
    env.pop('PYTHONDONTWRITEBYTECODE', None)
    env['PYTHONPYCACHEPREFIX'] = str(PYCACHE)
    return env


def _warm_up() -> None:
    """Write the bytecode of everything the measured processes import (see ``PYCACHE``)."""
    imports = ('import rclpy, rosidl_generator_py, sdf_tools.ros.description_publisher, '
               'sdf_tools.ros.converter_node, sdf_tools.ros.spawner_node, sdf_tools.convert.api, '
               'sdf_tools.convert.urdf.to_urdf, sdf_tools.convert.sdf.to_sdf, sdf_tools.spawn')
    subprocess.run([sys.executable, '-c', imports], env=_env(), check=True)


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


class TimedBackend:
    """A simulator backend that records when each of its calls started and ended."""

    def __init__(self, backend: Any) -> None:
        self._backend = backend
        self.calls: list[tuple[str, float, float]] = []

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._backend, name)
        if not callable(attr):
            return attr

        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return attr(*args, **kwargs)
            finally:
                self.calls.append((name, t0, time.perf_counter()))
        return timed

    def simulator_time(self) -> float:
        """The calls before ``create``, plus ``create`` until the end of the last call."""
        sent = next(t0 for name, t0, _ in self.calls if name == 'create')
        before = sum(t1 - t0 for _, t0, t1 in self.calls if t1 <= sent)
        return before + self.calls[-1][2] - sent


def spawn_against_standin(repeat: int) -> list[tuple[float, float]]:
    """Spawn the rover ``1 + repeat`` times into the stand-in; return (total, simulator) seconds each.

    The first spawn of a process also imports the converters (as a spawner
    node's first request does). Runs inside a private network namespace (see
    ``main``'s ``--spawn-standin``).
    """
    sys.path.insert(0, str(ROOT / 'tools' / 'gazebo_standin'))
    from sdf_tools.spawn import ModelSource, SpawnRequest, spawn
    from sdf_tools.spawn.gz_cli import gz_cli_backend
    from standin import StandIn, transport_env
    source = ModelSource(file=str(EXAMPLE), model='rover')
    out: list[tuple[float, float]] = []
    with StandIn(['demo']):
        for i in range(repeat + 1):
            backend = TimedBackend(gz_cli_backend(env=transport_env()))
            t0 = time.perf_counter()
            outcome = spawn(backend, SpawnRequest(source, name=f'rover{i}'))
            total = time.perf_counter() - t0
            if not outcome.ok:
                raise RuntimeError(outcome.details())
            out.append((total, backend.simulator_time()))
    return out


def _spawn_calls(repeat: int) -> tuple[list[float], list[float]] | str:
    """Run :func:`spawn_against_standin` in a private network namespace; (totals, simulator) or why not."""
    sys.path.insert(0, str(ROOT / 'tools' / 'gazebo_standin'))
    from standin import private_network_argv, private_network_problem
    problem = private_network_problem()
    if problem is not None:
        return f'not measured: no private network namespace for the stand-in ({problem})'
    argv = private_network_argv([sys.executable, str(Path(__file__).resolve()),
                                 '--spawn-standin', str(repeat)])
    run = subprocess.run(argv, capture_output=True, text=True, env=_env(), timeout=600,
                         check=False)
    if run.returncode != 0:
        return f'not measured: {run.stderr.strip()[-2000:]}'
    pairs = json.loads(run.stdout.strip().splitlines()[-1])
    return [p[0] for p in pairs], [p[1] for p in pairs]


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
        'bare rclpy node: first /tf_static': lambda n: _until_tf_static(n, [py, '-c', BARE_TF]),
        'converter: ~/convert up': converter,
        'spawner: ~/spawn up': spawner,
        'description_publisher: first /tf_static': lambda n: _until_tf_static(
            n, [py, '-m', 'sdf_tools.ros.description_publisher', *ros,
                '-p', f'description_file:={EXAMPLE}']),
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


# The publisher against the quicker of the bare node's first latched /tf_static and its service
# (a latched message between two fresh participants has been seen to take seconds, which alone
# would make any node look fast): the stricter reference.
REFERENCE = {'description_publisher: first /tf_static': ('bare rclpy node: first /tf_static',
                                                         'bare rclpy node: service up')}


def _bare(times: dict[str, list[float]], name: str) -> float:
    return min(min(times[r]) for r in REFERENCE.get(name, ('bare rclpy node: service up',)))


def report(times: dict[str, list[float]],
           spawns: tuple[list[float], list[float]] | str) -> list[str]:
    lines = [f'load average: {os.getloadavg()[0]:.2f}',
             f'{"":45s} {"best s":>8s} {"median s":>9s} {"best / bare":>12s}']
    for name, values in times.items():
        bare = _bare(times, name)
        lines.append(f'{name:45s} {min(values):8.3f} {statistics.median(values):9.3f} '
                     f'{min(values) / bare:12.2f}')
    if isinstance(spawns, str):
        lines.append(f'spawn call against the Gazebo stand-in: {spawns}')
    else:
        totals, simulator = spawns
        first = totals[0] - simulator[0]
        totals, simulator = totals[1:], simulator[1:]
        beyond = [t - s for t, s in zip(totals, simulator, strict=True)]
        for name, values in (('spawn call against the stand-in: total', totals),
                             ("  of which the simulator's own time", simulator),
                             ('  beyond the simulator (ours)', beyond)):
            lines.append(f'{name:45s} {min(values):8.3f} {statistics.median(values):9.3f}')
        lines.append(f'{"  the first call (imports) beyond the simulator":45s} {first:8.3f}')
    for name in ('converter: ~/convert up', 'spawner: ~/spawn up',
                 'description_publisher: first /tf_static'):
        ok = min(times[name]) <= SERVICE_RATIO * _bare(times, name)
        lines.append(f'{"PASS" if ok else "FAIL"}: {name} within {SERVICE_RATIO} x the bare node')
    if not isinstance(spawns, str):
        ok = statistics.median(beyond) <= SPAWN_BUDGET_S and first <= SPAWN_BUDGET_S
        lines.append(f'{"PASS" if ok else "FAIL"}: spawn call within {SPAWN_BUDGET_S} s plus '
                     "the simulator's own time (median, and the first call)")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=5)
    parser.add_argument('--json', metavar='FILE')
    parser.add_argument('--spawn-standin', type=int, metavar='N',
                        help='only the spawn calls, N of them, printed as JSON (run inside the '
                             'private network namespace the bench makes)')
    args = parser.parse_args()
    if args.spawn_standin is not None:
        print(json.dumps(spawn_against_standin(args.spawn_standin)))
        return 0
    os.environ.setdefault('ROS_DOMAIN_ID', str(random.randint(101, 200)))
    os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    _warm_up()
    times = measure(args.repeat)
    spawns = _spawn_calls(args.repeat)
    print('\n'.join(report(times, spawns)))
    if args.json:
        Path(args.json).write_text(json.dumps(
            {**times, 'spawn calls (total, simulator)': spawns}, indent=1))
    return 0


if __name__ == '__main__':
    sys.exit(main())
