"""description_publisher on a URDF publishes what robot_state_publisher would (multi-process, DDS).

robot_state_publisher cannot be installed here, so its rules are encoded
below from its source, independently of sdf_tools: one transform per joint,
parent link -> child link at the joint ``<origin>`` (times the motion of a
moving joint: rotation about the normalised axis, or translation along it);
fixed joints in one latched ``/tf_static`` message; moving joints on ``/tf``
stamped with the joint_states stamp; mimic joints follow their leader;
``robot_description`` is the URDF as given. Forward kinematics are checked
against yourdfpy.
"""
from __future__ import annotations

import math
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from ros.ros_available import ros_missing

if ros_missing() is not None:
    pytest.skip(str(ros_missing()), allow_module_level=True)

from builtin_interfaces.msg import Time  # noqa: E402
from rclpy.node import Node  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402

from ros.ros_support import Listener, NodeProcess, close, compose_to_root, running_publisher, wait_log  # noqa: E402
from sdf_tools.transform import Transform  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / 'data'
ARM = DATA / 'urdf' / 'arm.urdf'
POSITIONS = {'shoulder_yaw': 0.4, 'elbow': -1.1, 'slide': 0.12, 'finger_left_joint': 0.02}


def _origin(el: ET.Element | None) -> Transform:
    """A URDF <origin> as a Transform, with scipy (fixed-axis roll, pitch, yaw)."""
    xyz = [float(v) for v in (el.get('xyz', '0 0 0') if el is not None else '0 0 0').split()]
    rpy = [float(v) for v in (el.get('rpy', '0 0 0') if el is not None else '0 0 0').split()]
    x, y, z, w = Rotation.from_euler('xyz', rpy).as_quat()
    return Transform((xyz[0], xyz[1], xyz[2]), (w, x, y, z))


def rsp_expectation(urdf: Path, q: dict[str, float]) -> tuple[dict[str, tuple[str, Transform]],
                                                             dict[str, tuple[str, Transform]]]:
    """Return robot_state_publisher's (static, moving) transforms, keyed by child link."""
    static: dict[str, tuple[str, Transform]] = {}
    moving: dict[str, tuple[str, Transform]] = {}
    joints = ET.parse(urdf).getroot().findall('joint')
    mimic = {j.get('name'): j.find('mimic') for j in joints if j.find('mimic') is not None}
    positions = dict(q)
    for name, m in mimic.items():
        if m.get('joint') in positions and name not in positions:
            positions[name] = (float(m.get('multiplier', '1')) * positions[m.get('joint')]
                               + float(m.get('offset', '0')))
    for j in joints:
        parent, child = j.find('parent').get('link'), j.find('child').get('link')
        origin = _origin(j.find('origin'))
        kind = j.get('type')
        if kind == 'fixed':
            static[child] = (parent, origin)
            continue
        if j.get('name') not in positions:
            continue
        axis = np.array([float(v) for v in j.find('axis').get('xyz').split()])
        axis /= np.linalg.norm(axis)
        value = positions[j.get('name')]
        if kind == 'prismatic':
            motion = Transform(tuple(axis * value))
        else:
            x, y, z, w = Rotation.from_rotvec(axis * value).as_quat()
            motion = Transform(q=(w, x, y, z))
        moving[child] = (parent, origin * motion)
    return static, moving


