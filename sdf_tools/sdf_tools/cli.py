"""The ``sdf_tools`` command line: inspect, check, frames, convert, verify, report, spawn.

Exit codes: 0 valid, 1 invalid (errors found), 2 unusable input or usage.

Each subcommand imports what it needs when it runs: ``sdf_tools check`` loads the reader
and nothing of the converters, the report, the lint layer or the spawn pipeline (a start-up
close to the interpreter's and lxml's own; ``test/test_cli.py`` holds it to that).
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

# Only argparse helpers (the report's heavy modules load on first use, see report/__init__).
from sdf_tools.formats import CONVERT_READS, CONVERT_WRITES, LOADED, names
from sdf_tools.gazebo import add_gazebo_option, split_gazebo_option, using
from sdf_tools.report.command import add_package_option
from sdf_tools.xacro_args import parse_name_values

if TYPE_CHECKING:
    from sdf_tools.frames import FrameGraphs
    from sdf_tools.load import LoadResult
    from sdf_tools.transform import Transform

EXIT_VALID, EXIT_INVALID, EXIT_UNUSABLE = 0, 1, 2
# The subcommands that read one file and print what it means; the others have modules of
# their own, imported only when named (or for the full --help).
CORE_COMMANDS = ('inspect', 'check', 'frames')


def _exit_code(result: LoadResult) -> int:
    if not result.usable or result.document is None:
        return EXIT_UNUSABLE
    return EXIT_VALID if result.valid else EXIT_INVALID


def _print_diagnostics(result: LoadResult) -> None:
    for d in result.diagnostics:
        print(str(d), file=sys.stderr)


def _check_strict(ns: argparse.Namespace, result: LoadResult) -> int:
    """``check --strict``: the reader's diagnostics and the lint's findings, each fact once."""
    from sdf_tools.report.command import package_dirs, strict_lint

    packages = package_dirs(ns.package)
    if isinstance(packages, str):
        print(f'sdf_tools: --package must be NAME=DIR: {packages}', file=sys.stderr)
        return EXIT_UNUSABLE
    code = _exit_code(result)
    if code == EXIT_UNUSABLE:
        _print_diagnostics(result)
    else:
        found = strict_lint(result, ns.file, packages)
        restated = {id(d) for d in found.restated}
        for d in result.diagnostics:
            if id(d) not in restated:
                print(str(d), file=sys.stderr)
        for f in found.ours:
            print(str(f), file=sys.stderr)
        if code == EXIT_VALID and found.failing:
            code = EXIT_INVALID
    print({0: 'valid', 1: 'invalid', 2: 'unusable'}[code] + f': {ns.file}')
    return code


def _fmt_pose(t: Transform) -> str:
    r, p, y = t.rpy()
    return (f'xyz=({t.p[0]:.6g}, {t.p[1]:.6g}, {t.p[2]:.6g}) '
            f'rpy=({r:.6g}, {p:.6g}, {y:.6g})')


def _children_by_pose_parent(g: FrameGraphs) -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for vid, edges in enumerate(g.pose_in):
        if len(edges) == 1:
            children.setdefault(edges[0].parent, []).append(vid)
    return children


def _print_tree(g: FrameGraphs, children: dict[int, list[int]], vid: int, depth: int,
                seen: set[int], lumped: frozenset[str] = frozenset()) -> None:
    from sdf_tools.frames import resolve_pose

    if vid in seen:
        return
    seen.add(vid)
    name = g.names[vid]
    # A model's __model__ vertex is the model itself: print the model once.
    hidden = name.endswith('::__model__')
    if not hidden:
        pose = resolve_pose(g, vid)
        where = _fmt_pose(pose) if pose is not None else '(unresolved)'
        kind = g.kinds[vid].value + ('; a frame in libsdformat' if name in lumped else '')
        print(f'{"  " * depth}{name} [{kind}] {where}')
    for c in children.get(vid, []):
        _print_tree(g, children, c, depth + (0 if hidden else 1), seen, lumped)


def _lumped_names(result: LoadResult) -> frozenset[str]:
    """A URDF's lumped joints and links, which the target's libsdformat keeps as frames (13.1+)."""
    doc, walk = result.document, result.urdf_walk
    if doc is None or doc.model is None or walk is None:
        return frozenset()
    from sdf_tools.gazebo import using
    from sdf_tools.urdf.lumped_frames import lumped_frames

    with using(result.gazebo):
        return frozenset(f'{doc.model.name}::{lf.frame.name}' for lf in lumped_frames(walk))


def _print_frames(result: LoadResult) -> None:
    from sdf_tools.frames import Kind

    graphs = ([result.model_graphs] if result.model_graphs else []) + result.world_graphs
    lumped = _lumped_names(result)
    for g in graphs:
        children = _children_by_pose_parent(g)
        start = g.root
        print(f'{g.names[start]} [{Kind.WORLD.value if g.kinds[start] is Kind.WORLD else "root"}]')
        seen: set[int] = set()
        for c in children.get(start, []):
            _print_tree(g, children, c, 1, seen, lumped)


def _terminal_columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` finds it (COLUMNS, the terminal, 80)."""
    try:
        columns = int(os.environ['COLUMNS'])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):  # no stdout, or not a terminal
            columns = 0
    return columns or 80


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, told the width argparse would find itself.

    Without a width it imports shutil for it (and shutil its compressors: about 2 ms of
    every ``sdf_tools check``, ~3 % of the start-up target; ``bench/bench_startup.py``).
    """

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         _terminal_columns() - 2 if width is None else width)


class _ArgumentParser(argparse.ArgumentParser):
    """An ArgumentParser whose subcommands' parsers (its own class) use ``_HelpFormatter``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault('formatter_class', _HelpFormatter)
        super().__init__(*args, **kwargs)


