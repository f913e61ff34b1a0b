"""What ``./dev demo`` shows after the frame tree of the bundled world, in two parts.

    python tools/demo.py publisher FILE   # description_publisher on FILE: what it publishes
    python tools/demo.py spawn            # the bundled rover into the Gazebo stand-in

``publisher`` starts ``description_publisher`` on FILE, drives the elbow through
``joint_states`` for a few seconds, prints ``robot_description``, ``/tf_static`` and ``/tf``
as a listener receives them, then stops the node with SIGTERM (DDS as the caller's
environment sets it: ``./dev demo`` keeps it on loopback, in a domain of its own).

``spawn`` starts the Gazebo stand-in (``tools/gazebo_standin``, built on first use) for a
world named ``demo`` inside a private network namespace, and drives it over real
gz-transport with the ``ign``/``gz`` command-line tools, as against Gazebo: the rover of
``examples/demo_world.sdf`` where that world puts it, the sensor mast model placed relative
to the rover's chassis, a second rover under a taken name (renamed by Gazebo's rule), a
model that is refused. Needs root (for ``unshare -n``), g++ and the Ignition Fortress
development packages; ``./dev`` installs them.

Not part of the installed package: a tool of this repository, next to the stand-in.
"""
from __future__ import annotations

import math
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / 'gazebo_standin'))

from sdf_tools.spawn.gz_cli import gz_cli_backend
from sdf_tools.spawn.pipeline import SpawnRequest, list_entities, spawn
from sdf_tools.spawn.prepare import ModelSource
from sdf_tools.spawn.result import Outcome
from sdf_tools.spawn.simulator import SimulatorBackend
from sdf_tools.transform import Transform
from standin import (
    StandIn,
    StandInError,
    in_private_network,
    private_network_argv,
    private_network_problem,
    transport_env,
)

import sdf_tools

EXAMPLES = Path(sdf_tools.__file__).resolve().parent / 'examples'
_BROKEN = '<sdf version="1.9"><model name="broken"><link name="l"/><link name="l"/></model></sdf>'


def publisher_demo(path: str) -> int:
    """Run description_publisher on ``path`` and print what a listener receives; return 0."""
    import rclpy
    from rclpy.qos import DurabilityPolicy, QoSProfile
    from sensor_msgs.msg import JointState
    from std_msgs.msg import String
    from tf2_msgs.msg import TFMessage

    node_proc = subprocess.Popen(
        [sys.executable, '-m', 'sdf_tools.ros.description_publisher', '--ros-args',
         '-p', f'description_file:={path}'], stderr=subprocess.PIPE, text=True)
    rclpy.init()
    node = rclpy.create_node('demo_listener')
    latched = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL)
    static: dict[str, TFMessage] = {}
    moving: dict[str, TFMessage] = {}
    description: list[str] = []
    node.create_subscription(TFMessage, '/tf_static', lambda m: static.update(
        {t.child_frame_id: t for t in m.transforms}), latched)
    node.create_subscription(TFMessage, '/tf', lambda m: moving.update(
        {t.child_frame_id: t for t in m.transforms}), 100)
    node.create_subscription(String, 'robot_description',
                             lambda m: description.append(m.data), latched)
    pub = node.create_publisher(JointState, 'joint_states', 10)
    start = time.monotonic()
    end = start + 20.0  # until it is up (a couple of seconds), then 2.5 s more
    while time.monotonic() < end:
        if static and description and end - time.monotonic() > 2.5:
            end = time.monotonic() + 2.5
        t = time.monotonic() - start
        msg = JointState(name=['arm/elbow'], position=[0.8 * math.sin(t)])
        msg.header.stamp = node.get_clock().now().to_msg()
        pub.publish(msg)
        rclpy.spin_once(node, timeout_sec=0.05)
    node.destroy_node()
    rclpy.try_shutdown()
    node_proc.send_signal(signal.SIGTERM)
    _, err = node_proc.communicate(timeout=10)
    print(f'robot_description: {len(description[-1]) if description else 0} characters of '
          + ('URDF' if description and '<robot' in description[-1] else 'nothing'))
    for title, frames in (('/tf_static', static), ('/tf', moving)):
        print(f'{title}: {len(frames)} transforms')
        for child, tf in sorted(frames.items(), key=lambda kv: (kv[1].header.frame_id, kv[0])):
            p = tf.transform.translation
            print(f'  {tf.header.frame_id:22s} -> {child:24s} xyz=({p.x:.3f}, {p.y:.3f}, {p.z:.3f})')
    print(f'description_publisher stopped with SIGTERM, exit code {node_proc.returncode}')
    for line in err.splitlines():
        if '[ERROR]' in line or '[WARN]' in line:
            print('  node: ' + line)
    return 0


