"""Principal moments, the equivalent box and the geometry's own inertia."""
from __future__ import annotations

import numpy as np
import pytest
import trimesh
from scipy.spatial.transform import Rotation

from sdf_tools.lint import inertia as inr


def _box_inertia(m: float, a: float, b: float, c: float) -> list[float]:
    return [m * (b * b + c * c) / 12, 0.0, 0.0, m * (a * a + c * c) / 12, 0.0, m * (a * a + b * b) / 12]


def test_equivalent_box_gives_back_a_box() -> None:
    sides = inr.equivalent_box(2.0, _box_inertia(2.0, 0.3, 0.2, 0.1))
    assert sides is not None
    assert sorted(sides) == pytest.approx([0.1, 0.2, 0.3], rel=1e-12)


def test_principal_axes_of_a_rotated_tensor() -> None:
    r = Rotation.from_euler('xyz', [0.3, -0.5, 1.1]).as_matrix()
    t = r @ np.diag([1.0, 2.0, 2.5]) @ r.T
    p = inr.principal([t[0, 0], t[0, 1], t[0, 2], t[1, 1], t[1, 2], t[2, 2]])
    assert p.moments == pytest.approx((1.0, 2.0, 2.5), rel=1e-12)
    assert np.linalg.det(p.axes) == pytest.approx(1.0)
    assert p.axes @ np.diag(p.moments) @ p.axes.T == pytest.approx(t, abs=1e-12)


def test_no_box_for_impossible_moments() -> None:
    assert inr.equivalent_box(1.0, [1.0, 0, 0, 1.0, 0, 3.0]) is None
    assert not inr.triangle_ok([1.0, 0, 0, 1.0, 0, 3.0])
    assert inr.triangle_ok([1.0, 0, 0, 1.0, 0, 2.0])  # a thin disc: equality holds


def test_positive_definite_uses_libsdformat_tolerance() -> None:
    assert inr.positive_definite([1.0, 0, 0, 1.0, 0, 1.0])
    assert not inr.positive_definite([1.0, 0, 0, 1.0, 0, 0.0])
    assert inr.positive_definite([1.0, 0.9, 0, 1.0, 0, 1.0])  # eigenvalues 0.1, 1, 1.9
    assert not inr.positive_definite([1.0, 1.1, 0, 1.0, 0, 1.0])  # eigenvalue -0.1


def test_solid_of_two_cubes_uses_the_parallel_axis_theorem() -> None:
    cube = trimesh.creation.box(extents=[1.0, 1.0, 1.0])
    left, right = np.eye(4), np.eye(4)
    left[0, 3], right[0, 3] = -1.0, 1.0
    solid = inr.solid_of([(cube, left), (cube, right)])
    assert solid is not None
    assert solid.volume == pytest.approx(2.0, rel=1e-12)
    # Each cube: I = 1/6 on each axis about its centre; 1 m away on x adds 1 to y and z.
    assert solid.trace_per_density == pytest.approx(2 * (3 / 6) + 2 * 2 * 1.0, rel=1e-12)


def test_open_mesh_is_measured_by_its_hull() -> None:
    cube = trimesh.creation.box(extents=[1.0, 1.0, 1.0])
    open_cube = trimesh.Trimesh(cube.vertices, cube.faces[:-2])
    solid = inr.solid_of([(open_cube, np.eye(4))])
    assert solid is not None and solid.volume == pytest.approx(1.0, rel=1e-12)


def test_uniformly_scaled_placement_moves_the_properties_exactly() -> None:
    box = trimesh.creation.box(extents=[0.3, 0.2, 0.1])
    box.apply_translation([0.05, -0.02, 0.01])  # its centre off its origin
    m = np.eye(4)
    m[:3, :3] = 2.0 * Rotation.from_euler('xyz', [0.4, 0.1, -0.7]).as_matrix()
    m[:3, 3] = [1.0, 2.0, 3.0]
    moved = box.copy()
    moved.apply_transform(m)
    solid = inr.solid_of([(box, m)], {})
    assert solid is not None
    assert solid.volume == pytest.approx(moved.volume, rel=1e-12)
    assert solid.trace_per_density == pytest.approx(np.trace(moved.moment_inertia), rel=1e-9)
    stretched = np.diag([1.0, 2.0, 3.0, 1.0])  # not uniform: measured on a transformed copy
    solid = inr.solid_of([(box, stretched)], {})
    assert solid is not None and solid.volume == pytest.approx(0.006 * 6, rel=1e-12)
