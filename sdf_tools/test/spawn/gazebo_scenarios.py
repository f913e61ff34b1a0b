"""Spawn, delete, move and list against the Gazebo stand-in over real gz-transport and `ign service`.

Run by test_gazebo_standin.py inside a private network namespace (netns.py): the stand-in
(tools/gazebo_standin: gz-sim's services, libsdformat 12 loading) serves the
worlds ``default`` and ``other``; the tests drive it with the gz_cli backend,
i.e. the real ``ign service``/``ign topic`` tools, as they would drive Gazebo.
"""
from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from standin import StandIn, transport_overrides

from sdf_tools.cli import main
from sdf_tools.spawn import (
    CreateRequest,
    EntityInfo,
    ModelSource,
    ResultCode,
    SpawnRequest,
    delete,
    list_entities,
    set_pose,
    spawn,
)
from sdf_tools.spawn.gz_backend import GzBackend
from sdf_tools.spawn.gz_cli import gz_cli_backend
from sdf_tools.transform import Transform
from spawn.netns import require_private_network

DATA = Path(__file__).resolve().parents[1] / 'data' / 'spawn'
BOX = ('<sdf version="1.9"><model name="{name}"><link name="base"><collision name="c"><geometry>'
       '<box><size>1 1 1</size></box></geometry></collision></link></model></sdf>')

require_private_network()


@pytest.fixture(scope='module')
def standin() -> Iterator[StandIn]:
    with pytest.MonkeyPatch.context() as mp:
        for key, value in transport_overrides().items():
            mp.setenv(key, value)  # gz-transport on loopback, Debian's `ign service` fixed
        mp.setenv('GZ_SIM_RESOURCE_PATH', str(DATA / 'models'))
        mp.setenv('AMENT_PREFIX_PATH', os.pathsep.join([str(DATA / 'prefix'),
                                                        os.environ.get('AMENT_PREFIX_PATH', '')]))
        with StandIn(['default', 'other']) as server:
            yield server


@pytest.fixture(scope='module')
def gz(standin: StandIn) -> GzBackend:
    # Generous: a timeout only costs time when a call fails, and under load (7 on the two cores)
    # /gazebo/worlds once took longer than 8 s to answer.
    return gz_cli_backend(timeout=20.0)


def entities(gz: GzBackend, world: str = 'default', *, live: bool = False) -> dict[str, EntityInfo]:
    """The world's entities; poses as created (the scene), or current ones (pose/info) if ``live``."""
    if live:
        outcome, found = list_entities(gz, world=world)
        assert outcome.ok, outcome.details()
    else:
        found = gz.list_entities(world, live_poses=False)
    return {e.name: e for e in found}


def close(a: Transform, b: Transform) -> bool:
    dot = abs(sum(x * y for x, y in zip(a.q, b.q, strict=True)))
    return math.dist(a.p, b.p) < 1e-9 and dot > 1 - 1e-12


def spawned(gz: GzBackend, request: SpawnRequest) -> str:
    outcome = spawn(gz, request)
    assert outcome.code is ResultCode.OK, outcome.details()
    return outcome.entity_name


def test_the_backend_drives_the_ign_service_tool(gz: GzBackend) -> None:
    tool = gz.transport.tool  # type: ignore[attr-defined]
    assert Path(tool.service[0]).name == 'ign' and tool.msgs_package == 'ignition.msgs'


def test_gazebo_answers_true_to_an_invalid_model_but_does_not_create_it(gz: GzBackend,
                                                                         standin: StandIn) -> None:
    broken = '<sdf version="1.9"><model name="raw"><link name="l"/><link name="l"/></model></sdf>'
    gz.create('default', CreateRequest(sdf=broken))  # no error: gz-sim only queues it
    time.sleep(0.3)
    assert 'raw' not in entities(gz)
    assert 'link with name[l] already exists' in standin.log()


def test_urdf_is_spawned_with_its_links_at_the_requested_pose(gz: GzBackend) -> None:
    pose = Transform.from_xyz_rpy((1.0, 2.0, 0.5), (0.0, 0.0, 0.3))
    name = spawned(gz, SpawnRequest(ModelSource(file=str(DATA / 'robot.urdf')), name='urdf_bot',
                                    pose=pose, namespace='/fleet/one'))
    found = entities(gz)
    assert name == 'urdf_bot' and close(found['urdf_bot'].world_pose, pose)
    wheel = Transform.from_xyz_rpy((0.1, 0.2, 0.0), (-math.pi / 2, 0.0, 0.0))
    assert close(found['urdf_bot::wheel'].world_pose, pose * wheel)
    assert 'urdf_bot::base_link' in found


