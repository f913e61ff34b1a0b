"""Read a converted URDF back and compare its poses with the SDFormat it came from.

Poses are compared in the world frame, as ``inspect --json`` prints them:
positions component by component, orientations as quaternions up to sign.
"""
from __future__ import annotations

from typing import Any

from sdf_tools.convert import ConversionOptions, ConversionResult
from sdf_tools.convert.urdf.to_urdf import convert_to_urdf
from sdf_tools.load import LoadResult, load_file, load_string
from sdf_tools.resolved import inspect_json

Json = dict[str, Any]
TOL = 1e-9


def pose_diff(a: Json, b: Json) -> float:
    """Return the largest difference between two ``{xyz, quat_xyzw}`` poses."""
    dp = max(abs(x - y) for x, y in zip(a['xyz'], b['xyz'], strict=True))
    qa, qb = a['quat_xyzw'], b['quat_xyzw']
    dq = min(max(abs(x - y) for x, y in zip(qa, qb, strict=True)),
             max(abs(x + y) for x, y in zip(qa, qb, strict=True)))
    return max(dp, dq)


def vec_diff(a: list[float], b: list[float]) -> float:
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


def by_name(items: list[Json], model: str) -> dict[str, Json]:
    """Index inspect records of ``model`` by their name inside it."""
    prefix = f'{model}::'
    return {i['name'][len(prefix):]: i for i in items if i['name'].startswith(prefix)}


def convert(loaded: LoadResult, **options: Any) -> ConversionResult:
    return convert_to_urdf(loaded, ConversionOptions(**options))


def readback(text: str, name: str = 'converted.urdf') -> LoadResult:
    """Load URDF text with our reader; fail the test if it is invalid."""
    back = load_string(text, name)
    assert back.valid, [str(d) for d in back.errors]
    return back


def link_pose_errors(source: LoadResult, urdf: LoadResult, model: str,
                     sep: str = '::') -> dict[str, float]:
    """Return, for every link of ``model`` in ``source``, its pose error in ``urdf``.

    A link missing from the URDF gets an infinite error.
    """
    src = by_name(inspect_json(source)['links'], model)
    back = inspect_json(urdf)
    robot = back['models'][0]['name']
    got = by_name(back['links'], robot)
    out = {}
    for name, link in src.items():
        other = got.get(name.replace('::', sep))
        out[name] = float('inf') if other is None else pose_diff(link['pose'], other['pose'])
    return out


def axis_errors(source: LoadResult, urdf: LoadResult, model: str, sep: str = '::'
                ) -> dict[str, float]:
    """Return, for each joint with an axis, the error of its world axis (and axis2) in the URDF.

    ``axis2`` of a universal or revolute2 joint ``j`` is the axis of URDF joint ``j__axis2``.
    """
    src = by_name(inspect_json(source)['joints'], model)
    back = inspect_json(urdf)
    got = by_name(back['joints'], back['models'][0]['name'])
    out = {}
    for name, joint in src.items():
        if joint['type'] in ('ball', 'fixed') or joint['axis'] is None:
            continue
        urdf_name = name.replace('::', sep)
        for key, other in (('axis', urdf_name), ('axis2', f'{urdf_name}__axis2')):
            if joint.get(key) is None or other not in got:
                continue
            out[f'{name}.{key}'] = vec_diff(joint[key], got[other]['axis'])
    return out


def load(path: str) -> LoadResult:
    loaded = load_file(path)
    assert loaded.valid, [str(d) for d in loaded.errors]
    return loaded


def expected_link_poses(src: Json, model: str) -> dict[str, Json]:
    """Poses a converted URDF's links must have, in the world: the model's links at theirs,
    links the converter added (``<joint>__frame``, ``<joint>__link<k>``) at their joint."""
    links = {n: lk['pose'] for n, lk in by_name(src['links'], model).items()}
    for name, joint in by_name(src['joints'], model).items():
        for suffix in ('__frame', '__link1', '__link2'):
            links[name + suffix] = joint['pose']
    return links


def libsdformat_problems(src: Json, ref: Json, model: str, added_mass: float = 1e-3) -> list[str]:
    """Compare libsdformat's reading of a converted URDF (``ref``) with the SDFormat (``src``).

    Both are ``inspect --json`` objects and the URDF was written with the separator
    ``::``. Every link libsdformat keeps must be at its expected pose; every link of the
    model it does not keep must have been merged into its joint's ``__frame`` link; the
    total mass must be the model's plus ``added_mass`` per link added between joints;
    each joint axis must be the model's (``axis2`` on ``<joint>__axis2``).
    """
    problems: list[str] = []
    expected = expected_link_poses(src, model)
    sdf_links, kept = by_name(src['links'], model), by_name(ref['links'], model)
    for name, link in kept.items():
        if name not in expected:
            problems.append(f'libsdformat has link [{name}], which the model does not')
        elif pose_diff(link['pose'], expected[name]) > TOL:
            problems.append(f'link [{name}] is off by {pose_diff(link["pose"], expected[name])}')
    joints = by_name(src['joints'], model)
    for name in sdf_links.keys() - kept.keys():
        if not any(j['child'] == f'{model}::{name}' and f'{n}__frame' in kept
                   for n, j in joints.items()):
            problems.append(f'link [{name}] is missing from libsdformat and was not merged')
    added = sum(1 for n in kept if n.rsplit('__', 1)[-1] in ('link1', 'link2'))
    total = sum(lk['mass'] for lk in sdf_links.values()) + added * added_mass
    if abs(sum(lk['mass'] for lk in kept.values()) - total) > 1e-9 * max(1.0, total):
        problems.append(f'total mass {sum(lk["mass"] for lk in kept.values())}, expected {total}')
    got = by_name(ref['joints'], model)
    for name, joint in joints.items():
        if joint['type'] in ('ball', 'fixed', 'gearbox') or joint['axis'] is None or name not in got:
            continue
        if vec_diff(got[name]['axis'], joint['axis']) > TOL:
            problems.append(f'axis of joint [{name}] differs')
        if joint['type'] in ('universal', 'revolute2') and \
                vec_diff(got[f'{name}__axis2']['axis'], joint['axis2']) > TOL:
            problems.append(f'axis2 of joint [{name}] differs')
    return problems
