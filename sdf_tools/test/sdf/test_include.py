"""``<plugin>`` without a name per Gazebo target (``sdf/include.py``, ``sdf/spec/check.py``).

The name is optional in 1.10's plugin.sdf (gazebosim/sdformat#1101, libsdformat 13.0), and
libsdformat 13+ checks every file against its newest spec: a nameless plugin in a 1.9 file is
refused by 12.3 (Fortress) only. libsdformat 14.9.0, 15.4.0 and 16.1.0 built by hand accept it
(test/differential/MISMATCHES.md); in CI Drake's embedded libsdformat judges the newer
targets (it refuses a plugin without a filename, so it does check plugins), the 12 probe
Fortress.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from differential.reference import ours_report
from support.drake import DrakeRefusedError, drake_load, require_drake
from support.libsdformat import probe_available, probe_unavailable_reason, run_probe

MODEL = ('<?xml version="1.0"?>\n<sdf version="1.9"><model name="m"><link name="l"/>'
         '<plugin {attrs}/></model></sdf>\n')


def _write(tmp_path: Path, attrs: str) -> Path:
    path = tmp_path / 'plugin.sdf'
    path.write_text(MODEL.format(attrs=attrs))
    return path


@pytest.mark.parametrize('gazebo', ['harmonic', 'ionic', 'jetty'])
@pytest.mark.parametrize('attrs, valid', [('filename="libfoo.so"', True), ('name="x"', False)])
def test_newer_targets_judge_plugin_attributes_as_drake(tmp_path: Path, gazebo: str, attrs: str,
                                                        valid: bool) -> None:
    require_drake()
    path = _write(tmp_path, attrs)
    try:
        drake_load(path)
        drake_valid = True
    except DrakeRefusedError:
        drake_valid = False
    assert drake_valid is valid
    assert ours_report(path, gazebo=gazebo)['valid'] is valid


@pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))
def test_fortress_refuses_a_nameless_plugin_as_libsdformat_12(tmp_path: Path) -> None:
    path = _write(tmp_path, 'filename="libfoo.so"')
    ref, ours = run_probe(path), ours_report(path, gazebo='fortress')
    assert not ref['valid'] and not ours['valid']
    assert 'ATTRIBUTE_MISSING' in {e['code'] for e in ref['errors']} & {e['code'] for e in ours['errors']}