def _show(step: str, outcome: Outcome) -> None:
    print(f'\n$ {step}')
    print(f'  {outcome.code.name}: {outcome.message}')
    if outcome.pose is not None:
        r, p, y = outcome.pose.rpy()
        print(f'  pose in the world: xyz=({", ".join(f"{v:.4g}" for v in outcome.pose.p)}) '
              f'rpy=({r:.4g}, {p:.4g}, {y:.4g})')
    for line in [*outcome.notes, *(str(d) for d in outcome.diagnostics)]:
        print(f'  {line}')


def _run(backend: SimulatorBackend) -> int:
    world = str(EXAMPLES / 'demo_world.sdf')
    mast = str(EXAMPLES / 'models' / 'sensor_mast')
    steps = [
        ('spawn the rover of demo_world.sdf where that world puts it',
         SpawnRequest(ModelSource(file=world, model='rover'))),
        ('spawn the sensor mast 0.5 m ahead of the rover chassis',
         SpawnRequest(ModelSource(file=mast), name='mast', pose=Transform((0.5, 0.0, 0.0)),
                      relative_to='rover::chassis')),
        ('spawn the rover again, at x=-3, renaming allowed',
         SpawnRequest(ModelSource(file=world, model='rover'), allow_renaming=True,
                      pose=Transform((-3.0, 0.0, 0.0)))),
        ('spawn a model with two links of the same name',
         SpawnRequest(ModelSource(text=_BROKEN, source_name='broken.sdf'))),
    ]
    for step, request in steps:
        _show(step, spawn(backend, request))
    outcome, entities = list_entities(backend)
    print(f'\n$ list the entities of world [{outcome.world}]: {outcome.code.name}')
    for e in entities:
        x, y, z = e.world_pose.p
        print(f'  {"  " * e.name.count("::")}{e.name} [{e.kind}] id={e.id} '
              f'xyz=({x:.4g}, {y:.4g}, {z:.4g})')
    return 0 if outcome.ok else 1


def spawn_demo() -> int:
    """Start the stand-in, spawn the bundled robot, print the entity list, stop; return a status."""
    if not in_private_network():
        problem = private_network_problem()
        if problem is not None:
            print(f'spawn demo: {problem}', file=sys.stderr)
            return 2
        argv = private_network_argv([sys.executable, str(Path(__file__).resolve()), 'spawn'])
        return subprocess.call(argv)
    try:
        with StandIn(['demo']) as standin:
            print('Gazebo stand-in serving world [demo] (tools/gazebo_standin, private network)')
            status = _run(gz_cli_backend(env=transport_env()))
            print('\nThe stand-in logged (as Gazebo would):')
            print(''.join(f'  {line}\n' for line in standin.log().splitlines()), end='')
        return status
    except StandInError as err:
        print(f'spawn demo: {err}', file=sys.stderr)
        return 2


def main(argv: list[str]) -> int:
    """``publisher FILE`` or ``spawn``; return the exit status."""
    if argv[:1] == ['publisher'] and len(argv) == 2:
        return publisher_demo(argv[1])
    if argv == ['spawn']:
        return spawn_demo()
    print('usage: python tools/demo.py publisher FILE | spawn', file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
