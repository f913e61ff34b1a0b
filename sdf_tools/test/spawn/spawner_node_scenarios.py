"""The spawner node over real DDS and real gz-transport: every service, bad requests, start-up spawn.

Run by ros/test_spawner_node.py inside a private network namespace (netns.py):
the Gazebo stand-in and the node under test (a subprocess) talk gz-transport
there, this process calls the node's services with rclpy.
"""
from __future__ import annotations

import importlib.util
import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ros.ros_available import ros_missing
from standin import StandIn, transport_overrides

from spawn.netns import require_private_network

DATA = Path(__file__).resolve().parents[1] / 'data' / 'spawn'
URDF = ('<robot name="wheelie"><link name="base"><inertial><mass value="1"/><inertia ixx="0.1" ixy="0" '
        'ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial><visual><geometry><mesh '
        'filename="package://rover_description/meshes/wheel.stl"/></geometry></visual></link>'
        '<gazebo><static>true</static></gazebo></robot>')
BOX = ('<sdf version="1.9"><model name="{name}"><link name="base"><collision name="c"><geometry>'
       '<box><size>1 1 1</size></box></geometry></collision></link></model></sdf>')
SI_MISSING = importlib.util.find_spec('simulation_interfaces') is None


require_private_network()
if ros_missing() is not None:
    pytest.skip(str(ros_missing()), allow_module_level=True)
os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')


@pytest.fixture(scope='module')
def ros() -> Iterator[None]:
    import rclpy
    rclpy.init()
    yield
    rclpy.try_shutdown()


@pytest.fixture(scope='module')
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StandIn]:
    with pytest.MonkeyPatch.context() as mp:
        for key, value in transport_overrides().items():
            mp.setenv(key, value)
        mp.setenv('AMENT_PREFIX_PATH', os.pathsep.join([str(DATA / 'prefix'),
                                                        os.environ.get('AMENT_PREFIX_PATH', '')]))
        with StandIn(['default']) as server:
            yield server


