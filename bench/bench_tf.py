#!/usr/bin/env python3
"""joint_states -> /tf through description_publisher: latency and sustained rate (not a test).

Generates a 50-joint URDF (a chain of revolute joints with a few fixed ones),
starts ``description_publisher`` on it in a subprocess (``ignore_timestamp``
on, so every message is published), then publishes ``joint_states`` with all
50 joints at a target rate (1 kHz by default) for a few seconds over DDS on
loopback, and prints:

* the rate joint_states went out and /tf came back, and the share dropped;
* latency from the joint_states stamp (the send time) to the /tf arrival,
  p50/p90/p99/max;
* the node's CPU use over the window (100 % = one core).

Target: 1 kHz within one core. Run it inside the environment::

    ./dev run python bench/bench_tf.py [--rate 1000] [--seconds 5] [--joints 50]
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'sdf_tools'))  # sdf_tools from this checkout


def make_urdf(joints: int) -> str:
    """A chain: every 10th joint fixed, the others revolute about varying axes."""
    links = [f'  <link name="l{i}"/>' for i in range(joints + 1)]
    body = []
    for i in range(joints):
        kind = 'fixed' if i % 10 == 9 else 'revolute'
        axis = ('1 0 0', '0 1 0', '0 0 1')[i % 3]
        extra = '' if kind == 'fixed' else (
            f'<axis xyz="{axis}"/><limit lower="-3" upper="3" effort="1" velocity="1"/>')
        body.append(f'  <joint name="j{i}" type="{kind}"><parent link="l{i}"/>'
                    f'<child link="l{i + 1}"/><origin xyz="0 0 0.1" rpy="0 0.1 0"/>{extra}</joint>')
    return '<?xml version="1.0"?>\n<robot name="chain">\n' + '\n'.join(links + body) + '\n</robot>\n'


def cpu_seconds(pid: int) -> float:
    fields = Path(f'/proc/{pid}/stat').read_text().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def listen(seconds: float, out: Path) -> int:
    """The listener process: count /tf messages and their latency for ``seconds``, write JSON."""
    import rclpy
    from tf2_msgs.msg import TFMessage

    rclpy.init()
    node = rclpy.create_node('bench_tf_listener')
    lat: list[float] = []
    t_first: list[float] = []

    def on_tf(data: bytes) -> None:
        # Serialized (raw) to keep this process light: CDR little endian, after the 4-byte
        # encapsulation header the sequence length, then transforms[0].header.stamp.
        now = time.time()
        sec, nanosec = struct.unpack_from('<iI', data, 8)
        lat.append(now - (sec + nanosec * 1e-9))
        if not t_first:
            t_first.append(now)

    node.create_subscription(TFMessage, '/tf', on_tf, 1000, raw=True)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        rclpy.spin_once(node, timeout_sec=0.01)
    out.write_text(json.dumps({'latencies': lat}))
    node.destroy_node()
    rclpy.try_shutdown()
    return 0


def logic_rate(joints: int, seconds: float = 2.0) -> float:
    """joint_states -> TFMessage per second of the node's own code, without DDS (one core)."""
    from geometry_msgs.msg import TransformStamped
    from tf2_msgs.msg import TFMessage

    from sdf_tools.load import load_string
    from sdf_tools.ros.description_publisher import fill
    from sdf_tools.ros.joint_states import JointStateMapper
    from sdf_tools.ros.tf_tree import build_tf_tree

    mapper = JointStateMapper(build_tf_tree(load_string(make_urdf(joints), 'chain.urdf')))
    names = [f'j{i}' for i in range(joints) if i % 10 != 9]
    msgs: dict[tuple[str, str], TransformStamped] = {}
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        result = mapper.transforms(names, [0.001 * n] * len(names))
        out = []
        for parent, child, x in result.edges:
            tf = msgs.setdefault((parent, child), TransformStamped())
            out.append(fill(tf, x))
        TFMessage(transforms=out)
        n += 1
    return n / (time.perf_counter() - start)


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == '--listen':
        return listen(float(sys.argv[2]), Path(sys.argv[3]))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--rate', type=float, default=1000.0, help='joint_states per second')
    ap.add_argument('--seconds', type=float, default=5.0, help='measured window')
    ap.add_argument('--joints', type=int, default=50)
    args = ap.parse_args()

    import rclpy
    from sensor_msgs.msg import JointState
    os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    tmp = Path(tempfile.mkdtemp(prefix='bench_tf_'))
    urdf = tmp / 'chain.urdf'
    urdf.write_text(make_urdf(args.joints))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / 'sdf_tools'),
                                                       os.environ.get('PYTHONPATH', '')]))
    node_log = open(tmp / 'node.log', 'w')  # noqa: SIM115
    proc = subprocess.Popen([sys.executable, '-m', 'sdf_tools.ros.description_publisher',
                             '--ros-args', '-p', f'description_file:={urdf}',
                             '-p', 'ignore_timestamp:=true'],
                            stdout=node_log, stderr=subprocess.STDOUT, env=env)
    rclpy.init()
    node = rclpy.create_node('bench_tf')
    pub = node.create_publisher(JointState, 'joint_states', 1000)
    names = [f'j{i}' for i in range(args.joints) if i % 10 != 9]
    stats = tmp / 'listener.json'
    listener: subprocess.Popen[bytes] | None = None
    try:
        deadline = time.monotonic() + 30
        while pub.get_subscription_count() == 0 or 'publishing' not in (tmp / 'node.log').read_text():
            if time.monotonic() > deadline or proc.poll() is not None:
                print('the node did not come up; its log:\n' + (tmp / 'node.log').read_text())
                return 1
            time.sleep(0.05)
        listener = subprocess.Popen([sys.executable, __file__, '--listen',
                                     str(args.seconds + 4.0), str(stats)], env=env)
        time.sleep(2.0)  # discovery of the listener

        def run(seconds: float) -> tuple[int, float]:
            period = 1.0 / args.rate
            sent, start = 0, time.monotonic()
            next_t = start
            while time.monotonic() - start < seconds:
                q = 0.001 * sent
                msg = JointState(name=names, position=[q] * len(names))
                msg.header.stamp = node.get_clock().now().to_msg()
                pub.publish(msg)
                sent += 1
                next_t += period
                delay = next_t - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            return sent, time.monotonic() - start

        run(0.5)  # warm up
        cpu0, t0 = cpu_seconds(proc.pid), time.monotonic()
        sent, elapsed = run(args.seconds)
        cpu = (cpu_seconds(proc.pid) - cpu0) / (time.monotonic() - t0)
        listener.wait(args.seconds + 30)
        lat = json.loads(stats.read_text())['latencies']
        warm = int(0.5 * args.rate)
        lat = lat[warm:] if len(lat) > warm else lat  # drop the warm-up messages
        got = len(lat)
    finally:
        if listener is not None and listener.poll() is None:
            listener.send_signal(signal.SIGTERM)
        node.destroy_node()
        rclpy.try_shutdown()
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
        node_log.close()

    moving = len(names)
    print(f'description_publisher: {args.joints} joints ({moving} moving), joint_states at '
          f'{args.rate:g} Hz for {args.seconds:g} s')
    print(f'  joint_states sent      {sent / elapsed:8.1f} /s ({sent} messages)')
    print(f'  /tf received           {got / elapsed:8.1f} /s ({got} messages, '
          f'{moving} transforms each; {100.0 * (1 - got / sent) if sent else 0:.1f} % lost)')
    if lat:
        ms = [1000.0 * v for v in lat]
        print(f'  latency stamp -> /tf   p50 {pct(ms, .5):.2f} ms  p90 {pct(ms, .9):.2f} ms  '
              f'p99 {pct(ms, .99):.2f} ms  max {max(ms):.2f} ms  (mean {statistics.mean(ms):.2f})')
    print(f'  node CPU               {100.0 * cpu:8.1f} % of one core')
    if got:
        per_msg = cpu * elapsed / got
        print(f'  node CPU per message   {1e6 * per_msg:8.1f} us (receive, compute {moving} transforms, '
              f'publish): one free core handles {1.0 / per_msg:.0f} /s')
    print(f'  node logic alone       {logic_rate(args.joints):8.1f} joint_states/s on one core '
          '(JointState -> TFMessage, no DDS)')
    print(f'  machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} '
          '(other processes slow the DDS numbers down)')
    ok = got / elapsed >= 0.95 * args.rate and cpu <= 1.0
    if not ok and got and cpu * elapsed / got * args.rate <= 1.0:
        print('  (the node is not CPU-bound here: it got less than a core from this machine)')
    print(f'  target 1 kHz within one core: {"MET" if ok else "NOT MET"}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
