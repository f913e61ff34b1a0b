"""MJCF written to a file ships with its assets: meshes (converted ones too) copied to the assets
directory and named relative to it, so the model loads in MuJoCo after it is moved."""
from __future__ import annotations

import shutil
from pathlib import Path

import mujoco
import pytest
import trimesh
from lxml import etree

from sdf_tools.convert.api import convert_file
from sdf_tools.convert.options import ConversionOptions

URDF = """<robot name="shipped">
  <link name="base">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <visual><geometry><mesh filename="a/part.stl"/></geometry></visual>
    <collision><geometry><mesh filename="b/part.stl"/></geometry></collision>
  </link>
  <link name="arm">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <visual><geometry><mesh filename="a/shell.ply"/></geometry></visual>
  </link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <origin xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""


@pytest.fixture
def source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv('SDF_TOOLS_MESH_CACHE', str(tmp_path / 'cache'))
    src = tmp_path / 'src'
    for folder, size in (('a', 0.1), ('b', 0.2)):
        (src / folder).mkdir(parents=True)
        (src / folder / 'part.stl').write_bytes(
            trimesh.creation.box((size, size, size)).export(file_type='stl'))
    (src / 'a' / 'shell.ply').write_bytes(trimesh.creation.icosphere(1).export(file_type='ply'))
    (src / 'robot.urdf').write_text(URDF)
    return src / 'robot.urdf'


def _files(path: Path) -> dict[str, str]:
    root = etree.parse(str(path)).getroot()
    return {str(el.get('name')): str(el.get('file')) for el in root.iterfind('asset/mesh')}


def test_meshes_are_copied_next_to_the_output_and_named_relatively(source: Path,
                                                                  tmp_path: Path) -> None:
    out = tmp_path / 'out' / 'robot.xml'
    out.parent.mkdir()
    result = convert_file(source, to='mjcf', output_path=out, options=ConversionOptions())
    assert result.ok, [str(d) for d in result.report.errors]
    assert out.read_text() == result.text
    files = _files(out)
    assert sorted(files.values()) == ['part.stl', 'part_2.stl', 'shell.obj']  # .ply converted
    assert etree.parse(str(out)).getroot().find('compiler').get('assetdir') == 'assets'  # type: ignore[union-attr]
    assert {p.name for p in (out.parent / 'assets').iterdir()} == set(files.values())
    moved = tmp_path / 'elsewhere' / 'model'
    shutil.move(str(out.parent), str(moved))
    shutil.rmtree(source.parent)
    shutil.rmtree(tmp_path / 'cache')
    m = mujoco.MjModel.from_xml_path(str(moved / 'robot.xml'))
    sizes = sorted(round(float(m.mesh_vert[m.mesh_vertadr[k]:m.mesh_vertadr[k] + m.mesh_vertnum[k]]
                               .max()), 6) for k in range(m.nmesh))
    assert sizes[:2] == [0.05, 0.1]  # each part.stl its own box


def test_assets_dir_option_puts_them_elsewhere(source: Path, tmp_path: Path) -> None:
    out = tmp_path / 'robot.xml'
    opts = ConversionOptions(assets_dir='share/meshes')
    assert convert_file(source, to='mjcf', output_path=out, options=opts).ok
    root = etree.parse(str(out)).getroot()
    assert root.find('compiler').get('assetdir') == 'share/meshes'  # type: ignore[union-attr]
    assert (tmp_path / 'share' / 'meshes' / 'shell.obj').is_file()
    assert mujoco.MjModel.from_xml_path(str(out)).nmesh == 3
