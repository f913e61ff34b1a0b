"""``name:=value`` arguments: the one parser for the CLI, the converter and the ROS layer.

xacro (and ``ros2 launch``) take arguments as ``name:=value``; everything after
the first ``:=`` is the value, so ``path:=a:=b`` gives ``path`` the value ``a:=b``.
"""
from __future__ import annotations

import shlex
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: the ROS nodes import this module and need no argparse
    import argparse

#: What a command returns after ``--help`` and on a usage error.
EXIT_HELP, EXIT_USAGE = 0, 2


def parse_name_values(items: Iterable[object]) -> tuple[dict[str, str], list[str]]:
    """Split ``name:=value`` items; return the mapping and one problem per bad item.

    A later item of the same name wins, as on xacro's command line.
    """
    out: dict[str, str] = {}
    problems: list[str] = []
    for item in items:
        name, sep, value = str(item).partition(':=')
        if not sep or not name:
            problems.append(f'[{item}] is not of the form name:=value')
            continue
        out[name] = value
    return out, problems


def parse_name_values_text(text: str) -> tuple[dict[str, str], list[str]]:
    """The same for one shell-quoted string (``'a:=1 b:="two words"'``)."""
    try:
        items = shlex.split(text)
    except ValueError as err:
        return {}, [f'[{text}] is not valid shell quoting: {err}']
    return parse_name_values(items)


def parse_command(parser: argparse.ArgumentParser, argv: Sequence[str], after: str = 'FILE'
                  ) -> tuple[argparse.Namespace, dict[str, str]] | int:
    """Parse a command's options and its ``name:=value`` arguments (``ns.args``) in any order.

    Returns:
        The namespace and the xacro arguments, or the exit code to return: 0 after
        ``--help``, 2 on a usage error (argparse's message, or ours on stderr).
    """
    try:
        ns = parser.parse_intermixed_args(list(argv))
    except SystemExit as exc:
        return EXIT_USAGE if exc.code else EXIT_HELP
    xargs, bad = parse_name_values(ns.args)
    if bad:
        print(f'{parser.prog}: arguments after {after} must be name:=value: {bad[0]}',
              file=sys.stderr)
        return EXIT_USAGE
    return ns, xargs
