"""Name clashes across types inside a nested ``<model>``, against libsdformat 12.

libsdformat reads a nested ``<model>`` through its spec ``ref``, which drops the record
of the file's version, so the clash is renamed as in a pre-1.7 file (``_link``,
``_joint``, ``_frame``) instead of refused (``RANDOM_FINDINGS.md`` F4). The same clash
in the top-level model stays ``DUPLICATE_NAME``.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from support.libsdformat import probe_available, probe_unavailable_reason

from differential.reference import differences
from sdf_tools.errors import Severity
from sdf_tools.load import load_file

pytestmark = pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))

# (version, body of the top-level model, valid, (code, line, severity) we must report)
CASES = {
    'frame_and_link_nested': ('1.9', '''
    <link name="l"/>
    <model name="n">
      <link name="b"/>
      <frame name="b"/>
    </model>''', True, ('DUPLICATE_NAME', 7, Severity.WARNING)),
    'joint_and_link_two_deep': ('1.7', '''
    <link name="l"/>
    <model name="n">
      <link name="c"/>
      <model name="k">
        <link name="b"/>
        <link name="c"/>
        <joint name="b" type="fixed"><parent>b</parent><child>c</child></joint>
      </model>
    </model>''', True, ('DUPLICATE_NAME', 10, Severity.WARNING)),
    'renamed_frame_still_referred_to': ('1.8', '''
    <link name="l"/>
    <model name="n">
      <link name="b"/>
      <frame name="b"><pose relative_to="b">1 0 0 0 0 0</pose></frame>
      <frame name="b_frame"/>
      <frame name="f" attached_to="b"><pose relative_to="b">0 1 0 0 0 0</pose></frame>
    </model>''', True, ('DUPLICATE_NAME', 7, Severity.WARNING)),
    'top_level_clash_refused': ('1.9', '''
    <link name="b"/>
    <frame name="b"/>''', False, ('DUPLICATE_NAME', 5, Severity.ERROR)),
}


@pytest.mark.parametrize('name', sorted(CASES))
def test_cross_type_clash_in_nested_model_as_libsdformat(name: str, tmp_path: Path) -> None:
    version, body, valid, (code, line, severity) = CASES[name]
    path = tmp_path / 'case.sdf'
    path.write_text(f'<?xml version="1.0"?>\n<sdf version="{version}">\n  <model name="m">'
                    f'{body}\n  </model>\n</sdf>\n', encoding='utf-8')
    result = load_file(path)
    assert result.valid is valid, [str(d) for d in result.diagnostics]
    found = [(d.code.value, d.line, d.severity) for d in result.diagnostics]
    assert (code, line, severity) in found, found
    assert not differences(path)  # libsdformat's verdict, names and poses
