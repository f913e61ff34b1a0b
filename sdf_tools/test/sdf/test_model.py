"""``<include merge="true">`` into a model, per Gazebo target (``sdf/model.py``).

libsdformat 12.3 prints the merged model's proxy-frame pose with 6 digits and reads it
back, and keeps a joint end ``__model__`` as written (then refuses it); from 13 on every
digit is kept and ``__model__`` is the proxy frame, attached to the included model's
canonical link (libsdformat 14.9.0 on its test/integration/merge_include_model.sdf, a 1.9
file; test/differential/MISMATCHES.md). Judges: Drake for the newer targets, the
libsdformat 12 probe for Fortress.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from differential.reference import _normalise_ref, ours_report
from support.drake import drake_load, require_drake
from support.libsdformat import compare, probe_available, probe_unavailable_reason, run_probe

INNER = '''<?xml version="1.0"?>
<sdf version="1.9"><model name="inner" canonical_link="top">
  <link name="chassis"/>
  <link name="top"><pose>0.6 0 0.7 0 0 0</pose></link>
  <link name="arm"><pose>0 1 0 0 0 0</pose></link>
  <joint name="hold" type="revolute"><parent>arm</parent><child>{child}</child>
    <axis><xyz>0 0 1</xyz></axis></joint>
</model></sdf>
'''
OUTER = '''<?xml version="1.0"?>
<sdf version="1.9"><model name="outer">
  <link name="base"/>
  <include merge="true"><uri>{uri}</uri><pose>100 0 0 0.7853981633974483 0 0</pose></include>
</model></sdf>
'''


def _write(tmp_path: Path, child: str) -> Path:
    inner = tmp_path / 'inner'
    inner.mkdir()
    (inner / 'model.sdf').write_text(INNER.format(child=child))
    (inner / 'model.config').write_text(
        '<?xml version="1.0"?><model><name>inner</name><sdf version="1.9">model.sdf</sdf></model>')
    path = tmp_path / 'outer.sdf'
    path.write_text(OUTER.format(uri=inner))  # absolute: Drake reads no SDF_PATH
    return path


@pytest.mark.parametrize('gazebo', ['harmonic', 'ionic', 'jetty'])
def test_merged_model_keeps_every_digit_and_its_model_frame_as_drake(tmp_path: Path,
                                                                     gazebo: str) -> None:
    require_drake()
    path = _write(tmp_path, '__model__')
    ours = ours_report(path, gazebo=gazebo)
    assert ours['valid'], ours['errors']
    drake = drake_load(path)
    for link in ours['links']:
        xyz, quat = drake.poses[link['name']]
        assert max(abs(a - b) for a, b in zip(xyz, link['pose']['xyz'], strict=True)) <= 1e-9
        q = link['pose']['quat_xyzw']
        assert min(max(abs(a - b) for a, b in zip(quat, q, strict=True)),
                   max(abs(a + b) for a, b in zip(quat, q, strict=True))) <= 1e-9, link['name']
    joint = next(j for j in ours['joints'] if j['name'] == 'outer::hold')
    assert (joint['parent'], joint['child']) == drake.joint_bodies['outer::hold']
    assert joint['child'] == 'outer::top'  # the included model's canonical link


@pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))
@pytest.mark.parametrize('child', ['__model__', 'chassis'])
def test_fortress_merge_as_libsdformat_12(tmp_path: Path, child: str) -> None:
    path = _write(tmp_path, child)
    diffs = compare(ours_report(path, gazebo='fortress'), _normalise_ref(run_probe(path)))
    assert not diffs, '\n'.join(diffs)
