"""Our nodes' parameters are declared with their types; a wrong type is refused naming both."""
from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from ros.ros_support import SRC


@pytest.fixture
def publisher(ros: None) -> Any:
    from sdf_tools.ros.description_publisher import DescriptionPublisher
    node = DescriptionPublisher()
    yield node
    node.destroy_node()


@pytest.fixture
def spawner(ros: None) -> Any:
    from sdf_tools.ros.spawner_node import SpawnerNode
    node = SpawnerNode()
    yield node
    node.destroy_node()


def _types(node: Any, names: list[str]) -> dict[str, tuple[int, bool]]:
    return {d.name: (d.type, d.dynamic_typing) for d in node.describe_parameters(names)}


def test_every_parameter_is_declared_with_the_type_of_its_default(publisher: Any,
                                                                  spawner: Any) -> None:
    """Issue 21: they were declared dynamically typed (an integer was taken for a double)."""
    from rcl_interfaces.msg import ParameterType as T

    from sdf_tools.ros.params import PUBLISHER_PARAMS
    from sdf_tools.ros.spawner_node import PARAMETERS, STARTUP_PARAMETERS
    kind = {bool: T.PARAMETER_BOOL, float: T.PARAMETER_DOUBLE, str: T.PARAMETER_STRING}
    want = {s.name: (kind[type(s.default)], False) for s in PUBLISHER_PARAMS}
    want['xacro_args'] = (T.PARAMETER_STRING, True)  # a string or a list of strings
    assert _types(publisher, list(want)) == want
    defaults = {**PARAMETERS, **STARTUP_PARAMETERS}
    want = {n: (kind[type(v)], False) for n, v in defaults.items()}
    want['xacro_args'] = (T.PARAMETER_STRING, True)
    assert _types(spawner, list(want)) == want


@pytest.mark.parametrize('name,value,reason', [
    ('publish_frequency', 5, 'parameter [publish_frequency] is a double, not an integer (5)'),
    ('publish_frames', 'yes', "parameter [publish_frames] is a bool, not a string ('yes')"),
    ('description_file', 3, 'parameter [description_file] is a string, not an integer (3)'),
])
def test_a_wrong_type_is_refused_naming_both_types(publisher: Any, name: str, value: object,
                                                   reason: str) -> None:
    from rclpy.parameter import Parameter
    before = publisher.get_parameter(name).value
    result = publisher.set_parameters_atomically([Parameter(name, value=value)])
    assert (result.successful, result.reason) == (False, reason)
    assert publisher.get_parameter(name).value == before


def test_the_spawner_refuses_an_integer_timeout(spawner: Any) -> None:
    from rclpy.parameter import Parameter
    result = spawner.set_parameters_atomically([Parameter('timeout', value=3)])
    assert result.reason == 'parameter [timeout] is a double, not an integer (3)'
    assert spawner.set_parameters_atomically([Parameter('timeout', value=3.0)]).successful


@pytest.mark.parametrize('module,param,value', [
    ('sdf_tools.ros.description_publisher', 'publish_frequency', '5'),
    ('sdf_tools.ros.spawner_node', 'timeout', '3'),
])
def test_a_wrong_type_at_start_stops_the_node_with_the_reason(ros: None, module: str, param: str,
                                                              value: str) -> None:
    import os
    env = {**os.environ, 'PYTHONPATH': os.pathsep.join([str(SRC), os.environ.get('PYTHONPATH', '')])}
    run = subprocess.run([sys.executable, '-m', module, '--ros-args', '-p', f'{param}:={value}'],
                         capture_output=True, text=True, timeout=60, env=env)
    assert run.returncode == 2, run.stderr
    assert (f'cannot start: parameter [{param}] is a double, not an integer ({value}): give it as '
            'a number with a decimal point (5.0, not 5)') in run.stderr
    assert 'Traceback' not in run.stderr
