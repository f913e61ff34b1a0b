"""The one test for "no mass": libsdformat's, which drops such a URDF link.

libsdformat's URDF conversion leaves out a link (other than ``world``)
without ``<inertial>`` or whose mass is ``ignition::math::equal(mass, 0.0)``,
that is within 1e-6 of zero, after fixed-joint lumping; with it go its parent
joint and its whole subtree. The URDF reader's verdicts, the converters'
``massless_links`` policy and the lint checks all ask this one predicate.
"""
from __future__ import annotations

from sdf_tools.model.elements import Inertial

#: libsdformat's test for "no mass" (``ignition::math::equal(mass, 0.0)``, epsilon 1e-6).
MASSLESS_EPS = 1e-6


def is_massless(inertial: Inertial | None) -> bool:
    """Return whether libsdformat treats a link with this inertial as having no mass."""
    return inertial is None or is_zero_mass(inertial.mass)


def is_zero_mass(mass: float) -> bool:
    """Return whether libsdformat takes this mass for zero."""
    return abs(mass) <= MASSLESS_EPS
