"""Entity names, ROS namespaces, and the namespace written into a model's ROS plugins."""
from __future__ import annotations

import pytest
from lxml import etree

from sdf_tools.spawn.naming import apply_namespace, entity_name_problem, namespace_problem


@pytest.mark.parametrize('name', ['robot', 'robot_1', 'Robot-2', 'r.2'])
def test_good_entity_names(name: str) -> None:
    assert entity_name_problem(name) is None


@pytest.mark.parametrize('name', ['', 'a::b', 'world', '__model__', '__x__', 'a b', 'a@b', 'a:b'])
def test_bad_entity_names_say_why(name: str) -> None:
    assert entity_name_problem(name)


@pytest.mark.parametrize('ns', ['', '/', 'robot', '/robot', '/fleet/robot_1', 'fleet/r2'])
def test_good_namespaces(ns: str) -> None:
    assert namespace_problem(ns) is None


@pytest.mark.parametrize('ns', ['1robot', 'a//b', 'a/', 'a-b', '/a b', '~/x'])
def test_bad_namespaces_say_which_token(ns: str) -> None:
    problem = namespace_problem(ns)
    assert problem is not None and f'[{ns}]' in problem


MODEL = '''<sdf version="1.9"><model name="m">
  <plugin filename="gz_ros2_control-system" name="gz_ros2_control::GazeboSimROS2ControlPlugin"/>
  <plugin filename="libcustom.so" name="custom"><ros><namespace>arm</namespace></ros></plugin>
  <plugin filename="libother.so" name="pinned"><ros><namespace>/fixed</namespace></ros></plugin>
  <plugin filename="gz-sim-diff-drive-system" name="gz::sim::systems::DiffDrive"/>
  <link name="l"><sensor name="cam" type="camera">
    <plugin filename="libgazebo_ros_camera.so" name="camera_driver"/>
  </sensor></link>
</model></sdf>'''


def test_namespace_goes_into_every_ros_plugin_and_no_other() -> None:
    root = etree.fromstring(MODEL)
    notes = apply_namespace(root, '/fleet/r1/')
    got = {p.get('name'): p.findtext('ros/namespace') for p in root.iter('plugin')}
    assert got == {'gz_ros2_control::GazeboSimROS2ControlPlugin': '/fleet/r1', 'custom': '/fleet/r1/arm',
                   'pinned': '/fixed', 'gz::sim::systems::DiffDrive': None, 'camera_driver': '/fleet/r1'}
    assert len(notes) == 4 and any('kept its absolute namespace [/fixed]' in n for n in notes)


def test_no_namespace_changes_nothing() -> None:
    root = etree.fromstring(MODEL)
    assert apply_namespace(root, '') == []
    assert etree.tostring(root) == etree.tostring(etree.fromstring(MODEL))
