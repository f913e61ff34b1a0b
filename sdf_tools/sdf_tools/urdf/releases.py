"""What each libsdformat release does differently when it converts a URDF.

libsdformat reads a URDF by converting it to SDFormat first (``src/parser_urdf.cc``);
the conversion changed between the release Gazebo Fortress reads with (12; we reproduce
12.3, the probe's) and the one of Harmonic and later (14; ``parser_urdf.cc`` is the same
in 14.9, 15.4 and 16.1 but for comments). Each switch names the pull request of
gazebosim/sdformat that made the change; docs/libsdformat-releases.md lists them all.
"""
from __future__ import annotations

from dataclasses import dataclass

from sdf_tools import gazebo
from sdf_tools.gazebo import GazeboTarget

__all__ = ['UrdfRules', 'rules']


@dataclass(frozen=True, slots=True)
class UrdfRules:
    """The URDF -> SDFormat conversion of one libsdformat release."""

    #: #1238 (12.7.2, 13.5, 14.0) also changed what "no mass" is (mass <= 0 instead of
    #: |m| <= 1e-6): that test is :func:`sdf_tools.model.massless.is_zero_mass`'s.
    #: #1238: a massless link whose fixed parent joint is lumped is kept as part of its
    #: parent (its subtree stays); before, it was left out with its whole subtree.
    lumped_massless_kept: bool
    #: #1238: every link left out for its mass is a warning (``LINK_INERTIA_INVALID``,
    #: "urdf2sdf: link[...] is not modeled in sdf."); before, a debug line nobody sees.
    warns_dropped_links: bool
    #: #1193 (13.3): only a reference-less ``<gazebo>`` block holding ``<static>`` sets the
    #: model's static flag; before, each such block set it (false without ``<static>``).
    static_only_when_given: bool
    #: #1148 (13.1): the converted model has a ``<frame>`` named after each lumped joint
    #: and link, so what a ``<gazebo>`` block adds may name them (#1089, 12.6, also renames
    #: a ``<gazebo>`` joint's ``<parent>``/``<child>`` naming a lumped link); 12.3 has none.
    lumped_frames: bool
    #: #1114 (12.6): a ``<light>`` of a lumped link is re-posed into the link it is merged
    #: into, as sensors and projectors are; before, it kept its pose in the lumped link.
    repose_lights: bool
    #: #1333 (14.0): a ``<mimic>`` is written as ``//axis/mimic`` and checked, so a leader
    #: the converted model lacks is ``JOINT_AXIS_MIMIC_INVALID``; before, no mimic was kept.
    mimic_checked: bool
    #: 14.0 writes the converted model as SDFormat 1.11 (12.3: 1.7), so the 1.8+ rule that no
    #: name holds ``::`` applies (``RESERVED_NAME``, then "Unable to read file").
    colons_refused: bool


_RULES_12 = UrdfRules(lumped_massless_kept=False, lumped_frames=False,
                      warns_dropped_links=False, static_only_when_given=False,
                      repose_lights=False, mimic_checked=False, colons_refused=False)
_RULES_14 = UrdfRules(lumped_massless_kept=True, lumped_frames=True,
                      warns_dropped_links=True, static_only_when_given=True,
                      repose_lights=True, mimic_checked=True, colons_refused=True)


def rules(target: str | GazeboTarget | None = None) -> UrdfRules:
    """Return the URDF conversion rules of ``target`` (None: the target of the load under way)."""
    return _RULES_14 if gazebo.target(target).libsdformat >= 14 else _RULES_12
