"""joint_states to transforms: mimic chains, names, bad values, and robot_state_publisher's throttle."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from sdf_tools.load import load_file, load_string
from sdf_tools.ros.joint_states import JointStateMapper, PublishThrottle
from sdf_tools.ros.tf_tree import build_tf_tree

DATA = Path(__file__).resolve().parents[1] / 'data'
MS = 1_000_000


@pytest.fixture
def arm() -> JointStateMapper:
    return JointStateMapper(build_tf_tree(load_file(DATA / 'urdf' / 'arm.urdf')))


def test_mimic_follows_its_leader_unless_the_message_names_it(arm: JointStateMapper) -> None:
    out = arm.transforms(['finger_left_joint'], [0.02])
    children = {c: x for _, c, x in out.edges}
    assert set(children) == {'finger_left', 'finger_right'}
    mimic = arm.moving['finger_right_joint']
    assert children['finger_right'] == mimic.transform(2.0 * 0.02 + 0.01)
    out = arm.transforms(['finger_left_joint', 'finger_right_joint'], [0.02, 0.0])
    assert {c: x for _, c, x in out.edges}['finger_right'] == mimic.transform(0.0)


def test_unknown_names_and_nan_are_reported_once(arm: JointStateMapper) -> None:
    first = arm.transforms(['elbow', 'ghost', 'finger_left_joint'], [math.nan, 1.0, math.inf])
    assert first.edges == []  # NaN elbow; inf finger (and its mimic)
    assert len(first.reports) == 3
    assert any('[ghost]' in r for r in first.reports)
    again = arm.transforms(['elbow', 'ghost'], [math.nan, 1.0])
    assert again.reports == []


def test_fixed_joints_in_joint_states_are_silently_ignored(arm: JointStateMapper) -> None:
    out = arm.transforms(['tool_mount', 'slide'], [0.0, 0.1])
    assert [c for _, c, _ in out.edges] == ['forearm'] and out.reports == []


def test_name_and_position_lengths_must_match(arm: JointStateMapper) -> None:
    out = arm.transforms(['elbow', 'slide'], [0.1])
    assert out.edges == [] and 'lengths differ (2 and 1)' in out.reports[0]


def test_scoped_aliases_and_extra_axes() -> None:
    text = '''<?xml version="1.0"?><sdf version="1.9"><model name="m">
      <link name="a"/><model name="inner"><link name="b"/><link name="c"/>
      <joint name="u" type="universal"><parent>b</parent><child>c</child>
        <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint></model>
      <joint name="j" type="revolute"><parent>a</parent><child>inner::b</child>
        <axis><xyz>0 0 1</xyz></axis></joint></model></sdf>'''
    mapper = JointStateMapper(build_tf_tree(load_string(text, 't.sdf')))
    out = mapper.transforms(['inner::u', 'm::j'], [0.1, 0.2])
    assert [c for _, c, _ in out.edges] == ['inner/b']  # u needs its second axis too
    assert '[inner/u__axis2]' in out.reports[0]
    out = mapper.transforms(['inner/u', 'inner/u__axis2'], [0.1, 0.3])
    assert [c for _, c, _ in out.edges] == ['inner/c'] and out.reports == []
    assert out.edges[0][2] == mapper.moving['inner/u'].transform(0.1, 0.3)


def test_throttle_follows_robot_state_publisher() -> None:
    th = PublishThrottle()
    assert th.check(['a'], 1000 * MS, 5000 * MS, 20.0, False) == (True, False)
    th.mark(['a'], 1000 * MS)
    assert not th.check(['a'], 1049 * MS, 5001 * MS, 20.0, False)[0]  # under 50 ms
    assert th.check(['a'], 1050 * MS, 5002 * MS, 20.0, False)[0]
    assert th.check(['b'], 1001 * MS, 5003 * MS, 20.0, False)[0]  # b never published
    assert th.check(['a'], 1001 * MS, 5004 * MS, 20.0, True)[0]  # ignore_timestamp
    assert th.check(['a'], 1001 * MS, 5005 * MS, 0.0, False)[0]  # 0 Hz: every message
    assert th.check(['a'], 1001 * MS, 10 * MS, 20.0, False) == (True, True)  # clock went back
    th.mark(['a'], 1001 * MS)
    # 1000 / 30 Hz = 33.3 ms, truncated to whole milliseconds as robot_state_publisher does.
    assert th.check(['a'], 1034 * MS, 11 * MS, 30.0, False)[0]