def test_xacro_arguments_name_the_entity_and_place_its_links(gz: GzBackend) -> None:
    source = ModelSource(file=str(DATA / 'rover.urdf.xacro'),
                         xacro_args={'robot_name': 'scout', 'wheel_y': '0.3'})
    pose = Transform((0.0, -2.0, 0.0))
    assert spawned(gz, SpawnRequest(source, pose=pose)) == 'scout'
    found = entities(gz)
    assert close(found['scout::scout_wheel'].world_pose, pose * Transform((0.0, 0.3, 0.0)))


def test_sdf_with_nested_models_and_a_model_include_is_spawned_whole(gz: GzBackend) -> None:
    pose = Transform.from_xyz_rpy((5.0, 0.0, 0.0), (0.0, 0.0, math.pi))
    spawned(gz, SpawnRequest(ModelSource(file=str(DATA / 'store.sdf')), pose=pose))
    found = entities(gz)
    counter = Transform.from_xyz_rpy((1.0, 0.0, 0.0), (0.0, 0.0, math.pi / 2))
    till = counter * Transform((0.2, 0.0, 1.0))
    assert close(found['store::counter::till::drawer'].world_pose, pose * till)
    assert close(found['store::shelf_a::board'].world_pose,
                 pose * Transform((-1.0, 0.0, 0.0)) * Transform((0.0, 0.0, 0.5)))


def test_a_model_include_left_as_is_is_resolved_by_gazebo(gz: GzBackend) -> None:
    request = SpawnRequest(ModelSource(file=str(DATA / 'store.sdf')), name='store_kept', uris='keep',
                           pose=Transform((9.0, 9.0, 0.0)))
    spawned(gz, request)
    assert 'store_kept::shelf_a::board' in entities(gz)


def test_a_pose_relative_to_a_nested_link_lands_in_that_frame(gz: GzBackend) -> None:
    spawned(gz, SpawnRequest(ModelSource(text=BOX.format(name='anchor')),
                             pose=Transform.from_xyz_rpy((0.0, 6.0, 0.0), (0.0, 0.0, 1.0))))
    spawned(gz, SpawnRequest(ModelSource(file=str(DATA / 'store.sdf')), name='store2',
                             pose=Transform((0.0, 0.0, 0.1)), relative_to='anchor'))
    top = entities(gz)['store2::counter::top'].world_pose
    offset = Transform.from_xyz_rpy((0.1, 0.0, 0.05), (0.0, 0.0, 0.5))
    spawned(gz, SpawnRequest(ModelSource(text=BOX.format(name='cup')), pose=offset,
                             relative_to='store2::counter::top'))
    assert close(entities(gz)['cup'].world_pose, top * offset)


def test_a_taken_name_fails_unless_renaming_is_allowed(gz: GzBackend) -> None:
    box = ModelSource(text=BOX.format(name='dup'))
    assert spawned(gz, SpawnRequest(box)) == 'dup'
    clash = spawn(gz, SpawnRequest(box))
    assert clash.code is ResultCode.NAME_NOT_UNIQUE and '[dup]' in clash.message
    renamed = [spawned(gz, SpawnRequest(box, allow_renaming=True)) for _ in range(2)]
    assert renamed == ['dup_0', 'dup_1']
    assert {'dup', 'dup_0', 'dup_1'} <= set(entities(gz))


def test_an_invalid_model_is_refused_with_file_and_line(gz: GzBackend) -> None:
    out = spawn(gz, SpawnRequest(ModelSource(file=str(DATA / 'invalid.sdf'))))
    assert out.code is ResultCode.RESOURCE_PARSE_ERROR
    assert any(d.line == 6 and 'DUPLICATE_NAME' in str(d) for d in out.diagnostics)
    assert 'invalid' not in entities(gz)


def test_missing_meshes_are_refused_with_file_and_line(gz: GzBackend) -> None:
    out = spawn(gz, SpawnRequest(ModelSource(file=str(DATA / 'missing_mesh.urdf'))))
    assert out.code is ResultCode.MISSING_ASSETS
    assert [d.line for d in out.diagnostics] == [10] and 'not_there.dae' in out.details()
    assert 'ghost' not in entities(gz)


def test_an_unknown_world_is_not_found_and_names_the_running_ones(gz: GzBackend) -> None:
    out = spawn(gz, SpawnRequest(ModelSource(text=BOX.format(name='lost')), world='moon'))
    assert out.code is ResultCode.NOT_FOUND
    assert 'world [moon] not found: Gazebo runs [default], [other]' in out.message


