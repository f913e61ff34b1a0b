"""libsdformat's verdict on a mass and inertia, for the readers.

Apart from :mod:`sdf_tools.model.inertia` (which re-exports it) because the readers test
every ``<inertial>`` with it and need nothing else of that module, whose NamedTuples and
cache would otherwise be made at the start of every ``sdf_tools check``, file with
inertials or not (bench/PROFILE.md, session 10). An inertia is SDFormat's six numbers
``(ixx, ixy, ixz, iyy, iyz, izz)`` about the centre of mass, in the inertial frame.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ['EPS_FACTOR', 'inertia_is_valid', 'principal_moments']

#: ignition-math's tolerance for MassMatrix3 checks: 10 * DBL_EPSILON * trace / 2.
EPS_FACTOR = 10.0 * 2.220446049250313e-16 * 0.5


def inertia_is_valid(mass: float, i: Sequence[float]) -> bool:
    """Return libsdformat's verdict on a mass and inertia (ignition-math's ``MassMatrix3::IsValid``).

    The mass must be non-negative, the leading minors of the tensor
    non-negative, and its principal moments non-negative and satisfying the
    triangle inequality, all up to ``10 * DBL_EPSILON * |ixx + iyy + izz| / 2``.
    The moments are computed as ignition-math computes them (closed form; a
    tensor whose products are within 1e-6 of its largest moment counts as
    diagonal), so that the verdict on an edge case is libsdformat's, in pure
    Python.
    """
    ixx, ixy, ixz, iyy, iyz, izz = i
    eps = EPS_FACTOR * abs(ixx + iyy + izz)
    if (ixy == 0.0 and ixz == 0.0 and iyz == 0.0 and eps < math.inf
            and (ixx >= 0.0 or iyy >= 0.0 or izz >= 0.0)):
        # Nearly every link: the same tests, written out for a finite diagonal tensor (its
        # minors are products of its moments, which ignition-math takes as they are when
        # the largest is not negative), in a fraction of the time; the readers test every
        # link of a large world.
        return (mass >= 0 and ixx + eps >= 0 and ixx * iyy + eps >= 0
                and izz * iyy * ixx + eps >= 0 and iyy + eps >= 0 and izz + eps >= 0
                and ixx + iyy + eps >= izz and iyy + izz + eps >= ixx and izz + ixx + eps >= iyy)
    det = ((izz * iyy - iyz * iyz) * ixx + -(izz * ixy - ixz * iyz) * ixy
           + (iyz * ixy - ixz * iyy) * ixz)
    if not (mass >= 0 and ixx + eps >= 0 and ixx * iyy - ixy * ixy + eps >= 0
            and det + eps >= 0):
        return False
    a, b, c = principal_moments(i)
    eps = EPS_FACTOR * abs(a + b + c)
    return (a + eps >= 0 and b + eps >= 0 and c + eps >= 0 and a + b + eps >= c
            and b + c + eps >= a and c + a + eps >= b)


def principal_moments(i: Sequence[float]) -> tuple[float, float, float]:
    """Return the principal moments as ignition-math's ``MassMatrix3::PrincipalMoments`` does.

    A tensor whose products of inertia are within ``1e-6`` times its largest
    diagonal moment is taken as diagonal (its moments in their order);
    otherwise the closed form of Kronenburg (arXiv:1306.6291), ascending.
    """
    ixx, ixy, ixz, iyy, iyz, izz = i
    tol = 1e-6 * max(ixx, iyy, izz)
    if abs(ixy) <= tol and abs(ixz) <= tol and abs(iyz) <= tol:
        return ixx, iyy, izz
    b = ixx + iyy + izz
    c = ixx * iyy - ixy * ixy + ixx * izz - ixz * ixz + iyy * izz - iyz * iyz
    # (the operations in ignition-math's order: the verdict on an edge case hangs on round-off)
    d = (ixx * (iyz * iyz) + iyy * (ixz * ixz) + izz * (ixy * ixy) - ixx * iyy * izz
         - 2 * ixy * ixz * iyz)
    p = b * b - 3 * c
    if p < tol * tol:
        return b / 3.0, b / 3.0, b / 3.0
    q = 2 * b ** 3 - 9 * b * c - 27 * d
    delta = math.acos(max(min(0.5 * q / p ** 1.5, 1.0), -1.0))
    root = 2 * math.sqrt(p)
    m0 = (b + root * math.cos(delta / 3.0)) / 3.0
    m1 = (b + root * math.cos((delta + 2 * math.pi) / 3.0)) / 3.0
    m2 = (b + root * math.cos((delta - 2 * math.pi) / 3.0)) / 3.0
    m0, m1, m2 = sorted((m0, m1, m2))
    return m0, m1, m2
