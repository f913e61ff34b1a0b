"""The serialized joint_states -> /tf path publishes exactly what the ordinary path publishes.

Both paths get the same random messages (partial, shuffled, duplicated,
unknown and extra-axis names, mimic joints, NaN, mismatched lengths, random
stamps) on several robots and frame prefixes. The ordinary path's output is
built the way description_publisher builds it (``TransformStamped`` per
edge); the fast path's bytes are read back with the rmw's own deserializer;
every field is compared, floats by their bits.
"""
from __future__ import annotations

import math
import random
import struct
from pathlib import Path
from typing import Any

import pytest

from sdf_tools.load import load_file, load_string
from sdf_tools.ros.joint_states import JointStateMapper
from sdf_tools.ros.tf_tree import build_tf_tree

DATA = Path(__file__).resolve().parents[1] / 'data'

CHAIN_JOINTS = 50


def _chain_urdf() -> str:
    """50 joints: revolute about x/y/z, prismatic every 7th, fixed every 10th, mimic chains."""
    inertial = ('<inertial><mass value="1"/>'
                '<inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>')
    links = ''.join(f'<link name="l{i}">{inertial}</link>' for i in range(CHAIN_JOINTS + 1))
    joints = []
    for i in range(CHAIN_JOINTS):
        kind = 'fixed' if i % 10 == 9 else 'prismatic' if i % 7 == 3 else 'revolute'
        axis = ('1 0 0', '0 0.6 0.8', '0 0 -1')[i % 3]
        extra = '' if kind == 'fixed' else (
            f'<axis xyz="{axis}"/><limit lower="-3" upper="3" effort="1" velocity="1"/>')
        if i in (5, 6, 21):  # j5 and j6 follow j4 (a chain: j6 follows j5), j21 follows j20
            extra += f'<mimic joint="j{i - 1}" multiplier="{-0.5 * i}" offset="0.{i}"/>'
        joints.append(f'<joint name="j{i}" type="{kind}"><parent link="l{i}"/><child link="l{i + 1}"/>'
                      f'<origin xyz="0.01 {0.02 * i} 0.1" rpy="{0.1 * i} 0.2 -0.3"/>{extra}</joint>')
    return f'<robot name="chain">{links}{"".join(joints)}</robot>'


def _mapper(which: str) -> JointStateMapper:
    result = load_string(_chain_urdf(), 'chain.urdf') if which == 'chain' else load_file(DATA / which)
    return JointStateMapper(build_tf_tree(result))


def _names(mapper: JointStateMapper) -> list[str]:
    """Every name a message may carry: joints, aliases, extra axes, fixed joints, unknowns."""
    names = list(mapper.moving) + list(mapper.aliases) + sorted(mapper.ignored)
    names += [f'{n}__axis{k + 1}' for n, m in mapper.moving.items() for k in range(1, len(m.axes))]
    return [*names, 'ghost', 'j0__axis2', 'w\u00e9ird name']


def _message(rng: random.Random, names: list[str], *, odd: bool = True
             ) -> tuple[list[str], list[float], int, int]:
    """A random message; ``odd``: sometimes NaN, mismatched lengths or a negative stamp."""
    kind = rng.random()
    chosen = list(names) if kind < 0.3 else rng.sample(names, rng.randint(0, len(names)))
    if rng.random() < 0.3 and chosen:
        chosen += rng.sample(chosen, rng.randint(1, min(3, len(chosen))))  # duplicates
    rng.shuffle(chosen)
    values = [rng.uniform(-7.0, 7.0) if rng.random() < 0.9 else rng.choice((0.0, -0.0, 1e-300, 3.5e9))
              for _ in chosen]
    if odd and rng.random() < 0.1 and values:
        values[rng.randrange(len(values))] = rng.choice((math.nan, math.inf, -math.inf))
    if odd and rng.random() < 0.1:
        values = values[:-1] if values else [1.0]  # lengths differ
    special = (0, 1, 1_700_000_000, 2**31 - 1, -5) if odd else (0, 1, 2**31 - 1)
    sec = rng.choice(special) if rng.random() < 0.2 else rng.randint(0, 2**31 - 1)
    return chosen, values, sec, rng.randint(0, 999_999_999)


def _fields(msg: Any) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = []
    for tf in msg.transforms:
        t, r = tf.transform.translation, tf.transform.rotation
        out.append((tf.header.stamp.sec, tf.header.stamp.nanosec, tf.header.frame_id, tf.child_frame_id,
                    struct.pack('<7d', t.x, t.y, t.z, r.x, r.y, r.z, r.w)))
    return out


def _ordinary(edges: list[Any], prefix: str, sec: int, nanosec: int) -> Any:
    """What description_publisher publishes for ``edges`` on its ordinary path."""
    from geometry_msgs.msg import TransformStamped
    from tf2_msgs.msg import TFMessage

    from sdf_tools.ros.description_publisher import fill
    out = []
    for parent, child, x in edges:
        tf = TransformStamped()
        tf.header.stamp.sec, tf.header.stamp.nanosec = sec, nanosec
        tf.header.frame_id, tf.child_frame_id = prefix + parent, prefix + child
        out.append(fill(tf, x))
    return TFMessage(transforms=out)


@pytest.mark.parametrize('robot,prefix', [('chain', ''), ('chain', 'left/'), ('urdf/arm.urdf', 'r\u00e9/'),
                                          ('ros/nested_robot.sdf', ''), ('sdf/joints_all.sdf', 'p_')])
