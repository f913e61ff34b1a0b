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
