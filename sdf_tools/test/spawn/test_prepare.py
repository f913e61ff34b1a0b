"""Model preparation: formats, validation with file:line, conversion, URIs, namespace, world models."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from lxml import etree

from sdf_tools.load import load_string
from sdf_tools.spawn import ModelSource, ResultCode, prepare_model
from sdf_tools.spawn.result import SpawnError

DATA = Path(__file__).resolve().parents[1] / 'data' / 'spawn'
EXAMPLES = Path(__file__).resolve().parents[2] / 'sdf_tools' / 'examples'


@pytest.fixture
def resources(monkeypatch: pytest.MonkeyPatch) -> None:
    """model://shelf and package://rover_description resolve to the test data."""
    monkeypatch.setenv('GZ_SIM_RESOURCE_PATH', str(DATA / 'models'))
    prefix = str(DATA / 'prefix')
    monkeypatch.setenv('AMENT_PREFIX_PATH', os.pathsep.join([prefix, os.environ.get('AMENT_PREFIX_PATH', '')]))


def fails(source: ModelSource, **kwargs: str) -> SpawnError:
    with pytest.raises(SpawnError) as info:
        prepare_model(source, **kwargs)
    return info.value


def uris(sdf: str) -> list[str]:
    return [(el.text or '').strip() for el in etree.fromstring(sdf.encode()).iter('uri')]


def test_no_model_at_all_is_no_resource() -> None:
    assert fails(ModelSource()).code is ResultCode.NO_RESOURCE


def test_a_missing_file_is_not_found() -> None:
    err = fails(ModelSource(file='no/such/robot.urdf'))
    assert err.code is ResultCode.NOT_FOUND and '[no/such/robot.urdf]' in err.message


@pytest.mark.parametrize('text,suffix', [('<mujoco model="m"/>', ''), ('solid x', '.stl')])
def test_other_formats_are_unsupported(tmp_path: Path, text: str, suffix: str) -> None:
    path = tmp_path / f'model{suffix or ".xml"}'
    path.write_text(text)
    assert fails(ModelSource(file=str(path))).code is ResultCode.UNSUPPORTED_FORMAT


def test_an_unknown_format_name_is_unsupported() -> None:
    assert fails(ModelSource(text='<sdf/>', format='mjcf')).code is ResultCode.UNSUPPORTED_FORMAT


def test_broken_xml_is_a_parse_error_with_its_line() -> None:
    err = fails(ModelSource(text='<sdf version="1.9">\n<model name="m">\n</sdf>', source_name='m.sdf'))
    assert err.code is ResultCode.RESOURCE_PARSE_ERROR
    assert err.diagnostics and err.diagnostics[0].file == 'm.sdf' and err.diagnostics[0].line == 3


def test_an_invalid_model_gives_every_error_with_file_and_line() -> None:
    err = fails(ModelSource(file=str(DATA / 'invalid.sdf')))
    assert err.code is ResultCode.RESOURCE_PARSE_ERROR
    where = {(d.code.value, d.line) for d in err.diagnostics}
    assert ('DUPLICATE_NAME', 6) in where and ('JOINT_CHILD_LINK_INVALID', 7) in where


def test_a_declared_format_that_does_not_match_is_refused() -> None:
    err = fails(ModelSource(file=str(DATA / 'store.sdf'), format='urdf'))
    assert err.code is ResultCode.RESOURCE_PARSE_ERROR and '<sdf>' in err.message


def test_sdf_with_nested_models_and_include_is_sent_with_absolute_uris(resources: None) -> None:
    model = prepare_model(ModelSource(file=str(DATA / 'store.sdf')))
    assert (model.model_name, model.format) == ('store', 'sdf')
    assert uris(model.sdf) == [str(DATA / 'meshes' / 'body.stl'), str(DATA / 'models' / 'shelf')]
    assert load_string(model.sdf).valid  # loads anywhere, as Gazebo gets it


def test_uris_model_mode_keeps_model_uris(resources: None) -> None:
    model = prepare_model(ModelSource(file=str(DATA / 'store.sdf')), uris='model')
    assert uris(model.sdf) == [str(DATA / 'meshes' / 'body.stl'), 'model://shelf']


def test_a_missing_include_is_missing_assets() -> None:
    err = fails(ModelSource(file=str(DATA / 'store.sdf')))  # no resource path: model://shelf unknown
    assert err.code is ResultCode.MISSING_ASSETS
    assert any(d.line == 25 and 'model://shelf' in d.message for d in err.diagnostics)


