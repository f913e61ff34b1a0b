"""What the launch files compute (no launch import needed)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from sdf_tools.ros.launch_logic import (
    DESCRIPTION_ARGS,
    LaunchArgumentError,
    convert_nodes,
    description_nodes,
    detect_format,
    find_executable,
)
from sdf_tools.ros.params import PUBLISHER_PARAMS

DATA = Path(__file__).resolve().parents[1] / 'data'
ARM = DATA / 'urdf' / 'arm.urdf'
NESTED = DATA / 'ros' / 'nested_robot.sdf'


def fake_prefix(root: Path, package: str, executable: str) -> Path:
    """An install prefix holding ``package`` in its ament index, with lib/<package>/<executable>."""
    index = root / 'share' / 'ament_index' / 'resource_index' / 'packages'
    index.mkdir(parents=True, exist_ok=True)
    (index / package).write_text('')
    exe = root / 'lib' / package / executable
    exe.parent.mkdir(parents=True, exist_ok=True)
    exe.write_text('#!/bin/sh\n')
    exe.chmod(0o755)
    return root


@pytest.fixture
def rviz_prefix(tmp_path: Path) -> list[str]:
    return [str(fake_prefix(tmp_path / 'ros', 'rviz2', 'rviz2'))]


def params_yaml(tmp_path: Path, params: dict[str, object], key: str = 'description_publisher') -> str:
    path = tmp_path / 'params.yaml'
    path.write_text(yaml.safe_dump({key: {'ros__parameters': params}}))
    return str(path)


def test_description_node_parameters_are_the_arguments_given() -> None:
    nodes = description_nodes({'description_file': str(ARM), 'xacro_args': 'a:=1',
                               'frame_prefix': 'r1/', 'use_sim_time': 'true'}, '/share/sdf_tools')
    assert [n.executable for n in nodes] == ['description_publisher']
    assert nodes[0].parameters == [{'description_file': str(ARM), 'xacro_args': 'a:=1',
                                    'frame_prefix': 'r1/', 'use_sim_time': True}]


def test_arguments_not_given_leave_the_params_file_alone(tmp_path: Path) -> None:
    """Defect 1: the launch defaults used to override robot_description_format, model, ..."""
    file = params_yaml(tmp_path, {'robot_description_format': 'sdf', 'model': 'rover',
                                  'frame_prefix': 'r1/', 'xacro_args': 'a:=1', 'use_sim_time': True})
    nodes = description_nodes({'description_file': str(ARM), 'params_file': file}, '/share')
    assert nodes[0].parameters == [file, {'description_file': str(ARM)}]


def test_the_params_file_may_name_the_model(tmp_path: Path) -> None:
    """Defect 1: description_file from the params file alone used to be 'required'."""
    file = params_yaml(tmp_path, {'description_file': str(NESTED), 'frame_prefix': 'r1/'})
    nodes = description_nodes({'params_file': file}, '/share')
    assert nodes[0].parameters == [file]
    text = params_yaml(tmp_path, {'robot_description': ARM.read_text()})
    assert description_nodes({'params_file': text}, '/share')[0].parameters == [text]


def test_arguments_given_override_the_params_file(tmp_path: Path, rviz_prefix: list[str]) -> None:
    file = params_yaml(tmp_path, {'description_file': str(NESTED), 'frame_prefix': 'r1/',
                                  'robot_description_format': 'sdf'})
    nodes = description_nodes({'params_file': file, 'robot_description_format': 'urdf',
                               'use_sim_time': 'false', 'rviz': 'true'}, '/share', rviz_prefix)
    assert nodes[0].parameters == [file, {'robot_description_format': 'urdf',
                                          'use_sim_time': False}]
    # RViz sees the frames as published: the prefix comes from the file.
    assert nodes[1].arguments == ['-d', '/share/config/description.rviz', '-f', 'r1/world']


def test_the_params_file_entry_must_match_the_node_as_rcl_matches_it(tmp_path: Path) -> None:
    wildcard = params_yaml(tmp_path, {'description_file': str(ARM)}, key='/**')
    assert description_nodes({'params_file': wildcard, 'namespace': 'r1'}, '/share')
    plain = params_yaml(tmp_path, {'description_file': str(ARM)})
    with pytest.raises(LaunchArgumentError, match=r'node \[/r1/description_publisher\].*'
                       r'entries: description_publisher'):
        description_nodes({'params_file': plain, 'namespace': 'r1'}, '/share')


def test_a_bad_model_in_the_params_file_stops_the_launch(tmp_path: Path) -> None:
    file = params_yaml(tmp_path, {'description_file': '/nonexistent/robot.urdf'})
    with pytest.raises(LaunchArgumentError, match='no such file'):
        description_nodes({'params_file': file}, '/share')
    bad = tmp_path / 'bad.yaml'
    bad.write_text('description_publisher:\n  ros__parameters: [\n')
    with pytest.raises(LaunchArgumentError, match=r'bad.yaml:\d+: not valid YAML'):
        description_nodes({'params_file': str(bad)}, '/share')
    with pytest.raises(LaunchArgumentError, match='cannot be read'):
        description_nodes({'params_file': str(tmp_path / 'missing.yaml')}, '/share')


def test_rviz_with_the_bundled_config(rviz_prefix: list[str]) -> None:
    nodes = description_nodes({'description_file': str(ARM), 'rviz': 'true'}, '/share/sdf_tools',
                              rviz_prefix)
    assert nodes[1].executable == 'rviz2'
    assert nodes[1].arguments == ['-d', '/share/sdf_tools/config/description.rviz', '-f', 'world']


def test_rviz_without_rviz2_starts_nothing(tmp_path: Path) -> None:
    """Defect 2: the publisher used to be started, then orphaned when rviz2 was missing."""
    others = [str(fake_prefix(tmp_path / 'ros', 'sdf_tools', 'description_publisher'))]
    with pytest.raises(LaunchArgumentError, match='rviz2 is not installed.*nothing was started'):
        description_nodes({'description_file': str(ARM), 'rviz': 'true'}, '/share', others)


def test_find_executable_follows_the_ament_index(tmp_path: Path) -> None:
    first = fake_prefix(tmp_path / 'a', 'rviz2', 'other')  # listed first: launch_ros stops here
    second = fake_prefix(tmp_path / 'b', 'rviz2', 'rviz2')
    assert find_executable('rviz2', 'rviz2', [str(second)]) == str(second / 'lib/rviz2/rviz2')
    assert find_executable('rviz2', 'rviz2', [str(first), str(second)]) is None
    assert find_executable('rviz2', 'rviz2', []) is None


def test_model_help_is_one_truth() -> None:
    """The launch argument says what the node parameter says (and config/docs say it too)."""
    node = next(s.description for s in PUBLISHER_PARAMS if s.name == 'model')
    launch = next(a.description for a in DESCRIPTION_ARGS if a.name == 'model')
    assert launch.startswith(node)
    root = Path(__file__).resolve().parents[3]
    flat = ' '.join((root / 'docs' / 'ros.md').read_text().split())
    assert ' '.join(node.split()) in flat
    config = Path(__file__).resolve().parents[2] / 'config' / 'description_publisher.yaml'
    comments = ' '.join(line.strip().lstrip('#').strip() for line in config.read_text().splitlines()
                        if line.strip().startswith('#'))
    assert node in comments


@pytest.mark.parametrize('values,fragment', [
    ({}, 'description_file is required'),
    ({'description_file': '/nonexistent.urdf'}, 'no such file'),
    ({'description_file': str(ARM), 'format': 'sdf'}, 'is urdf, not sdf'),
    ({'description_file': str(ARM), 'format': 'mjcf'}, 'format must be one of'),
    ({'description_file': str(ARM), 'rviz': 'maybe'}, 'rviz must be true or false'),
    ({'description_file': str(ARM), 'use_sim_time': 'maybe'}, 'use_sim_time must be true or'),
    ({'description_file': str(ARM), 'robot_description_format': 'mjcf'}, 'one of urdf, sdf'),
])
def test_bad_arguments_stop_the_launch_with_a_reason(values: dict[str, str], fragment: str) -> None:
    with pytest.raises(LaunchArgumentError, match=fragment):
        description_nodes(values, '/share')


def test_format_detection() -> None:
    assert detect_format(ARM) == 'urdf'
    assert detect_format(DATA / 'urdf' / 'two_link.urdf.xacro') == 'xacro'
    assert detect_format(DATA / 'ros' / 'nested_robot.sdf') == 'sdf'


def test_argument_names_are_unique_and_converter_node() -> None:
    names = [a.name for a in DESCRIPTION_ARGS]
    assert len(names) == len(set(names))
    assert convert_nodes({})[0].executable == 'converter'


def test_a_node_that_dies_while_the_launch_runs_fails_it() -> None:
    """Issue 21 §1: the launch exited 0 with its only node dead."""
    from sdf_tools.ros.launch_logic import NodeSpec, node_exit_failure
    publisher = NodeSpec('sdf_tools', 'description_publisher', 'description_publisher')
    rviz = NodeSpec('rviz2', 'rviz2', 'rviz2', may_exit=True)
    reason = node_exit_failure(publisher, 1, shutting_down=False)
    assert reason is not None and 'description_publisher exited with code 1' in reason
    assert 'killed by signal 9' in str(node_exit_failure(publisher, -9, shutting_down=False))
    assert node_exit_failure(publisher, 0, shutting_down=False) is not None
    assert node_exit_failure(publisher, -15, shutting_down=True) is None  # Ctrl-C
    assert node_exit_failure(rviz, 0, shutting_down=False) is None  # its window was closed
    assert node_exit_failure(rviz, 1, shutting_down=False) is not None


def test_the_missing_rviz2_message_names_a_real_package() -> None:
    """Issue 21 §6: the message printed a literal ros-$ROS_DISTRO-rviz2."""
    from sdf_tools.ros.launch_logic import rviz_package
    assert rviz_package({'ROS_DISTRO': 'jazzy'}) == 'apt install ros-jazzy-rviz2'
    assert '$' not in rviz_package({}) and 'ros-kilted-rviz2' in rviz_package({})


class _Manager:
    """launch's signal manager as stop_on_sigterm sees it: a callback per signal number."""

    def __init__(self) -> None:
        self.handlers: dict[int, object] = {}

    def handle(self, signum: int, handler: object) -> None:
        self.handlers[int(signum)] = handler


