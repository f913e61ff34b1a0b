#!/usr/bin/env python3
"""Start-up of our ROS nodes against a bare rclpy node started the same way (not a test).

In one run, alternated, best and median of ``--repeat`` (each a fresh process, started with
``python -m ...`` or ``python -c`` from this environment with ``--ros-args``, a node name never
used before, discovery on loopback, a DDS domain of its own, bytecode compiled beforehand as
an install has it):

1. **bare**: a minimal rclpy node (its parameter services are created with it): the floor any
   rclpy node starts in on this machine;
2. **bare /tf_static**: a minimal rclpy node that publishes one latched ``/tf_static`` message;
3. **converter**: until ``~/convert`` is created;
4. **spawner** (``exit_after_spawn`` off, no simulator): until its services are created;
5. **description_publisher** on the bundled example world: until its first ``/tf_static``.

Each start is timed two ways from the same process:

* **ready**: every node, ours and the bare ones, logs one DEBUG line on the logger
  ``<name>.startup`` at that moment (:func:`sdf_tools.ros.spin.say_ready`; off unless
  ``--log-level <name>.startup:=debug``, which the bench passes), stamped by rcutils with the
  wall clock and carrying the process's CPU time so far (all its threads). Judged: that CPU
  time, what the node itself spends before it is up, which neither DDS discovery nor the
  other processes of a shared machine change (on this 2-core machine the wall clock to the
  same line still moved by a third between runs at a load of 1-7). Printed too: the wall
  clock from the moment before ``Popen`` to the line's stamp (it catches a node that waits
  before it is up, which CPU time would not), and the whole process's CPU until it ended on
  SIGTERM (``wait4``). Ours against the bare node doing the same minus our work: the
  services against **bare**, the first ``/tf_static`` against **bare /tf_static**;
* **seen**: until this process sees the service in the ROS graph, or receives the first
  ``/tf_static`` message: what a user waits, in the steps in which rclpy refreshes the graph
  (about 0.25 s) and DDS matches fresh participants (a latched message between two fresh
  participants has been seen to take seconds); printed, not judged.

6. **spawn call**: the spawn pipeline of one ``~/spawn`` request (read, convert, check, send,
   confirm) on the bundled rover model, against the Gazebo stand-in (tools/gazebo_standin:
   gz-sim's services on Debian's ignition-transport 11, libsdformat 12 loading the model)
   over real gz-transport and the ``ign service`` tool, as against Gazebo; run in a private
   network namespace (``unshare -n``, multicast on loopback: needs root), ``--repeat`` spawns
   after one to warm up. The simulator's own time is the time spent in the backend's calls
   before the model is sent (finding the world, listing its entities) plus everything from
   sending it until the last poll that saw it appear (the create request, the stand-in
   loading the model, the confirmation queries and the waits between them); the rest is
   ours (reading, converting, checking the model).

Targets (issue 21 §4): up within 1.5 x the bare node (CPU to ready, best of ``--repeat`` each,
the wall clock printed beside it); a spawn answered within 0.5 s plus the simulator's own time.
The machine is shared: the load average is printed before and after.

    ./dev run python bench/bench_ros_startup.py [--repeat 10] [--no-spawn] [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'sdf_tools'))             # sdf_tools from this checkout
EXAMPLE = ROOT / 'sdf_tools' / 'sdf_tools' / 'examples' / 'demo_world.sdf'
SERVICE_RATIO = 1.5
SPAWN_BUDGET_S = 0.5
# Each node says when it is up on the logger '<node>.startup' at DEBUG (sdf_tools.ros.spin.say_ready,
# and the same line in the bare nodes below): rcutils stamps the line with the wall clock.
LOG_FORMAT = '[{severity}] [{time}] [{name}]: {message}'
READY = re.compile(r'^\[DEBUG\] \[(\d+\.\d+)\] \[[^\]]*\.startup\]: ready: .*\((\d+\.\d+) s CPU')
BARE = """
import rclpy, signal, sys, time
rclpy.init()
node = rclpy.create_node('bare')
node.get_logger().get_child('startup').debug(
    f'ready: services created ({time.process_time():.4f} s CPU since the process started)')
signal.signal(signal.SIGTERM, lambda *_: rclpy.try_shutdown())
try:
    rclpy.spin(node)
except Exception:
    pass