def test_fast_path_publishes_the_bits_of_the_ordinary_path(ros: None, robot: str, prefix: str) -> None:
    from rclpy.serialization import deserialize_message, serialize_message
    from sensor_msgs.msg import JointState
    from tf2_msgs.msg import TFMessage

    from sdf_tools.ros.tf_fast_path import FastTfPath
    reference, fast = _mapper(robot), FastTfPath(_mapper(robot), prefix)
    assert len(reference.moving) >= 3
    names, rng = _names(reference), random.Random(f'{robot}{prefix}')
    streams = [_message(rng, names, odd=False) for _ in range(8)]  # name sets sent many times
    served = {'serialized': 0, 'ordinary': 0}
    reports: list[str] = []
    for i in range(600):
        chosen, values, sec, nanosec = streams[i % len(streams)] if i % 3 else _message(rng, names)
        values = [v + 0.01 * i if math.isfinite(v) else v for v in values]
        js = JointState(name=chosen, position=values)
        if sec >= 0:
            js.header.stamp.sec, js.header.stamp.nanosec = sec, nanosec
        parsed = fast.parse(serialize_message(js))
        assert parsed is not None and parsed.names == chosen
        got = fast.transforms(parsed)
        want = reference.transforms(chosen, values)
        reports += got.reports
        assert sorted(got.reports) == sorted(want.reports)
        expect = _fields(_ordinary(want.edges, prefix, js.header.stamp.sec, js.header.stamp.nanosec))
        if got.serialized is not None:
            served['serialized'] += 1
            assert _fields(deserialize_message(got.serialized, TFMessage)) == expect
        else:
            served['ordinary'] += 1
            assert _fields(_ordinary(got.edges, prefix, js.header.stamp.sec,
                                     js.header.stamp.nanosec)) == expect
        if i >= 3 * len(streams) and i % 3:  # a name set seen before: the fast path, if any edge
            assert (got.serialized is not None) == bool(want.edges)
    assert served['serialized'] > 100, served
    assert any('[ghost]' in r for r in reports)


def test_the_rmw_in_use_speaks_the_cdr_we_write(ros: None) -> None:
    from sdf_tools.ros.tf_fast_path import rmw_speaks_cdr
    assert rmw_speaks_cdr()


def test_bytes_that_are_not_little_endian_cdr_are_left_to_the_rmw(ros: None) -> None:
    from rclpy.serialization import serialize_message
    from sensor_msgs.msg import JointState

    from sdf_tools.ros.tf_fast_path import FastTfPath
    fast = FastTfPath(_mapper('urdf/arm.urdf'), '')
    data = serialize_message(JointState(name=['elbow', 'slide'], position=[0.1, 0.2]))
    assert fast.parse(data) is not None
    assert fast.parse(b'\x00\x00' + data[2:]) is None  # big endian
    assert fast.parse(data[:30]) is None  # truncated inside the names
    assert fast.parse(data[:-20]) is None  # truncated inside the positions


def _node_tf(tmp: Path, stream: list[tuple[list[str], list[float], int, int]]) -> tuple[str, list[Any]]:
    """Run description_publisher on the arm, send ``stream``, return (its log, the /tf fields)."""
    from rclpy.qos import QoSProfile, ReliabilityPolicy
    from sensor_msgs.msg import JointState

    from ros.ros_support import Listener, running_publisher
    params = {'description_file': str(DATA / 'urdf' / 'arm.urdf'), 'frame_prefix': 'p/',
              'ignore_timestamp': True}
    tmp.mkdir()
    lst = Listener(name='fast_path_listener')
    pub = lst.node.create_publisher(JointState, 'joint_states',
                                    QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE))
    try:
        with running_publisher(tmp / 'node.log', params) as proc:
            assert lst.wait(lambda: pub.get_subscription_count() > 0 and bool(lst.static))
            lst.wait(lambda: False, 0.5)  # /tf discovery
            for names, values, sec, nanosec in stream:
                js = JointState(name=names, position=values)
                js.header.stamp.sec, js.header.stamp.nanosec = sec, nanosec
                pub.publish(js)
                lst.wait(lambda: False, 0.02)
            with_edges = sum(1 for names, values, sec, _ in stream if 'elbow' in names
                             and math.isfinite(values[names.index('elbow')]) and sec >= 0)
            assert lst.wait(lambda: len(lst.tf) >= with_edges), (len(lst.tf), with_edges)
            lst.wait(lambda: False, 0.3)  # nothing more may come
            return proc.text(), [_fields(m) for m in lst.tf]
    finally:
        lst.destroy()


def test_the_node_publishes_the_same_tf_on_both_paths(ros: None, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Over DDS, end to end: the node with the fast path, then with SDF_TOOLS_TF_FAST_PATH=0."""
    rng = random.Random(7)
    names = ['elbow', 'shoulder_yaw', 'slide', 'finger_left_joint', 'finger_right_joint', 'ghost']
    stream = []
    for i in range(40):
        chosen = ['elbow', *rng.sample(names[1:], rng.randint(0, 5))]
        values = [rng.uniform(-3.0, 3.0) for _ in chosen]
        if i == 5:
            values[0] = math.nan  # the ordinary path inside the fast one: nothing published
        sec = -3 if i == 7 else 1_700_000_000 + i  # negative: ignored, once reported, node alive
        stream.append((chosen if i % 2 else sorted(chosen), values, sec, 1000 * i))
    fast_log, fast = _node_tf(tmp_path / 'fast', stream)
    monkeypatch.setenv('SDF_TOOLS_TF_FAST_PATH', '0')
    slow_log, slow = _node_tf(tmp_path / 'slow', stream)
    assert 'serialized fast path' in fast_log and 'ordinary path' in slow_log
    assert fast == slow and len(fast) == 38
    assert fast_log.count('[ghost]') == slow_log.count('[ghost]') == 1
    assert fast_log.count('stamped -3 s') == slow_log.count('stamped -3 s') == 1
