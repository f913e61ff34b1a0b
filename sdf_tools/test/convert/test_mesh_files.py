"""Mesh files for the exporters: found like Gazebo finds them, converted when a target cannot read them."""
from __future__ import annotations

import struct
from pathlib import Path

import pytest
import trimesh

from sdf_tools.convert.mesh_files import (
    MeshFile,
    convert_to_obj,
    find_mesh,
    obj_problem,
    stl_readable,
)
from sdf_tools.model import Geometry, Loc

CUBE = trimesh.creation.box((1.0, 2.0, 3.0))


def test_binary_stl_within_the_face_limit_is_readable(tmp_path: Path) -> None:
    binary, ascii_ = tmp_path / 'b.stl', tmp_path / 'a.stl'
    binary.write_bytes(CUBE.export(file_type='stl'))
    ascii_.write_text(CUBE.export(file_type='stl_ascii'))
    assert stl_readable(binary, 200000)
    assert not stl_readable(binary, 5)  # 12 triangles
    assert not stl_readable(ascii_, 200000)
    lying = tmp_path / 'lying.stl'  # a binary header that says "solid" but a wrong count
    lying.write_bytes(b'solid' + b' ' * 75 + struct.pack('<I', 7) + b'\0' * 50)
    assert not stl_readable(lying, 200000)


@pytest.mark.parametrize('text, problem', [
    ('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n', ''),
    ('v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -3\n', ''),
    ('v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n', 'not finite'),
    ('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n', 'missing v'),
    ('v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//2 3//1\n', 'missing vn'),
    ('v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvn 0 0 1\nf 1//1 2//1 3//1\nf 2 3 4\n', 'mix'),
])
def test_obj_problems_are_found(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / 'm.obj'
    path.write_text(text)
    got = obj_problem(path)
    assert (problem in got) if problem else got == ''


def test_find_mesh_resolves_relative_to_the_file_that_wrote_it(tmp_path: Path) -> None:
    (tmp_path / 'meshes').mkdir()
    (tmp_path / 'meshes' / 'c.stl').write_bytes(CUBE.export(file_type='stl'))
    geom = Geometry('mesh', {'uri': 'meshes/c.stl'}, Loc(str(tmp_path / 'robot.urdf'), 3))
    assert find_mesh(geom, None).path == (tmp_path / 'meshes' / 'c.stl').resolve()
    missing = find_mesh(Geometry('mesh', {'uri': 'package://nope/c.stl'}), tmp_path)
    assert missing.path is None and 'not found' in missing.problem


def test_conversion_keeps_the_triangles_and_caches(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv('SDF_TOOLS_MESH_CACHE', str(tmp_path / 'cache'))
    src = tmp_path / 'c.ply'
    src.write_bytes(CUBE.export(file_type='ply'))
    got = convert_to_obj(MeshFile('c.ply', src))
    assert got.path is not None and got.path.suffix == '.obj' and got.converted_from == src
    back = trimesh.load(str(got.path), force='mesh')
    assert abs(back.volume - CUBE.volume) < 1e-9
    assert convert_to_obj(MeshFile('c.ply', src)).path == got.path  # cached
    flat = tmp_path / 'tri.ply'
    flat.write_bytes(trimesh.Trimesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]]).export(
        file_type='ply'))
    assert 'fewer than 4' in convert_to_obj(MeshFile('tri.ply', flat)).problem