def _parser(args: list[str]) -> argparse.ArgumentParser:
    """The parser: only the core subcommands when ``args`` names one, else every subcommand."""
    parser: argparse.ArgumentParser = _ArgumentParser(
        prog='sdf_tools', description=f'Read {names(LOADED, "and")} as libsdformat does; '
        f'convert {names(CONVERT_READS)} to {names(CONVERT_WRITES)}.')
    sub = parser.add_subparsers(dest='command', required=True)
    what = f'{names(LOADED)} file, or a model directory'
    p_inspect = sub.add_parser('inspect', help='print the resolved description',
                               description=f'Print the resolved description of {names(LOADED)}.')
    p_inspect.add_argument('file', help=what)
    p_inspect.add_argument('--json', action='store_true', help='print one JSON object')
    p_inspect.add_argument('args', nargs='*', help='xacro arguments name:=value')
    p_inspect.add_argument('--inertial-stats', action='store_true',
                           help="print each model's total mass, centre of mass and inertia "
                           'about it (as gz sdf --inertial-stats)')
    add_gazebo_option(p_inspect)
    p_check = sub.add_parser('check', help='validate; exit 0 valid, 1 invalid, 2 unusable',
                             description=f"Validate {names(LOADED)} with libsdformat's rules.")
    p_check.add_argument('file', help=what)
    p_check.add_argument('args', nargs='*', help='xacro arguments name:=value')
    p_check.add_argument('--strict', action='store_true',
                         help="also fail (exit 1) on the report's checks (sdf_tools.lint): "
                         'massless links, bad inertias, joints without limits, missing meshes')
    add_package_option(p_check)
    add_gazebo_option(p_check)
    p_frames = sub.add_parser('frames', help='print the frame tree with world poses',
                              description=f'Print the frame tree of {names(LOADED)}.')
    p_frames.add_argument('file', help=what)
    p_frames.add_argument('args', nargs='*', help='xacro arguments name:=value')
    add_gazebo_option(p_frames)
    if args[:1] and args[0] in CORE_COMMANDS:
        return parser
    from sdf_tools.report.command import add_report_command
    from sdf_tools.spawn.command import add_spawn_commands

    sub.add_parser('convert', help=f'convert {names(CONVERT_READS)} to {names(CONVERT_WRITES)}, '
                   'reporting every loss (sdf_tools convert -h for the options)')
    sub.add_parser('verify', help=f'check a conversion: load OUT ({names(CONVERT_WRITES)}) in its '
                   'own engine, compare with the source (sdf_tools verify -h for the options)')
    add_spawn_commands(sub)
    add_report_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the process exit code.

    ``--gazebo NAME`` is taken from anywhere on the line: every command reads as that target.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        gazebo, args = split_gazebo_option(args)
    except ValueError as err:
        print(f'sdf_tools: {err}', file=sys.stderr)
        return EXIT_UNUSABLE
    with using(gazebo):
        return _main(args)


def _main(args: list[str]) -> int:
    if args[:1] == ['convert']:
        # Its own parser: xacro arguments may come after the options there.
        from sdf_tools.convert.command import main as convert_main
        return convert_main(args[1:])
    if args[:1] == ['report']:
        from sdf_tools.report.command import main as report_main
        return report_main(args[1:])  # its own parser too, for the same reason
    if args[:1] == ['verify']:
        from sdf_tools.verify.command import main as verify_main  # MuJoCo/usd-core on demand
        return verify_main(args[1:])
    try:
        ns = _parser(args).parse_args(args)
    except SystemExit as exc:
        return EXIT_UNUSABLE if exc.code else EXIT_VALID
    if ns.command not in CORE_COMMANDS:
        from sdf_tools.spawn.command import run_spawn_command
        return run_spawn_command(ns)
    return _run_core(ns)


def _run_core(ns: argparse.Namespace) -> int:
    """inspect, check or frames of one file."""
    from sdf_tools.load import load_file

    xargs, bad = parse_name_values(ns.args)
    if bad:
        print(f'sdf_tools: arguments after FILE must be name:=value: {bad[0]}', file=sys.stderr)
        return EXIT_UNUSABLE
    result = load_file(ns.file, xargs)
    if ns.command == 'inspect' and ns.inertial_stats:
        from sdf_tools.resolved import resolve
        from sdf_tools.resolved.inertial_stats import print_inertial_stats
        _print_diagnostics(result)
        if result.document is None:
            return EXIT_UNUSABLE
        print_inertial_stats(resolve(result, ns.file))
        return _exit_code(result)
    if ns.command == 'inspect' and ns.json:
        import json

        from sdf_tools.resolved import inspect_json
        json.dump(inspect_json(result, ns.file), sys.stdout, indent=1, allow_nan=False)
        print()
        return _exit_code(result)
    if ns.command == 'check' and ns.strict:
        return _check_strict(ns, result)
    _print_diagnostics(result)
    if ns.command == 'check':
        code = _exit_code(result)
        print({0: 'valid', 1: 'invalid', 2: 'unusable'}[code] + f': {ns.file}')
        return code
    if result.document is None:
        return EXIT_UNUSABLE
    if ns.command == 'frames':
        _print_frames(result)
    else:
        from sdf_tools.resolved import resolve
        r = resolve(result, ns.file)
        listed = {'models': [m.name for m in r.models], 'links': [lk.name for lk in r.links],
                  'joints': [j.name for j in r.joints], 'frames': [f.name for f in r.frames],
                  'actors': [a.name for a in r.actors]}
        for key, items in listed.items():
            print(f'{key}: {len(items)}')
            for name in items:
                print(f'  {name}')
    return _exit_code(result)
