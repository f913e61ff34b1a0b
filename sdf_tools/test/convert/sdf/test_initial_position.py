"""Where a joint starts survives an SDFormat output: 1.9 dropped ``//axis/initial_position``
from the spec (libsdformat copies it with a warning), so the writer keeps it as the custom
element ``<sdf_tools:initial_position>``, which libsdformat copies silently and our reader
takes where the spec's element is absent."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.libsdformat import probe_available, probe_unavailable_reason, run_probe

from sdf_tools import gazebo
from sdf_tools.convert.api import convert_file
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.errors import Severity
from sdf_tools.load import load_file

OLD = """<?xml version="1.0"?>
<sdf version="1.8">
  <model name="m">
    <link name="a"><inertial><mass>1</mass></inertial></link>
    <link name="b"><pose>0 0 1 0 0 0</pose><inertial><mass>1</mass></inertial></link>
    <joint name="hinge" type="revolute"><parent>a</parent><child>b</child>
      <axis><xyz>0 1 0</xyz><initial_position>{q}</initial_position>
        <limit><lower>-1</lower><upper>1</upper></limit></axis></joint>
  </model>
</sdf>
"""


@pytest.mark.parametrize('target', gazebo.TARGETS)
def test_written_start_is_read_back_without_a_warning(tmp_path: Path, target: str) -> None:
    q = -0.123456789012345
    src = tmp_path / 'old.sdf'
    src.write_text(OLD.format(q=q))
    out = tmp_path / 'out.sdf'
    with gazebo.using(target):
        assert convert_file(src, to='sdf', output_path=out, options=ConversionOptions()).ok
        back = load_file(out)
    assert back.document is not None and back.document.model is not None
    hinge = next(j for j in back.document.model.joints if j.name == 'hinge')
    assert hinge.axis is not None and hinge.axis.initial_position == q
    assert [d.message for d in back.diagnostics if d.severity is not Severity.NOTE] == []
    assert 'sdf_tools:initial_position' in out.read_text()


@pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))
def test_libsdformat_reads_the_written_start_as_a_custom_element(tmp_path: Path) -> None:
    src = tmp_path / 'old.sdf'
    src.write_text(OLD.format(q=0.5))
    out = tmp_path / 'out.sdf'
    with gazebo.using('fortress'):
        assert convert_file(src, to='sdf', output_path=out, options=ConversionOptions()).ok
    report = run_probe(out)
    assert report['valid'] and report['errors'] == [] and report['warnings'] == []
