#!/usr/bin/env python3
"""Compare our reader with libsdformat 12 on libsdformat's own test models.

libsdformat's sources hold a few hundred small SDFormat and URDF files under ``test/``
(``test/sdf``, ``test/integration``). They are not installed by Debian's packages, so this
is a manual check, not a test: point it at a checkout (``git archive sdformat12_12.3.0
test | tar -x -C DIR``) and it prints every file whose verdict or numbers differ, as a new
user would meet them (``SDF_PATH`` set to the test model directories, the probe run in
each file's directory).

    ./dev run python tools/libsdformat_test_sweep.py DIR/test
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parents[1] / 'sdf_tools' / 'test'
sys.path.insert(0, str(TEST_DIR))

from differential.reference import _normalise_ref, ours_report
from differential.urdf_compare import compare_urdf
from support.libsdformat import ProbeError, compare, run_probe


def _diffs(path: Path, env: dict[str, str]) -> list[str] | None:
    try:
        ref = _normalise_ref(run_probe(path, env=env, timeout=30))
    except ProbeError as err:
        print(f'probe failed: {path}: {str(err)[:120]}')
        return None
    ours = ours_report(path, env)
    if path.suffix == '.urdf':
        return compare_urdf(ours, ref)
    if any(e['code'] == 'JOINT_AXIS_EXPRESSED_IN_INVALID' for e in ours['errors']):
        return []  # checked from libsdformat 13.3 on (README, deliberate differences)
    return compare(ours, ref)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('test_dir', type=Path, help="the test/ directory of libsdformat's sources")
    args = ap.parse_args()
    root: Path = args.test_dir
    files = sorted([*root.rglob('*.sdf'), *root.rglob('*.urdf')])
    env = {'SDF_PATH': f'{root / "integration" / "model"}:{root / "sdf"}'}
    differ = 0
    for path in files:
        diffs = _diffs(path, env)
        if diffs:
            differ += 1
            print(f'{path.relative_to(root)}: {diffs[0][:200]}')
    print(f'{len(files) - differ} of {len(files)} files agree with libsdformat 12')
    return 0


if __name__ == '__main__':
    sys.exit(main())
