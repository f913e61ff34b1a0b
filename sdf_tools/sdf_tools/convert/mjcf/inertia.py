"""Link inertials as MJCF ``<inertial>``: mass, centre of mass and the full tensor in the body frame.

The SDFormat tensor is about the centre of mass in the inertial frame; it is
written as Menagerie writes inertials, ``diaginertia`` with the ``quat`` of
its principal axes (:func:`~sdf_tools.model.inertia.principal_frame`): a diagonal
tensor keeps its frame and numbers exactly, any other is diagonalised by
numpy (to ~1e-16; MuJoCo's own solver for ``fullinertia`` stops near
1e-12). A tensor whose
principal moments break the triangle inequality (``A + B >= C``), which
MuJoCo refuses, is written as is with ``<compiler balanceinertia="true">``
and reported (MuJoCo then adjusts it).

A link without ``<inertial>`` has libsdformat's default (1 kg, unit
inertia). MuJoCo refuses a body that moves when it and the bodies welded to
it have no mass, or a zero principal moment about their common centre of
mass (``mjMINVAL``). Such a group follows ``massless_links``: ``'error'``
fails the export; otherwise a massless group's top link gets
``default_mass`` as a 5 cm solid sphere, and a degenerate inertia gets that
sphere's moment added to each principal moment, each reported. A massless
body that does not move, or moves with massive welded children, is written
without mass: MuJoCo accepts it.
"""
from __future__ import annotations

import numpy as np
from lxml import etree

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import FlatLink, where
from sdf_tools.convert.massless import default_inertial, no_mass_for, replaced_mass_message
from sdf_tools.convert.mjcf.writer import num, nums, pose_attrs, sub
from sdf_tools.model import Inertial
from sdf_tools.model.inertia import composite as joined
from sdf_tools.model.inertia import in_frame, principal_frame
from sdf_tools.transform import Transform

#: MuJoCo's ``mjMINVAL``: a moving body's mass and principal moments must exceed it.
MUJOCO_MINVAL = 1e-15
# Moments that meet A + B >= C only to within rounding are balanced too (MuJoCo leaves a
# valid tensor alone, so this only guards against a last-digit refusal).
TRIANGLE_MARGIN = 1e-12
LIBSDFORMAT_DEFAULT = Inertial()  # libsdformat's: 1 kg, unit inertia at the link origin


def write_inertial(body: etree._Element, inertial: Inertial, x_li: Transform) -> bool:
    """Write ``<inertial>`` (principal moments and axes); return True when it needs balancing."""
    p = principal_frame(inertial.inertia, x_li)
    moments = tuple(max(m, 0.0) for m in p.moments)  # eigen-solver round-off below zero
    sub(body, 'inertial', pos=nums(p.com), quat=pose_attrs(Transform(q=p.axes))['quat'],
        mass=num(inertial.mass), diaginertia=nums(moments))
    a, b, c = sorted(moments)
    return inertial.mass > 0 and a + b < c * (1 + TRIANGLE_MARGIN)


def has_mass(fl: FlatLink, urdf: bool) -> bool:
    """Return whether the link is written with mass (SDFormat: no ``<inertial>`` is 1 kg)."""
    i = fl.link.inertial
    return (i is None and not urdf) or (i is not None and not no_mass_for(i, 'mjcf'))


def authored_inertial(fl: FlatLink, urdf: bool, report: ConversionReport) -> Inertial | None:
    """Return the inertial the link is written with before MuJoCo's rules apply (None: none)."""
    i = fl.link.inertial
    if i is None and not urdf:
        report.add(ReportKind.ASSUMED, f'link[{fl.scoped}]', "no <inertial>: libsdformat's "
                   'default, 1 kg and unit inertia at the link origin', *where(fl.link.loc))
        return LIBSDFORMAT_DEFAULT
    return i if has_mass(fl, urdf) else None


def composite(parts: list[tuple[Inertial, Transform]]) -> tuple[float, np.ndarray]:
    """Return the mass and the inertia tensor about the centre of mass of rigidly joined parts.

    Args:
        parts: each inertial with its inertial frame in a common frame.
    """
    if not parts:
        return 0.0, np.zeros((3, 3))
    mass, _, tensor = joined([(i.mass, np.asarray(x.p), in_frame(i.inertia, x)) for i, x in parts])
    return (mass, tensor) if mass > 0 else (0.0, np.zeros((3, 3)))


def degenerate(mass: float, tensor: np.ndarray) -> bool:
    """Return whether MuJoCo refuses a moving body of this mass and inertia (``mjMINVAL``)."""
    return mass <= MUJOCO_MINVAL or float(np.linalg.eigvalsh(tensor).min()) <= MUJOCO_MINVAL


def stiffened(i: Inertial, moment: float) -> Inertial:
    """Return ``i`` with ``moment`` added to each principal moment (an isotropic inertia)."""
    ixx, ixy, ixz, iyy, iyz, izz = i.inertia
    return Inertial(i.mass, (ixx + moment, ixy, ixz, iyy + moment, iyz, izz + moment), i.pose,
                    i.loc)


def fix_degenerate(fl: FlatLink, current: Inertial | None, massless: bool, policy: str,
                   default_mass: float, report: ConversionReport) -> Inertial | str:
    """Return the inertial that lets MuJoCo accept a moving body, or an error under ``'error'``.

    Args:
        fl: the link at the top of the rigid group that moves.
        current: its inertial so far.
        massless: the whole group has no mass (else: mass, but a zero principal moment).
        policy: the ``massless_links`` option.
        default_mass: the ``default_mass`` option.
        report: receives what was changed.
    """
    what = ('has no mass' if massless else 'has an inertia with a zero principal moment')
    if policy == 'error':
        return (f'link [{fl.scoped}] moves and {what} (with the links welded to it): MuJoCo '
                'refuses it (massless_links=error)')
    sphere = default_inertial(fl.link, default_mass)
    loc = (current.loc if current is not None else None) or fl.link.loc
    if massless or current is None:
        report.add(ReportKind.ASSUMED, f'link[{fl.scoped}]', replaced_mass_message(
            current, default_mass, 'mjcf', 'it moves, and so do the links welded to it'),
            *where(loc))
        return sphere if current is None else Inertial(default_mass, sphere.inertia,
                                                       current.pose, current.loc)
    moment = sphere.inertia[0]
    report.add(ReportKind.APPROXIMATED, f'link[{fl.scoped}]/inertial', f'moves and {what} '
               f'(with the links welded to it), which MuJoCo refuses: {num(moment)} kg m^2 '
               'added to each principal moment (the inertia of default_mass as a 5 cm sphere)',
               *where(loc))
    return stiffened(current, moment)
