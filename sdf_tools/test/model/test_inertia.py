"""The one inertia implementation: validity, principal axes in a frame, rigidly joined bodies."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.spatial.transform import Rotation
from support.libsdformat import probe_available, probe_unavailable_reason, run_probe

from sdf_tools.errors import ErrorCode
from sdf_tools.load import load_file
from sdf_tools.model import Inertial, RawPose
from sdf_tools.model.inertia import (
    combine_inertials,
    composite,
    in_frame,
    inertia_is_valid,
    principal,
    principal_frame,
    principal_moments,
    rotation,
)
from sdf_tools.transform import Transform

# Mass and (ixx, ixy, ixz, iyy, iyz, izz) where the verdict is decided at the edge: equalities
# of the triangle inequality, round-off, ignition-math's "nearly diagonal" shortcut (products
# within 1e-6 of the largest moment), a leading minor just below zero, rank deficiency.
EDGE_CASES = {
    'triangle_equality': (1.0, (1.0, 0.0, 0.0, 1.0, 0.0, 2.0)),
    'triangle_broken': (1.0, (1.0, 0.0, 0.0, 1.0, 0.0, 2.000001)),
    'nearly_diagonal_xz': (1.0, (1.0, 0.0, 1e-7, 1.0, 0.0, 2.0)),
    'nearly_diagonal_xy': (1.0, (1.0, 1e-7, 0.0, 1.0, 0.0, 2.0)),
    'minor_below_zero': (1.0, (-2e-14, 0.0, 0.0, 10.0, 0.0, 10.0)),
    'minor_below_zero_full': (1.0, (-2e-14, 1e-20, 0.0, 10.0, 0.0, 10.0)),
    'rank_deficient': (1.0, (0.001,) * 6),
    'rotated_triangle_equality': (1.0, (1.0, 0.0, 0.0, 1.5, -0.5, 1.5)),
    'rotated_triangle_equality_z': (1.0, (1.5, 0.5, 0.0, 1.5, 0.0, 1.0)),
    'rotated': (2.0, (2.1, 0.3, -0.2, 1.7, 0.25, 1.9)),
    'negative_mass': (-1.0, (1.0, 0.0, 0.0, 1.0, 0.0, 1.0)),
    'zero': (0.0, (0.0,) * 6),
    'large_product': (1.0, (1.0, 2.0, 0.0, 1.0, 0.0, 1.0)),
    'negative_determinant': (1.0, (1.0, 0.9, 0.9, 1.0, 0.9, 1.0)),
    'two_small_moments': (1.0, (1.0, 0.5, 0.5, 1.0, 0.5, 1.0)),
    'moment_of_round_off': (1.0, (1e-16, 0.0, 0.0, 1.0, 0.0, 1.0)),
    'negative_diagonal': (1.0, (-1.0, 0.0, 0.0, -1.0, 0.0, -1.0)),
}


def _link_file(directory: Path, name: str, mass: float, inertia: tuple[float, ...]) -> Path:
    tags = ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')
    values = ''.join(f'<{t}>{v!r}</{t}>' for t, v in zip(tags, inertia, strict=True))
    path = directory / f'{name}.sdf'
    path.write_text(f'<sdf version="1.9"><model name="m"><link name="l"><inertial><mass>{mass!r}'
                    f'</mass><inertia>{values}</inertia></inertial></link></model></sdf>\n')
    return path


@pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))
@pytest.mark.parametrize('name', sorted(EDGE_CASES))
def test_inertia_is_valid_gives_libsdformat_12_verdict_on_edge_cases(name: str,
                                                                     tmp_path: Path) -> None:
    mass, inertia = EDGE_CASES[name]
    path = _link_file(tmp_path, name, mass, inertia)
    theirs = 'LINK_INERTIA_INVALID' not in [e['code'] for e in run_probe(path)['errors']]
    loaded = ErrorCode.LINK_INERTIA_INVALID not in [d.code for d in load_file(path).errors]
    assert inertia_is_valid(mass, inertia) is theirs
    assert loaded is theirs


def test_principal_moments_agree_with_the_eigen_solver() -> None:
    r = Rotation.from_euler('xyz', [0.3, -0.5, 1.1]).as_matrix()
    t = r @ np.diag([0.4, 2.0, 2.3]) @ r.T
    i = (t[0, 0], t[0, 1], t[0, 2], t[1, 1], t[1, 2], t[2, 2])
    assert principal_moments(i) == pytest.approx(principal(i).moments, rel=1e-12)


def test_loading_checks_inertia_without_importing_numpy(tmp_path: Path) -> None:
    path = _link_file(tmp_path, 'rotated', *EDGE_CASES['rotated'])
    code = (f'import sys; from sdf_tools.load import load_file; r = load_file({str(path)!r}); '
            "assert r.document is not None and not r.errors; print('numpy' in sys.modules)")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == 'False'


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


def test_rotation_is_transforms3d_quat2mat_bit_for_bit() -> None:
    """rotation() does transforms3d's arithmetic without importing it (numpy.random, ~12 ms)."""
    from transforms3d.quaternions import quat2mat
    rng = np.random.default_rng(21)
    quats = [tuple(float(c) for c in rng.normal(size=4) * scale)
             for scale in (1.0, 1e-3, 1e3, 1e-9) for _ in range(250)]
    quats += [(1.0, 0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0), (1e-9, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0)]
    for q in quats:
        assert np.array_equal(rotation(q), quat2mat(q)), q