@pytest.fixture(scope='module')
def arm_node(ros: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[NodeProcess]:
    with running_publisher(tmp_path_factory.mktemp('arm') / 'node.log', {'description_file': str(ARM)}) as proc:
        yield proc


def _send_until(node: Node, lst: Listener, names: list[str], positions: list[float],
                done: callable, stamp0: int) -> int:  # type: ignore[valid-type]
    pub = node.create_publisher(JointState, 'joint_states', 10)
    sec = stamp0
    try:
        end = time.monotonic() + 15
        while time.monotonic() < end and not done():
            msg = JointState(name=names, position=positions)
            msg.header.stamp = Time(sec=sec)
            pub.publish(msg)
            sec += 1
            lst.wait(done, 0.3)
    finally:
        node.destroy_publisher(pub)
    return sec - 1


def test_late_subscriber_gets_the_urdf_as_given(arm_node: NodeProcess, listener: Listener) -> None:
    time.sleep(0.5)  # the description was published before this subscriber existed
    assert listener.wait(lambda: bool(listener.descriptions))
    assert listener.descriptions[-1] == ARM.read_text()


def test_tf_static_has_robot_state_publishers_fixed_transforms(arm_node: NodeProcess,
                                                               listener: Listener) -> None:
    static, _ = rsp_expectation(ARM, {})
    assert listener.wait(lambda: bool(listener.static))
    assert len(listener.static_msgs[-1].transforms) == len(static)
    assert set(listener.static) == set(static)
    for child, (parent, x) in static.items():
        got_parent, got = listener.static[child]
        assert got_parent == parent
        assert close(got, x), (child, got, x)


def test_joint_states_move_tf_as_robot_state_publisher_and_yourdfpy(arm_node: NodeProcess,
                                                                   listener: Listener) -> None:
    static, moving = rsp_expectation(ARM, POSITIONS)
    names, values = list(POSITIONS), list(POSITIONS.values())

    def done() -> bool:
        return set(listener.tf_transforms()) >= set(moving)

    last = _send_until(listener.node, listener, names, values, done, stamp0=100)
    got = listener.tf_transforms()
    assert set(got) == set(moving)  # one transform per moving joint (mimic included), no more
    for child, (parent, x) in moving.items():
        assert got[child][0] == parent
        assert close(got[child][1], x), (child, got[child][1], x)
        assert 100 <= got[child][2].sec <= last  # stamped with the joint_states stamp
    yourdfpy = pytest.importorskip('yourdfpy')
    robot = yourdfpy.URDF.load(str(ARM), load_meshes=False, build_collision_scene_graph=False,
                               load_collision_meshes=False)
    robot.update_cfg({n: POSITIONS[n] for n in robot.actuated_joint_names})
    frames = {**static, **{c: (p, x) for c, (p, x, _) in got.items()}}
    for link in robot.link_map:
        if link == 'world':
            continue
        root, x = compose_to_root(frames, link)
        assert root == 'world'
        fk = robot.get_transform(frame_to=link, frame_from='world')
        w, xq, yq, zq = x.q
        rot = Rotation.from_quat([xq, yq, zq, w]).as_matrix()
        assert np.allclose(rot, fk[:3, :3], atol=1e-9), link
        assert np.allclose(x.p, fk[:3, 3], atol=1e-9), link


def test_bad_joint_states_are_logged_once_and_publish_nothing(arm_node: NodeProcess,
                                                               listener: Listener) -> None:
    def shoulder_seen() -> bool:
        return 'shoulder' in listener.tf_transforms()

    _send_until(listener.node, listener, ['shoulder_yaw', 'nonexistent_joint', 'elbow'],
                [0.1, 1.0, math.nan], shoulder_seen, stamp0=1000)
    assert wait_log(arm_node, 'nonexistent_joint')
    assert wait_log(arm_node, 'elbow] the position nan')
    listener.tf.clear()
    _send_until(listener.node, listener, ['shoulder_yaw', 'nonexistent_joint', 'elbow'],
                [0.2, 1.0, math.nan], shoulder_seen, stamp0=2000)
    assert 'upper_arm' not in listener.tf_transforms()  # NaN: nothing for elbow
    log = arm_node.text()
    assert log.count('nonexistent_joint') == 1
    assert log.count('the position nan') == 1
    assert arm_node.alive()


def test_publish_frequency_throttles_by_stamp(arm_node: NodeProcess, listener: Listener) -> None:
    """Default 20 Hz: a message 10 ms after the last published one is dropped (RSP's rule)."""
    pub = listener.node.create_publisher(JointState, 'joint_states', 10)
    try:
        assert listener.wait(lambda: pub.get_subscription_count() > 0)
        msg = JointState(name=['slide'], position=[0.05])
        msg.header.stamp = Time(sec=5000)
        for _ in range(20):
            pub.publish(msg)
            if listener.wait(lambda: 'forearm' in listener.tf_transforms(), 0.3):
                break
        listener.tf.clear()
        msg = JointState(name=['slide'], position=[0.07])
        msg.header.stamp = Time(sec=5000, nanosec=10_000_000)
        pub.publish(msg)
        listener.wait(lambda: False, 1.0)
        assert 'forearm' not in listener.tf_transforms()
        msg.header.stamp = Time(sec=5000, nanosec=60_000_000)
        pub.publish(msg)
        assert listener.wait(lambda: 'forearm' in listener.tf_transforms(), 5.0)
    finally:
        listener.node.destroy_publisher(pub)
