"""The Convert service writes an output file as ``sdf_tools convert`` does (convert_request)."""
from __future__ import annotations

from pathlib import Path

import pytest
import trimesh

from sdf_tools.ros.convert_request import ConvertRequest, handle_convert

# The engines are extras of the Kilted environment; CI's Jazzy pass (requirements-jazzy.txt:
# only what the ROS tests need) runs the ROS tests without them, and the Kilted pass runs these.
mujoco = pytest.importorskip('mujoco')
pxr = pytest.importorskip('pxr')

URDF = """<robot name="shipped">
  <link name="base">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <visual><geometry><mesh filename="meshes/part.stl"/></geometry></visual>
  </link>
</robot>
"""


@pytest.fixture
def source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv('SDF_TOOLS_MESH_CACHE', str(tmp_path / 'cache'))
    (tmp_path / 'src' / 'meshes').mkdir(parents=True)
    (tmp_path / 'src' / 'meshes' / 'part.stl').write_bytes(
        trimesh.creation.box((0.1, 0.2, 0.3)).export(file_type='stl'))
    (tmp_path / 'src' / 'robot.urdf').write_text(URDF)
    return tmp_path / 'src' / 'robot.urdf'


@pytest.mark.parametrize('assets_dir', ['', 'share/meshes'])
def test_mjcf_output_file_ships_its_meshes(source: Path, tmp_path: Path, assets_dir: str) -> None:
    out = tmp_path / 'out' / 'robot.xml'
    out.parent.mkdir()
    options = f'assets_dir: {assets_dir}' if assets_dir else ''
    resp = handle_convert(ConvertRequest(input_path=str(source), output_path=str(out),
                                         output_format='mjcf', options_yaml=options))
    assert resp.success, resp.error_message
    assert out.read_text() == resp.output_text
    copied = sorted(p.name for p in (out.parent / (assets_dir or 'assets')).iterdir())
    assert copied == ['part.stl']
    source.unlink()
    (source.parent / 'meshes' / 'part.stl').unlink()  # the model loads without its source
    model = mujoco.MjModel.from_xml_path(str(out))
    assert model.nmesh == 1


def test_usdc_output_file_is_a_crate(source: Path, tmp_path: Path) -> None:
    out = tmp_path / 'robot.usdc'
    resp = handle_convert(ConvertRequest(input_path=str(source), output_path=str(out)))
    assert resp.success, resp.error_message
    assert out.read_bytes()[:8] == b'PXR-USDC'
    stage = pxr.Usd.Stage.Open(str(out))
    assert stage.GetPrimAtPath('/shipped/base').HasAPI(pxr.UsdPhysics.MassAPI)


def test_the_converters_are_imported_by_the_first_request_not_at_start() -> None:
    """bench_ros_startup: the converter's service came up 2 x the bare node's start, importing them."""
    import os
    import subprocess
    import sys
    code = ('import sys; import sdf_tools.ros.convert_request as c; '
            "print(sorted(m for m in ('sdf_tools.load', 'sdf_tools.convert.api', 'lxml', "
            "'sdf_tools.model') if m in sys.modules)); "
            "c.handle_convert(c.ConvertRequest(input_text='<robot name=\"r\"><link name=\"a\"/></robot>', "
            "output_format='sdf')); print('sdf_tools.convert.api' in sys.modules)")
    src = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, 'PYTHONPATH': os.pathsep.join([src, os.environ.get('PYTHONPATH', '')])}
    run = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=env,
                         timeout=60)
    assert run.stdout.split('\n')[:2] == ['[]', 'True'], run.stdout + run.stderr
