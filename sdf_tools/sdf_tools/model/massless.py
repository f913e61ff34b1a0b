"""The one test for "no mass": libsdformat's, which drops such a URDF link.

libsdformat's URDF conversion leaves out a link (other than ``world``)
without ``<inertial>`` or without mass, after fixed-joint lumping; with it go
its parent joint and its whole subtree. What "without mass" means depends on
the release (gazebosim/sdformat#1238, in 12.7.2, 13.5 and 14.0): libsdformat 12.3
(Gazebo Fortress as we reproduce it) tests ``ignition::math::equal(mass, 0.0)``,
that is within 1e-6 of zero; 14 and later (Harmonic, Ionic, Jetty) test
``mass <= 0``. The URDF reader's verdicts, the converters' ``massless_links``
policy and the lint checks all ask this one predicate, for the target in force
(:func:`sdf_tools.gazebo.current`) unless told.
"""
from __future__ import annotations

from sdf_tools import gazebo
from sdf_tools.gazebo import GazeboTarget
from sdf_tools.model.elements import Inertial

#: libsdformat 12's test for "no mass" (``ignition::math::equal(mass, 0.0)``, epsilon 1e-6).
MASSLESS_EPS = 1e-6


def is_massless(inertial: Inertial | None, target: str | GazeboTarget | None = None) -> bool:
    """Return whether libsdformat treats a link with this inertial as having no mass."""
    return inertial is None or is_zero_mass(inertial.mass, target)


def is_zero_mass(mass: float, target: str | GazeboTarget | None = None) -> bool:
    """Return whether ``target``'s libsdformat takes this mass for none (see the module)."""
    if gazebo.target(target).libsdformat >= 14:
        return mass <= 0.0
    return abs(mass) <= MASSLESS_EPS
