"""xmlsafe: kept elements parse again even with the undeclared prefixes libsdformat tolerates."""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from sdf_tools.convert.api import convert_file
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file
from sdf_tools.xmlsafe import parse_kept

# gz-sim's examples/worlds/skid_steer_mecanum.sdf: <fdir1 gz:expressed_in> with no
# xmlns:gz anywhere in the file. The MJCF export crashed re-reading the kept <surface>.
MECANUM = '''<?xml version="1.0"?>
<sdf version="1.9"><model name="wheel">
  <link name="rim">
    <collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry>
      <surface><friction><ode><mu>1.0</mu><mu2>0.0</mu2>
        <fdir1 gz:expressed_in="rim">1 -1 0</fdir1></ode></friction></surface>
    </collision>
  </link>
</model></sdf>
'''


def test_parse_kept_reads_an_undeclared_prefix_and_still_refuses_broken_xml() -> None:
    el = parse_kept('<fdir1 gz:expressed_in="rim">1 -1 0</fdir1>')
    assert el.get('gz:expressed_in') == 'rim' and el.text == '1 -1 0'
    with pytest.raises(etree.XMLSyntaxError):
        parse_kept('<fdir1>')


@pytest.mark.parametrize('suffix', ['.mjcf', '.usda', '.urdf', '.sdf'])
def test_an_undeclared_prefix_in_a_kept_element_converts_to_every_format(
        suffix: str, tmp_path: Path) -> None:
    src = tmp_path / 'mecanum.sdf'
    src.write_text(MECANUM)
    assert load_file(str(src)).valid
    result = convert_file(src, to=None, output_path=tmp_path / f'out{suffix}',
                          options=ConversionOptions())
    assert result.ok, result.report.errors


def test_the_usd_export_keeps_the_friction_of_a_surface_with_an_undeclared_prefix(
        tmp_path: Path) -> None:
    # It skipped the whole <surface> silently: its parse failed and was taken for no friction.
    src = tmp_path / 'mecanum.sdf'
    src.write_text(MECANUM)
    result = convert_file(src, to=None, output_path=tmp_path / 'out.usda',
                          options=ConversionOptions())
    assert result.ok, result.report.errors
    from pxr import Usd, UsdPhysics

    stage = Usd.Stage.Open(str(tmp_path / 'out.usda'))
    frictions = [UsdPhysics.MaterialAPI(p).GetStaticFrictionAttr().Get()
                 for p in stage.Traverse() if p.HasAPI(UsdPhysics.MaterialAPI)]
    assert frictions == [pytest.approx(0.5, abs=1e-9)]
