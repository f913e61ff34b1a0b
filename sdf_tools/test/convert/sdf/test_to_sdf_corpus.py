"""Real URDFs from registry packages: where libsdformat loads the original, our SDF loads alike.

A fixed sample (every n-th file of each collection, in sorted order, among the
files our reader accepts) of pybullet_data, example-robot-data, dart-doc and
gym-ignition-models. For each: the converted SDFormat must load in
libsdformat 12 and put every link and joint libsdformat has where libsdformat
puts them for the original URDF, with the same masses and inertias
(:func:`to_sdf_compare.compare_libsdformat`), every URDF link and joint where
the URDF's kinematics put it, and masses and inertias equal to an
independent lumping of the URDF's inertials.

``SDF_TOOLS_CORPUS_ALL=1`` runs every file instead of the sample.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from differential.corpus import RobotFile, corpus, corpus_id
from support.libsdformat import probe_available, probe_unavailable_reason, run_probe

from convert.sdf.to_sdf_compare import (
    compare_kinematics,
    compare_libsdformat,
    compare_lumped_mass,
    convert,
    environment,
    read_urdf,
    write,
)
from sdf_tools.load import load_file

# How many files to take from each collection.
_SAMPLE = {'pybullet_data': 24, 'example-robot-data': 12, 'dart-doc': 2, 'gym-ignition-models': 2}


def _readable(entry: RobotFile) -> bool:
    with environment(entry.env):
        return load_file(entry.path).valid


def _sample() -> list[RobotFile]:
    urdfs = [e for e in corpus() if e.path.suffix == '.urdf']
    if os.environ.get('SDF_TOOLS_CORPUS_ALL'):
        return [e for e in urdfs if _readable(e)]
    out: list[RobotFile] = []
    for collection, count in _SAMPLE.items():
        files = sorted((e for e in urdfs if e.collection == collection), key=lambda e: str(e.path))
        files = [e for e in files if _readable(e)]
        step = max(1, len(files) // count)
        out.extend(files[::step][:count])
    return out


SAMPLE = _sample() if probe_available() else []


@pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))
@pytest.mark.parametrize('entry', SAMPLE, ids=[corpus_id(e) for e in SAMPLE])
def test_real_urdf_converts_to_what_libsdformat_loads(entry: RobotFile, tmp_path: Path) -> None:
    result = convert(entry.path, entry.env)
    assert result.ok, [str(d) for d in result.report.errors]
    out = write(result, tmp_path)
    ours = run_probe(out, env=entry.env)
    assert ours['valid'], ours['errors']
    robot = read_urdf(entry.path)
    assert not compare_kinematics(robot, ours)
    assert not compare_lumped_mass(robot, ours)
    ref = run_probe(entry.path, env=entry.env)
    if not ref['valid']:
        pytest.skip(f'libsdformat 12 rejects the original: {[e["code"] for e in ref["errors"]][:3]}')
    diffs = compare_libsdformat(ref, ours, robot)
    assert not diffs, '\n'.join(diffs[:20])
