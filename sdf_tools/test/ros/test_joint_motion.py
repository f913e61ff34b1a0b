"""A moving joint's transform: the unrolled one-axis path equals the plain product."""
from __future__ import annotations

import math

import pytest

from sdf_tools.ros.joint_motion import MovingJoint, axis_entry
from sdf_tools.transform import Transform

A = Transform.from_xyz_rpy((0.1, -0.2, 0.3), (0.4, -0.5, 0.6))
B = Transform.from_xyz_rpy((-0.3, 0.2, 0.1), (-0.1, 0.2, -0.3))
AXIS = (0.0, 0.6, 0.8)


def close(a: Transform, b: Transform) -> bool:
    return all(abs(x - y) < 1e-15 for x, y in zip(a.p + a.q, b.p + b.q, strict=True))


@pytest.mark.parametrize('kind', ['revolute', 'continuous', 'prismatic'])
@pytest.mark.parametrize('q', [0.0, 0.7, -2.5])
def test_fast_path_equals_the_product(kind: str, q: float) -> None:
    j = MovingJoint('j', kind, 'p', 'c', A, B, (AXIS,))
    assert close(j.transform(q), A * j.motion(q) * B)


def test_revolute_motion_is_a_rotation_about_the_axis() -> None:
    j = MovingJoint('j', 'revolute', 'p', 'c', Transform(), Transform(), ((0.0, 0.0, 1.0),))
    x = j.transform(math.pi / 2)
    assert x.rotate((1.0, 0.0, 0.0)) == pytest.approx((0.0, 1.0, 0.0), abs=1e-15)


def test_multi_axis_rotations_are_carried_by_the_previous_ones() -> None:
    j = MovingJoint('j', 'universal', 'p', 'c', Transform(), Transform(),
                    ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0)))
    x = j.transform(math.pi / 2, math.pi / 2)
    # About x by 90 degrees, then about the moved y (the old z) by 90 degrees.
    assert x.rotate((1.0, 0.0, 0.0)) == pytest.approx((0.0, 1.0, 0.0), abs=1e-15)
    assert [axis_entry('j', k) for k in range(3)] == ['j', 'j__axis2', 'j__axis3']
