"""Custom and unknown children of a link or joint are reported lost in MJCF, with their lines.

The MJCF writer reads none of them; the report said "nothing lost" for a link's
``<foo:bar>`` or a ball joint's ``<sdf_tools:rotation_limits>`` (the USD import's limits of
a three-rotation joint), which MuJoCo then never saw.
"""
from __future__ import annotations

from pathlib import Path

import mujoco
from lxml import etree

from sdf_tools.convert.api import convert_file
from sdf_tools.convert.conversion_report import ReportKind
from sdf_tools.convert.options import ConversionOptions

MODEL = '''<?xml version="1.0"?>
<sdf version="1.9">
  <model name="m">
    <link name="a"><inertial><mass>1</mass></inertial>
      <foo:bar xmlns:foo="urn:foo">1</foo:bar>
    </link>
    <link name="b"><pose>0 0 1 0 0 0</pose><inertial><mass>1</mass></inertial></link>
    <joint name="j" type="ball">
      <parent>a</parent><child>b</child>
      <sdf_tools:rotation_limits xmlns:sdf_tools="urn:sdf_tools" x="-0.5 0.5" y="-1 1" z="-1 1"/>
    </joint>
    <link name="c"><pose>0 0 2 0 0 0</pose><inertial><mass>1</mass></inertial></link>
    <joint name="k" type="fixed">
      <parent>b</parent><child>c</child>
      <foo:baz xmlns:foo="urn:foo">2</foo:baz>
    </joint>
  </model>
</sdf>
'''


def test_custom_children_of_links_and_joints_are_reported_dropped(tmp_path: Path) -> None:
    src, out = tmp_path / 'm.sdf', tmp_path / 'm.xml'
    src.write_text(MODEL)
    result = convert_file(str(src), to='mjcf', output_path=str(out), options=ConversionOptions())
    assert result.ok
    lines = MODEL.splitlines()
    dropped = {e.element: e.line for e in result.report.entries if e.kind is ReportKind.DROPPED}
    expected = {'link[a]/{urn:foo}bar': '<foo:bar',
                'joint[j]/{urn:sdf_tools}rotation_limits': '<sdf_tools:rotation_limits',
                'joint[k]/{urn:foo}baz': '<foo:baz'}
    assert set(expected) <= set(dropped), dropped
    for element, start in expected.items():
        line = dropped[element]
        assert line is not None and lines[line - 1].strip().startswith(start), element
    m = mujoco.MjModel.from_xml_path(str(out))  # the output MuJoCo reads holds none of them
    assert m.njnt == 2  # the ball joint's; the freejoint of the root body
    tags = {el.tag for el in etree.parse(str(out)).iter() if isinstance(el.tag, str)}
    assert not {t for t in tags if t.startswith('{') or t in ('bar', 'baz', 'rotation_limits')}
