"""libsdformat's lumping arithmetic (urdf/ode_mass.py), judged by the numbers libsdformat loads."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.libsdformat import probe_available, probe_unavailable_reason, run_probe

from sdf_tools.load import load_file
from sdf_tools.urdf.lumping_walk import urdf_walk

DATA = Path(__file__).resolve().parents[1] / 'data' / 'urdf_rules'

pytestmark = pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))


def _sums(name: str, link: str) -> tuple[list[float], list[float]]:
    """Our ODE sum of ``link`` and the lumped inertia libsdformat loads for it."""
    path = DATA / name
    loaded = load_file(str(path))
    assert loaded.document is not None and loaded.document.model is not None
    ours = urdf_walk(loaded.document.model).ode_lumped_inertial(link)
    assert ours is not None
    (ref,) = [lk for lk in run_probe(path)['links'] if lk['name'] == f'r::{link}']
    assert ours.mass == ref['mass']
    return list(ours.inertia), ref['inertia']


def test_rotated_inertials_and_joint_sum_as_libsdformat() -> None:
    ours, ref = _sums('lumped_rotated_inertials.urdf', 'base')
    assert ours == pytest.approx(ref, abs=1e-15)


def test_point_mass_moments_come_back_zero_as_in_libsdformat() -> None:
    # 0.25 + 1e-20 - 0.25: the round-off that makes the link invalid, bit for bit
    ours, ref = _sums('lumped_point_mass_round_off.urdf', 'pin')
    assert ref[0] == 0.0 and ref[5] == 1e-20
    assert ours == ref
