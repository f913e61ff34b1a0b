"""The converter node's ~/convert service converts, and survives bad requests (DDS)."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from ros.ros_available import ros_missing

if ros_missing() is not None:
    pytest.skip(str(ros_missing()), allow_module_level=True)

try:
    from sdf_tools_interfaces.srv import Convert
except ImportError as err:
    pytest.skip(f'sdf_tools_interfaces is not built ({err}); run ./dev test', allow_module_level=True)

import rclpy  # noqa: E402
from rclpy.node import Node  # noqa: E402

from ros.ros_support import NodeProcess, wait_log  # noqa: E402
from sdf_tools.load import load_string  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / 'data'
ARM = DATA / 'urdf' / 'arm.urdf'
XACRO = DATA / 'urdf' / 'two_link.urdf.xacro'


@pytest.fixture(scope='module')
def converter(ros: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[NodeProcess]:
    log = tmp_path_factory.mktemp('converter') / 'node.log'
    proc = NodeProcess('sdf_tools.ros.converter_node', {}, log)
    assert wait_log(proc, 'serving'), proc.text()
    yield proc
    assert proc.alive(), proc.text()
    code = proc.stop()
    assert code == 0, f'exit code {code}\n{proc.text()}'


@pytest.fixture(scope='module')
def client(ros: None) -> Iterator[tuple[Node, Any]]:
    node = rclpy.create_node('convert_client')
    cli = node.create_client(Convert, '/converter/convert')
    yield node, cli
    node.destroy_node()


def call(client: tuple[Node, Any], **fields: Any) -> Any:
    node, cli = client
    assert cli.wait_for_service(timeout_sec=15.0)
    future = cli.call_async(Convert.Request(**fields))
    rclpy.spin_until_future_complete(node, future, timeout_sec=30.0)
    assert future.done()
    return future.result()


def test_urdf_to_sdf_with_report(converter: NodeProcess, client: tuple[Node, Any]) -> None:
    resp = call(client, input_path=str(ARM), output_format='sdf')
    assert resp.success, resp.error_message
    loaded = load_string(resp.output_text, 'converted.sdf')
    assert loaded.valid and loaded.document is not None and loaded.document.format == 'sdf'
    assert resp.losses and any('arm.urdf:' in line for line in resp.losses)
    assert resp.error_message == '' and resp.error_line == 0


def test_xacro_text_with_args_to_urdf_file(converter: NodeProcess, client: tuple[Node, Any],
                                           tmp_path: Path) -> None:
    out = tmp_path / 'two_link.urdf'
    resp = call(client, input_path=str(XACRO), xacro_args=[], output_path=str(out))
    assert resp.success, resp.error_message
    assert resp.output_path == str(out) and out.read_text() == resp.output_text


# Issue 21 §6: text input has no error_file (it said 'input_text'), only error_line.
@pytest.mark.parametrize('fields,fragment,file,line', [
    ({'input_path': '/nonexistent/robot.urdf', 'output_format': 'sdf'}, 'no such file',
     '/nonexistent/robot.urdf', 0),
    ({'input_text': '<?xml version="1.0"?>\n<robot name="r">\n  <link name="a">\n</robot>\n',
      'output_format': 'sdf'}, 'XML_INVALID', '', 4),
    ({'input_text': '<sdf version="1.9">\n<model name="m">\n<link name="a">\n'
                    '<pose relative_to="nowhere"/></link></model></sdf>', 'output_format': 'urdf'},
     'POSE_RELATIVE_TO_INVALID', '', 3),
    ({'input_text': '<robot name="r">\n<link name="a"/>\n<joint name="j" type="revolute">'
                    '<parent link="a"/><child link="b"/></joint></robot>', 'output_format': 'sdf'},
     'URDF_INVALID', '', 3),
    ({'input_path': str(ARM), 'output_format': 'obj'}, 'output_format [obj]', '', 0),
    ({'input_path': str(ARM), 'output_format': 'sdf', 'options_yaml': '{no_such_option: 1}'},
     "unknown option 'no_such_option'", '', 0),
    ({'input_path': str(ARM), 'input_text': '<robot/>', 'output_format': 'sdf'},
     'exactly one of input_path and input_text', '', 0),
    ({'input_path': str(ARM), 'output_format': 'sdf', 'input_format': 'sdf'}, 'URDF, not SDF', '', 0),
    ({'input_path': str(ARM), 'output_path': '/nonexistent_dir/x.sdf'}, 'cannot write',
     '/nonexistent_dir/x.sdf', 0),
])
def test_bad_requests_fail_with_a_message_and_the_node_keeps_serving(
        converter: NodeProcess, client: tuple[Node, Any], fields: dict[str, Any], fragment: str,
        file: str, line: int) -> None:
    resp = call(client, **fields)
    assert not resp.success
    assert fragment in resp.error_message, resp.error_message
    # Defect 4: the error that says why, never followed by a misleading FILE_READ summary.
    assert 'Unable to read file' not in resp.error_message + converter.text(), resp.error_message
    assert resp.error_file == file and resp.error_line == line, resp
    assert converter.alive()
    again = call(client, input_path=str(ARM), output_format='sdf')
    assert again.success


def _version(sdf_text: str) -> str:
    return str(etree.fromstring(sdf_text.encode()).get('version'))


def test_gazebo_parameter_is_the_target_unless_the_request_names_one(
        ros: None, tmp_path: Path) -> None:
    # As the other nodes' gazebo parameter: the SDFormat version written is the target's
    # (1.9 for Fortress); options_yaml's gazebo wins over it; a bad value is logged, not used.
    proc = NodeProcess('sdf_tools.ros.converter_node', {'gazebo': 'fortress'},
                       tmp_path / 'fortress.log', name='converter_fortress')
    node = rclpy.create_node('convert_fortress_client')
    try:
        assert wait_log(proc, 'serving'), proc.text()
        cli = node.create_client(Convert, '/converter_fortress/convert')
        fortress = call((node, cli), input_path=str(ARM), output_format='sdf')
        assert fortress.success and _version(fortress.output_text) == '1.9'
        jetty = call((node, cli), input_path=str(ARM), output_format='sdf',
                     options_yaml='{gazebo: jetty}')
        assert jetty.success and _version(jetty.output_text) == '1.12'
        text = call((node, cli), input_text=ARM.read_text(), output_format='sdf')
        assert text.success and _version(text.output_text) == '1.9'
    finally:
        node.destroy_node()
        assert proc.stop() == 0, proc.text()
    bad = NodeProcess('sdf_tools.ros.converter_node', {'gazebo': 'garden'}, tmp_path / 'bad.log',
                      name='converter_bad')
    node = rclpy.create_node('convert_bad_client')
    try:
        assert wait_log(bad, 'serving'), bad.text()
        cli = node.create_client(Convert, '/converter_bad/convert')
        resp = call((node, cli), input_path=str(ARM), output_format='sdf')
        assert resp.success and "gazebo='garden' must be one of" in bad.text()
    finally:
        node.destroy_node()
        assert bad.stop() == 0, bad.text()