def test_urdf_is_converted_with_its_gazebo_tags_and_resolvable_meshes(resources: None) -> None:
    model = prepare_model(ModelSource(file=str(DATA / 'robot.urdf')))
    assert (model.model_name, model.format) == ('robot', 'urdf')
    root = etree.fromstring(model.sdf.encode())
    assert root.tag == 'sdf' and root.find('model/link/collision/surface/friction/ode/mu').text == '0.8'
    for uri in uris(model.sdf):
        assert Path(uri.removeprefix('file://')).is_file(), uri
    assert any('converted from URDF' in n for n in model.notes)


def test_urdf_meshes_that_do_not_exist_are_missing_assets_with_their_line() -> None:
    err = fails(ModelSource(file=str(DATA / 'missing_mesh.urdf')))
    assert err.code is ResultCode.MISSING_ASSETS
    assert [(Path(d.file or '').name, d.line) for d in err.diagnostics] == [('missing_mesh.urdf', 10)]
    assert '[meshes/not_there.dae]' in err.diagnostics[0].message


def test_a_package_uri_of_an_unknown_package_is_missing_assets() -> None:
    err = fails(ModelSource(file=str(DATA / 'robot.urdf')))
    assert err.code is ResultCode.MISSING_ASSETS
    assert 'package://rover_description' in err.diagnostics[0].message


def test_xacro_is_expanded_with_its_arguments() -> None:
    model = prepare_model(ModelSource(file=str(DATA / 'rover.urdf.xacro'),
                                      xacro_args={'robot_name': 'scout', 'wheel_y': '0.3'}))
    assert (model.model_name, model.format) == ('scout', 'xacro')
    names = {el.get('name') for el in etree.fromstring(model.sdf.encode()).iter('link')}
    assert names == {'scout_base', 'scout_wheel'}
    assert '0 0.3 0' in model.sdf


def test_xacro_given_as_text_is_expanded() -> None:
    text = (DATA / 'rover.urdf.xacro').read_text()
    model = prepare_model(ModelSource(text=text, xacro_args={'robot_name': 'r2'}))
    assert model.model_name == 'r2'


def test_broken_xacro_is_a_parse_error() -> None:
    err = fails(ModelSource(text='<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="${oops"/>'))
    assert err.code is ResultCode.RESOURCE_PARSE_ERROR


def test_namespace_goes_into_ros_plugins_only(resources: None) -> None:
    model = prepare_model(ModelSource(file=str(DATA / 'robot.urdf')), namespace='/fleet/r1')
    plugin = etree.fromstring(model.sdf.encode()).find('model/plugin')
    assert plugin is not None and plugin.findtext('ros/namespace') == '/fleet/r1'
    assert any('ROS namespace set to [/fleet/r1]' in n for n in model.notes)


def test_a_world_model_is_cut_out_where_the_world_puts_it() -> None:
    model = prepare_model(ModelSource(file=str(EXAMPLES / 'demo_world.sdf'), model='rover'))
    assert model.model_name == 'rover'
    root = etree.fromstring(model.sdf.encode())
    assert root.find('model').get('placement_frame') is None
    xyzrpy = [float(v) for v in root.findtext('model/pose').split()]
    assert xyzrpy == pytest.approx([2.0, 1.0, 0.0, 0.0, 0.0, 1.5707963267948966])


def test_a_world_without_that_model_is_not_found() -> None:
    err = fails(ModelSource(file=str(EXAMPLES / 'demo_world.sdf'), model='boat'))
    assert err.code is ResultCode.NOT_FOUND and '[rover]' in err.message


def test_keeping_a_relative_include_is_missing_assets_as_gazebo_would_see_it(
        tmp_path: Path) -> None:
    (tmp_path / 'models').symlink_to(EXAMPLES / 'models')
    (tmp_path / 'world.sdf').write_text(
        '<sdf version="1.9"><world name="w"><model name="rover"><link name="base"/>'
        '<include><uri>models/sensor_mast</uri><name>mast</name></include>'
        '</model></world></sdf>')
    err = fails(ModelSource(file=str(tmp_path / 'world.sdf'), model='rover'), uris='keep')
    assert err.code is ResultCode.MISSING_ASSETS and 'uris=keep' in err.message
    assert any('models/sensor_mast' in d.message for d in err.diagnostics)


def test_sdf_text_that_mentions_xacro_is_still_sdf() -> None:
    text = '<!-- made with xacro once --><sdf version="1.9"><model name="m"><link name="l"/></model></sdf>'
    model = prepare_model(ModelSource(text=text))
    assert (model.model_name, model.format) == ('m', 'sdf')
