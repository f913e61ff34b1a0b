"""spawn.launch.py: its arguments become the spawner's typed parameters (the file itself needs launch_ros)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from sdf_tools.ros.spawn_launch_logic import (
    LAUNCH_ARGUMENTS,
    spawner_exit_failure,
    spawner_parameters,
)

LAUNCH_FILE = Path(__file__).resolve().parents[2] / 'launch' / 'spawn.launch.py'


def test_defaults_give_a_node_that_spawns_once_and_exits() -> None:
    params = spawner_parameters({'topic': 'robot_description'})
    assert params['file'] == '' and params['exit_after_spawn'] is True
    assert (params['x'], params['timeout'], params['backend'], params['xacro_args']) == (0.0, 5.0, 'auto', '')
    assert 'node_name' not in params


def test_a_launch_with_nothing_to_spawn_is_refused() -> None:
    """Defect 6: it used to start a spawner that waited forever."""
    with pytest.raises(ValueError, match='nothing to spawn: give file:=, string:=, topic:= or param:='):
        spawner_parameters({})
    serving = spawner_parameters({'exit_after_spawn': 'false'})  # only the services: fine
    assert serving['exit_after_spawn'] is False


def test_a_failed_spawn_fails_the_launch_and_a_good_one_does_not() -> None:
    """Defect 6: the spawner exited 1 and ros2 launch still exited 0."""
    assert spawner_exit_failure(0, shutting_down=False) is None
    reason = spawner_exit_failure(1, shutting_down=False)
    assert reason is not None and 'exited with code 1' in reason and 'not spawned' in reason
    assert 'signal 9' in str(spawner_exit_failure(-9, shutting_down=False))
    assert spawner_exit_failure(-2, shutting_down=True) is None  # Ctrl-C: no failure


def test_values_are_typed_like_the_node_declares_them() -> None:
    params = spawner_parameters({'file': 'package://bot/urdf/bot.urdf.xacro', 'x': '1.5', 'Y': '-3',
                                 'allow_renaming': 'True', 'xacro_args': 'arm:=left "name:=my bot"',
                                 'relative_to': 'dock', 'model': 'rover'})
    assert params['file'] == 'package://bot/urdf/bot.urdf.xacro'
    assert (params['x'], params['Y'], params['allow_renaming']) == (1.5, -3.0, True)
    assert params['xacro_args'] == ['arm:=left', 'name:=my bot']
    assert (params['relative_to'], params['model']) == ('dock', 'rover')


@pytest.mark.parametrize('values,fragment', [
    ({'x': 'one'}, 'x:='), ({'z': 'nan'}, 'finite'), ({'allow_renaming': 'maybe'}, 'true or false'),
    ({'format': 'mjcf'}, 'one of auto'), ({'backend': 'isaac'}, 'one of auto'),
    ({'xacro_args': 'arm=left'}, 'name:=value'), ({'timeout': '0'}, '> 0')])
def test_bad_values_are_refused_with_the_argument_named(values: dict[str, str], fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        spawner_parameters({'file': 'robot.urdf', **values})


def test_every_argument_has_a_description() -> None:
    assert all(text for _, _, text in LAUNCH_ARGUMENTS)
    assert len({name for name, _, _ in LAUNCH_ARGUMENTS}) == len(LAUNCH_ARGUMENTS)


def test_the_launch_file_starts_one_spawner_with_these_parameters() -> None:
    if importlib.util.find_spec('launch_ros') is None:
        pytest.skip('launch_ros is not importable here: the launch file runs where ROS 2 is installed')
    import launch

    spec = importlib.util.spec_from_file_location('spawn_launch', LAUNCH_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ld = module.generate_launch_description()
    context = launch.LaunchContext()
    for action in ld.entities:
        if isinstance(action, launch.actions.DeclareLaunchArgument):
            context.launch_configurations[action.name] = action.default_value[0].text
    context.launch_configurations['file'] = 'robot.urdf'
    import launch_ros.actions
    actions = [n for a in ld.entities if isinstance(a, launch.actions.OpaqueFunction)
               for n in a.execute(context) or []]
    nodes = [n for n in actions if isinstance(n, launch_ros.actions.Node)]
    assert [n.node_executable for n in nodes] == ['spawner']
    assert any(isinstance(a, launch.actions.RegisterEventHandler) for a in actions)
