"""Run the libsdformat 12 reference probe and compare its report with ours.

The probe (``tools/sdformat_probe``) loads a file with ``sdf::Root::Load`` and prints the
same JSON schema as ``sdf_tools inspect --json``. :func:`compare` lists every difference
between the two reports, strictly: same verdict, a shared error code when both reject the
file, and for accepted files every model, link, joint, frame and actor matched by name
with all numbers within an absolute tolerance.

Typical use in a differential test::

    if not probe_available():
        pytest.skip(probe_unavailable_reason())
    diffs = compare(our_report, run_probe(path))
    assert not diffs, '\\n'.join(diffs)
"""

from __future__ import annotations

import functools
import json
import math
import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = [
    'ProbeError',
    'build_probe',
    'compare',
    'probe_available',
    'probe_unavailable_reason',
    'run_probe',
]

REPO_ROOT = Path(__file__).resolve().parents[3]
BUILD_SCRIPT = REPO_ROOT / 'tools' / 'sdformat_probe' / 'build.sh'

#: Error code the probe reports when libsdformat threw instead of returning errors.
EXCEPTION_CODE = 'EXCEPTION'

# Fields of each entity kind that both reports must carry (the inspect --json schema).
_SCHEMA: dict[str, tuple[str, ...]] = {
    'models': ('pose', 'canonical_link', 'static'),
    'links': ('pose', 'mass', 'inertia', 'inertial_pose', 'visuals', 'collisions'),
    'joints': (
        'type', 'parent', 'child', 'pose', 'axis', 'axis2', 'limit', 'dynamics',
    ),
    'frames': ('attached_to', 'pose'),
    'actors': ('pose', 'skin', 'animations', 'trajectories'),
}
# Lists of records matched by a key instead of by position.
_KEYED_LISTS: dict[str, str] = {
    'visuals': 'name',
    'collisions': 'name',
    'animations': 'name',
    'trajectories': 'id',
}


class ProbeError(RuntimeError):
    """The probe could not be built, or crashed, hung or printed no JSON."""


