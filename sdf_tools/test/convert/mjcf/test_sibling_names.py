"""An MJCF import passes `gz sdf -k`: no two elements of a link share a name.

A MuJoCo geom that collides and is seen becomes an SDFormat collision and a visual; MJCF
also keeps geoms, sensors and sites apart. libsdformat loads siblings of the same name, but
the check users run (`ign sdf -k` / `gz sdf -k`, ``recursiveSiblingUniqueNames`` in every
version) refuses them. Judged by that check of libsdformat 12 (the probe's ``--ign-check``).
"""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree
from support.libsdformat import probe_available, probe_unavailable_reason, run_probe

from sdf_tools.convert.api import convert_input
from sdf_tools.convert.conversion_report import ReportKind
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.gazebo import using

FEATURES = Path(__file__).resolve().parents[2] / 'data' / 'mjcf' / 'features.xml'
# Body, joint, geom, site and sensor all named "arm"; a seen-only geom named like the
# visual the clash would make.
CLASH = '''<mujoco model="clash">
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1"/>
    <body name="arm" pos="0 0 1">
      <joint name="arm" type="hinge" axis="0 1 0"/>
      <geom name="arm" type="capsule" size="0.05 0.2"/>
      <site name="arm" pos="0 0 0.1"/>
      <body name="hand" pos="0 0 0.4">
        <joint name="wrist" type="hinge" axis="1 0 0"/>
        <geom name="hand" type="box" size="0.05 0.05 0.05"/>
        <geom name="hand_visual" type="sphere" size="0.03" contype="0" conaffinity="0"/>
      </body>
    </body>
  </worldbody>
  <sensor><accelerometer name="arm" site="arm"/></sensor>
</mujoco>
'''


def _import(path: Path, out: Path) -> list[tuple[str, str, int | None]]:
    with using('fortress'):  # SDFormat 1.9, which libsdformat 12 reads
        result = convert_input(path, to='sdf', options=ConversionOptions(), input_format='mjcf')
    assert result.ok and result.text is not None, [str(d) for d in result.report.errors]
    out.write_text(result.text)
    return [(e.element, e.message, e.line) for e in result.report.entries
            if e.kind is ReportKind.RENAMED]


def _names(path: Path, link: str) -> list[tuple[str, str]]:
    root = etree.parse(str(path)).getroot()
    return [(c.tag, c.get('name', '')) for c in root.iterfind(f'.//link[@name="{link}"]/*')
            if c.get('name') is not None]


@pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))
@pytest.mark.parametrize('source', ['clash', 'features'])
def test_an_mjcf_import_passes_gz_sdf_check(source: str, tmp_path: Path) -> None:
    path = FEATURES
    if source == 'clash':
        path = tmp_path / 'clash.xml'
        path.write_text(CLASH)
    out = tmp_path / 'out.sdf'
    _import(path, out)
    report = run_probe(out, ign_check=True)
    assert report['ign_check']['valid'], report['ign_check']['failed']


def test_the_collision_keeps_the_geoms_name_and_each_rename_is_reported(tmp_path: Path) -> None:
    path = tmp_path / 'clash.xml'
    path.write_text(CLASH)
    out = tmp_path / 'out.sdf'
    renamed = _import(path, out)
    assert _names(out, 'arm') == [('collision', 'arm'), ('visual', 'arm_visual'),
                                  ('sensor', 'arm_sensor')]
    # the geom named hand_visual keeps its name; the clashing visual takes the next one
    assert sorted(_names(out, 'hand')) == [('collision', 'hand'), ('visual', 'hand_visual'),
                                           ('visual', 'hand_visual2')]
    lines = CLASH.splitlines()
    by = {element: (message, line) for element, message, line in renamed}
    assert 'written as [arm_visual]' in by['visual[arm]'][0]
    assert lines[(by['visual[arm]'][1] or 0) - 1].strip().startswith('<geom name="arm"')
    assert 'written as [arm_sensor]' in by['sensor[arm]'][0]
    assert 'written as [hand_visual2]' in by['visual[hand]'][0]
