"""The 0/0 centre of mass of lumping an ``<inertial>`` into a parent when the masses sum to 0.

``ReduceInertialToParent`` (``parser_urdf.cc``, the same in 12.3 and 14.9-16.1) adds a
lumped link's mass to its parent's with ``dMassAdd``, which places the centre of mass at
``(c_parent * m_parent + c_child * m_child) / (m_parent + m_child)``: when the sum is 0 (a
child ``<inertial>`` of mass 0 into a parent of mass 0 so far, or without one) that is
0/0, and the NaN rides along every later lump into the link the chain ends at. When
``CreateSDF`` writes that link, its ``<inertial><pose>`` is not finite: libsdformat says
``Error reading element <pose>`` (``ELEMENT_INVALID``, "Pose values must be finite") and
loads nothing -- example-robot-data's talos files, whose camera frames are zero-mass
links lumped into each other (checked with libsdformat 12.3 and 14.9).
Which link is written follows the target (:meth:`UrdfWalk.written_links`).
"""
from __future__ import annotations

from lxml import etree

from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.model import Joint
from sdf_tools.sdf.context import ReadContext
from sdf_tools.urdf.lumping_walk import UrdfWalk

__all__ = ['check_zero_mass_sums', 'is_zero_mass_sum', 'zero_mass_sums']

ZERO_SUM = 'the masses sum to 0'  # in the error check_zero_mass_sums gives


def zero_mass_sums(walk: UrdfWalk) -> dict[str, tuple[Joint, float]]:
    """Links written with a non-finite centre of mass: link -> (the lump that made it, mass so far).

    The lump is the first one whose masses summed to 0 on the way into that link
    (:meth:`UrdfWalk.zero_mass_lumps`, the sums of :meth:`UrdfWalk.lumped_inertial`).
    """
    written = walk.written_links()
    return {n: c for n, c in walk.zero_mass_lumps().items() if n in written}


def check_zero_mass_sums(ctx: ReadContext, link_elements: dict[str, etree._Element],
                         walk: UrdfWalk) -> None:
    """Refuse, as libsdformat does, a link it writes with a 0/0 centre of mass."""
    for link, (joint, before) in zero_mass_sums(walk).items():
        child = walk.links[joint.child]
        own = child.inertial.mass if child.inertial is not None else 0.0
        ctx.error(ErrorCode.ELEMENT_INVALID,
                  f'Error reading element <pose>: libsdformat lumps link [{joint.child}] '
                  f'(mass {own:g}) into link [{joint.parent}] (mass {before:g} so far) through '
                  f'fixed joint [{joint.name}]; {ZERO_SUM}, so its centre of mass is '
                  f'0/0 (dMassAdd) and the <inertial> pose it writes for link [{link}] is not '
                  'finite: Gazebo loads nothing. Fix: give one of them a positive mass, or '
                  'remove the <inertial> of mass 0', link_elements.get(joint.child))


def is_zero_mass_sum(d: Diagnostic) -> bool:
    """Whether ``d`` is the error :func:`check_zero_mass_sums` gives.

    Only libsdformat refuses such a robot; a conversion that gives its massless links a
    mass (``massless_links`` ``lump`` or ``default-mass``) repairs it.
    """
    return d.code is ErrorCode.ELEMENT_INVALID and ZERO_SUM in d.message
