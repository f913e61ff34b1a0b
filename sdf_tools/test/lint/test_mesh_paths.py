"""Meshes found as ROS and Gazebo find them; a mesh not found says where it was looked for, once."""
from __future__ import annotations

from pathlib import Path

import pytest

from sdf_tools.errors import ErrorCode
from sdf_tools.lint import MeshPaths, lint
from sdf_tools.load import load_file
from sdf_tools.resolved import resolve

CUBE_STL = """solid c
facet normal 0 0 1
outer loop
vertex 0 0 0
vertex 1 0 0
vertex 0 1 0
endloop
endfacet
endsolid c
"""


def _mesh(root: Path, rel: str) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(CUBE_STL)
    return p


def test_package_uri_from_the_package_option_first(tmp_path: Path) -> None:
    want = _mesh(tmp_path / 'given', 'meshes/a.stl')
    _mesh(tmp_path / 'ros' / 'robot', 'meshes/a.stl')
    env = {'ROS_PACKAGE_PATH': str(tmp_path / 'ros')}
    found = MeshPaths({'robot': tmp_path / 'given'}, env).find('package://robot/meshes/a.stl', None)
    assert found.path == want


def test_package_uri_through_the_ament_index(tmp_path: Path) -> None:
    prefix = tmp_path / 'install'
    (prefix / 'share' / 'ament_index' / 'resource_index' / 'packages').mkdir(parents=True)
    (prefix / 'share' / 'ament_index' / 'resource_index' / 'packages' / 'robot').write_text('')
    want = _mesh(prefix / 'share' / 'robot', 'meshes/a.stl')
    env = {'AMENT_PREFIX_PATH': f'{tmp_path / "other"}:{prefix}'}
    assert MeshPaths({}, env).find('package://robot/meshes/a.stl', None).path == want


def test_package_uri_crawled_under_ros_package_path_by_its_manifest(tmp_path: Path) -> None:
    # rospack finds a package by the name in its package.xml, however deep and however named.
    pkg = tmp_path / 'src' / 'stack' / 'robot_description_dir'
    pkg.mkdir(parents=True)
    (pkg / 'package.xml').write_text('<package format="3"><name>robot</name></package>')
    want = _mesh(pkg, 'meshes/a.stl')
    env = {'ROS_PACKAGE_PATH': str(tmp_path / 'src')}
    assert MeshPaths({}, env).find('package://robot/meshes/a.stl', None).path == want


def test_model_uri_through_the_resource_paths_and_relative_beside_the_file(tmp_path: Path) -> None:
    want = _mesh(tmp_path / 'models' / 'thing', 'meshes/a.stl')
    env = {'GZ_SIM_RESOURCE_PATH': str(tmp_path / 'models')}
    assert MeshPaths({}, env).find('model://thing/meshes/a.stl', None).path == want
    assert MeshPaths({}, {}).find('meshes/a.stl', tmp_path / 'models' / 'thing').path == want
    # A model's own file names its meshes through its own directory's name, with no path set.
    assert MeshPaths({}, {}).find('model://thing/meshes/a.stl', tmp_path / 'models' / 'thing').path == want


def test_not_found_says_every_place_tried(tmp_path: Path) -> None:
    env = {'AMENT_PREFIX_PATH': str(tmp_path / 'install'), 'ROS_PACKAGE_PATH': str(tmp_path / 'src')}
    found = MeshPaths({}, env).find('package://robot/meshes/a.stl', None)
    assert found.path is None
    text = '; '.join(found.tried)
    assert '--package robot=DIR not given' in text
    assert 'ament index: no package [robot]' in text
    assert f'ROS_PACKAGE_PATH root {tmp_path / "src"}: no package [robot]' in text


@pytest.fixture
def four_wheels(tmp_path: Path) -> Path:
    wheels = ''.join(
        f'<link name="w{i}"><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy>'
        '<izz>0.01</izz></inertia></inertial><visual name="v"><geometry><mesh>'
        '<uri>package://nowhere/meshes/wheel.stl</uri></mesh></geometry></visual></link>'
        for i in range(4))
    path = tmp_path / 'car.sdf'
    path.write_text(f'<?xml version="1.0"?><sdf version="1.9"><model name="car">{wheels}</model></sdf>')
    return path


def test_a_missing_mesh_is_one_finding_however_many_links_use_it(four_wheels: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv('AMENT_PREFIX_PATH', raising=False)
    monkeypatch.delenv('ROS_PACKAGE_PATH', raising=False)
    found = [f for f in lint(resolve(load_file(str(four_wheels)))).findings
             if f.code is ErrorCode.MESH_UNRESOLVED]
    assert len(found) == 1
    msg = found[0].message
    assert 'package://nowhere/meshes/wheel.stl' in msg and 'looked in' in msg
    assert 'AMENT_PREFIX_PATH is not set' in msg and 'used by 4 shapes of 4 link(s)' in msg
    assert found[0].subject == 'car::w0'
