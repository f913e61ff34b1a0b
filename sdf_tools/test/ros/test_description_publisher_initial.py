"""description_publisher's initial_positions (issue 23 §2): TF of a joint that joint_states does
not carry yet is published at the given position; joint_states then wins; bad values are refused."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from ros.ros_available import ros_missing

if ros_missing() is not None:
    pytest.skip(str(ros_missing()), allow_module_level=True)

import rclpy  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402

from ros.ros_support import Listener, close, running_publisher, set_parameters  # noqa: E402
from sdf_tools.load import load_file  # noqa: E402
from sdf_tools.ros.joint_states import JointStateMapper  # noqa: E402
from sdf_tools.ros.tf_tree import build_tf_tree  # noqa: E402

ARM = Path(__file__).resolve().parents[1] / 'data' / 'urdf' / 'arm.urdf'


def expected(joint: str, value: float) -> tuple[str, object]:
    """The transform of ``joint`` at ``value``, from the model (not from the node)."""
    tree = build_tf_tree(load_file(ARM))
    edges = JointStateMapper(tree).transforms([joint], [value]).edges
    assert len(edges) == 1
    return edges[0][1], edges[0][2]


def test_initial_positions_hold_a_joint_until_joint_states_moves_it(listener: Listener,
                                                                    tmp_path: Path) -> None:
    child, x_start = expected('elbow', 0.7)
    _, x_later = expected('elbow', -0.3)
    assert not close(x_start, x_later)
    params = {'description_file': str(ARM), 'initial_positions': 'elbow=0.7'}
    with running_publisher(tmp_path / 'node.log', params):
        assert listener.wait(lambda: child in listener.tf_transforms()), 'no /tf of the elbow'
        assert close(listener.tf_transforms()[child][1], x_start)
        pub = listener.node.create_publisher(JointState, 'joint_states', 10)
        msg = JointState(name=['elbow'], position=[-0.3])

        def moved() -> bool:
            msg.header.stamp = listener.node.get_clock().now().to_msg()
            pub.publish(msg)
            return close(listener.tf_transforms()[child][1], x_later)
        assert listener.wait(moved), 'joint_states did not override initial_positions'
        # and it stays overridden: the initial position is not published again
        listener.tf.clear()
        end = time.monotonic() + 0.5
        while time.monotonic() < end:
            rclpy.spin_once(listener.node, timeout_sec=0.05)
        seen = listener.tf_transforms()
        assert child not in seen or close(seen[child][1], x_later)


def test_bad_initial_positions_are_refused_with_the_reason(listener: Listener,
                                                           tmp_path: Path) -> None:
    with running_publisher(tmp_path / 'node.log', {'description_file': str(ARM)}):
        result = set_parameters(listener.node, 'description_publisher',
                                {'initial_positions': 'no_such_joint=1'})[0]
        assert not result.successful and '[no_such_joint]' in result.reason, result.reason
        result = set_parameters(listener.node, 'description_publisher',
                                {'initial_positions': 'elbow=abc'})[0]
        assert not result.successful and 'elbow' in result.reason, result.reason


def test_bad_initial_positions_at_start_log_an_error_and_the_node_runs(listener: Listener,
                                                                      tmp_path: Path) -> None:
    params = {'description_file': str(ARM), 'initial_positions': 'no_such_joint=1'}
    with running_publisher(tmp_path / 'node.log', params) as proc:
        assert 'initial_positions' in proc.text() and '[no_such_joint]' in proc.text(), proc.text()


SENSOR_ARM = Path(__file__).resolve().parents[1] / 'data' / 'sim' / 'sensor_arm.sdf'


def test_a_joint_no_one_names_starts_at_the_files_initial_position(listener: Listener,
                                                                   tmp_path: Path) -> None:
    from sdf_tools.ros.description import load_description
    from sdf_tools.ros.params import PublisherParams
    tree = load_description(PublisherParams(description_file=str(SENSOR_ARM))).tree
    assert tree is not None  # the node's own tree: TF follows the URDF made from the SDFormat
    assert tree.moving['shoulder'].initial == (0.4,)  # //axis/initial_position in the file
    (_, child, x_file), = JointStateMapper(tree).transforms(['shoulder'], [0.4]).edges
    (_, _, x_zero), = JointStateMapper(tree).transforms(['shoulder'], [0.0]).edges
    assert not close(x_file, x_zero)
    with running_publisher(tmp_path / 'node.log', {'description_file': str(SENSOR_ARM)}):
        assert listener.wait(lambda: child in listener.tf_transforms()), 'no /tf of the shoulder'
        assert close(listener.tf_transforms()[child][1], x_file)
    # the parameter still wins over the file
    (_, _, x_given), = JointStateMapper(tree).transforms(['shoulder'], [-0.5]).edges
    listener.tf.clear()
    params = {'description_file': str(SENSOR_ARM), 'initial_positions': 'shoulder=-0.5'}
    with running_publisher(tmp_path / 'node2.log', params):
        listener.tf.clear()  # what the first node sent last may still have been queued
        assert listener.wait(lambda: child in listener.tf_transforms() and close(
            listener.tf_transforms()[child][1], x_given)), 'initial_positions did not win'
        listener.tf.clear()
        assert listener.wait(lambda: child in listener.tf_transforms())
        assert close(listener.tf_transforms()[child][1], x_given)  # and stays
