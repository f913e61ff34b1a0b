"""``sdf_tools verify OUT --source IN``: its parser, text output and exit code."""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from sdf_tools.formats import CONVERT_WRITES, LOADED, names
from sdf_tools.verify.compare import Verdict
from sdf_tools.verify.run import UnusableError, verify_files
from sdf_tools.xacro_args import parse_command

EXIT_AGREE, EXIT_DIFFERS, EXIT_UNUSABLE = 0, 1, 2
HELP = f'check a conversion: load OUT ({names(CONVERT_WRITES)}) in its own engine and compare ' \
       f'it with the source ({names(LOADED)})'


def parser() -> argparse.ArgumentParser:
    """Return the ``verify`` argument parser."""
    p = argparse.ArgumentParser(
        prog='sdf_tools verify', description=HELP[0].upper() + HELP[1:] + ": every body's "
        "world pose, every joint's type, anchor, axis, position, effort and velocity limits "
        "(and each actuator's ranges), every mass, centre of mass and inertia, every sensor "
        "pose and parameter. MJCF is compiled by MuJoCo, USD parsed by usd-core's "
        'UsdPhysics, SDFormat and URDF read by sdf_tools. Exit 0 when all agree, 1 when '
        'something differs, 2 on unusable input.')
    p.add_argument('output', metavar='OUT', help=f'the converted file ({names(CONVERT_WRITES)})')
    p.add_argument('--source', metavar='IN', required=True,
                   help=f'the file it was converted from ({names(LOADED)})')
    p.add_argument('--model', help='the model of a world that was converted (convert --model)')
    p.add_argument('--from', dest='input_format', choices=('auto', 'mjcf', 'usd'),
                   default='auto', help='read OUT as this format (default: from its name)')
    p.add_argument('--json', action='store_true', help='print one JSON object')
    p.add_argument('args', nargs='*', help='xacro arguments name:=value for the source')
    return p


def _print(verdict: Verdict, out: str) -> None:
    print(f'{out} as {verdict.engine}, against the source:')
    width = max(len(n) for n in verdict.measures)
    for m in verdict.measures.values():
        if not m.compared:
            print(f'  {m.name:<{width}}  not compared')
            continue
        over = sum(1 for d in verdict.differences if d.measure == m.name)
        worst = f'{m.worst:.3g}' if m.worst_object else '-'
        print(f'  {m.name:<{width}}  {m.compared:5d} compared, worst {worst} ({m.worst_object}),'
              f' tolerance {m.tolerance:g}, {over} over')
    for note in verdict.notes:
        print(f'  note: {note}')
    for d in verdict.differences:
        print(f'  differs: {d}')
    print('agree' if verdict.ok else f'differ: {len(verdict.differences)} objects over tolerance')


def main(argv: Sequence[str]) -> int:
    """Run ``sdf_tools verify``; return the exit code."""
    parsed = parse_command(parser(), argv, after='OUT')
    if isinstance(parsed, int):
        return parsed
    ns, xargs = parsed
    try:
        verdict = verify_files(ns.output, ns.source, model=ns.model, xacro_args=xargs,
                               input_format=ns.input_format)
    except UnusableError as err:
        if ns.json:
            print(json.dumps({'ok': False, 'usable': False, 'error': str(err)}))
        print(f'sdf_tools verify: {err}', file=sys.stderr)
        return EXIT_UNUSABLE
    if ns.json:
        print(json.dumps(verdict.to_json(), indent=1, allow_nan=False))
    else:
        _print(verdict, ns.output)
    return EXIT_AGREE if verdict.ok else EXIT_DIFFERS
