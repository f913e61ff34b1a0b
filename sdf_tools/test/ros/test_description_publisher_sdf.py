"""description_publisher on SDFormat: TF equals ``sdf_tools inspect --json`` (multi-process, DDS).

Every transform composed back to the TF root must give the pose inspect
gives (1e-9): with all joints at zero, and with joints moved, against
forward kinematics computed here from inspect's world poses and world axes
alone (scipy rotations, no sdf_tools frame code): the child of joint J moves
relative to its parent by the rotation about J's world axis through J's
origin (or the translation along it) at zero position.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from ros.ros_available import ros_missing

if ros_missing() is not None:
    pytest.skip(str(ros_missing()), allow_module_level=True)

from builtin_interfaces.msg import Time  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402

from ros.ros_support import SRC, Listener, NodeProcess, close, compose_to_root, running_publisher  # noqa: E402
from sdf_tools.transform import Transform  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / 'data'
CRANE = DATA / 'ros' / 'nested_robot.sdf'
YARD = DATA / 'ros' / 'two_robots_world.sdf'
DEMO = SRC / 'sdf_tools' / 'examples' / 'demo_world.sdf'


def inspect_json(path: Path) -> dict[str, Any]:
    """What ``sdf_tools inspect --json`` prints for ``path``."""
    out = subprocess.run([sys.executable, '-m', 'sdf_tools', 'inspect', str(path), '--json'],
                         cwd=SRC, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def pose(j: dict[str, Any]) -> Transform:
    x, y, z, w = j['quat_xyzw']
    return Transform(tuple(j['xyz']), (w, x, y, z))


def rot(axis: Any, angle: float) -> Transform:
    x, y, z, w = Rotation.from_rotvec(np.asarray(axis, dtype=float) * angle).as_quat()
    return Transform(q=(w, x, y, z))


def displacement(joint: dict[str, Any], q: list[float]) -> Transform:
    """The world-frame motion of a joint's child at positions ``q`` (zero-position frames)."""
    p = pose(joint['pose'])
    if joint['type'] == 'prismatic':
        return Transform(tuple(np.asarray(joint['axis']) * q[0]))
    if joint['type'] == 'ball':
        r = Rotation.from_quat(joint['pose']['quat_xyzw']).as_matrix()
        axes = [r[:, 0], r[:, 1], r[:, 2]]
    else:
        axes = [joint['axis']] + ([joint['axis2']] if joint['type'] in ('universal', 'revolute2')
                                  else [])
    m = Transform()
    for axis, angle in zip(axes, q, strict=True):
        m = m * rot(axis, angle)
    return Transform(p.p) * m * Transform(p.p).inverse()


def forward_kinematics(info: dict[str, Any], q: dict[str, list[float]]) -> dict[str, Transform]:
    """World pose of every link at joint positions ``q`` (joints by scoped name)."""
    zero = {lk['name']: pose(lk['pose']) for lk in info['links']}
    parent_joint = {j['child']: j for j in info['joints']}
    out: dict[str, Transform] = {}

    def world(link: str) -> Transform:
        if link == 'world':
            return Transform()
        if link not in out:
            j = parent_joint.get(link)
            if j is None:
                out[link] = zero[link]
            else:
                d = Transform() if j['type'] == 'fixed' else displacement(j, q[j['name']])
                x_wp0 = zero.get(j['parent'], Transform())
                out[link] = world(j['parent']) * x_wp0.inverse() * d * zero[link]
        return out[link]

    for name in zero:
        world(name)
    return out


def fid(name: str, prefix: str) -> str:
    return (name[len(prefix) + 2:] if prefix and name.startswith(prefix + '::') else name) \
        .replace('::', '/')


def tf_frames(lst: Listener) -> dict[str, tuple[str, Transform]]:
    frames = dict(lst.static)
    frames.update({c: (p, x) for c, (p, x, _) in lst.tf_transforms().items()})
    return frames


def _publish(lst: Listener, positions: dict[str, float], until: Any, stamp: int) -> None:
    pub = lst.node.create_publisher(JointState, 'joint_states', 10)
    try:
        end = time.monotonic() + 15
        while time.monotonic() < end and not until():
            msg = JointState(name=list(positions), position=list(positions.values()))
            msg.header.stamp = Time(sec=stamp)
            stamp += 1
            pub.publish(msg)
            lst.wait(until, 0.3)
    finally:
        lst.node.destroy_publisher(pub)


