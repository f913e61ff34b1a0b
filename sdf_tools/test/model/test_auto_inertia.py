"""Mass properties of shapes and meshes (``model/auto_inertia.py``), judged by trimesh.

Drake judges the shapes and centred meshes (``differential/test_drake_auto_inertials.py``);
here trimesh's own mass properties judge meshes anywhere in space, and the closed forms
are checked against trimesh's integral of a fine tessellation of the same shape.
"""
from __future__ import annotations

import numpy as np
import pytest
import trimesh
from hypothesis import given, settings
from hypothesis import strategies as st

from sdf_tools.model.auto_inertia import combine, mesh_part, rescaled, scaled_triangles, shape_part
from sdf_tools.transform import Transform, rpy_quat

TOL = 1e-9


def _trimesh_props(mesh: trimesh.Trimesh, density: float) -> tuple[float, np.ndarray, np.ndarray]:
    mesh.density = density
    return float(mesh.mass), np.array(mesh.center_mass), np.array(mesh.moment_inertia)


@settings(max_examples=40, derandomize=True, deadline=None)
@given(st.sampled_from(['box', 'icosphere', 'cylinder', 'capsule']),
       st.tuples(*[st.floats(-3, 3)] * 3), st.tuples(*[st.floats(-3.1, 3.1)] * 3),
       st.tuples(*[st.floats(0.1, 3)] * 3), st.floats(1.0, 5000.0))
def test_mesh_integral_matches_trimesh_anywhere(kind: str, xyz: tuple[float, float, float],
                                                rpy: tuple[float, float, float],
                                                scale: tuple[float, float, float],
                                                density: float) -> None:
    mesh = {'box': trimesh.creation.box, 'icosphere': trimesh.creation.icosphere,
            'cylinder': lambda: trimesh.creation.cylinder(0.5, 1.2),
            'capsule': trimesh.creation.capsule}[kind]()
    placed = Transform(xyz, rpy_quat(*rpy))
    matrix = np.eye(4)
    matrix[:3, :3] = trimesh.transformations.quaternion_matrix(placed.q)[:3, :3]
    matrix[:3, 3] = xyz
    mesh.apply_transform(matrix)
    ours = mesh_part(scaled_triangles(mesh.vertices, mesh.faces, scale), density)
    mesh.apply_scale(scale)
    mass, com, inertia = _trimesh_props(mesh, density)
    assert ours is not None
    size = max(1.0, float(np.max(np.abs(inertia))))
    assert abs(ours.mass - mass) <= TOL * max(1.0, mass)
    assert np.allclose(ours.com, com, rtol=0, atol=TOL * max(1.0, float(np.max(np.abs(com)))))
    assert np.allclose(ours.inertia, inertia, rtol=0, atol=TOL * size)


def test_open_or_inverted_mesh_is_refused() -> None:
    box = trimesh.creation.box()
    inverted = box.vertices[box.faces[:, ::-1]]
    assert mesh_part(inverted, 1000.0) is None
    assert mesh_part(box.vertices[box.faces[:6]], 1000.0) is None  # half of it: not closed
    assert mesh_part(np.zeros((0, 3, 3)), 1000.0) is None


@pytest.mark.parametrize('kind, params, mesh', [
    ('box', {'size': [1.0, 2.0, 3.0]}, lambda: trimesh.creation.box([1.0, 2.0, 3.0])),
    ('sphere', {'radius': 0.7}, lambda: trimesh.creation.icosphere(6, 0.7)),
    ('cylinder', {'radius': 0.4, 'length': 1.3},
     lambda: trimesh.creation.cylinder(0.4, 1.3, sections=2048)),
    ('capsule', {'radius': 0.3, 'length': 0.9},
     lambda: trimesh.creation.capsule(0.9, 0.3, count=[256, 256])),
    ('ellipsoid', {'radii': [0.5, 1.0, 1.5]},
     lambda: trimesh.creation.icosphere(6, 1.0).apply_scale([0.5, 1.0, 1.5])),
])
def test_closed_form_matches_a_fine_tessellation(kind: str, params: dict[str, object],
                                                 mesh: object) -> None:
    """The closed forms (gz-math's) against the integral over a fine mesh of the shape (1e-3)."""
    ours = shape_part(kind, params, 800.0)
    tess = mesh()  # type: ignore[operator]
    mass, com, inertia = _trimesh_props(tess, 800.0)
    assert ours is not None
    assert abs(ours.mass - mass) <= 1e-3 * mass
    assert np.allclose(ours.com, com, atol=1e-6)
    assert np.allclose(ours.inertia, inertia, rtol=0, atol=1e-3 * float(np.max(inertia)))


@pytest.mark.parametrize('kind, params', [
    ('box', {'size': [0.0, 1.0, 1.0]}), ('sphere', {'radius': -1.0}),
    ('cylinder', {'radius': 1.0, 'length': 0.0}), ('ellipsoid', {'radii': [1.0, 0.0, 1.0]}),
    ('plane', {'normal': [0, 0, 1], 'size': [1, 1]}),
])
def test_shapes_gz_math_refuses_give_none(kind: str, params: dict[str, object]) -> None:
    assert shape_part(kind, params, 1000.0) is None


def test_parts_combine_with_parallel_axes_and_rescale() -> None:
    one = shape_part('box', {'size': [1.0, 1.0, 1.0]}, 1000.0)
    assert one is not None
    left, right = one.moved(Transform((-1.0, 0.0, 0.0))), one.moved(Transform((1.0, 0.0, 0.0)))
    both = combine([left, right])
    assert both is not None
    assert both.mass == pytest.approx(2000.0) and both.com == pytest.approx((0.0, 0.0, 0.0))
    # each cube: 1000/6 about its centre, plus 1000 * 1^2 about y and z
    assert np.allclose(np.diag(both.inertia), [2000 / 6, 2000 / 6 + 2000, 2000 / 6 + 2000])
    two = rescaled(both, 4.0)
    assert two.mass == 4.0 and np.allclose(two.inertia, both.inertia * 4.0 / 2000.0)
