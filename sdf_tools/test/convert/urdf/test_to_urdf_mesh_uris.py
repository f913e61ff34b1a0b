"""SDF -> URDF mesh URIs RViz opens (issue 21 §3): ``--mesh-uris package|file|keep``."""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from sdf_tools.cli import main


def _package_and_model(tmp_path: Path) -> Path:
    """A ROS prefix holding package [meshes_pkg] (one mesh), and a model using three URI styles."""
    share = tmp_path / 'prefix' / 'share'
    (share / 'ament_index' / 'resource_index' / 'packages').mkdir(parents=True)
    (share / 'ament_index' / 'resource_index' / 'packages' / 'meshes_pkg').write_text('')
    (share / 'meshes_pkg' / 'meshes').mkdir(parents=True)
    (share / 'meshes_pkg' / 'meshes' / 'arm.stl').write_text('solid s\nendsolid s\n')
    model = tmp_path / 'models' / 'bot'
    (model / 'meshes').mkdir(parents=True)
    (model / 'meshes' / 'body.stl').write_text('solid s\nendsolid s\n')
    (tmp_path / 'gz' / 'bot' / 'meshes').mkdir(parents=True)
    (tmp_path / 'gz' / 'bot' / 'meshes' / 'wheel.stl').write_text('solid s\nendsolid s\n')
    vis = '<visual name="{0}"><geometry><mesh><uri>{1}</uri></mesh></geometry></visual>'
    (model / 'model.sdf').write_text(
        '<sdf version="1.9"><model name="bot"><link name="l">'
        + vis.format('a', 'package://meshes_pkg/meshes/arm.stl')
        + vis.format('b', 'meshes/body.stl')           # relative to the file (DART's atlas)
        + vis.format('c', 'file://meshes/body.stl')    # gym-ignition's panda
        + vis.format('d', 'model://bot/meshes/wheel.stl')  # example-robot-data's cassie
        + '</link></model></sdf>')
    return model / 'model.sdf'


def _uris(path: Path) -> list[str]:
    return [m.get('filename') for m in etree.parse(str(path)).iter('mesh')]


@pytest.fixture
def model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    sdf = _package_and_model(tmp_path)
    monkeypatch.setenv('AMENT_PREFIX_PATH', str(tmp_path / 'prefix'))
    monkeypatch.setenv('GZ_SIM_RESOURCE_PATH', str(tmp_path / 'gz'))
    monkeypatch.delenv('ROS_PACKAGE_PATH', raising=False)
    return sdf


def test_mesh_uris_package_writes_package_or_absolute_file_uris(model: Path, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]
                                                                ) -> None:
    out = tmp_path / 'bot.urdf'
    assert main(['convert', str(model), '-o', str(out), '--mesh-uris', 'package']) == 0
    body = (model.parent / 'meshes' / 'body.stl').resolve().as_uri()
    wheel = (tmp_path / 'gz' / 'bot' / 'meshes' / 'wheel.stl').resolve().as_uri()
    assert _uris(out) == ['package://meshes_pkg/meshes/arm.stl', body, body, wheel]
    assert 'mesh URI [model://bot/meshes/wheel.stl] written as' in out.read_text()  # reported


def test_mesh_uris_keep_passes_them_through(model: Path, tmp_path: Path) -> None:
    out = tmp_path / 'bot.urdf'
    assert main(['convert', str(model), '-o', str(out), '--mesh-uris', 'keep']) == 0
    assert _uris(out) == ['package://meshes_pkg/meshes/arm.stl', 'meshes/body.stl',
                          'file://meshes/body.stl', 'model://bot/meshes/wheel.stl']