@pytest.fixture(scope='module')
def crane(ros: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[NodeProcess]:
    with running_publisher(tmp_path_factory.mktemp('crane') / 'node.log', {'description_file': str(CRANE)}) as proc:
        yield proc


CRANE_Q = {'tower/slew': 0.6, 'tower/trolley_rail': 0.35, 'tower/hook/hoist': 0.25,
           'tower/hook/wrist': 0.3, 'tower/hook/wrist__axis2': -0.2, 'tower/hook/spin': 0.1,
           'tower/hook/spin__axis2': 0.2, 'tower/hook/spin__axis3': -0.4}


def _crane_positions(values: dict[str, float]) -> dict[str, list[float]]:
    v = values
    return {'crane::tower::slew': [v['tower/slew']],
            'crane::tower::trolley_rail': [v['tower/trolley_rail']],
            'crane::tower::counter_slew': [-0.5 * v['tower/slew'] + 0.1],
            'crane::tower::hook::hoist': [v['tower/hook/hoist']],
            'crane::tower::hook::wrist': [v['tower/hook/wrist'], v['tower/hook/wrist__axis2']],
            'crane::tower::hook::spin': [v['tower/hook/spin'], v['tower/hook/spin__axis2'],
                                          v['tower/hook/spin__axis3']]}


@pytest.mark.parametrize('moved', [False, True])
def test_every_frame_matches_inspect_and_forward_kinematics(crane: NodeProcess, listener: Listener,
                                                            moved: bool) -> None:
    info = inspect_json(CRANE)
    values = CRANE_Q if moved else dict.fromkeys(CRANE_Q, 0.0)
    expected_links = forward_kinematics(info, _crane_positions(values))
    wanted = {fid(lk['name'], 'crane') for lk in info['links']}

    def complete() -> bool:  # every link reaches the root link, through /tf_static and /tf
        frames = tf_frames(listener)
        return all(compose_to_root(frames, w)[0] == 'base' for w in wanted)

    _publish(listener, values, complete, stamp=10 if not moved else 500)
    frames = tf_frames(listener)
    root = compose_to_root(frames, 'tower/hook/gimbal')[0]
    assert root == 'base'  # a lone, free model: its root link is the TF root
    x_w_root = expected_links['crane::base']
    checked = 0
    for lk in info['links']:
        got_root, x = compose_to_root(frames, fid(lk['name'], 'crane'))
        assert got_root == root, lk['name']
        assert close(x, x_w_root.inverse() * expected_links[lk['name']]), lk['name']
        checked += 1
    for item in info['frames'] + [m for m in info['models'] if m['name'] != 'crane']:
        body = item.get('attached_to')
        name = fid(item['name'], 'crane')
        assert name in frames, name
        got_root, x = compose_to_root(frames, name)
        if body is None:  # a nested model: attached to its canonical link
            body = next(m['canonical_link'] for m in info['models'] if m['name'] == item['name'])
        x_wb0 = pose(next(lk['pose'] for lk in info['links'] if lk['name'] == body))
        want = expected_links[body] * x_wb0.inverse() * pose(item['pose'])
        assert close(x, x_w_root.inverse() * want), name
        checked += 1
    assert checked == len(info['links']) + len(info['frames']) + len(info['models']) - 1


def test_robot_description_is_the_converted_urdf(crane: NodeProcess, listener: Listener) -> None:
    assert listener.wait(lambda: bool(listener.descriptions))
    text = listener.descriptions[-1]
    assert text.lstrip().startswith('<?xml') and '<robot name="crane"' in text
    for joint in ('tower/slew', 'tower/hook/wrist__axis2', 'tower/hook/spin__axis3'):
        assert f'<joint name="{joint}"' in text  # the joint_states names the node accepts
    # Every URDF link has a transform, as robot_state_publisher would give it.
    _publish(listener, CRANE_Q, lambda: len(listener.tf_transforms()) >= 9 and bool(listener.static),
             stamp=900)
    frames = tf_frames(listener)
    import re
    for link in re.findall(r'<link name="([^"]+)"', text):
        assert link == 'base' or link in frames, link
