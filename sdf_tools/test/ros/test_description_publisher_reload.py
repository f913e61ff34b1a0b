"""description_publisher survives bad input and reloads on parameter and topic changes (DDS)."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ros.ros_available import ros_missing

if ros_missing() is not None:
    pytest.skip(str(ros_missing()), allow_module_level=True)

from std_msgs.msg import String  # noqa: E402

from ros.ros_support import LATCHED, Listener, NodeProcess, set_parameters, wait_log  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / 'data'
ARM = DATA / 'urdf' / 'arm.urdf'
TOPIC = '/sdf_tools_test/description_in'
BROKEN = '''<?xml version="1.0"?>
<sdf version="1.9">
  <model name="m">
    <link name="a"/>
    <link name="b">
      <pose relative_to="nowhere">0 0 1 0 0 0</pose>
    </link>
  </model>
</sdf>
'''
NESTED = '''<?xml version="1.0"?>
<sdf version="1.9">
  <model name="bot">
    <link name="chassis"/>
    <model name="sensor"><pose>0 0 0.3 0 0 0</pose><link name="head"/></model>
    <joint name="mount" type="fixed"><parent>chassis</parent><child>sensor::head</child></joint>
  </model>
</sdf>
'''


@pytest.fixture(scope='module')
def node(ros: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[NodeProcess]:
    log = tmp_path_factory.mktemp('reload') / 'node.log'
    proc = NodeProcess('sdf_tools.ros.description_publisher',
                       {'description_file': '/nonexistent/robot.urdf', 'description_topic': TOPIC},
                       log)
    yield proc
    assert proc.alive(), proc.text()
    code = proc.stop()
    assert code == 0, f'exit code {code}\n{proc.text()}'


@pytest.fixture(scope='module')
def listener(ros: None) -> Iterator[Listener]:
    lst = Listener('reload_listener')
    yield lst
    lst.destroy()


def test_a_missing_file_is_logged_and_the_node_keeps_running(node: NodeProcess,
                                                              listener: Listener) -> None:
    assert wait_log(node, '/nonexistent/robot.urdf'), node.text()
    assert 'no such file' in node.text()
    listener.wait(lambda: False, 1.0)
    assert node.alive() and not listener.descriptions and not listener.static


def test_refused_parameter_values_say_why(node: NodeProcess, listener: Listener) -> None:
    results = set_parameters(listener.node, 'description_publisher',
                             {'publish_frequency': 5000.0, 'robot_description_format': 'mjcf'})
    assert not results[0].successful and 'from 0 to 1000' in results[0].reason


def test_invalid_text_on_the_topic_is_logged_with_its_line(node: NodeProcess,
                                                           listener: Listener) -> None:
    pub = listener.node.create_publisher(String, TOPIC, LATCHED)
    try:
        pub.publish(String(data=BROKEN))
        assert wait_log(node, f'topic {TOPIC}:5: error: [POSE_RELATIVE_TO_INVALID]'), node.text()
    finally:
        listener.node.destroy_publisher(pub)
    assert node.alive() and not listener.static


def test_setting_description_file_loads_it(node: NodeProcess, listener: Listener) -> None:
    results = set_parameters(listener.node, 'description_publisher', {'description_file': str(ARM)})
    assert results[0].successful
    assert listener.wait(lambda: ARM.read_text() in listener.descriptions)
    assert listener.wait(lambda: set(listener.static) == {'base', 'tool'})
    assert listener.static['base'][0] == 'world'


def test_a_description_on_the_topic_replaces_it(node: NodeProcess, listener: Listener) -> None:
    pub = listener.node.create_publisher(String, TOPIC, LATCHED)
    try:
        pub.publish(String(data=NESTED))
        assert listener.wait(lambda: any('<robot name="bot"' in d for d in listener.descriptions))
        assert listener.wait(lambda: 'sensor/head' in listener.static)
        assert listener.static['sensor/head'][0] == 'chassis'
    finally:
        listener.node.destroy_publisher(pub)


def test_changing_scope_separator_and_prefix_reloads(node: NodeProcess, listener: Listener) -> None:
    results = set_parameters(listener.node, 'description_publisher',
                             {'scope_separator': '.', 'frame_prefix': 'r1/'})
    assert all(r.successful for r in results)
    assert listener.wait(lambda: 'r1/sensor.head' in listener.static)
    assert listener.static['r1/sensor.head'][0] == 'r1/chassis'
    assert listener.wait(lambda: '<link name="sensor.head"' in listener.descriptions[-1])


def test_a_broken_description_is_refused_and_the_previous_one_stays(node: NodeProcess,
                                                                   listener: Listener) -> None:
    before = dict(listener.static)
    # One by one, as the service sets them: the file is cleared first, then the text is bad.
    results = set_parameters(listener.node, 'description_publisher', {'description_file': '',
                                                                      'robot_description': BROKEN})
    assert results[0].successful
    assert not results[1].successful
    assert 'still publishing the previous description' in results[1].reason
    assert 'parameter robot_description:5: error' in results[1].reason, results[1].reason
    assert wait_log(node, 'parameter robot_description:5: error'), node.text()
    listener.wait(lambda: False, 0.5)
    assert listener.static == before
