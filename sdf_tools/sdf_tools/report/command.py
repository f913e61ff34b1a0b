"""``sdf_tools report IN -o report.html [--json] [name:=value ...]`` and ``check --strict``.

Exit codes as the rest of the CLI: 0 valid, 1 invalid (the page is still
written, with the errors first), 2 unusable input or usage (a page listing
why is still written when ``-o`` is given).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sdf_tools.gazebo import add_gazebo_option
from sdf_tools.xacro_args import parse_command

if TYPE_CHECKING:
    from sdf_tools.lint import Lint
    from sdf_tools.load import LoadResult
    from sdf_tools.resolved import Resolved

EXIT_VALID, EXIT_INVALID, EXIT_UNUSABLE = 0, 1, 2


HELP = 'write one self-contained HTML page: the model in 3D, its tree, tables and problems'


def add_report_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``report`` to the CLI's subcommands (for ``sdf_tools -h``; :func:`main` parses it)."""
    _arguments(sub.add_parser('report', help=HELP))


def main(argv: list[str]) -> int:
    """Run ``sdf_tools report ARGV``: options and ``name:=value`` in any order."""
    parser = argparse.ArgumentParser(prog='sdf_tools report', description=HELP)
    _arguments(parser)
    parsed = parse_command(parser, argv)
    return parsed if isinstance(parsed, int) else run_report(*parsed)


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument('file', help='SDFormat, URDF or xacro file, or a model directory')
    p.add_argument('-o', '--output', help='the HTML file to write')
    p.add_argument('--json', action='store_true', help='print the checks as one JSON object')
    add_package_option(p)
    p.add_argument('--joint-positions', metavar='FILE.yaml|NAME=VALUE,...', default='',
                   help="where the viewer's joint sliders start (radians, metres), by scoped "
                   "joint name, over <initial_position> (NAME/2 for a second axis)")
    p.add_argument('args', nargs='*', help='xacro arguments name:=value')
    add_gazebo_option(p)


def add_package_option(p: argparse.ArgumentParser) -> None:
    """``--package NAME=DIR`` (repeatable): where ``package://NAME/`` meshes are."""
    p.add_argument('--package', action='append', default=[], metavar='NAME=DIR',
                   help='find package://NAME/... meshes under DIR (before AMENT_PREFIX_PATH '
                   'and ROS_PACKAGE_PATH); repeatable')


def package_dirs(items: list[str]) -> dict[str, Path] | str:
    """The ``--package`` values by name, or the first malformed one."""
    out: dict[str, Path] = {}
    for item in items:
        name, sep, directory = item.partition('=')
        if not sep or not name or not directory:
            return item
        out[name] = Path(directory)
    return out


def _exit_code(result: LoadResult | Resolved) -> int:
    if not result.usable or result.document is None:
        return EXIT_UNUSABLE
    return EXIT_VALID if result.valid else EXIT_INVALID


def run_report(ns: argparse.Namespace, xacro_args: dict[str, str]) -> int:
    """Write the page and/or print the JSON; return the exit code."""
    if not ns.output and not ns.json:
        print('sdf_tools report: give -o FILE.html and/or --json', file=sys.stderr)
        return EXIT_UNUSABLE
    packages = package_dirs(ns.package)
    if isinstance(packages, str):
        print(f'sdf_tools report: --package must be NAME=DIR: {packages}', file=sys.stderr)
        return EXIT_UNUSABLE
    # Imported here: trimesh, the page and tempfile are only needed by this command (`check`
    # builds its parser from this module).
    from sdf_tools.convert.joint_positions import parse_joint_positions
    from sdf_tools.files import write_atomically
    from sdf_tools.report.build import build_report, report_json
    from sdf_tools.report.page import render_page
    positions, bad = parse_joint_positions(ns.joint_positions)
    if bad:
        print(f'sdf_tools report: {bad[0]}', file=sys.stderr)
        return EXIT_UNUSABLE
    report = build_report(ns.file, xacro_args, draw=bool(ns.output), packages=packages,
                          joint_positions=positions)
    known = {j.name for j in report.resolved.joints}
    unknown = sorted(k for k in positions if k not in known and k.removesuffix('/2') not in known)
    if unknown:
        print(f'sdf_tools report: --joint-positions: no joint [{unknown[0]}] in {ns.file} '
              f'(joints: {", ".join(sorted(known)) or "none"})', file=sys.stderr)
        return EXIT_UNUSABLE
    if ns.output:
        out = Path(ns.output)
        try:
            write_atomically(out, render_page(report))
        except OSError as exc:
            print(f'sdf_tools report: cannot write {out}: {exc}', file=sys.stderr)
            return EXIT_UNUSABLE
        r, ours = report.resolved, report.lint.ours
        print(f'{out}: {len(r.links)} links; libsdformat: {len(r.errors)} errors, '
              f'{len(r.warnings)} warnings; checks: '
              f'{sum(p.severity.value == "error" for p in ours)} errors, '
              f'{sum(p.severity.value == "warning" for p in ours)} warnings; '
              f'{out.stat().st_size / 1e6:.2f} MB', file=sys.stderr)
    if ns.json:
        json.dump(report_json(report), sys.stdout, indent=1, allow_nan=False)
        print()
    return _exit_code(report.resolved)


def strict_lint(result: LoadResult, path: str, packages: dict[str, Path] | None = None) -> Lint:
    """The lint ``check --strict`` runs: no page, collision meshes only."""
    from sdf_tools.lint import MeshPaths, lint
    from sdf_tools.resolved import resolve
    return lint(resolve(result, path), MeshPaths(packages or {}))
