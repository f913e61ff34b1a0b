"""SDF -> URDF -> libsdformat 12: every link libsdformat keeps sits where the SDFormat put it.

libsdformat reads a URDF its own way (docs/libsdformat12-notes.md section 11): it merges
the child of every fixed joint into its parent unless the joint is preserved, and drops
massless links. The converter preserves the fixed joints between links of the model, so
the only links libsdformat may merge away are those it moved onto a massless
``<joint>__frame`` link (a joint frame away from its child link). What is checked, for
every model of our own SDFormat test files:

* libsdformat accepts the URDF;
* each link it reports is a link of the model at the model's pose, or a link the
  converter added (``<joint>__frame``, ``<joint>__link<k>``) at that joint's frame;
* each link of the model it does not report was merged into its joint's ``__frame`` link;
* the total mass is the model's plus ``default_mass`` per link added between two joints;
* each joint axis, in the world, is the model's (``axis2`` on ``<joint>__axis2``).

Poses within 1e-9.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from support.libsdformat import probe_available, probe_unavailable_reason, run_probe

from convert.urdf.urdf_readback import convert, libsdformat_problems
from sdf_tools.load import LoadResult, load_file
from sdf_tools.resolved import inspect_json

pytestmark = pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))

TEST = Path(__file__).resolve().parents[2]
SDF, CONV = TEST / 'data' / 'sdf', TEST / 'data' / 'convert_urdf'
DEMO = TEST.parent / 'sdf_tools' / 'examples' / 'demo_world.sdf'
CASES = [
    (SDF / 'geometry_all.sdf', 'shapes', {}),
    *[(SDF / 'includes.sdf', m, {}) for m in ('box_bot', 'bot2', 'bot3', 'host')],
    (SDF / 'joints_all.sdf', 'joints', {}),
    (SDF / 'legacy_1_5.sdf', 'old', {}),
    (SDF / 'legacy_1_6_frames.sdf', 'm16', {}),
    (SDF / 'sensors_plugins.sdf', 'robot', {}),
    (SDF / 'static_no_links.sdf', 'wrap', {}),
    (SDF / 'v1_7_nested.sdf', 'outer', {}),
    (DEMO, 'rover', {}),
    (CONV / 'arm_offsets.sdf', 'arm', {}),
    (CONV / 'free_bodies.sdf', 'loose', {}),
    (CONV / 'loop.sdf', 'fourbar', {'break_loops': True}),
    (CONV / 'two_parents.sdf', 'v', {'break_loops': True}),
    *[(CONV / 'world_two_models.sdf', m, {}) for m in ('one', 'two')],
]


def _load(path: Path) -> LoadResult:
    old = os.environ.get('SDF_PATH')
    os.environ['SDF_PATH'] = str(SDF / 'models')
    try:
        loaded = load_file(path)
    finally:
        if old is None:
            del os.environ['SDF_PATH']
        else:
            os.environ['SDF_PATH'] = old
    assert loaded.valid, [str(d) for d in loaded.errors]
    return loaded


@pytest.mark.parametrize('path,model,options', CASES,
                         ids=[f'{p.stem}-{m}' for p, m, _ in CASES])
def test_libsdformat_reads_every_link_where_the_sdformat_put_it(
        tmp_path: Path, path: Path, model: str, options: dict[str, Any]) -> None:
    loaded = _load(path)
    result = convert(loaded, model=model, **options)
    assert result.ok, result.report.errors
    out = tmp_path / f'{model}.urdf'
    out.write_text(result.text)
    ref = run_probe(out)
    assert ref['valid'], ref['errors']
    problems = libsdformat_problems(inspect_json(loaded), ref, model)
    assert not problems, problems


def test_libsdformat_accepts_names_with_the_default_separator(tmp_path: Path) -> None:
    result = convert(_load(CONV / 'arm_offsets.sdf'))
    out = tmp_path / 'arm.urdf'
    out.write_text(result.text)
    ref = run_probe(out)
    assert ref['valid'] and 'arm::hand::finger' in {lk['name'] for lk in ref['links']}
