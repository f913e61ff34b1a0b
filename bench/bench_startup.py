#!/usr/bin/env python3
"""Benchmark: the start-up of ``sdf_tools check small.sdf`` against ``import lxml.etree``.

Both are whole processes of this interpreter in the same environment, alternated, best of
``--repeat``: ``python -m sdf_tools check FILE`` (FILE: a one-link model) and
``python -c "import lxml.etree"``, the least any lxml-based checker can start in. Target
(issue 19): the default build at most 1.5 x lxml's import. The compiled install
(``SDF_TOOLS_COMPILE=1``) is measured too when ``--compiled-prefix`` names one (bench_load.py
builds one; ``--build-compiled`` builds it here).

    python3 bench/bench_startup.py [--repeat 20] [--compiled-prefix DIR | --build-compiled]
"""
from __future__ import annotations

import argparse
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from compiled_install import build_compiled, build_env, source_env  # noqa: E402

TARGET_RATIO = 1.5
SMALL = ('<?xml version="1.0"?>\n<sdf version="1.9">\n  <model name="m">\n    <link name="l"/>\n'
         '  </model>\n</sdf>\n')


def _best(commands: dict[str, tuple[list[str], dict[str, str]]], repeat: int) -> dict[str, float]:
    """Best wall time of each command, the commands alternated so each sees the same machine."""
    best = dict.fromkeys(commands, math.inf)
    for _ in range(repeat):
        for name, (argv, env) in commands.items():
            t0 = time.perf_counter()
            proc = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
            elapsed = time.perf_counter() - t0
            if proc.returncode != 0:
                raise RuntimeError(f'{name} failed ({proc.returncode}): {proc.stderr[-2000:]}')
            best[name] = min(best[name], elapsed)
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--repeat', type=int, default=20, help='runs of each command (best is kept)')
    ap.add_argument('--compiled-prefix', metavar='DIR',
                    help='an SDF_TOOLS_COMPILE=1 install to measure as well')
    ap.add_argument('--build-compiled', action='store_true',
                    help='build the compiled install in a scratch prefix and measure it as well')
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix='sdf_startup_') as tmp:
        small = Path(tmp) / 'small.sdf'
        small.write_text(SMALL, encoding='utf-8')
        env = source_env()
        commands = {
            'import lxml.etree': ([sys.executable, '-c', 'import lxml.etree'], env),
            'check (default build)': ([sys.executable, '-m', 'sdf_tools', 'check', str(small)], env),
        }
        prefix = Path(args.compiled_prefix) if args.compiled_prefix else None
        if prefix is None and args.build_compiled:
            prefix, note = build_compiled(Path(tmp))
            print(note, file=sys.stderr)
        if prefix is not None:
            commands['check (compiled build)'] = (
                [sys.executable, '-m', 'sdf_tools', 'check', str(small)], build_env(prefix))
        best = _best(commands, args.repeat)
    lxml = best['import lxml.etree']
    print(f'start-up, whole processes, best of {args.repeat} (python {sys.version.split()[0]}):')
    for name, seconds in best.items():
        print(f'  {name:24s} {1000 * seconds:7.1f} ms = {seconds / lxml:.2f} x import lxml.etree')
    ratio = best['check (default build)'] / lxml
    print(f'{"PASS" if ratio <= TARGET_RATIO else "FAIL"}: `sdf_tools check small.sdf` '
          f'{ratio:.2f} x `python -c "import lxml.etree"` <= {TARGET_RATIO} x')
    return 0


if __name__ == '__main__':
    sys.exit(main())
