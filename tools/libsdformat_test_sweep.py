#!/usr/bin/env python3
"""Compare our reader, read for one Gazebo target, with that target's libsdformat.

Two sets of files: libsdformat's own test models (``test/sdf``, ``test/integration`` of its
sources; Debian installs none of them, so point the tool at an extracted checkout, e.g.
``git archive sdformat14_14.9.0 test | tar -x -C DIR``) and, with ``--corpus``, the real-robot
corpus of the differential tests (``sdf_tools/test/differential/corpus.py``). This is a manual
check, not a test: the probe of another libsdformat than Debian's 12 is built by hand
(docs/libsdformat-judges.md says how) and given here by path; this tool never builds one.

    ./dev run python tools/libsdformat_test_sweep.py DIR/test                 # Fortress vs 12
    ./dev run python tools/libsdformat_test_sweep.py DIR/test --corpus \\
        --gazebo harmonic --probe /path/to/probe-built-against-14

Each file is read by both sides as a new user would meet it (``SDF_PATH`` set to the test
model directories, the probe run in the file's directory) and compared strictly
(``support.libsdformat.compare`` for SDFormat, ``differential.urdf_compare.compare_urdf``
for URDF: verdicts, a shared error code, every pose at 1e-9, masses and inertias, the URDF
conversion). It prints every file that differs with its first difference, then the counts.

``--unknown-warnings`` compares instead, for every SDFormat file, the "not defined in SDF"
warnings (unknown elements and attributes, by line and wording) with those the probe's
libsdformat prints on stderr: 13+ prints both kinds (gazebosim/sdformat#1096); 12 prints
only the attributes (its element warnings are debug messages), so for Fortress this
checks the attributes alone.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parents[1] / 'sdf_tools' / 'test'
sys.path.insert(0, str(TEST_DIR))

from differential.corpus import corpus, corpus_id
from differential.reference import _normalise_ref, ours_report
from differential.urdf_compare import compare_urdf
from sdf_tools.gazebo import TARGETS
from sdf_tools.load import load_file
from support.libsdformat import ProbeError, build_probe, compare, run_probe

_ANSI = re.compile(r'\x1b\[[0-9;]*m')
_UNKNOWN = re.compile(r':L(\d+)\]: (XML (?:Element|Attribute)\[.*?not defined in SDF\.)')


def _diffs(path: Path, env: dict[str, str], gazebo: str, probe: Path | None) -> list[str]:
    try:
        ref = _normalise_ref(run_probe(path, env=env, timeout=60, probe=probe))
    except ProbeError as err:
        return [f'probe failed: {str(err)[:300]}']
    ours = ours_report(path, env, gazebo)
    if path.suffix == '.urdf':
        return compare_urdf(ours, ref)
    if gazebo == 'fortress' and any(e['code'] == 'JOINT_AXIS_EXPRESSED_IN_INVALID'
                                    for e in ours['errors']):
        return []  # checked from libsdformat 13.3 on (README, deliberate differences)
    return compare(ours, ref)


def _unknown_diffs(path: Path, env: dict[str, str], gazebo: str, probe: Path | None) -> list[str]:
    """Our unknown-element/attribute warnings in ``path`` against libsdformat's stderr."""
    if path.suffix != '.sdf':
        return []
    try:
        run = subprocess.run([str(probe or build_probe()), str(path.absolute())], capture_output=True,
                             text=True, timeout=60, check=False, cwd=path.parent,
                             env={**os.environ, **env})
    except subprocess.TimeoutExpired:
        return ['probe timed out (60 s)']
    name = f'{path.absolute()}:L'
    theirs = {(int(m.group(1)), m.group(2).split(' Copying')[0])
              for line in _ANSI.sub('', run.stderr).splitlines() if name in line
              for m in [_UNKNOWN.search(line)] if m}
    if gazebo == 'fortress':
        theirs |= {(0, 'elements: not printed by libsdformat 12')}
    old = dict(os.environ)
    os.environ.update(env)
    try:
        result = load_file(path, gazebo=gazebo)
    finally:
        os.environ.clear()
        os.environ.update(old)
    ours = {(d.line or 0, d.message.split(' Copying')[0]) for d in result.warnings
            if 'not defined in SDF' in d.message and d.file == str(path)
            and (gazebo != 'fortress' or 'XML Attribute' in d.message)}
    if gazebo == 'fortress':
        ours |= {(0, 'elements: not printed by libsdformat 12')}
    return ([f'only ours: {sorted(ours - theirs)}'] if ours - theirs else []) + (
        [f'only libsdformat: {sorted(theirs - ours)}'] if theirs - ours else [])


def _cases(test_dir: Path | None, with_corpus: bool) -> list[tuple[str, Path, dict[str, str]]]:
    cases: list[tuple[str, Path, dict[str, str]]] = []
    if test_dir is not None:
        env = {'SDF_PATH': f'{test_dir / "integration" / "model"}:{test_dir / "sdf"}'}
        for path in sorted([*test_dir.rglob('*.sdf'), *test_dir.rglob('*.urdf')]):
            cases.append((f'libsdformat/{path.relative_to(test_dir)}', path, env))
    if with_corpus:
        cases.extend((corpus_id(e), e.path, e.env) for e in corpus())
    return cases


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('test_dir', type=Path, nargs='?',
                    help="the test/ directory of libsdformat's sources")
    ap.add_argument('--corpus', action='store_true', help='also sweep the real-robot corpus')
    ap.add_argument('--gazebo', choices=tuple(TARGETS), default='fortress',
                    help='the target our reader reads for (default: fortress)')
    ap.add_argument('--probe', type=Path, default=None,
                    help="the probe binary built against the target's libsdformat "
                         '(default: the libsdformat 12 one, built by tools/sdformat_probe)')
    ap.add_argument('--unknown-warnings', action='store_true',
                    help='compare the unknown element/attribute warnings of SDFormat files instead')
    ap.add_argument('--json', type=Path, default=None,
                    help='also write {case: [differences]} for every file to this file')
    args = ap.parse_args()
    cases = _cases(args.test_dir, args.corpus)
    if not cases:
        ap.error('nothing to compare: give a test directory and/or --corpus')
    results: dict[str, list[str]] = {}
    compare_one = _unknown_diffs if args.unknown_warnings else _diffs
    for case, path, env in cases:
        diffs = compare_one(path, env, args.gazebo, args.probe)
        results[case] = diffs
        if diffs:
            print(f'{case}: {diffs[0][:300]}', flush=True)
    differ = sum(1 for d in results.values() if d)
    judge = f'the probe {args.probe}' if args.probe else 'libsdformat 12'
    what = ' on unknown-element/attribute warnings' if args.unknown_warnings else ''
    print(f'{len(cases) - differ} of {len(cases)} files agree with {judge}{what} '
          f'(our reader read for {args.gazebo})')
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=1, sort_keys=True) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
