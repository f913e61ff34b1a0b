"""The launch files build the nodes launch_logic describes (needs launch_ros: skipped without it)."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

LAUNCH_DIR = Path(__file__).resolve().parents[2] / 'launch'
DATA = Path(__file__).resolve().parents[1] / 'data'

try:
    import launch  # noqa: I001 (ruff takes sdf_tools/launch/ for the launch package)
    import launch_ros.actions
except ImportError as err:
    pytest.skip(f'launch_ros is not importable here ({err}): the launch files are tested where '
                'ROS 2 is installed; their logic is tested in test_launch_logic.py',
                allow_module_level=True)


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name.replace('.', '_'), LAUNCH_DIR / name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _nodes(module: ModuleType, args: dict[str, str]) -> list[launch_ros.actions.Node]:
    ld = module.generate_launch_description()
    context = launch.LaunchContext()
    for action in ld.entities:
        if isinstance(action, launch.actions.DeclareLaunchArgument):
            default = action.default_value[0].text if action.default_value else ''
            context.launch_configurations[action.name] = args.get(action.name, default)
    out = []
    for action in ld.entities:
        if isinstance(action, launch.actions.OpaqueFunction):
            out += action.execute(context) or []
    return [a for a in out if isinstance(a, launch_ros.actions.Node)]


def _exit_handlers(module: ModuleType, args: dict[str, str]) -> int:
    ld = module.generate_launch_description()
    context = launch.LaunchContext()
    for action in ld.entities:
        if isinstance(action, launch.actions.DeclareLaunchArgument):
            default = action.default_value[0].text if action.default_value else ''
            context.launch_configurations[action.name] = args.get(action.name, default)
    return sum(isinstance(a, launch.actions.RegisterEventHandler)
               for action in ld.entities if isinstance(action, launch.actions.OpaqueFunction)
               for a in action.execute(context) or [])


def test_every_launched_node_has_a_handler_that_fails_the_launch_when_it_dies() -> None:
    """Issue 21 §1: description.launch.py exited 0 with its only node dead."""
    arm = str(DATA / 'urdf' / 'arm.urdf')
    assert _exit_handlers(load('description.launch.py'), {'description_file': arm}) == 1
    assert _exit_handlers(load('convert.launch.py'), {}) == 1
    assert _exit_handlers(load('spawn.launch.py'), {'file': arm}) == 1


_ROS2 = 'import sys; from ros2cli.cli import main; sys.exit(main(argv=sys.argv[1:]))'


@pytest.mark.parametrize('name', ['description.launch.py', 'convert.launch.py'])
def test_a_sigterm_to_ros2_launch_stops_its_nodes_and_exits_0(name: str) -> None:
    """Issue 21: ros2 launch died of a SIGTERM (status 143) and left its node running."""
    import os
    import re
    import signal
    import subprocess
    import sys
    pytest.importorskip('ros2launch')
    args = [f'description_file:={DATA / "urdf" / "arm.urdf"}'] if name.startswith('desc') else []
    proc = subprocess.Popen([sys.executable, '-c', _ROS2, 'launch', 'sdf_tools', name, *args],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if re.search(r'publishing|serving', line):
                break
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
    finally:
        proc.kill()
    log = ''.join(lines) + out
    pid = int(re.findall(r'process started with pid \[(\d+)\]', log)[0])
    assert proc.returncode == 0, log
    assert 'finished cleanly' in log and not os.path.exists(f'/proc/{pid}'), log


def test_description_launch_starts_the_publisher_and_rviz(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    monkeypatch.setattr('ament_index_python.packages.get_package_share_directory', lambda p: '/share')
    # rviz:=true is refused unless rviz2 is installed: an install prefix that has it.
    (tmp_path / 'share/ament_index/resource_index/packages').mkdir(parents=True)
    (tmp_path / 'share/ament_index/resource_index/packages/rviz2').write_text('')
    (tmp_path / 'lib/rviz2').mkdir(parents=True)
    (tmp_path / 'lib/rviz2/rviz2').write_text('#!/bin/sh\n')
    (tmp_path / 'lib/rviz2/rviz2').chmod(0o755)
    monkeypatch.setenv('AMENT_PREFIX_PATH', str(tmp_path))
    nodes = _nodes(load('description.launch.py'),
                   {'description_file': str(DATA / 'urdf' / 'arm.urdf'), 'rviz': 'true'})
    assert [n.node_executable for n in nodes] == ['description_publisher', 'rviz2']


def test_convert_launch_starts_the_converter() -> None:
    nodes = _nodes(load('convert.launch.py'), {})
    assert [n.node_executable for n in nodes] == ['converter']


def test_description_launch_with_rviz_but_no_rviz2_starts_nothing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from sdf_tools.ros.launch_logic import LaunchArgumentError
    monkeypatch.setattr('ament_index_python.packages.get_package_share_directory', lambda p: '/share')
    monkeypatch.setenv('AMENT_PREFIX_PATH', str(tmp_path))
    with pytest.raises(LaunchArgumentError, match='rviz2 is not installed'):
        _nodes(load('description.launch.py'),
               {'description_file': str(DATA / 'urdf' / 'arm.urdf'), 'rviz': 'true'})


def test_description_launch_passes_only_the_arguments_given(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr('ament_index_python.packages.get_package_share_directory', lambda p: '/share')
    params = tmp_path / 'p.yaml'
    params.write_text('description_publisher:\n  ros__parameters:\n    description_file: '
                      f'{DATA / "urdf" / "arm.urdf"}\n    robot_description_format: sdf\n')
    nodes = _nodes(load('description.launch.py'), {'params_file': str(params)})
    assert [n.node_executable for n in nodes] == ['description_publisher']
