"""The one inertia implementation: principal axes in a frame, rigidly joined bodies."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from sdf_tools.model import Inertial, RawPose
from sdf_tools.model.inertia import combine_inertials, composite, in_frame, principal_frame, rotation
from sdf_tools.transform import Transform


def test_principal_frame_keeps_a_diagonal_tensor_and_its_frame_exactly() -> None:
    frame = Transform((0.1, 0.2, 0.3), (0.5, 0.5, 0.5, 0.5))
    got = principal_frame((0.1, 0.0, 0.0, 0.2, 0.0, 0.3), frame)
    assert got.com == (0.1, 0.2, 0.3) and got.moments == (0.1, 0.2, 0.3)
    assert got.axes == (0.5, 0.5, 0.5, 0.5)


def test_principal_frame_of_a_full_tensor_gives_it_back_in_the_link_frame() -> None:
    r = Rotation.from_euler('xyz', [0.3, -0.5, 1.1]).as_matrix()
    t = r @ np.diag([1.0, 2.0, 2.5]) @ r.T
    frame = Transform((0.0, 0.0, 0.0), (0.9238795325112867, 0.0, 0.0, 0.3826834323650898))
    got = principal_frame((t[0, 0], t[0, 1], t[0, 2], t[1, 1], t[1, 2], t[2, 2]), frame)
    assert got.moments == pytest.approx((1.0, 2.0, 2.5), rel=1e-12)
    back = rotation(got.axes) @ np.diag(got.moments) @ rotation(got.axes).T
    assert back == pytest.approx(in_frame(t[np.triu_indices(3)], frame), abs=1e-12)


def test_composite_moves_each_tensor_to_the_common_centre_of_mass() -> None:
    point = np.zeros((3, 3))
    mass, com, tensor = composite([(1.0, np.array([1.0, 0.0, 0.0]), point),
                                   (1.0, np.array([-1.0, 0.0, 0.0]), point)])
    assert mass == 2.0 and com == pytest.approx([0.0, 0.0, 0.0])
    assert np.diag(tensor) == pytest.approx([0.0, 2.0, 2.0])


def test_combine_inertials_agrees_with_composite_in_the_parent_frame() -> None:
    parent = Inertial(2.0, (0.1, 0.0, 0.0, 0.2, 0.0, 0.3), RawPose(Transform((0.0, 0.0, 0.1))))
    child = Inertial(1.0, (0.05, 0.01, 0.0, 0.05, 0.0, 0.02))
    x_pc = Transform((0.5, 0.0, 0.0), (0.7071067811865476, 0.0, 0.0, 0.7071067811865476))
    got = combine_inertials(parent, child, x_pc)
    assert got.mass == 3.0 and got.pose is not None
    assert got.pose.value.p == pytest.approx((1 / 6, 0.0, 0.2 / 3))
    want = composite([(2.0, np.array([0.0, 0.0, 0.1]), in_frame(parent.inertia, Transform())),
                      (1.0, np.array([0.5, 0.0, 0.0]), in_frame(child.inertia, x_pc))])[2]
    assert in_frame(got.inertia, Transform()) == pytest.approx(want, abs=1e-15)
