"""Read a ROS 2 parameter file (``--params-file``) for one node, the way rcl applies it.

The launch files need to know what a user's ``params_file`` already sets, so
that launch arguments the user did not give leave those values alone, and so
that a file may supply ``description_file`` itself. rcl's rules, followed here:

* the top-level keys are node names, absolute (``/ns/node``) or relative to
  the root (``node`` is ``/node``), and may hold wildcards: ``*`` is one name
  token, ``**`` any number of them (``/**`` matches every node);
* under each, ``ros__parameters`` holds the values; nested mappings make
  dotted names (``a: {b: 1}`` is ``a.b``);
* every matching entry applies, in file order: a later one wins.

No ROS import: the launch logic is tested without ROS.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml


class ParamsFileError(ValueError):
    """The parameter file cannot be read, or is not a ROS 2 parameter file."""


def node_fqn(name: str, namespace: str = '') -> str:
    """Return the fully qualified name of node ``name`` in ``namespace`` (``/ns/name``)."""
    parts = [p for p in namespace.strip('/').split('/') if p] + [name]
    return '/' + '/'.join(parts)


def key_matches(key: str, fqn: str) -> bool:
    """Whether a top-level key of a parameter file applies to the node ``fqn`` (rcl's wildcards)."""
    tokens = key.strip('/').split('/')
    pattern = ''.join('(?:/[^/]+)*' if t == '**' else '/' + re.escape(t).replace(r'\*', '[^/]+')
                      for t in tokens)
    return re.fullmatch(pattern, fqn) is not None


def _flatten(values: Mapping[str, Any], prefix: str = '') -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in values.items():
        if isinstance(value, Mapping):
            out.update(_flatten(value, f'{prefix}{name}.'))
        else:
            out[f'{prefix}{name}'] = value
    return out


def _load(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding='utf-8')
    except OSError as err:
        raise ParamsFileError(f'params_file [{path}]: cannot be read: {err.strerror or err}') from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        mark = getattr(err, 'problem_mark', None)
        where = f'{path}:{mark.line + 1}' if mark is not None else str(path)
        raise ParamsFileError(f'params_file {where}: not valid YAML: '
                              f'{getattr(err, "problem", None) or err}') from None
    if not isinstance(data, dict):
        raise ParamsFileError(f'params_file [{path}]: not a ROS 2 parameter file (expected '
                              '"node_name: {ros__parameters: {...}}")')
    return data


def node_parameters(path: str | Path, fqn: str) -> dict[str, Any]:
    """Return the parameters the file gives node ``fqn`` (empty when no entry matches).

    Raises:
        ParamsFileError: the file is missing, not YAML, or an entry that
            matches the node has no ``ros__parameters`` mapping.
    """
    path = Path(path)
    out: dict[str, Any] = {}
    for key, entry in _load(path).items():
        if not key_matches(str(key), fqn):
            continue
        params = entry.get('ros__parameters') if isinstance(entry, dict) else None
        if not isinstance(params, dict):
            raise ParamsFileError(f'params_file [{path}]: entry [{key}] has no ros__parameters '
                                  'mapping')
        out.update(_flatten(params))
    return out


def node_keys(path: str | Path) -> list[str]:
    """Return the top-level keys of a parameter file (for messages)."""
    return [str(k) for k in _load(Path(path))]
