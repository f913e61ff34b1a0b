"""What the converters do with links that have no mass (the test itself: :mod:`sdf_tools.model.massless`).

libsdformat, converting a URDF, silently leaves out every link other than
``world`` without ``<inertial>`` or without mass after fixed-joint lumping
(|m| <= 1e-6 in 12, m <= 0 from 14 on: :func:`~sdf_tools.model.massless.is_massless`)
-- and with it the link's parent joint and its whole subtree, even the links that have
mass. A robot with a massless root link
and no massive fixed child loses every link (libsdformat then rejects it),
and a massless "dummy" link between two revolute joints (a common way to
write a two-axis joint in URDF) silently cuts the arm in two.

The default, ``massless_links='lump'``, keeps everything and loses nothing:

* a massless link behind a fixed joint is folded into its parent, exactly
  as lumping does (its visuals, collisions and child joints move to the
  parent, and ``<frame>``s keep its name and its joint's name) -- with
  fixed-joint lumping on (the default) libsdformat already does this, and
  with ``--keep-fixed-joints`` it is still done for massless links, since a
  massless link held by a fixed joint is what SDFormat calls a frame;
* a massless link that cannot be folded (behind a moving joint, the root,
  or behind a fixed joint the URDF asks to keep with ``preserveFixedJoint``
  or ``disableFixedJointLumping``) keeps its place and gets the small mass
  ``default_mass`` (1 g unless set), with the inertia of a solid sphere of
  radius 5 cm of that mass, at the link origin; each one is reported, so
  the number is never a silent guess.

The other behaviours:

* ``'default-mass'``: only the regular lumping folds links; every link
  written without mass gets ``default_mass`` (with ``--keep-fixed-joints``,
  massless sensor-frame links stay links of 1 g);
* ``'drop'``: libsdformat's behaviour, each dropped link and joint reported;
* ``'error'``: a link libsdformat would drop makes the conversion fail,
  with the link's file and line.
"""
from __future__ import annotations

from sdf_tools.model import Inertial, Link
from sdf_tools.model.massless import is_massless

#: Radius (m) of the solid sphere whose inertia a link given ``default_mass`` gets.
DEFAULT_RADIUS = 0.05

#: What MuJoCo and UsdPhysics read as "no mass" (a mass at or below it): MuJoCo's
#: ``mjMINVAL`` (a moving body below it is refused), UsdPhysics 0 ("compute the mass from the
#: collision shapes"). SDFormat and URDF output are judged by libsdformat's own test for the
#: Gazebo target (:func:`~sdf_tools.model.massless.is_massless`), which drops such a link
#: from a URDF. A small positive mass the target accepts is a mass, and is written as it is.
NO_MASS = {'mjcf': 1e-15, 'usd': 0.0}
_REFUSAL = {
    'sdf': 'libsdformat drops such a link with its parent joint and subtree',
    'urdf': 'libsdformat drops such a link with its parent joint and subtree',
    'mjcf': 'MuJoCo refuses a moving body of no mass (at most mjMINVAL, 1e-15)',
    'usd': 'a physics engine reads mass 0 as "compute it from the collision shapes"',
}


def no_mass_for(inertial: Inertial | None, target: str) -> bool:
    """Return whether ``target`` reads this inertial as no mass (see :data:`NO_MASS`)."""
    if target not in NO_MASS:  # 'sdf', 'urdf': libsdformat's own test
        return is_massless(inertial)
    return inertial is None or inertial.mass <= NO_MASS[target]


def replaced_mass_message(inertial: Inertial | None, mass: float, target: str,
                          why: str = '') -> str:
    """Return the one wording every writer reports a mass it had to replace with.

    Args:
        inertial: what the link had (None: no ``<inertial>``).
        mass: the mass written instead (``default_mass``).
        target: ``'sdf'``, ``'mjcf'`` or ``'usd'`` (see :data:`NO_MASS`).
        why: where the link is, when it matters (``'behind a revolute joint'``).
    """
    had = 'no <inertial>' if inertial is None else f'mass {inertial.mass!r} kg'
    where = f' ({why})' if why else ''
    return (f'has {had}{where}, which is no mass: {_REFUSAL[target]}; written with mass '
            f'{mass!r} kg and the inertia of a solid sphere of radius {DEFAULT_RADIUS} m '
            '(massless_links, default_mass)')


def folds_massless(policy: str) -> bool:
    """Return whether massless links behind fixed joints are folded even when joints are kept."""
    return policy == 'lump'


def default_inertial(link: Link, mass: float) -> Inertial:
    """Return the inertial a massless link is given: ``mass`` as a 5 cm solid sphere.

    The pose of an existing (zero-mass) inertial is kept; without one the
    centre of mass is the link origin.
    """
    moment = 0.4 * mass * DEFAULT_RADIUS * DEFAULT_RADIUS
    pose = link.inertial.pose if link.inertial is not None else None
    loc = link.inertial.loc if link.inertial is not None else link.loc
    return Inertial(mass, (moment, 0.0, 0.0, moment, 0.0, moment), pose, loc)