@functools.cache
def _build() -> Path | str:
    """Build the probe once per process; return its path or the reason it failed."""
    if not BUILD_SCRIPT.is_file():
        return f'{BUILD_SCRIPT} is missing'
    try:
        result = subprocess.run(
            ['bash', str(BUILD_SCRIPT)],
            capture_output=True, text=True, check=False, timeout=600,
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        return f'building the libsdformat probe failed: {err}'
    if result.returncode != 0:
        detail = result.stderr.strip() or result.stdout.strip()
        return f'libsdformat 12 probe unavailable: {detail}'
    path = Path(result.stdout.strip().splitlines()[-1])
    if not os.access(path, os.X_OK):
        return f'build.sh printed {str(path)!r}, which is not an executable'
    return path


def probe_available() -> bool:
    """Return whether the libsdformat 12 probe builds (and so libsdformat is installed)."""
    return isinstance(_build(), Path)


def probe_unavailable_reason() -> str | None:
    """Return why the probe is unavailable, or None when it is available."""
    built = _build()
    return None if isinstance(built, Path) else built


def build_probe() -> Path:
    """Return the probe binary, building it on first use.

    Raises:
        ProbeError: libsdformat 12, pkg-config or g++ is missing, or the build failed.
    """
    built = _build()
    if isinstance(built, str):
        raise ProbeError(built)
    return built


def run_probe(
    path: str | os.PathLike[str],
    env: Mapping[str, str | None] | None = None,
    timeout: float = 60.0,
    *,
    cwd: str | os.PathLike[str] | None = None,
    ign_check: bool = False,
    probe: str | os.PathLike[str] | None = None,
) -> dict[str, Any]:
    """Load ``path`` with libsdformat 12 and return the probe's report.

    libsdformat 12 resolves a relative ``<include><uri>`` against the process's working
    directory, not the including file, and looks a relative top-level path up in its own
    share directory first (``model.sdf`` would load the spec file of that name). To get
    the behaviour of a reader that resolves against the file, the probe is given the
    absolute path and runs, unless ``cwd`` says otherwise, in the file's directory.

    Args:
        path: The SDFormat or URDF file.
        env: Variables set on top of this process's environment for the probe (for
            example ``SDF_PATH``); a value of None removes the variable.
        timeout: Seconds before the probe is killed (include cycles make libsdformat
            recurse until it runs out of stack or time).
        cwd: Working directory of the probe; defaults to the file's directory.
        ign_check: Also run the extra checks of ``ign sdf -k``; the report then has an
            ``ign_check`` member ``{valid, failed}``.
        probe: Another build of the probe to run instead (the same source built against
            libsdformat 14-16, tools/libsdformat_test_sweep.py ``--probe``); default: the
            libsdformat 12 one, built on first use.

    Returns:
        The decoded JSON report.

    Raises:
        ProbeError: The probe is unavailable, crashed, timed out or printed no JSON.
    """
    probe = Path(probe) if probe is not None else build_probe()
    file = Path(path).absolute()
    run_env = dict(os.environ)
    for key, value in (env or {}).items():
        if value is None:
            run_env.pop(key, None)
        else:
            run_env[key] = value
    args = [str(probe), *(['--ign-check'] if ign_check else []), str(file)]
    try:
        result = subprocess.run(
            args, capture_output=True, text=True, check=False, timeout=timeout,
            env=run_env, cwd=str(cwd) if cwd is not None else str(file.parent),
        )
    except subprocess.TimeoutExpired as err:
        msg = f'libsdformat probe timed out after {timeout} s on {str(file)!r}'
        raise ProbeError(msg) from err
    if result.returncode != 0:
        tail = result.stderr.strip()[-2000:]
        msg = f'libsdformat probe exited with {result.returncode} on {str(file)!r}:\n{tail}'
        raise ProbeError(msg)
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError as err:
        msg = f'libsdformat probe printed no JSON for {str(file)!r}: {result.stdout[:500]!r}'
        raise ProbeError(msg) from err
    if not isinstance(report, dict):
        msg = f'libsdformat probe printed {type(report).__name__}, not an object'
        raise ProbeError(msg)
    return report


# ---------------------------------------------------------------------------------------
# Comparison.


def compare(ours: Mapping[str, Any], ref: Mapping[str, Any], tol: float = 1e-9) -> list[str]:
    """Return every difference between our report and libsdformat's, one line each.

    The verdicts must agree. When both reject the file they must share at least one
    error code (an ``EXCEPTION`` from the probe, where libsdformat threw and so has no
    code, is matched by any error of ours). When both accept it, format, version and
    every model, link, joint, frame and actor are compared: matched by name, each field
    of the schema present on both sides, numbers within ``tol`` (absolute), quaternions
    equal up to sign, names and strings exactly. An empty list means agreement.
    """
    diffs: list[str] = []
    ours_valid, ref_valid = ours.get('valid'), ref.get('valid')
    if ours_valid is not ref_valid:
        diffs.append(
            f'verdict: ours valid={ours_valid}, libsdformat valid={ref_valid} '
            f'(ours: {_codes_text(ours)}; libsdformat: {_codes_text(ref)})',
        )
        return diffs
    if not ref_valid:
        ours_codes, ref_codes = _codes(ours), _codes(ref)
        if EXCEPTION_CODE in ref_codes and ours_codes:
            return diffs
        if not ours_codes & ref_codes:
            diffs.append(
                f'errors: no shared error code (ours: {_codes_text(ours)}; '
                f'libsdformat: {_codes_text(ref)})',
            )
        return diffs
    for key in ('format', 'version'):
        if ours.get(key) != ref.get(key):
            diffs.append(f'{key}: ours {ours.get(key)!r}, libsdformat {ref.get(key)!r}')
    for kind, fields in _SCHEMA.items():
        _compare_named(
            kind, ours.get(kind), ref.get(kind), fields, 'name', tol, diffs,
        )
    return diffs


def _codes(report: Mapping[str, Any]) -> set[str]:
    errors = report.get('errors') or []
    return {str(e.get('code')) for e in errors if isinstance(e, Mapping)}


def _codes_text(report: Mapping[str, Any]) -> str:
    codes = sorted(_codes(report))
    return ', '.join(codes) if codes else 'no errors'


def _index(
    where: str, side: str, items: Any, key: str, diffs: list[str],
) -> dict[Any, Mapping[str, Any]]:
    """Map records by ``key``, reporting duplicates and non-records."""
    out: dict[Any, Mapping[str, Any]] = {}
    if not isinstance(items, Sequence) or isinstance(items, str):
        diffs.append(f'{where}: {side} has {type(items).__name__}, not a list')
        return out
    for item in items:
        if not isinstance(item, Mapping) or key not in item:
            diffs.append(f'{where}: {side} has an entry without {key!r}: {item!r}')
            continue
        if item[key] in out:
            diffs.append(f'{where}[{item[key]!r}]: {side} lists it more than once')
            continue
        out[item[key]] = item
    return out


def _compare_named(
    where: str,
    ours: Any,
    ref: Any,
    fields: Sequence[str] | None,
    key: str,
    tol: float,
    diffs: list[str],
) -> None:
    """Compare two lists of records matched by ``key``.

    With ``fields`` given, each of them must be present on both sides; otherwise every
    field libsdformat reports must be present in ours (ours may report more).
    """
    ours_by = _index(where, 'ours', ours, key, diffs)
    ref_by = _index(where, 'libsdformat', ref, key, diffs)
    for name in ref_by.keys() - ours_by.keys():
        diffs.append(f'{where}[{name!r}]: missing from ours')
    for name in ours_by.keys() - ref_by.keys():
        diffs.append(f'{where}[{name!r}]: not in libsdformat (extra in ours)')
    for name in ref_by.keys() & ours_by.keys():
        _compare_record(
            f'{where}[{name!r}]', ours_by[name], ref_by[name], fields, key, tol, diffs,
        )


def _compare_record(
    where: str,
    ours: Mapping[str, Any],
    ref: Mapping[str, Any],
    fields: Sequence[str] | None,
    skip: str,
    tol: float,
    diffs: list[str],
) -> None:
    required = set(fields) if fields is not None else set(ref.keys())
    for field in sorted(required):
        if field not in ours or field not in ref:
            side = 'ours' if field not in ours else 'libsdformat'
            diffs.append(f'{where}.{field}: missing from {side}')
    shared = (set(ours.keys()) & set(ref.keys())) - {skip}
    for field in sorted(shared):
        _compare_value(f'{where}.{field}', field, ours[field], ref[field], tol, diffs)


def _compare_value(
    where: str, field: str, ours: Any, ref: Any, tol: float, diffs: list[str],
) -> None:
    if field in _KEYED_LISTS and isinstance(ref, list) and isinstance(ours, list):
        _compare_named(where, ours, ref, None, _KEYED_LISTS[field], tol, diffs)
        return
    if _is_pose(ours) and _is_pose(ref):
        _compare_pose(where, ours, ref, tol, diffs)
        return
    if isinstance(ref, bool) or isinstance(ours, bool):
        if ours is not ref:
            diffs.append(f'{where}: ours {ours!r}, libsdformat {ref!r}')
        return
    if _is_number(ours) and _is_number(ref):
        _compare_number(where, float(ours), float(ref), tol, diffs)
        return
    if isinstance(ref, Mapping) and isinstance(ours, Mapping):
        _compare_record(where, ours, ref, None, '', tol, diffs)
        return
    if isinstance(ref, list) and isinstance(ours, list):
        if len(ours) != len(ref):
            diffs.append(f'{where}: ours has {len(ours)} items, libsdformat {len(ref)}')
            return
        for i, (o, r) in enumerate(zip(ours, ref, strict=True)):
            _compare_value(f'{where}[{i}]', '', o, r, tol, diffs)
        return
    if ours != ref or type(ours) is not type(ref):
        diffs.append(f'{where}: ours {ours!r}, libsdformat {ref!r}')


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_pose(value: Any) -> bool:
    return isinstance(value, Mapping) and set(value.keys()) == {'xyz', 'quat_xyzw'}


def _compare_number(where: str, ours: float, ref: float, tol: float, diffs: list[str]) -> None:
    if math.isnan(ours) and math.isnan(ref):
        return
    if math.isinf(ours) or math.isinf(ref):
        if ours != ref:
            diffs.append(f'{where}: ours {ours!r}, libsdformat {ref!r}')
        return
    delta = abs(ours - ref)
    if not delta <= tol:
        diffs.append(f'{where}: ours {ours!r}, libsdformat {ref!r} (|diff| {delta:.3g} > {tol:g})')


def _vector(value: Any, size: int) -> list[float] | None:
    if not isinstance(value, list) or len(value) != size:
        return None
    if not all(_is_number(v) for v in value):
        return None
    return [float(v) for v in value]


def _compare_pose(
    where: str, ours: Mapping[str, Any], ref: Mapping[str, Any], tol: float, diffs: list[str],
) -> None:
    """Compare positions componentwise and orientations with q and -q equal."""
    oxyz, rxyz = _vector(ours['xyz'], 3), _vector(ref['xyz'], 3)
    if oxyz is None or rxyz is None:
        diffs.append(f'{where}.xyz: malformed (ours {ours["xyz"]!r}, libsdformat {ref["xyz"]!r})')
    else:
        for axis, o, r in zip('xyz', oxyz, rxyz, strict=True):
            _compare_number(f'{where}.xyz.{axis}', o, r, tol, diffs)
    oq, rq = _vector(ours['quat_xyzw'], 4), _vector(ref['quat_xyzw'], 4)
    if oq is None or rq is None:
        diffs.append(
            f'{where}.quat_xyzw: malformed '
            f'(ours {ours["quat_xyzw"]!r}, libsdformat {ref["quat_xyzw"]!r})',
        )
        return
    same = max(abs(o - r) for o, r in zip(oq, rq, strict=True))
    flipped = max(abs(o + r) for o, r in zip(oq, rq, strict=True))
    delta = min(same, flipped)
    if not delta <= tol:
        diffs.append(
            f'{where}.quat_xyzw: ours {oq!r}, libsdformat {rq!r} '
            f'(|diff| {delta:.3g} > {tol:g}, up to sign)',
        )