def test_a_sigterm_stops_the_launch_once_as_ctrl_c_does() -> None:
    """Issue 21: a SIGTERM from outside made ros2 launch exit non-zero with its nodes orphaned."""
    import signal

    from sdf_tools.ros.launch_logic import stop_on_sigterm
    before = signal.getsignal(signal.SIGTERM)
    reasons: list[str] = []
    manager = _Manager()
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        stop_on_sigterm(manager, reasons.append)
        # a Python-level handler, so that Python hands the signal to launch's wakeup fd
        assert callable(signal.getsignal(signal.SIGTERM))
    finally:
        signal.signal(signal.SIGTERM, before)
    on_sigterm = manager.handlers[signal.SIGTERM]
    assert callable(on_sigterm)
    on_sigterm(signal.SIGTERM)
    on_sigterm(signal.SIGTERM)  # launch escalating, or an impatient user: one stop is enough
    assert reasons == ['received SIGTERM']


# launch's mechanism, without launch: Python writes each signal it handles to the wakeup fd,
# the run loop reads it and calls the manager's callback for that number.
_WAKEUP_LOOP = '''
import os, signal, socket, sys
from sdf_tools.ros.launch_logic import stop_on_sigterm
class Manager:
    handlers = {}
    def handle(self, signum, handler):
        self.handlers[int(signum)] = handler
manager = Manager()
rsock, wsock = socket.socketpair()
wsock.setblocking(False)
signal.set_wakeup_fd(wsock.fileno())
stop_on_sigterm(manager, lambda reason: (print(reason, flush=True), sys.exit(0)))
print('ready', flush=True)
while True:
    for signum in rsock.recv(16):
        manager.handlers.get(signum, lambda s: None)(signum)
'''


def test_a_sigterm_reaches_the_launch_loop_instead_of_killing_the_process() -> None:
    import signal
    import subprocess
    import sys
    proc = subprocess.Popen([sys.executable, '-c', _WAKEUP_LOOP], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == 'ready\n'
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert (proc.returncode, out) == (0, 'received SIGTERM\n')
