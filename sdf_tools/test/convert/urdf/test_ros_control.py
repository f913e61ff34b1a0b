"""URDF -> SDFormat -> URDF keeps ``<ros2_control>`` and ``<transmission>`` (equal as canonical XML)."""
from __future__ import annotations

from pathlib import Path

from lxml import etree

from sdf_tools.convert.api import convert_file
from sdf_tools.convert.options import ConversionOptions

CONTROL = Path(__file__).resolve().parents[2] / 'data' / 'convert' / 'control.urdf'
TAGS = ('transmission', 'ros2_control')


def _canonical(path: Path) -> list[bytes]:
    parser = etree.XMLParser(remove_blank_text=True, remove_comments=True)
    root = etree.parse(str(path), parser).getroot()
    return [etree.tostring(el, method='c14n') for el in root if el.tag in TAGS]


def test_a_round_trip_through_sdformat_keeps_the_control_blocks(tmp_path: Path) -> None:
    sdf, back = tmp_path / 'control.sdf', tmp_path / 'control.urdf'
    first = convert_file(CONTROL, to=None, output_path=sdf, options=ConversionOptions())
    assert first.ok, first.report.errors
    second = convert_file(sdf, to=None, output_path=back, options=ConversionOptions())
    assert second.ok, second.report.errors
    want = _canonical(CONTROL)
    assert len(want) == 2 and _canonical(back) == want
    kept = [e for e in second.report.entries if e.element.endswith(TAGS)]
    assert {e.kind.value for e in kept} == {'kept'} and all(e.line for e in kept)


def test_urdf_to_urdf_keeps_the_control_blocks(tmp_path: Path) -> None:
    # kinova.urdf (example-robot-data) to URDF lost its transmissions: the URDF reader
    # keeps them with their plain tags, which only the urdf: namespaced form matched.
    out = tmp_path / 'control.urdf'
    result = convert_file(CONTROL, to='urdf', output_path=out, options=ConversionOptions())
    assert result.ok, result.report.errors
    want = _canonical(CONTROL)
    assert len(want) == 2 and _canonical(out) == want
    assert not [e for e in result.report.entries
                if e.kind.value == 'dropped' and e.element.endswith(TAGS)]


def test_urdf_to_urdf_keeps_each_visual_colour(tmp_path: Path) -> None:
    # kinova.urdf's colours: a robot-level material named by visuals, and one in place.
    source, out = tmp_path / 'colours.urdf', tmp_path / 'out.urdf'
    source.write_text(
        '<robot name="r"><material name="carbon"><color rgba="0.3 0.3 0.3 1"/></material>'
        '<link name="a"><visual><geometry><box size="1 1 1"/></geometry>'
        '<material name="carbon"/></visual>'
        '<visual><geometry><sphere radius="1"/></geometry>'
        '<material name="red"><color rgba="1 0 0 0.5"/></material></visual></link></robot>')
    result = convert_file(source, to='urdf', output_path=out, options=ConversionOptions())
    assert result.ok, result.report.errors
    colours = [v.find('material/color').get('rgba')
               for v in etree.parse(str(out)).getroot().iter('visual')]
    assert colours == ['0.3 0.3 0.3 1', '1 0 0 0.5']
    assert not [e for e in result.report.entries if e.kind.value == 'dropped']
