"""The node's parameters: checks, xacro argument parsing, and the documented YAML staying in sync."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from sdf_tools.ros.params import (
    PUBLISHER_PARAMS,
    PublisherParams,
    check_value,
    parse_xacro_args,
    resolve_description_file,
)

CONFIG = Path(__file__).resolve().parents[2] / 'config'


def test_config_yaml_lists_every_parameter_with_its_default() -> None:
    data = yaml.safe_load((CONFIG / 'description_publisher.yaml').read_text())
    documented = data['description_publisher']['ros__parameters']
    assert documented == {s.name: s.default for s in PUBLISHER_PARAMS}


def test_robot_state_publisher_names_and_defaults() -> None:
    defaults = {s.name: s.default for s in PUBLISHER_PARAMS}
    assert defaults['robot_description'] == '' and defaults['frame_prefix'] == ''
    assert defaults['publish_frequency'] == 20.0 and defaults['ignore_timestamp'] is False


@pytest.mark.parametrize('name,value,fragment', [
    ('publish_frequency', 1000.5, 'from 0 to 1000'),
    ('publish_frequency', -1.0, 'from 0 to 1000'),
    ('publish_frequency', True, 'from 0 to 1000'),
    ('robot_description_format', 'mjcf', 'one of urdf, sdf'),
    ('scope_separator', '', 'non-empty'),
    ('root_frame', '/', 'non-empty frame id'),
    ('xacro_args', 'a=1', 'name:=value'),
    ('publish_frames', 'yes', 'true or false'),
    ('model', 3, 'must be a string'),
])
def test_bad_values_are_refused_with_a_reason(name: str, value: object, fragment: str) -> None:
    reason = check_value(name, value)
    assert reason is not None and fragment in reason


def test_xacro_args_from_a_string_or_a_list() -> None:
    assert parse_xacro_args("arm:=left 'name:=my robot' empty:=") == (
        {'arm': 'left', 'name': 'my robot', 'empty': ''}, [])
    assert parse_xacro_args(['a:=1', 'b:=x:=y']) == ({'a': '1', 'b': 'x:=y'}, [])
    assert parse_xacro_args('"unclosed')[1]


def test_from_values_keeps_good_values_and_reports_bad_ones() -> None:
    params, problems = PublisherParams.from_values({'publish_frequency': 50, 'xacro_args': 'a:=1',
                                                    'robot_description_format': 'x'})
    assert params.publish_frequency == 50.0 and params.xacro_dict == {'a': '1'}
    assert params.robot_description_format == 'urdf' and len(problems) == 1


def test_description_file_uris(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    share = tmp_path / 'share' / 'my_robot' / 'urdf'
    share.mkdir(parents=True)
    (share / 'r.urdf').write_text('<robot name="r"><link name="a"/></robot>')
    models = tmp_path / 'models' / 'box'
    models.mkdir(parents=True)
    monkeypatch.setenv('AMENT_PREFIX_PATH', str(tmp_path))
    monkeypatch.setenv('GZ_SIM_RESOURCE_PATH', str(tmp_path / 'models'))
    assert resolve_description_file('package://my_robot/urdf/r.urdf')[0] == share / 'r.urdf'
    assert resolve_description_file('model://box')[0] == models
    path, why = resolve_description_file('package://other/r.urdf')
    assert path is None and why is not None and 'AMENT_PREFIX_PATH' in why


def test_a_wrong_type_is_refused_naming_both_types() -> None:
    """Issue 21 §6: Kilted's rclpy said "expected '3' got '2'"; we name the types."""
    from sdf_tools.ros.param_types import wrong_type
    assert check_value('description_file', 3) == 'description_file must be a string, not an integer (3)'
    assert 'a bool' in str(check_value('publish_frames', 'yes'))
    assert 'not a string' in str(check_value('publish_frequency', 'fast'))
    assert wrong_type('timeout', 5.0, True) == 'parameter [timeout] is a double, not a bool (True)'
    # an integer where a double is declared: refused, as rclpy and rclcpp refuse it
    assert wrong_type('timeout', 5.0, 3) == 'parameter [timeout] is a double, not an integer (3)'
    assert wrong_type('world', '', 2.0) == 'parameter [world] is a string, not a double (2.0)'
