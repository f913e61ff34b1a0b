"""The 0/0 centre of mass of lumping zero masses together, for every target.

``ReduceInertialToParent`` and ``dMassAdd`` are the same in libsdformat 12.3 and 14.9-16.1
(``parser_urdf.cc``): the centre of mass is divided by the summed mass. Fortress is judged
by the 12 probe (``differential/test_libsdformat_urdf_rules.py``, the same files); the
newer targets follow the code, and differ only in which link ``CreateSDF`` writes.
"""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from sdf_tools.convert.api import convert_loaded
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file, load_string
from sdf_tools.resolved import inspect_json

DATA = Path(__file__).resolve().parents[1] / 'data' / 'urdf_rules'
NEWER = ('harmonic', 'ionic', 'jetty')


def _report(name: str, gazebo: str) -> dict:
    return inspect_json(load_file(DATA / name, gazebo=gazebo), name)


@pytest.mark.parametrize('gazebo', NEWER)
def test_zero_masses_lumped_together_are_a_non_finite_pose(gazebo: str) -> None:
    ours = _report('zero_mass_sum.urdf', gazebo)
    (err,) = [e for e in ours['errors'] if e['code'] == 'ELEMENT_INVALID']
    assert err['line'] == 26  # the lumped link whose mass made the sum 0
    assert err['message'].startswith('Error reading element <pose>')  # libsdformat's words
    assert '[camera_optical]' in err['message'] and 'link [head]' in err['message']


@pytest.mark.parametrize('gazebo', NEWER)
@pytest.mark.parametrize('name, line', [('zero_mass_sum_first.urdf', 16),
                                        ('zero_mass_sum_second.urdf', None)])
def test_zero_sum_depends_on_the_order_of_joint_names(gazebo: str, name: str,
                                                      line: int | None) -> None:
    ours = _report(name, gazebo)
    assert [e['line'] for e in ours['errors'] if e['code'] == 'ELEMENT_INVALID'] == (
        [line] if line else [])


@pytest.mark.parametrize('gazebo', NEWER)
def test_zero_sum_in_a_link_libsdformat_leaves_out_is_read_by_nobody(gazebo: str) -> None:
    ours = _report('zero_mass_sum_unwritten.urdf', gazebo)
    # no ELEMENT_INVALID: [mount] is not written (13.1+ refuses the frames of [zero] instead)
    assert [e['code'] for e in ours['errors']] == ['FRAME_ATTACHED_TO_INVALID']


@pytest.mark.parametrize('gazebo', ['fortress', *NEWER])
def test_conversion_gives_the_zero_masses_a_mass_and_a_finite_pose(gazebo: str) -> None:
    converted = convert_loaded(load_file(DATA / 'zero_mass_sum.urdf', gazebo=gazebo), to='sdf',
                               options=ConversionOptions())
    assert converted.ok and converted.text is not None, converted.report.errors
    back = inspect_json(load_string(converted.text, gazebo=gazebo), 'converted.sdf')
    assert back['valid'], back['errors']
    for link in back['links']:
        assert all(math.isfinite(v) for v in link['inertial_pose']['xyz']), link
