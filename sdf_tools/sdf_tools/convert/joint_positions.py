"""Where each joint starts: ``//axis/initial_position`` and ``--joint-positions``.

``--joint-positions`` takes ``NAME=VALUE,...`` or a YAML/JSON file holding a
mapping of joint names to positions (radians, metres), bare or under
``initial_positions:``/``joint_positions:`` (the way a ROS parameter file
nests them). A name is the joint's scoped name in its model (``arm::elbow``),
or, for a URDF joint the reader renamed, the file's own name. A value given
overrides the file's ``<initial_position>`` of the joint's first axis
(``NAME/2`` names a second axis). The writers put these where their engine
reads them: an MJCF ``<keyframe><key name="initial">`` (``qpos0`` stays the
zero configuration), the USD joint state ``state:angular:physics:position`` /
``state:linear:physics:position``.
"""
from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from pathlib import Path

from sdf_tools.model import Joint

NESTS = ('initial_positions', 'joint_positions')


def _mapping(data: object, source: str) -> tuple[dict[str, float], list[str]]:
    if isinstance(data, Mapping):
        for key in NESTS:
            inner = data.get(key)
            if isinstance(inner, Mapping):
                data = inner
                break
    if not isinstance(data, Mapping):
        return {}, [f'{source}: a mapping of joint names to positions is needed']
    out: dict[str, float] = {}
    problems = []
    for name, value in data.items():
        try:
            v = float(value)
        except (TypeError, ValueError):
            problems.append(f'{source}: joint [{name}]: position [{value}] is not a number')
            continue
        if not math.isfinite(v):
            problems.append(f'{source}: joint [{name}]: position [{value}] is not finite')
            continue
        out[str(name)] = v
    return out, problems


def parse_joint_positions(text: str) -> tuple[dict[str, float], list[str]]:
    """Read ``FILE.yaml``/``FILE.json`` or ``NAME=VALUE,...``; return the values and problems."""
    text = text.strip()
    if not text:
        return {}, []
    path = Path(text)
    if path.suffix.lower() in ('.yaml', '.yml', '.json') or path.is_file():
        try:
            raw = path.read_text(encoding='utf-8')
        except OSError as err:
            return {}, [f'--joint-positions: cannot read [{text}]: {err.strerror or err}']
        try:
            if path.suffix.lower() == '.json':
                data = json.loads(raw)
            else:
                import yaml
                data = yaml.safe_load(raw)
        except (ValueError, ImportError) as err:
            return {}, [f'--joint-positions: [{text}] is not valid YAML/JSON: {err}']
        except Exception as err:  # yaml.YAMLError: a parse error with its line
            return {}, [f'--joint-positions: [{text}] is not valid YAML: {err}']
        return _mapping(data, text)
    pairs: dict[str, object] = {}
    for item in (p for p in text.split(',') if p.strip()):
        name, sep, value = item.partition('=')
        if not sep or not name.strip():
            return {}, [f'--joint-positions: [{item}] is not NAME=VALUE']
        pairs[name.strip()] = value.strip()
    return _mapping(pairs, '--joint-positions')


def joint_keys(scoped: str, joint: Joint) -> list[str]:
    """Return the names ``--joint-positions`` may call a joint by."""
    keys = [scoped]
    if joint.file_name:
        keys.append(joint.file_name)
    return keys


def initial_values(scoped: str, joint: Joint, given: Mapping[str, float]
                   ) -> tuple[float, float]:
    """Return where the joint's two axes start: the value given, else ``<initial_position>``."""
    first = joint.axis.initial_position if joint.axis is not None else 0.0
    second = joint.axis2.initial_position if joint.axis2 is not None else 0.0
    for key in joint_keys(scoped, joint):
        if key in given:
            first = given[key]
        if f'{key}/2' in given:
            second = given[f'{key}/2']
    return first, second


def unknown_names(given: Mapping[str, float], known: Iterable[tuple[str, Joint]]) -> list[str]:
    """Return the names given that name no joint (each is an error)."""
    names: set[str] = set()
    for scoped, joint in known:
        for key in joint_keys(scoped, joint):
            names |= {key, f'{key}/2'}
    return sorted(k for k in given if k not in names)
