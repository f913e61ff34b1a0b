"""The URDF text: exact numbers, rotations exact at gimbal lock, safe comments."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from sdf_tools.convert.urdf.writer import ULink, URobot, comment, num, pose_num, rpy_of, write_urdf
from sdf_tools.transform import Transform, normalize_quat


def _quat_diff(a: Transform, b: Transform) -> float:
    return min(max(abs(x - y) for x, y in zip(a.q, b.q, strict=True)),
               max(abs(x + y) for x, y in zip(a.q, b.q, strict=True)))


@pytest.mark.parametrize('x,text', [(0.0, '0'), (-0.0, '0'), (1.0, '1'), (0.1, '0.1'),
                                    (1e-16, '1e-16'), (-2.5, '-2.5'), (1e16, '1e+16')])
def test_numbers_are_short_and_exact(x: float, text: str) -> None:
    assert num(x) == text and float(text) == x


def test_subnormal_numbers_are_written_as_zero() -> None:
    assert num(-2.225073858507203e-309) == '0'  # std::stod refuses them


@pytest.mark.parametrize('x,text', [(0.9999999999999996, '1'), (5.551115123125783e-17, '0'),
                                    (0.30000000000000004, '0.3'), (0.123456789012345, '0.123456789012345')])
def test_pose_numbers_drop_composition_noise(x: float, text: str) -> None:
    assert pose_num(x) == text
    assert abs(float(text) - x) < 1e-15


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.tuples(*[st.floats(-1, 1, allow_nan=False)] * 4).filter(lambda q: sum(c * c for c in q) > 1e-3),
       st.sampled_from([None, 1.0, -1.0]), st.floats(0, 1e-3))
def test_rpy_rebuilds_the_rotation_even_near_gimbal_lock(
        q: tuple[float, float, float, float], lock: float | None, near: float) -> None:
    t = Transform((0.0, 0.0, 0.0), normalize_quat(q))
    if lock is not None:  # pitch at (or within ``near`` of) +-90 degrees
        r, _, y = t.rpy()
        t = Transform.from_xyz_rpy((0.0, 0.0, 0.0), (r, lock * (math.pi / 2 - near), y))
    back = Transform.from_xyz_rpy((0.0, 0.0, 0.0), rpy_of(t))
    assert _quat_diff(t, back) < 1e-15


def test_comments_never_hold_a_double_dash() -> None:
    c = comment('a -- b ---')
    assert '--' not in c.text and c.text.endswith(' ')


def test_header_comment_comes_before_the_robot() -> None:
    text = write_urdf(URobot('r', links=[ULink('a', comment='x')], header=['one\ntwo']))
    root = etree.fromstring(text.encode())
    assert root.tag == 'robot'
    assert text.index('one') < text.index('<robot')
    assert root.find('link').get('name') == 'a'