@pytest.fixture(scope='module')
def spawner(world: StandIn, ros: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from ros.ros_support import NodeProcess
    node = NodeProcess('sdf_tools.ros.spawner_node', {'timeout': 15.0},  # for a loaded machine
                       tmp_path_factory.mktemp('spawner') / 'spawner.log')
    yield node
    assert node.alive(), node.text()  # survived every request
    assert node.stop() == 0


class Client:
    """This process's node: calls the spawner's services, holds a parameter, publishes a topic."""

    def __init__(self) -> None:
        import rclpy
        from rclpy.parameter import Parameter
        from ros.ros_support import LATCHED
        from std_msgs.msg import String

        from sdf_tools_interfaces.srv import DeleteEntity, ListEntities, SetEntityPose, SpawnModel

        self.node = rclpy.create_node('spawn_test_client', parameter_overrides=[
            Parameter('robot_description', value=URDF)], automatically_declare_parameters_from_overrides=True)
        self.types = {'spawn': SpawnModel, 'delete': DeleteEntity, 'set_pose': SetEntityPose,
                      'list': ListEntities}
        self.clients = {name: self.node.create_client(t, f'/spawner/{name}') for name, t in self.types.items()}
        self.publisher = self.node.create_publisher(String, 'spawn_test_description', LATCHED)
        self.publisher.publish(String(data=BOX.format(name='from_topic')))

    def call(self, service: str, **fields: Any) -> Any:
        from ros.ros_support import wait_for
        client = self.clients[service]
        assert client.wait_for_service(timeout_sec=20.0), f'no /spawner/{service}'
        request = self.types[service].Request()
        for key, value in fields.items():
            setattr(request, key, value)
        future = client.call_async(request)
        assert wait_for(self.node, future.done, 60.0), f'/spawner/{service} did not answer'
        return future.result()


@pytest.fixture(scope='module')
def client(spawner: Any) -> Iterator[Client]:
    c = Client()
    yield c
    c.node.destroy_node()


def pose_stamped(x: float = 0.0, y: float = 0.0, z: float = 0.0, frame: str = '',
                 qw: float = 1.0) -> Any:
    from geometry_msgs.msg import PoseStamped
    msg = PoseStamped()
    msg.header.frame_id = frame
    msg.pose.position.x, msg.pose.position.y, msg.pose.position.z = x, y, z
    msg.pose.orientation.w = qw
    return msg


def names(client: Client) -> dict[str, Any]:
    reply = client.call('list')
    assert reply.result.result == reply.result.RESULT_OK, reply.result.error_message
    return {e.name: e for e in reply.entities}


def test_spawn_from_a_xacro_file_returns_the_real_name_and_pose(client: Client) -> None:
    reply = client.call('spawn', file=str(DATA / 'rover.urdf.xacro'), xacro_args=['robot_name:=scout'],
                        initial_pose=pose_stamped(1.0, 2.0, 0.0))
    assert reply.result.result == reply.result.RESULT_OK, reply.result.error_message
    assert (reply.entity_name, reply.world) == ('scout', 'default')
    assert (reply.pose.position.x, reply.pose.position.y) == (1.0, 2.0)
    assert 'scout::scout_wheel' in names(client)


def test_spawn_from_another_nodes_parameter(client: Client) -> None:
    reply = client.call('spawn', parameter='/spawn_test_client/robot_description', name='param_bot',
                        initial_pose=pose_stamped(0.0, 0.0, 1.0, frame='scout'))
    assert reply.result.result == reply.result.RESULT_OK, reply.result.error_message
    found = names(client)
    assert 'param_bot::base' in found
    assert math.isclose(found['param_bot'].pose.position.x, 1.0)  # relative to scout at (1, 2, 0)
    assert any('converted from URDF' in n for n in reply.notes)


def test_spawn_from_the_description_publishers_parameter(client: Client, tmp_path: Path) -> None:
    """Issue 13, defect 3: ros_gz_sim's usual pattern, the model from robot_description."""
    from ros.ros_support import NodeProcess, wait_log
    publisher = NodeProcess('sdf_tools.ros.description_publisher',
                            {'description_file': str(DATA / 'rover.urdf.xacro'),
                             'xacro_args': 'robot_name:=described'}, tmp_path / 'publisher.log')
    try:
        assert wait_log(publisher, 'publishing'), publisher.text()
        reply = client.call('spawn', parameter='/description_publisher/robot_description',
                            name='from_param')
        assert reply.result.result == reply.result.RESULT_OK, reply.result.error_message
        assert 'from_param::described_wheel' in names(client)
    finally:
        publisher.stop()


def test_spawn_from_a_topic(client: Client) -> None:
    reply = client.call('spawn', topic='spawn_test_description', allow_renaming=True)
    assert reply.result.result == reply.result.RESULT_OK, reply.result.error_message
    assert reply.entity_name == 'from_topic'


@pytest.mark.parametrize('fields,code,fragment', [
    ({}, 'NO_RESOURCE', 'no model given'),
    ({'file': str(DATA / 'invalid.sdf')}, 'RESOURCE_PARSE_ERROR', 'invalid.sdf'),
    ({'file': str(DATA / 'missing_mesh.urdf')}, 'MISSING_ASSETS', 'not_there.dae'),
    ({'file': '/no/such/file.sdf'}, 'RESULT_NOT_FOUND', '/no/such/file.sdf'),
    ({'text': BOX.format(name='x'), 'format': 'mjcf'}, 'UNSUPPORTED_FORMAT', 'mjcf'),
    ({'text': BOX.format(name='x'), 'name': 'a::b'}, 'NAME_INVALID', '::'),
    ({'text': BOX.format(name='x'), 'entity_namespace': '9lives'}, 'NAMESPACE_INVALID', '9lives'),
    ({'text': BOX.format(name='scout')}, 'NAME_NOT_UNIQUE', '[scout]'),
    ({'text': BOX.format(name='x'), 'world': 'moon'}, 'RESULT_NOT_FOUND', 'world [moon]'),
    ({'text': BOX.format(name='x'), 'xacro_args': ['oops']}, 'RESOURCE_PARSE_ERROR', 'oops'),
    ({'text': BOX.format(name='x'), 'initial_pose': 'nan'}, 'INVALID_POSE', 'non-finite'),
    ({'text': BOX.format(name='x'), 'initial_pose': 'zero'}, 'INVALID_POSE', 'zero quaternion'),
    ({'parameter': '/nobody/robot_description', 'timeout': 1.0}, 'RESULT_NOT_FOUND', '/nobody'),
    ({'topic': 'silence', 'timeout': 1.0}, 'RESULT_NOT_FOUND', 'silence'),
    ({'text': BOX.format(name='x'), 'uris': 'ftp'}, 'RESULT_FEATURE_UNSUPPORTED', 'ftp'),
])
def test_bad_spawn_requests_get_their_code_and_the_node_keeps_serving(
        client: Client, spawner: Any, fields: dict[str, Any], code: str, fragment: str) -> None:
    if fields.get('initial_pose') == 'nan':
        fields['initial_pose'] = pose_stamped(x=math.nan)
    elif fields.get('initial_pose') == 'zero':
        fields['initial_pose'] = pose_stamped(x=1.0, qw=0.0)
    reply = client.call('spawn', **fields)
    assert reply.result.result == getattr(reply.result, code), reply.result.error_message
    assert fragment in reply.result.error_message + '\n'.join(reply.errors)
    assert spawner.alive()


def test_invalid_models_come_back_with_file_and_line(client: Client) -> None:
    reply = client.call('spawn', file=str(DATA / 'invalid.sdf'))
    assert any('invalid.sdf:6: error: [DUPLICATE_NAME]' in e for e in reply.errors), reply.errors


def test_set_pose_list_and_delete(client: Client) -> None:
    assert client.call('spawn', text=BOX.format(name='mover')).entity_name == 'mover'
    moved = client.call('set_pose', name='mover', pose=pose_stamped(0.0, 0.0, 2.0, frame='mover'))
    assert moved.result.result == moved.result.RESULT_OK, moved.result.error_message
    assert moved.pose.position.z == 2.0
    assert names(client)['mover'].pose.position.z == 2.0
    gone = client.call('delete', name='mover')
    assert gone.result.result == gone.result.RESULT_OK, gone.result.error_message
    assert 'mover' not in names(client)
    again = client.call('delete', name='mover')
    assert again.result.result == again.result.RESULT_NOT_FOUND
    lost = client.call('set_pose', name='mover', pose=pose_stamped())
    assert lost.result.result == lost.result.RESULT_NOT_FOUND


@pytest.mark.skipif(SI_MISSING, reason='simulation_interfaces is not installed here')
def test_simulation_interfaces_spawn_and_delete(client: Client) -> None:
    from ros.ros_support import wait_for
    from simulation_interfaces.srv import DeleteEntity, SpawnEntity  # type: ignore[import-not-found]
    spawn = client.node.create_client(SpawnEntity, '/spawner/spawn_entity')
    assert spawn.wait_for_service(timeout_sec=10.0)
    request = SpawnEntity.Request(name='si_box', entity_namespace='')
    request.entity_resource.resource_string = BOX.format(name='si')
    future = spawn.call_async(request)
    assert wait_for(client.node, future.done, 30.0)
    assert future.result().result.result == 1 and future.result().entity_name == 'si_box'
    delete = client.node.create_client(DeleteEntity, '/spawner/delete_entity')
    assert delete.wait_for_service(timeout_sec=10.0)
    future = delete.call_async(DeleteEntity.Request(entity='si_box'))
    assert wait_for(client.node, future.done, 30.0)
    assert future.result().result.result == 1


@pytest.mark.parametrize('file,status', [('rover.urdf.xacro', 0), ('invalid.sdf', 1)])
def test_spawn_at_start_up_then_exit(world: StandIn, ros: None, tmp_path: Path, file: str,
                                     status: int) -> None:
    from ros.ros_support import NodeProcess
    node = NodeProcess('sdf_tools.ros.spawner_node',
                       {'file': str(DATA / file), 'xacro_args': 'robot_name:=booted', 'z': 0.5,
                        'exit_after_spawn': True}, tmp_path / 'boot.log', name='boot_spawner')
    try:
        node.proc.wait(60)
    finally:
        node.stop()
    assert node.proc.returncode == status, node.text()
    if status == 0:
        assert 'spawned [booted]' in node.text()
    else:  # issue 13, defect 6: the error once, as an error (it used to come as WARN, then ERROR)
        said = [line for line in node.text().splitlines() if 'RESOURCE_PARSE_ERROR' in line]
        assert len(said) == 1 and '[ERROR]' in said[0], node.text()

