#!/usr/bin/env python3
"""Count on how many files our reader and libsdformat 12 (the probe) give the same verdict.

Every ``.sdf``, ``.world`` and ``.urdf`` file under the given directories is loaded by
both, each in the file's directory with ``SDF_PATH`` holding the directories given (as
a user of those test models would set it up). A file agrees when both accept it, or both
refuse it with at least one error code in common (``support.libsdformat.compare``, which
also compares every pose when both accept). The probe's reports are cached in
``--cache`` so that a second run (e.g. with an older checkout first on ``PYTHONPATH``)
only reruns our side.

    ./dev run python tools/verdict_agreement.py DIR... [--cache FILE] [--list]

Used for the numbers in ``sdf_tools/test/differential/MISMATCHES.md`` over libsdformat's
and sdformat_urdf's own test models (not shipped here: bring them with the ``fetch`` tool
and ``git archive``).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / 'sdf_tools' / 'test'))

from differential import reference
from differential.urdf_compare import compare_urdf
from support.libsdformat import ProbeError, run_probe

EXTENSIONS = ('.sdf', '.world', '.urdf')


def _probe(path: Path, env: dict[str, str], cache: dict[str, object]) -> dict[str, object]:
    key = str(path)
    if key not in cache:
        try:
            cache[key] = run_probe(path, env=env, timeout=30)
        except ProbeError as err:
            cache[key] = {'valid': False, 'errors': [{'code': 'EXCEPTION', 'message': str(err)[:200]}]}
    report = cache[key]
    assert isinstance(report, dict)
    return report


def _lumping_only(path: Path, env: dict[str, str]) -> bool:
    """Whether a URDF agrees with libsdformat once its lumping is replayed (``compare_urdf``).

    Our reader keeps every URDF link (each is a frame for ROS tools); libsdformat lumps
    fixed joints. ``compare_urdf`` is the comparison ``test_real_robots.py`` uses.
    """
    ours = reference.ours_report(path, env)
    ref = reference._normalise_ref(reference.run_probe(path, env=env))
    return not compare_urdf(ours, ref)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('dirs', nargs='+', type=Path)
    ap.add_argument('--cache', type=Path, help='JSON file caching the probe reports')
    ap.add_argument('--list', action='store_true', help='print each disagreement')
    args = ap.parse_args(argv)
    cache: dict[str, object] = {}
    if args.cache and args.cache.is_file():
        cache = json.loads(args.cache.read_text())
    sdf_path = os.pathsep.join(str(d.resolve()) for d in args.dirs)
    env = {'SDF_PATH': sdf_path}
    counts: Counter[str] = Counter()
    reference.run_probe = lambda p, env=None, **kw: _probe(Path(p), env or {}, cache)  # type: ignore[assignment]
    for d in args.dirs:
        for path in sorted(p for p in d.rglob('*') if p.suffix in EXTENSIONS and p.is_file()):
            try:
                diffs = reference.differences(path, env=env)
            except Exception as err:  # noqa: BLE001 - a crash of ours is a disagreement
                diffs = [f'our reader raised {type(err).__name__}: {err}']
            verdict = 'agree' if not diffs else ('verdict' if diffs[0].startswith('verdict') else 'detail')
            counts[verdict] += 1
            if verdict == 'detail' and path.suffix == '.urdf' and _lumping_only(path, env):
                counts['lumping'] += 1
            if diffs and args.list:
                print(f'{path}: {diffs[0][:300]}')
    if args.cache:
        args.cache.write_text(json.dumps(cache))
    total = sum(counts.values())
    total -= counts['lumping']  # a subset of 'detail'
    print(f'{total} files: {counts["agree"]} agree, {counts["verdict"]} differ in verdict, '
          f'{counts["detail"]} differ in codes or numbers only ({counts["lumping"]} of them URDF '
          'files that agree once the fixed-joint lumping our reader leaves to the converter is '
          'replayed: compare_urdf)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
