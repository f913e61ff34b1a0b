#!/usr/bin/env python3
"""Benchmark: the start-up of ``sdf_tools check small.sdf`` against ``import lxml.etree``.

Both are whole processes of this interpreter in the same environment, alternated, best of
``--repeat``: ``sdf_tools check FILE`` (FILE: a one-link model), the console script of the
package as ``pip install`` installs it (built here into a scratch prefix: pure Python,
byte-compiled at install time), and ``python -c "import lxml.etree"``, the least any
lxml-based checker can start in. Target (issue 19): the default install at most 1.5 x
lxml's import. Also shown: ``python -m sdf_tools check`` run from the checkout as ``./dev``
runs it, and the compiled install (``SDF_TOOLS_COMPILE=1``) when ``--compiled-prefix`` names
one (bench_load.py builds one; ``--build-compiled`` builds it here).

    python3 bench/bench_startup.py [--repeat 20] [--compiled-prefix DIR | --build-compiled]
"""
from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from compiled_install import (  # noqa: E402
    build_compiled, build_default, build_env, console_script, source_env)

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


def _instructions(commands: dict[str, tuple[list[str], dict[str, str]]]) -> dict[str, float]:
    """Instructions each command executes, whole process (callgrind, one run each).

    Unlike wall time, this does not depend on what else the machine runs; it leaves out what
    instructions do not show (page faults, loading shared libraries from disk, caches).
    """
    valgrind = shutil.which('valgrind')
    counts = dict.fromkeys(commands, math.nan)
    if valgrind is None:
        return counts
    for name, (argv, env) in commands.items():
        proc = subprocess.run([valgrind, '--tool=callgrind', '--callgrind-out-file=/dev/null',
                               *argv], env=env, capture_output=True, text=True, check=False)
        found = re.search(r'Collected : (\d+)', proc.stderr)
        if proc.returncode == 0 and found:
            counts[name] = float(found.group(1))
    return counts


def _load() -> str:
    try:
        return ', '.join(f'{x:.1f}' for x in os.getloadavg())
    except OSError:
        return '?'


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--repeat', type=int, default=20, help='runs of each command (best is kept)')
    ap.add_argument('--compiled-prefix', metavar='DIR',
                    help='an SDF_TOOLS_COMPILE=1 install to measure as well')
    ap.add_argument('--build-compiled', action='store_true',
                    help='build the compiled install in a scratch prefix and measure it as well')
    ap.add_argument('--instructions', action='store_true',
                    help="also count each command's instructions once with valgrind's callgrind "
                         '(independent of the load of a shared machine)')
    ap.add_argument('--default-prefix', metavar='DIR',
                    help='a default (pip install) prefix to measure instead of building one')
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix='sdf_startup_') as tmp:
        small = Path(tmp) / 'small.sdf'
        small.write_text(SMALL, encoding='utf-8')
        if args.default_prefix:
            default: Path | None = Path(args.default_prefix)
        else:
            (Path(tmp) / 'default').mkdir()
            default, note = build_default(Path(tmp) / 'default')
            print(note, file=sys.stderr)
            if default is None:
                return 1
        env = build_env(default)
        commands = {
            'import lxml.etree': ([sys.executable, '-c', 'import lxml.etree'], env),
            'check (default install)': ([str(console_script(default)), 'check', str(small)], env),
            'check (checkout, ./dev)': ([sys.executable, '-m', 'sdf_tools', 'check', str(small)],
                                        source_env()),
        }
        prefix = Path(args.compiled_prefix) if args.compiled_prefix else None
        if prefix is None and args.build_compiled:
            (Path(tmp) / 'compiled').mkdir()
            prefix, note = build_compiled(Path(tmp) / 'compiled')
            print(note, file=sys.stderr)
        if prefix is not None:
            commands['check (compiled install)'] = (
                [str(console_script(prefix)), 'check', str(small)], build_env(prefix))
        load_before = _load()
        best = _best(commands, args.repeat)
        load_after = _load()
        counts = _instructions(commands) if args.instructions else None
    lxml = best['import lxml.etree']
    print(f'start-up, whole processes, best of {args.repeat} (python {sys.version.split()[0]}; '
          f'load average {load_before} before, {load_after} after):')
    for name, seconds in best.items():
        print(f'  {name:26s} {1000 * seconds:7.1f} ms = {seconds / lxml:.2f} x import lxml.etree')
    if counts is not None:
        base = counts['import lxml.etree']
        print('instructions, whole processes (callgrind; nan: valgrind missing or the run failed):')
        for name, count in counts.items():
            print(f'  {name:26s} {count / 1e6:7.1f} M  = {count / base:.2f} x import lxml.etree')
    ratio = best['check (default install)'] / lxml
    print(f'{"PASS" if ratio <= TARGET_RATIO else "FAIL"}: `sdf_tools check small.sdf` '
          f'(default install) {ratio:.2f} x `python -c "import lxml.etree"` <= {TARGET_RATIO} x')
    return 0


if __name__ == '__main__':
    sys.exit(main())
