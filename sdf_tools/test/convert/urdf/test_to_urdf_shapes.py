"""SDF -> URDF: shapes URDF lacks, materials, and what goes into <gazebo> blocks."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from lxml import etree

from convert.urdf.urdf_readback import TOL, by_name, convert, load, pose_diff, readback
from sdf_tools.convert import ReportKind
from sdf_tools.resolved import inspect_json
from sdf_tools.transform import Transform

DATA = Path(__file__).resolve().parents[2] / 'data'


def _link_xml(write_sdf: Callable[..., Path], body: str, **options: object
              ) -> tuple[etree._Element, list[tuple[ReportKind, str, str]]]:
    path = write_sdf(f'<model name="m"><link name="l">{body}</link></model>')
    result = convert(load(str(path)), **options)
    assert result.ok, result.report.errors
    entries = [(e.kind, e.element, e.message) for e in result.report.entries]
    return etree.fromstring(result.text.encode()), entries


def _shapes(robot: etree._Element, tag: str = 'visual') -> list[tuple[str, dict[str, str]]]:
    return [(v.get('name'), {**v.find('geometry')[0].attrib, 'shape': v.find('geometry')[0].tag})
            for v in robot.find("link[@name='l']").findall(tag)]


@pytest.mark.parametrize('shape,written', [
    ('<box><size>1 2 3</size></box>', [{'shape': 'box', 'size': '1 2 3'}]),
    ('<sphere><radius>0.5</radius></sphere>', [{'shape': 'sphere', 'radius': '0.5'}]),
    ('<cylinder><radius>0.5</radius><length>2</length></cylinder>',
     [{'shape': 'cylinder', 'radius': '0.5', 'length': '2'}]),
    ('<mesh><uri>package://p/m.dae</uri><scale>1 2 3</scale></mesh>',
     [{'shape': 'mesh', 'filename': 'package://p/m.dae', 'scale': '1 2 3'}]),
])
def test_shapes_urdf_has_are_written_as_they_are(write_sdf: Callable[..., Path], shape: str,
                                                 written: list[dict[str, str]]) -> None:
    robot, entries = _link_xml(write_sdf, f'<visual name="v"><geometry>{shape}</geometry></visual>')
    assert [attrs for _, attrs in _shapes(robot)] == written
    assert not [e for e in entries if e[1].startswith('link[l]/visual')]


@pytest.mark.parametrize('shape,written,kind', [
    ('<capsule><radius>0.2</radius><length>1</length></capsule>',
     [{'shape': 'cylinder', 'radius': '0.2', 'length': '1'}, {'shape': 'sphere', 'radius': '0.2'},
      {'shape': 'sphere', 'radius': '0.2'}], ReportKind.REWRITTEN),
    ('<ellipsoid><radii>0.3 0.3 0.3</radii></ellipsoid>', [{'shape': 'sphere', 'radius': '0.3'}],
     ReportKind.REWRITTEN),
    ('<ellipsoid><radii>0.1 0.2 0.3</radii></ellipsoid>', [{'shape': 'box', 'size': '0.2 0.4 0.6'}],
     ReportKind.APPROXIMATED),
    ('<cone><radius>0.5</radius><length>2</length></cone>',
     [{'shape': 'cylinder', 'radius': '0.5', 'length': '2'}], ReportKind.APPROXIMATED),
    ('<plane><normal>0 0 1</normal><size>4 5</size></plane>',
     [{'shape': 'box', 'size': '4 5 0.01'}], ReportKind.APPROXIMATED),
    ('<heightmap><uri>h.png</uri><size>10 20 3</size><pos>1 0 0</pos></heightmap>',
     [{'shape': 'box', 'size': '10 20 3'}], ReportKind.APPROXIMATED),
    ('<polyline><point>0 0</point><point>2 0</point><point>0 1</point><height>3</height></polyline>',
     [{'shape': 'box', 'size': '2 1 3'}], ReportKind.APPROXIMATED),
    ('<image><uri>i.png</uri><scale>1</scale><threshold>200</threshold><height>1</height>'
     '<granularity>1</granularity></image>', [], ReportKind.DROPPED),
    ('<empty/>', [], ReportKind.DROPPED),
])
def test_shapes_urdf_lacks_get_their_documented_stand_in(
        write_sdf: Callable[..., Path], shape: str, written: list[dict[str, str]],
        kind: ReportKind) -> None:
    robot, entries = _link_xml(write_sdf, f'<collision name="c"><geometry>{shape}</geometry></collision>')
    assert [attrs for _, attrs in _shapes(robot, 'collision')] == written
    assert [e[0] for e in entries if e[1] == 'link[l]/collision[c]'] == [kind]


def test_capsule_parts_sit_at_its_ends(write_sdf: Callable[..., Path]) -> None:
    robot, _ = _link_xml(write_sdf, '<visual name="v"><pose>0 0 1 0 0 0</pose><geometry><capsule>'
                         '<radius>0.2</radius><length>1</length></capsule></geometry></visual>')
    origins = [v.find('origin').get('xyz') for v in robot.iter('visual')]
    assert origins == ['0 0 1', '0 0 1.5', '0 0 0.5']


def test_plane_box_lies_below_the_plane_along_its_normal(write_sdf: Callable[..., Path]) -> None:
    robot, _ = _link_xml(write_sdf, '<collision name="c"><geometry><plane><normal>1 0 0</normal>'
                         '<size>2 2</size></plane></geometry></collision>')
    origin = robot.find('link/collision/origin')
    xyz = [float(v) for v in origin.get('xyz').split()]
    rpy = [float(v) for v in origin.get('rpy').split()]
    assert xyz == pytest.approx([-0.005, 0, 0], abs=1e-15)
    z_axis = Transform.from_xyz_rpy((0.0, 0.0, 0.0), (rpy[0], rpy[1], rpy[2])).rotate((0.0, 0.0, 1.0))
    assert z_axis == pytest.approx((1, 0, 0), abs=1e-15)


def test_visual_posed_relative_to_a_frame_reads_back_in_place(data_dir: Path) -> None:
    loaded = load(str(data_dir / 'sdf' / 'geometry_all.sdf'))
    back = readback(convert(loaded).text)
    src = {v['name']: v for v in by_name(inspect_json(loaded)['links'], 'shapes')['l']['visuals']}
    got = inspect_json(back)['links'][0]['visuals']
    # Our URDF reader names visuals as libsdformat does: <link>_fixed_joint_lump__<name>_visual_<i>.
    for name in ('box', 'capsule'):
        [other] = [v for v in got if v['name'].startswith(f'l_fixed_joint_lump__{name}_visual')]
        assert pose_diff(src[name]['pose'], other['pose']) <= TOL


def test_material_keeps_its_colour_and_reports_the_rest(write_sdf: Callable[..., Path]) -> None:
    robot, entries = _link_xml(write_sdf, '<visual name="v"><geometry><sphere><radius>1</radius>'
                               '</sphere></geometry><material><ambient>0 0 1 1</ambient><diffuse>1 0 0 '
                               '0.5</diffuse><script><uri>file://media/materials/scripts/gazebo.material</uri>'
                               '<name>Gazebo/Red</name></script></material>'
                               '<cast_shadows>false</cast_shadows></visual>')
    material = robot.find('link/visual/material')
    assert material.get('name') == 'l__v' and material.find('color').get('rgba') == '1 0 0 0.5'
    lost = {e[1]: e[2] for e in entries if e[0] is ReportKind.DROPPED}
    assert 'script' in lost['link[l]/visual[v]/material']
    assert 'cast_shadows' in lost['link[l]/visual[v]']


def test_collision_surface_is_reported_lost(write_sdf: Callable[..., Path]) -> None:
    _, entries = _link_xml(write_sdf, '<collision name="c"><geometry><sphere><radius>1</radius>'
                           '</sphere></geometry><surface><friction><ode><mu>0.5</mu></ode></friction>'
                           '</surface></collision>')
    assert any(e[1] == 'link[l]/collision[c]' and 'surface' in e[2] for e in entries)


def test_visual_as_collision_copies_visuals(write_sdf: Callable[..., Path]) -> None:
    robot, entries = _link_xml(write_sdf, '<visual name="v"><geometry><box><size>1 1 1</size></box>'
                               '</geometry></visual>', visual_as_collision=True)
    assert [n for n, _ in _shapes(robot, 'collision')] == ['v']
    assert any(e[0] is ReportKind.REWRITTEN and e[1] == 'link[l]' for e in entries)


def test_mesh_uris_can_be_made_absolute(tmp_path: Path, write_sdf: Callable[..., Path]) -> None:
    (tmp_path / 'meshes').mkdir()
    (tmp_path / 'meshes' / 'part.stl').write_text('solid x\nendsolid x\n')
    body = ('<visual name="v"><geometry><mesh><uri>meshes/part.stl</uri></mesh></geometry></visual>'
            '<visual name="w"><geometry><mesh><uri>meshes/none.stl</uri></mesh></geometry></visual>')
    robot, entries = _link_xml(write_sdf, body, uris='file')
    files = [m.get('filename') for m in robot.iter('mesh')]
    assert files == [(tmp_path / 'meshes' / 'part.stl').resolve().as_uri(), 'meshes/none.stl']
    assert any('meshes/none.stl' in e[2] and 'not found' in e[2] for e in entries)
    _, kept = _link_xml(write_sdf, body)
    assert any(e[0] is ReportKind.KEPT and 'file://' in e[2] for e in kept)


def test_sensors_lights_and_plugins_go_into_gazebo_blocks(data_dir: Path) -> None:
    result = convert(load(str(data_dir / 'sdf' / 'sensors_plugins.sdf')))
    robot = etree.fromstring(result.text.encode())
    model_block = robot.find('gazebo[@reference]/..').find('gazebo')
    assert model_block.get('reference') is None
    assert model_block.find('plugin').get('name') == 'my_plugin'
    assert model_block.find('plugin/param').text == '3'
    assert model_block.find('self_collide').text == 'true'
    link_block = robot.find("gazebo[@reference='base']")
    assert [s.get('name') for s in link_block.findall('sensor')] == ['cam', 'imu']
    assert link_block.find('sensor/pose').text == '0.1 0 0.2 0 0 0'
    assert link_block.find('light').get('name') == 'lamp'
    dropped = {e.element for e in result.report.entries if e.kind is ReportKind.DROPPED}
    assert {'link[base]/sensor[cam]', 'link[base]/sensor[imu]', 'link[base]/light[lamp]',
            'model[robot]/plugin[my_plugin]', 'world[stuff]/actor[act]',
            'world[stuff]/plugin[gz::sim::systems::Physics]', 'world[stuff]/light[sun]'} <= dropped


def test_sensor_posed_relative_to_a_frame_is_rewritten_in_its_link() -> None:
    result = convert(load(str(DATA / 'convert_urdf' / 'arm_offsets.sdf')))
    robot = etree.fromstring(result.text.encode())
    pose = robot.find("gazebo[@reference='upper']/sensor/pose")
    assert pose.text == '0.4 0 0.05 0 0 0' and not pose.attrib


def test_link_flags_go_into_gazebo_blocks(write_sdf: Callable[..., Path]) -> None:
    robot, entries = _link_xml(write_sdf, '<gravity>false</gravity><self_collide>true</self_collide>'
                               '<kinematic>true</kinematic>')
    block = robot.find("gazebo[@reference='l']")
    assert block.find('turnGravityOff').text == 'true'
    assert block.find('selfCollide').text == 'true'
    assert block.find('kinematic').text == 'true'
    assert any(e[1] == 'link[l]' and 'gravity' in e[2] for e in entries)


def test_static_model_is_fixed_to_the_world_and_marked_static(data_dir: Path) -> None:
    result = convert(load(str(data_dir / 'sdf' / 'geometry_all.sdf')))
    robot = etree.fromstring(result.text.encode())
    assert robot.find('gazebo/static').text == 'true'
    assert robot.find("joint[@name='l__fixed']/parent").get('link') == 'world'
