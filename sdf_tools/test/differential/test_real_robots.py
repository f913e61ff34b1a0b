"""Real robots shipped in registry packages, read by us and by libsdformat 12: no difference.

The corpus (``corpus.py``) is every ``.sdf``, ``.world`` and ``.urdf`` file of pybullet_data,
example-robot-data, gym-ignition-models and dart-doc found on this machine; each case id
is ``collection/relative/path``. SDFormat files must give no difference at all
(``reference.differences``). URDF files are converted by libsdformat before it loads them,
so they are compared with ``urdf_compare.compare_urdf``, which replays that conversion.
Open differences are listed, by category, in ``MISMATCHES.md`` next to this file.

Runtime: the libsdformat probe costs about 0.1 s per file. The default run takes every
file except ``pybullet_data/random_urdfs/`` (1000 generated objects of one kind), of
which it takes a stable tenth: the files whose id hashes (SHA-256) to 0 modulo 10.
``SDF_TOOLS_FULL_CORPUS=1`` runs all of them (about three minutes here).
"""
from __future__ import annotations

import hashlib
import importlib
import os

import pytest
from support.libsdformat import probe_available, probe_unavailable_reason, run_probe

from differential.corpus import RobotFile, collections, corpus, corpus_id, missing_collections
from differential.reference import _normalise_ref, differences, ours_report
from differential.urdf_compare import compare_urdf

#: Generated objects all alike: sampled unless SDF_TOOLS_FULL_CORPUS is set.
SAMPLED_DIR = 'pybullet_data/random_urdfs/'
SAMPLE_MODULUS = 10

pytestmark = pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))


def _in_default_sample(case_id: str) -> bool:
    if not case_id.startswith(SAMPLED_DIR):
        return True
    digest = hashlib.sha256(case_id.encode()).digest()
    return int.from_bytes(digest[:8], 'big') % SAMPLE_MODULUS == 0


def _cases() -> list[RobotFile]:
    everything = corpus()
    if os.environ.get('SDF_TOOLS_FULL_CORPUS', '') not in ('', '0'):
        return everything
    return [e for e in everything if _in_default_sample(corpus_id(e))]


def _urdf_reader_missing() -> str | None:
    try:
        importlib.import_module('sdf_tools.urdf')
    except ImportError as err:
        return f'sdf_tools.urdf is not importable yet: {err}'
    return None


CASES = _cases()


@pytest.mark.parametrize('entry', CASES, ids=[corpus_id(e) for e in CASES])
def test_real_robot_matches_libsdformat(entry: RobotFile) -> None:
    if entry.path.suffix == '.urdf':
        missing = _urdf_reader_missing()
        if missing:
            pytest.skip(missing)
        ours = ours_report(entry.path, entry.env)
        diffs = compare_urdf(ours, _normalise_ref(run_probe(entry.path, env=entry.env)))
    else:
        diffs = differences(entry.path, entry.env)
    assert not diffs, '\n'.join(diffs)


@pytest.mark.parametrize('collection', [c.name for c in collections()] + missing_collections())
def test_collection_is_installed_and_not_empty(collection: str) -> None:
    if collection in missing_collections():
        pytest.skip(f'{collection} is not installed, so its robots are not compared '
                    '(pip install pybullet example-robot-data gym-ignition-models; '
                    'apt-get install dart-doc)')
    assert any(e.collection == collection for e in CASES), f'no file found in {collection}'