def test_a_named_world_gets_the_entity(gz: GzBackend) -> None:
    out = spawn(gz, SpawnRequest(ModelSource(text=BOX.format(name='elsewhere')), world='other'))
    assert out.ok and out.world == 'other'
    assert 'elsewhere' in entities(gz, 'other') and 'elsewhere' not in entities(gz)


def test_a_gazebo_that_is_not_running_gives_a_timeout(standin: StandIn) -> None:
    nobody = gz_cli_backend(timeout=1.0, env={**os.environ, 'IGN_PARTITION': 'nobody_home'})
    start = time.monotonic()
    out = spawn(nobody, SpawnRequest(ModelSource(text=BOX.format(name='void'))))
    assert out.code is ResultCode.TIMEOUT
    assert 'is Gazebo running' in out.message
    assert time.monotonic() - start < 10


def test_delete_removes_the_entity_and_says_what_it_cannot_remove(gz: GzBackend) -> None:
    spawned(gz, SpawnRequest(ModelSource(text=BOX.format(name='doomed'))))
    assert delete(gz, 'doomed').code is ResultCode.OK
    assert 'doomed' not in entities(gz)
    assert delete(gz, 'doomed').code is ResultCode.NOT_FOUND
    spawned(gz, SpawnRequest(ModelSource(file=str(DATA / 'store.sdf')), name='store3',
                             pose=Transform((0.0, -9.0, 0.0))))
    nested = delete(gz, 'store3::counter')
    assert nested.code is ResultCode.OPERATION_FAILED and 'top-level' in nested.message


def test_set_pose_moves_the_model_in_the_requested_frame(gz: GzBackend) -> None:
    spawned(gz, SpawnRequest(ModelSource(text=BOX.format(name='mover'))))
    target = Transform.from_xyz_rpy((3.0, 3.0, 1.0), (0.1, 0.2, 0.3))
    moved = set_pose(gz, 'mover', target)
    assert moved.ok, moved.details()
    assert close(entities(gz, live=True)['mover'].world_pose, target)
    step = Transform((0.0, 0.0, 1.0))
    assert set_pose(gz, 'mover', step, relative_to='mover').ok
    assert close(entities(gz, live=True)['mover'].world_pose, target * step)
    assert set_pose(gz, 'nobody', target).code is ResultCode.NOT_FOUND
    assert set_pose(gz, 'mover', target, relative_to='nowhere').code is ResultCode.INVALID_POSE


def test_a_model_too_long_for_one_command_line_is_sent_as_a_file(gz: GzBackend) -> None:
    links = ''.join(f'<link name="segment_{i}"><pose>{i * 0.01} 0 0 0 0 0</pose></link>'
                    for i in range(20))
    notes = ''.join(f'<!-- {"a calibration table, say " * 40} -->\n' for _ in range(150))
    text = f'<sdf version="1.9"><model name="long"><static>true</static>{notes}{links}</model></sdf>'
    assert len(text) > 140_000  # Linux takes at most 128 KiB in one argument
    spawned(gz, SpawnRequest(ModelSource(text=text)))
    assert 'long::segment_19' in entities(gz)


def test_the_command_line_spawns_lists_and_deletes(gz: GzBackend, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(['spawn', str(DATA / 'rover.urdf.xacro'), 'robot_name:=cli_bot', '--backend', 'gz_cli',
                 '-x', '-4', '-Y', '1.5', '--timeout', '10']) == 0
    assert 'spawned [cli_bot]' in capsys.readouterr().out
    assert main(['list', '--json', '--backend', 'gz_cli', '--timeout', '10']) == 0
    listed = {e['name']: e for e in json.loads(capsys.readouterr().out)['entities']}
    assert listed['cli_bot']['pose']['xyz'] == pytest.approx([-4.0, 0.0, 0.0])
    assert main(['spawn', str(DATA / 'invalid.sdf'), '--backend', 'gz_cli']) == 1
    assert 'RESOURCE_PARSE_ERROR' in capsys.readouterr().err
    # 10 s, not the default 5: under CI's load the `ign service` process alone can take seconds.
    slow_ok = ['--backend', 'gz_cli', '--timeout', '10']
    assert main(['set-pose', 'cli_bot', '-z', '2', *slow_ok]) == 0
    assert main(['delete', 'cli_bot', *slow_ok]) == 0
    assert main(['delete', 'cli_bot', *slow_ok]) == 1
    assert 'NOT_FOUND' in capsys.readouterr().err
