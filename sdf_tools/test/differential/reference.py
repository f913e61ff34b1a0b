"""Run our reader and libsdformat 12 on one file and list the differences.

Known, deliberate differences from libsdformat 12 are normalised here, each
with its reason, so that everything else is compared strictly:

* Unlimited joint limits: libsdformat returns +inf for a negative effort or
  velocity and keeps a bound written as ``inf``/``-inf``; our JSON is strict
  (no Infinity) and prints null for "unlimited".
* ``JOINT_AXIS_EXPRESSED_IN_INVALID``: libsdformat 12 does not check
  ``expressed_in`` (newer libsdformat does); files with that error are judged
  by us alone.
"""
from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from support.libsdformat import compare, run_probe

from sdf_tools.load import load_file
from sdf_tools.resolved import inspect_json


def _normalise_ref(ref: dict[str, Any]) -> dict[str, Any]:
    for j in ref.get('joints', []):
        lim = j.get('limit')
        if isinstance(lim, dict):
            for k in ('lower', 'upper', 'effort', 'velocity'):
                v = lim.get(k)
                if isinstance(v, float) and math.isinf(v):
                    lim[k] = None
    return ref


def ours_report(path: Path, env: dict[str, str] | None = None,
                gazebo: str = 'fortress') -> dict[str, Any]:
    """Return our ``inspect --json`` object, as strict JSON would carry it.

    ``gazebo`` is the target read for: Fortress, whose libsdformat 12 the probe is,
    unless a sweep compares another target with another build of the probe.
    """
    old = dict(os.environ)
    try:
        if env:
            os.environ.update(env)
        data = inspect_json(load_file(path, gazebo=gazebo), str(path))
    finally:
        os.environ.clear()
        os.environ.update(old)
    # Round-trip through strict JSON: what a consumer of the CLI sees.
    return json.loads(json.dumps(data, allow_nan=False))


def differences(path: Path, env: dict[str, str] | None = None) -> list[str]:
    """Return every difference between our report and libsdformat's for ``path``."""
    ours = ours_report(path, env)
    ref = _normalise_ref(run_probe(path, env=env))
    if any(e['code'] == 'JOINT_AXIS_EXPRESSED_IN_INVALID' for e in ours['errors']):
        return []
    return compare(ours, ref)
