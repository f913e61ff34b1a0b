"""description_publisher on a world: every model, the world's frames, an actor (multi-process, DDS).

Frames composed back to the world equal ``sdf_tools inspect --json`` (1e-9), with moved joints
checked against forward kinematics computed from inspect's world poses and axes alone.
"""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from ros.ros_available import ros_missing

if ros_missing() is not None:
    pytest.skip(str(ros_missing()), allow_module_level=True)

from ros.ros_support import Listener, NodeProcess, close, compose_to_root, running_publisher  # noqa: E402
from ros.test_description_publisher_sdf import (  # noqa: E402
    YARD,
    _publish,
    fid,
    forward_kinematics,
    inspect_json,
    pose,
    tf_frames,
)


@pytest.fixture(scope='module')
def yard(ros: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[NodeProcess]:
    with running_publisher(tmp_path_factory.mktemp('yard') / 'node.log',
                           {'description_file': str(YARD), 'robot_description_format': 'sdf',
                            'publish_frequency': 50.0}) as proc:
        yield proc


def test_world_frames_match_inspect_in_the_world_frame(yard: NodeProcess, listener: Listener) -> None:
    info = inspect_json(YARD)
    values = {'arm/j1': 0.8, 'cart/axle': -2.0}
    expected = forward_kinematics(info, {'arm::j1': [0.8], 'cart::axle': [-2.0]})
    wanted = [fid(lk['name'], '') for lk in info['links']]
    _publish(listener, values,
             lambda: all(compose_to_root(tf_frames(listener), w)[0] == 'world' for w in wanted),
             stamp=20)
    frames = tf_frames(listener)
    for lk in info['links']:
        root, x = compose_to_root(frames, fid(lk['name'], ''))
        assert root == 'world', lk['name']
        assert close(x, expected[lk['name']]), lk['name']
    for item in info['frames'] + info['models']:
        root, x = compose_to_root(frames, fid(item['name'], ''))
        assert root == 'world', item['name']
        body = item.get('attached_to') or next(
            (m['canonical_link'] for m in info['models'] if m['name'] == item['name']), None)
        if body in (None, 'world') or item['name'] == 'table':
            assert close(x, pose(item['pose'])), item['name']
        else:
            x_wb0 = pose(next(lk['pose'] for lk in info['links'] if lk['name'] == body))
            assert close(x, expected[body] * x_wb0.inverse() * pose(item['pose'])), item['name']


def test_actor_moves_on_tf_at_the_publish_frequency(yard: NodeProcess, listener: Listener) -> None:
    assert listener.wait(lambda: bool(listener.tf))  # discovery
    listener.tf.clear()
    listener.wait(lambda: False, 1.5)
    walker = [(t.header.stamp, t.transform.translation) for m in listener.tf for t in m.transforms
              if t.child_frame_id == 'walker' and t.header.frame_id == 'world']
    stamps = [s.sec + s.nanosec * 1e-9 for s, _ in walker]
    assert stamps == sorted(stamps) and len(stamps) > 30
    rate = (len(stamps) - 1) / (stamps[-1] - stamps[0])
    assert 40.0 < rate < 60.0  # publish_frequency 50
    xs = {round(tr.x, 3) for _, tr in walker}
    assert len(xs) > 5  # it moves
    for _, tr in walker:
        assert -0.5 < tr.x < 1.5 and -3.5 < tr.y < -1.5 and abs(tr.z - 1.0) < 1e-9


def test_world_description_is_sdf_when_asked(yard: NodeProcess, listener: Listener) -> None:
    assert listener.wait(lambda: bool(listener.descriptions))
    text = listener.descriptions[-1]
    assert text.lstrip().startswith('<?xml') and '<sdf' in text and '<world name="yard"' in text
