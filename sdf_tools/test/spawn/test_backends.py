"""Gazebo backends: the messages sent, the scene read back, tool detection, the result codes."""
from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from sdf_tools.spawn import BackendUnavailableError, CreateRequest, ResultCode, make_backend
from sdf_tools.spawn.gz_backend import GzBackend
from sdf_tools.spawn.gz_cli import GzCliTransport, detect_cli
from sdf_tools.spawn.gz_python import import_bindings
from sdf_tools.spawn.result import to_simulation_interfaces
from sdf_tools.spawn.textproto import TextMessage, parse
from sdf_tools.transform import Transform

SCENE = '''name: "w"
model { name: "robot" id: 2 pose { position { x: 1 } orientation { w: 1 } }
  link { id: 3 name: "base" pose { position { z: 0.5 } orientation { w: 1 } } }
  model { name: "arm" id: 4 is_static: true pose { position { y: 1 } orientation { w: 1 } }
    link { id: 5 name: "tip" pose { orientation { w: 1 } } } } }
light { name: "sun" id: 6 pose { position { z: 10 } orientation { w: 1 } } }
'''


class Recorder:
    """A transport that records requests and answers like gz-sim."""

    max_request: int | None = 1000

    def __init__(self, poses: str = '') -> None:
        self.sent: list[tuple[str, str, str, str]] = []
        self.poses = poses

    def request(self, service: str, req_type: str, rep_type: str, request: str) -> TextMessage:
        self.sent.append((service, req_type, rep_type, request))
        if service.endswith('scene/info'):
            return parse(SCENE)
        if service == '/gazebo/worlds':
            return parse('data: "w" data: "v"')
        return parse('data: true')

    def echo_one(self, topic: str, msg_type: str) -> TextMessage:
        return parse(self.poses)


def test_create_sends_gz_sims_entity_factory() -> None:
    rec = Recorder()
    GzBackend(rec).create('w', CreateRequest(sdf='<sdf/>', name='r', allow_renaming=True,
                                             pose=Transform((1.0, 2.0, 3.0))))
    service, req_type, rep_type, body = rec.sent[0]
    assert (service, req_type, rep_type) == ('/world/w/create', 'EntityFactory', 'Boolean')
    assert parse(body) == parse('sdf: "<sdf/>" pose { position { x: 1.0 y: 2.0 z: 3.0 } orientation '
                                '{ x: 0.0 y: 0.0 z: 0.0 w: 1.0 } } name: "r" allow_renaming: true')


def test_create_from_a_file_and_without_pose() -> None:
    rec = Recorder()
    GzBackend(rec).create('w', CreateRequest(sdf_filename='/tmp/m.sdf'))
    assert parse(rec.sent[0][3]) == {'sdf_filename': ['/tmp/m.sdf']}


def test_remove_and_set_pose_messages() -> None:
    rec = Recorder()
    gz = GzBackend(rec)
    gz.remove('w', 'sun', 'light')
    gz.set_pose('w', 'robot', Transform((0.0, 0.0, 1.0)))
    assert rec.sent[0][:2] == ('/world/w/remove', 'Entity') and rec.sent[0][3] == 'name: "sun" type: LIGHT'
    assert rec.sent[1][:2] == ('/world/w/set_pose', 'Pose')
    assert parse(rec.sent[1][3])['name'] == ['robot']


def test_a_false_answer_is_an_error() -> None:
    class No(Recorder):
        def request(self, service: str, req_type: str, rep_type: str, request: str) -> TextMessage:
            return parse('data: false')
    with pytest.raises(Exception, match='answered false'):
        GzBackend(No()).create('w', CreateRequest(sdf='<sdf/>'))


def test_the_scene_becomes_scoped_entities_with_world_poses() -> None:
    found = {e.name: e for e in GzBackend(Recorder()).list_entities('w', live_poses=False)}
    assert set(found) == {'robot', 'robot::base', 'robot::arm', 'robot::arm::tip', 'sun'}
    assert found['robot::base'].world_pose.p == (1.0, 0.0, 0.5)
    assert found['robot::arm::tip'].world_pose.p == (1.0, 1.0, 0.0)
    assert found['robot::arm::tip'].static and not found['robot'].static
    assert (found['robot::arm'].parent, found['sun'].kind) == ('robot', 'light')


def test_live_poses_from_pose_info_replace_the_scenes() -> None:
    rec = Recorder(poses='pose { id: 2 position { x: 7 } orientation { w: 1 } }')
    found = {e.name: e for e in GzBackend(rec).list_entities('w')}
    assert found['robot'].world_pose.p == (7.0, 0.0, 0.0)
    assert found['robot::base'].world_pose.p == (7.0, 0.0, 0.5)


def test_world_names_come_from_gazebo_worlds() -> None:
    assert GzBackend(Recorder()).world_names() == ['w', 'v']


def test_detect_cli_falls_back_to_the_helper_binaries_when_ign_is_broken() -> None:
    helpers = sorted(Path('/usr/libexec/ignition').glob('transport*/ign-transport-service'))
    if not helpers or shutil.which('gz'):
        pytest.skip('needs Debian 12 ignition-transport-cli and no gz tool')
    env = {k: v for k, v in os.environ.items() if k != 'IGN_CONFIG_PATH'}
    tool = detect_cli(env)  # Debian's `ign service` cannot find its helper: use the helper itself
    assert tool.service == (str(helpers[-1]),) and tool.msgs_package == 'ignition.msgs'


def test_no_tool_at_all_is_unavailable_with_advice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr('sdf_tools.spawn.gz_cli._HELPER_GLOBS', ())
    with pytest.raises(BackendUnavailableError, match='install Gazebo'):
        detect_cli({'PATH': '/nonexistent'})


def test_unknown_backend_names_are_refused() -> None:
    with pytest.raises(BackendUnavailableError, match='auto, gz_cli, gz_python'):
        make_backend('isaac')


@pytest.mark.skipif(importlib.util.find_spec('gz') is not None, reason='gz Python bindings installed')
def test_without_python_bindings_gz_python_is_unavailable_and_auto_uses_the_cli() -> None:
    with pytest.raises(BackendUnavailableError, match='Python bindings'):
        import_bindings()
    try:
        backend: Any = make_backend('auto')
    except BackendUnavailableError:
        pytest.skip('no gz/ign tool here either')
    assert isinstance(backend.transport, GzCliTransport)


def test_result_codes_match_simulation_interfaces_and_our_message() -> None:
    assert (ResultCode.OK, ResultCode.NOT_FOUND, ResultCode.OPERATION_FAILED) == (1, 2, 4)
    assert (ResultCode.NAME_NOT_UNIQUE, ResultCode.INVALID_POSE) == (101, 109)
    assert to_simulation_interfaces(ResultCode.TIMEOUT) == 4
    assert to_simulation_interfaces(ResultCode.MISSING_ASSETS) == 107
    try:
        from sdf_tools_interfaces.msg import SimResult
    except ImportError:
        pytest.skip('sdf_tools_interfaces is not built here')
    for code in ResultCode:
        name = code.name if code.value > 100 else f'RESULT_{code.name}'
        assert getattr(SimResult, name) == code.value, name
