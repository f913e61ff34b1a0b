"""Joint parent/child naming a model frame, per Gazebo target (``frames/checks.py``).

libsdformat 12.3 (Fortress) refuses a joint whose parent or child is ``__model__`` in a
1.8/1.9 file; from 13 on it stands for the model's canonical link, whatever the file's
version (libsdformat 14.9.0 and 15.4.0 accept their test/sdf/joint_child_model_frame.sdf and
joint_parent_model_frame.sdf, both 1.8; test/differential/MISMATCHES.md). Judges: the
libsdformat 12 probe for Fortress, Drake's embedded libsdformat for the newer targets.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from differential.reference import ours_report
from support.drake import drake_load, require_drake
from support.libsdformat import probe_available, probe_unavailable_reason, run_probe

MODEL = '''<?xml version="1.0"?>
<sdf version="1.8"><model name="m">
  <link name="base"><pose>0 0 1 0 0 0</pose></link>
  <link name="other"><pose>1 0 0 0 0 0</pose></link>
  <joint name="j" type="{type}"><parent>{parent}</parent><child>{child}</child>
    <axis><xyz>0 0 1</xyz></axis></joint>
</model></sdf>
'''
CASES = {'child': ('fixed', 'other', '__model__'), 'parent': ('revolute', '__model__', 'other')}


def _write(tmp_path: Path, case: str) -> Path:
    jtype, parent, child = CASES[case]
    path = tmp_path / f'{case}.sdf'
    path.write_text(MODEL.format(type=jtype, parent=parent, child=child))
    return path


@pytest.mark.parametrize('case', CASES)
@pytest.mark.parametrize('gazebo', ['harmonic', 'ionic', 'jetty'])
def test_model_frame_joint_end_is_the_canonical_link_as_drake(tmp_path: Path, case: str,
                                                              gazebo: str) -> None:
    require_drake()
    path = _write(tmp_path, case)
    ours = ours_report(path, gazebo=gazebo)
    assert ours['valid'], ours['errors']
    joint = next(j for j in ours['joints'] if j['name'] == 'm::j')
    assert (joint['parent'], joint['child']) == drake_load(path).joint_bodies['m::j']


@pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))
@pytest.mark.parametrize('case', CASES)
def test_fortress_refuses_model_frame_joint_end_as_libsdformat_12(tmp_path: Path,
                                                                   case: str) -> None:
    path = _write(tmp_path, case)
    ours, ref = ours_report(path, gazebo='fortress'), run_probe(path)
    assert not ref['valid']
    assert not ours['valid']
    assert {e['code'] for e in ours['errors']} & {e['code'] for e in ref['errors']}