"""
BARE_TF = """
import rclpy, signal, time
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from tf2_msgs.msg import TFMessage
rclpy.init()
node = rclpy.create_node('bare_tf_static')
pub = node.create_publisher(TFMessage, '/tf_static', QoSProfile(
    depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL, reliability=ReliabilityPolicy.RELIABLE))
pub.publish(TFMessage())
node.get_logger().get_child('startup').debug(
    f'ready: first /tf_static published ({time.process_time():.4f} s CPU since the process started)')
signal.signal(signal.SIGTERM, lambda *_: rclpy.try_shutdown())
try:
    rclpy.spin(node)
except Exception:
    pass
"""


# Bytecode as an install has it (pip and colcon byte-compile; ./dev sets PYTHONDONTWRITEBYTECODE
# for the checkout): kept outside the tree, written by a warm-up start, used by every process.
PYCACHE = ROOT / '.cache' / 'bench_pycache'


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join([str(ROOT / 'sdf_tools'), env.get('PYTHONPATH', '')])
    env.pop('PYTHONDONTWRITEBYTECODE', None)
    env['PYTHONPYCACHEPREFIX'] = str(PYCACHE)
    env['RCUTILS_CONSOLE_OUTPUT_FORMAT'] = LOG_FORMAT
    env.pop('RCUTILS_LOGGING_BUFFERED_STREAM', None)
    return env


def _warm_up() -> None:
    """Write the bytecode of everything the measured processes import (see ``PYCACHE``)."""
    imports = ('import rclpy, rclpy.node, rosidl_generator_py, tf2_msgs.msg, '
               'sdf_tools.ros.description_publisher, sdf_tools.ros.converter_node, '
               'sdf_tools.ros.spawner_node, sdf_tools.convert.api, sdf_tools.convert.urdf.to_urdf, '
               'sdf_tools.convert.sdf.to_sdf, sdf_tools.spawn, sdf_tools.spawn.pipeline, '
               'sdf_tools.ros.joint_states, sdf_tools.ros.tf_fast_path, sensor_msgs.msg')
    subprocess.run([sys.executable, '-c', imports], env=_env(), check=True)


@dataclass
class Start:
    """One start of one node, in seconds.

    Attributes:
        seen: from ``Popen`` until this process saw it up over DDS (its service, or its first
            ``/tf_static``): what a user waits, in discovery's steps.
        ready: from ``Popen`` until the node logged that it is up (the stamp of its ready
            line): what the node itself takes, whatever discovery does.
        ready_cpu: the CPU the node's process had used when it logged that line.
        cpu: the whole process's CPU (``wait4``'s rusage) from exec until it ended on SIGTERM.
    """

    seen: float
    ready: float
    ready_cpu: float
    cpu: float


class Child:
    """A node's process whose stderr is read for its ready line (see ``READY``)."""

    def __init__(self, argv: list[str]) -> None:
        self.lines: list[str] = []
        self.ready: tuple[float, float] | None = None  # (wall clock stamp, CPU s)
        self._got = threading.Event()
        self.t0 = time.time()  # same clock as rcutils' stamps
        self.proc = subprocess.Popen(argv, env=_env(), stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line)
            m = READY.match(line)
            if m and self.ready is None:
                self.ready = (float(m.group(1)), float(m.group(2)))
                self._got.set()
        self._got.set()

    def wait_ready(self, timeout: float = 30.0) -> tuple[float, float]:
        """Return (seconds from Popen to the ready line, CPU seconds it reported)."""
        self._got.wait(timeout)
        if self.ready is None:
            raise RuntimeError('no ready line: ' + ''.join(self.lines[-20:]))
        return self.ready[0] - self.t0, self.ready[1]

    def stop(self) -> float:
        """SIGTERM, wait; return the process's CPU seconds (user + system)."""
        self.proc.terminate()
        deadline = time.monotonic() + 10
        while True:
            pid, status, usage = os.wait4(self.proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                self.proc.kill()
                pid, status, usage = os.wait4(self.proc.pid, 0)
                break
            time.sleep(0.005)
        self.proc.returncode = os.waitstatus_to_exitcode(status)
        self._reader.join(5)
        return usage.ru_utime + usage.ru_stime


def _ros_args(name: str) -> list[str]:
    return ['--ros-args', '-r', f'__node:={name}', '--log-level', 'warn',
            '--log-level', f'{name}.startup:=debug']


def _until_service(node: Any, srv_type: Any, service: str, argv: list[str]) -> Start:
    client = node.create_client(srv_type, service)
    child = Child(argv)
    try:
        while not client.wait_for_service(timeout_sec=0.005):
            if time.time() - child.t0 > 60 or child.proc.poll() is not None:
                raise RuntimeError(f'{service} never came up ({argv}): ' + ''.join(child.lines))
        seen = time.time() - child.t0
        ready, ready_cpu = child.wait_ready()
    finally:
        node.destroy_client(client)
        cpu = child.stop()
    return Start(seen, ready, ready_cpu, cpu)


def _until_tf_static(node: Any, argv: list[str]) -> Start:
    import rclpy
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
    from tf2_msgs.msg import TFMessage
    got: list[float] = []
    qos = QoSProfile(depth=10, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                     reliability=ReliabilityPolicy.RELIABLE)
    sub = node.create_subscription(TFMessage, '/tf_static', lambda _m: got.append(time.time()),
                                   qos)
    child = Child(argv)
    try:
        while not got:
            rclpy.spin_once(node, timeout_sec=0.005)
            if time.time() - child.t0 > 60 or child.proc.poll() is not None:
                raise RuntimeError('no /tf_static: ' + ''.join(child.lines))
        ready, ready_cpu = child.wait_ready()
    finally:
        node.destroy_subscription(sub)
        cpu = child.stop()
    return Start(got[0] - child.t0, ready, ready_cpu, cpu)


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


def measure(repeat: int, descriptions: list[Path]) -> dict[str, list[Start]]:
    import rclpy
    from rcl_interfaces.srv import GetParameters

    from sdf_tools_interfaces.srv import Convert, SpawnModel
    py = sys.executable

    def fresh() -> str:  # a name never seen in this domain: no graph cache answers for it
        return f'n{random.randint(0, 10**9)}'

    def bare(n: Any) -> Start:
        name = fresh()
        return _until_service(n, GetParameters, f'/{name}/get_parameters',
                              [py, '-c', BARE, *_ros_args(name)])

    def converter(n: Any) -> Start:
        name = fresh()
        return _until_service(n, Convert, f'/{name}/convert',
                              [py, '-m', 'sdf_tools.ros.converter_node', *_ros_args(name)])

    def spawner(n: Any) -> Start:
        name = fresh()
        return _until_service(n, SpawnModel, f'/{name}/spawn',
                              [py, '-m', 'sdf_tools.ros.spawner_node', *_ros_args(name),
                               '-p', 'exit_after_spawn:=false'])

    def publisher(file: Path) -> Callable[[Any], Start]:
        return lambda n: _until_tf_static(n, [py, '-m', 'sdf_tools.ros.description_publisher',
                                              *_ros_args(fresh()), '-p', f'description_file:={file}'])

    cases: dict[str, Callable[[Any], Start]] = {
        BARE_SERVICE: bare,
        BARE_TF_STATIC: lambda n: _until_tf_static(n, [py, '-c', BARE_TF, *_ros_args(fresh())]),
        CONVERTER: converter,
        SPAWNER: spawner,
        PUBLISHER: publisher(EXAMPLE),
        **{f'{PUBLISHER} ({file.name})': publisher(file) for file in descriptions},
    }
    rclpy.init()
    node = rclpy.create_node('bench_ros_startup')
    times: dict[str, list[Start]] = {name: [] for name in cases}
    try:
        for i in range(repeat):
            order = list(cases.items())
            if i % 2:  # alternate: no node always starts right after the same other one
                order.reverse()
            for name, case in order:
                times[name].append(case(node))
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    return times


BARE_SERVICE = 'bare rclpy node: services'
BARE_TF_STATIC = 'bare rclpy node: first /tf_static'
CONVERTER = 'converter: ~/convert'
SPAWNER = 'spawner: ~/spawn and the rest'
PUBLISHER = 'description_publisher: first /tf_static'
# Each of ours against the bare node that does the same minus our work: services against the
# bare node's (created with the node), the first /tf_static against the bare node publishing one.
def _ready_reference(name: str) -> str:
    return BARE_TF_STATIC if name.startswith(PUBLISHER) else BARE_SERVICE


# Seen over DDS, the publisher against the quicker of the bare node's first latched /tf_static
# and its service (a latched message between two fresh participants has been seen to take
# seconds, which alone would make any node look fast): the stricter reference.
def _seen_references(name: str) -> tuple[str, ...]:
    return (BARE_TF_STATIC, BARE_SERVICE) if name.startswith(PUBLISHER) else (BARE_SERVICE,)


def _best(times: dict[str, list[Start]], name: str, what: str) -> float:
    return min(getattr(s, what) for s in times[name])


def _median(times: dict[str, list[Start]], name: str, what: str) -> float:
    return statistics.median(getattr(s, what) for s in times[name])


def ready_ratio(times: dict[str, list[Start]], name: str, what: str = 'ready') -> float:
    """Best of ``name`` over best of its bare reference, for ``what`` (a :class:`Start` field)."""
    return _best(times, name, what) / _best(times, _ready_reference(name), what)


def seen_ratio(times: dict[str, list[Start]], name: str) -> float:
    bare = min(_best(times, r, 'seen') for r in _seen_references(name))
    return _best(times, name, 'seen') / bare


def _load() -> str:
    return ' '.join(f'{x:.2f}' for x in os.getloadavg())


def report(times: dict[str, list[Start]], spawns: tuple[list[float], list[float]] | str,
           load_before: str) -> list[str]:
    n = len(next(iter(times.values())))
    w = max(len(name) for name in times)
    head = (f'{"":{w}s} {"ready s":>8s} {"median":>7s} {"/ bare":>7s}  {"CPU s":>6s} {"/ bare":>7s}'
            f'  {"proc CPU":>8s} {"/ bare":>7s}')
    lines = [(f'load average (1, 5, 15 min): {load_before} before, {_load()} after; '
              f'best of {n} starts each, alternated'), '',
             ('from Popen to the node\'s own "ready" line (DDS discovery plays no part), the CPU '
              'to that line'),
             ('(in the process: judged), and the whole process\'s CPU until it stopped on SIGTERM '
              '(rusage):'), head]
    for name in times:
        lines.append(
            f'{name:{w}s} {_best(times, name, "ready"):8.3f} {_median(times, name, "ready"):7.3f} '
            f'{ready_ratio(times, name):7.2f}  {_best(times, name, "ready_cpu"):6.3f} '
            f'{ready_ratio(times, name, "ready_cpu"):7.2f}  {_best(times, name, "cpu"):8.3f} '
            f'{ready_ratio(times, name, "cpu"):7.2f}')
    seen = ('from Popen until this process saw it over DDS (what a user waits; rclpy sees the '
            'graph in steps of ~0.25 s):')
    lines += ['', seen, f'{"":{w}s} {"seen s":>8s} {"median":>7s} {"/ bare":>7s}']
    for name in times:
        lines.append(f'{name:{w}s} {_best(times, name, "seen"):8.3f} '
                     f'{_median(times, name, "seen"):7.3f} {seen_ratio(times, name):7.2f}')
    lines.append('')
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
    for name in [n for n in times if not n.startswith('bare')]:
        cpu, wall = ready_ratio(times, name, 'ready_cpu'), ready_ratio(times, name)
        note = '' if wall <= SERVICE_RATIO else ': the wall clock is over it at this load'
        lines.append(f'{"PASS" if cpu <= SERVICE_RATIO else "FAIL"}: {name} ready within '
                     f'{SERVICE_RATIO} x {_ready_reference(name)} (CPU to ready {cpu:.2f} x; '
                     f'wall clock to ready {wall:.2f} x{note})')
    if not isinstance(spawns, str):
        ok = statistics.median(beyond) <= SPAWN_BUDGET_S and first <= SPAWN_BUDGET_S
        lines.append(f'{"PASS" if ok else "FAIL"}: spawn call within {SPAWN_BUDGET_S} s plus '
                     "the simulator's own time (median, and the first call)")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=10)
    parser.add_argument('--no-spawn', dest='spawn', action='store_false',
                        help='only the starts, not the spawn calls against the stand-in')
    parser.add_argument('--json', metavar='FILE')
    parser.add_argument('--description', action='append', default=[], metavar='FILE',
                        help='also time description_publisher on FILE (repeatable)')
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
    load_before = _load()
    times = measure(args.repeat, [Path(f).resolve() for f in args.description])
    spawns = _spawn_calls(args.repeat) if args.spawn else 'not measured (--no-spawn)'
    print('\n'.join(report(times, spawns, load_before)))
    if args.json:
        Path(args.json).write_text(json.dumps(
            {**{k: [asdict(s) for s in v] for k, v in times.items()},
             'spawn calls (total, simulator)': spawns}, indent=1))
    return 0


if __name__ == '__main__':
    sys.exit(main())
