"""The description model keeps what the file says: plugins, extras, geometry, actors."""
from __future__ import annotations

from pathlib import Path

from sdf_tools.load import load_file

DATA = Path(__file__).resolve().parents[1] / 'data' / 'sdf'


def test_plugins_and_custom_elements_are_kept_verbatim() -> None:
    result = load_file(DATA / 'sensors_plugins.sdf')
    assert result.valid, [str(d) for d in result.errors]
    assert result.document is not None
    world = result.document.worlds[0]
    model = world.models[0]
    plugin = model.plugins[0]
    assert plugin.name == 'my_plugin' and plugin.filename == 'libmy_plugin.so'
    assert '<nested><x>1</x></nested>' in plugin.xml
    link = model.links[0]
    custom = [e for e in link.extras if e.tag.endswith('thing')]
    assert custom and 'kept' in custom[0].xml
    assert {s.name for s in link.sensors} == {'cam', 'imu'}
    assert 'horizontal_fov' in link.sensors[0].xml
    assert [p.name for p in world.plugins] == ['gz::sim::systems::Physics']
    assert {e.tag for e in world.extras} >= {'physics', 'gravity'}


def test_every_geometry_kind_is_read_with_its_fields() -> None:
    result = load_file(DATA / 'geometry_all.sdf')
    assert result.document is not None and result.document.model is not None
    link = result.document.model.links[0]
    shapes = {v.name: v.geometry for v in link.visuals + link.collisions}
    assert shapes['box'].params == {'size': [1.0, 2.0, 3.0]}
    assert shapes['capsule'].params == {'radius': 0.2, 'length': 0.5}
    assert shapes['cylinder'].params == {'radius': 0.3, 'length': 1.5}
    assert shapes['ellipsoid'].params == {'radii': [0.1, 0.2, 0.3]}
    assert shapes['sphere'].params == {'radius': 0.7}
    assert shapes['plane'].params == {'normal': [0.0, 0.0, 1.0], 'size': [10.0, 10.0]}
    assert shapes['mesh'].params['submesh'] == {'name': 's', 'center': True}
    assert shapes['mesh'].params['scale'] == [1.0, 2.0, 3.0]
    assert shapes['heightmap'].params['pos'] == [0.0, 0.0, -1.0]
    assert shapes['polyline'].params['points'] == [[[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]]
    assert shapes['empty'].type == 'empty'


def test_actor_script_and_waypoints_are_read() -> None:
    result = load_file(DATA / 'sensors_plugins.sdf')
    assert result.document is not None
    actor = result.document.worlds[0].actors[0]
    assert actor.skin_filename == 'moonwalk.dae'
    assert (actor.loop, actor.delay_start, actor.auto_start) == (False, 1.5, False)
    traj = actor.trajectories[0]
    assert (traj.id, traj.type, traj.tension) == (7, 'walk', 0.3)
    assert [w.time for w in traj.waypoints] == [0.0, 1.5]
    assert traj.waypoints[1].pose.value.p == (1.0, 0.0, 0.0)


def test_include_overrides_and_merge(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv('SDF_PATH', str(DATA / 'models'))
    result = load_file(DATA / 'includes.sdf')
    assert result.valid, [str(d) for d in result.errors]
    assert result.document is not None
    world = result.document.worlds[0]
    names = [m.name for m in world.models]
    assert names == ['box_bot', 'bot2', 'bot3', 'host']
    assert world.models[1].static is True and world.models[2].placement_frame == 'sensor_frame'
    host = world.models[3]
    # merge="true": the included links live in the host, with the proxy frame.
    assert {lk.name for lk in host.links} == {'h', 'm_base', 'm_tip'}
    assert '_merged__merge_me__model__' in {f.name for f in host.frames}
    assert [m.name for m in host.models] == ['carried']


def test_model_config_picks_highest_supported_version(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv('SDF_PATH', str(DATA / 'models'))
    result = load_file(DATA / 'models' / 'box_bot')
    assert result.document is not None and result.document.model is not None
    assert result.document.model.name == 'box_bot' and result.document.version == '1.8'
