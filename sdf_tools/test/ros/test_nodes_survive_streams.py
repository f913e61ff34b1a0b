"""The converter and the spawner never die and keep answering under a stream of broken and valid
requests and parameter changes (issue 21 §1), over DDS against each node in a subprocess."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ros.ros_available import ros_missing

if ros_missing() is not None:
    pytest.skip(str(ros_missing()), allow_module_level=True)

import rclpy  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from rclpy.node import Node  # noqa: E402

from ros.ros_support import NodeProcess, set_parameters, wait_log  # noqa: E402
from ros.test_description_publisher_survives import BROKEN, INERTIA_SCREW, MIXED, VALID  # noqa: E402
from sdf_tools_interfaces.srv import Convert  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / 'data'
TEXTS = {'valid': VALID, 'broken': BROKEN, 'mixed': MIXED, 'inertia_screw': INERTIA_SCREW,
         'not xml': '<sdf', 'empty': '', 'urdf': (DATA / 'urdf' / 'arm.urdf').read_text()}


@pytest.fixture(scope='module')
def nodes(ros: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, NodeProcess]]:
    logs = tmp_path_factory.mktemp('streams')
    procs = {'converter': NodeProcess('sdf_tools.ros.converter_node', {}, logs / 'converter.log'),
             'spawner': NodeProcess('sdf_tools.ros.spawner_node', {'exit_after_spawn': False},
                                    logs / 'spawner.log')}
    try:
        assert wait_log(procs['converter'], 'serving'), procs['converter'].text()
        yield procs
        for proc in procs.values():
            assert proc.alive(), proc.text()
    finally:
        codes = {name: proc.stop() for name, proc in procs.items()}
    assert codes == {'converter': 0, 'spawner': 0}, codes


@pytest.fixture(scope='module')
def client(ros: None) -> Iterator[tuple[Node, Any]]:
    node = rclpy.create_node('stream_client')
    yield node, node.create_client(Convert, '/converter/convert')
    node.destroy_node()


def convert(client: tuple[Node, Any], **fields: Any) -> Any:
    node, cli = client
    assert cli.wait_for_service(timeout_sec=15.0)
    future = cli.call_async(Convert.Request(**fields))
    rclpy.spin_until_future_complete(node, future, timeout_sec=30.0)
    assert future.done(), 'the converter stopped answering'
    return future.result()


REQUESTS = st.fixed_dictionaries({
    'input_text': st.sampled_from(sorted(TEXTS)),
    'output_format': st.sampled_from(['urdf', 'sdf', 'mjcf', 'obj', '']),
    'options_yaml': st.sampled_from(['', '{break_loops: true}', '{uris: package}', '{nope: 1}',
                                     '[', '{massless_links: error}']),
})
SPAWNER_PARAMS = st.tuples(st.sampled_from(['timeout', 'uris', 'world', 'backend', 'xacro_args']),
                           st.one_of(st.booleans(), st.floats(-1, 10), st.integers(-1, 3),
                                     st.sampled_from(['', 'file', 'keep', 'x:=1', '::'])))


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(requests=st.lists(REQUESTS, min_size=1, max_size=3),
       params=st.lists(SPAWNER_PARAMS, min_size=1, max_size=3))
def test_a_stream_of_requests_and_parameter_changes_never_stops_a_node(
        nodes: dict[str, NodeProcess], client: tuple[Node, Any],
        requests: list[dict[str, str]], params: list[tuple[str, Any]]) -> None:
    for fields in requests:
        resp = convert(client, **{**fields, 'input_text': TEXTS[fields['input_text']]})
        assert resp.success or resp.error_message, fields
    for name, value in params:  # set_parameters asserts the service answers
        result = set_parameters(client[0], 'spawner', {name: value})[0]
        assert result.successful or result.reason, (name, value)
    for proc in nodes.values():
        assert proc.alive(), proc.text()
        assert 'Traceback' not in proc.text(), proc.text()
