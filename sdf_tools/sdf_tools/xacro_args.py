"""``name:=value`` arguments: the one parser for the CLI, the converter and the ROS layer.

xacro (and ``ros2 launch``) take arguments as ``name:=value``; everything after
the first ``:=`` is the value, so ``path:=a:=b`` gives ``path`` the value ``a:=b``.
"""
from __future__ import annotations

import shlex
from collections.abc import Iterable


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
