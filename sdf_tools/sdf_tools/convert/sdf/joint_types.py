"""URDF joints as SDFormat joints: types SDFormat lacks, lumped parents, mimic.

* ``revolute``, ``continuous``, ``prismatic`` and ``fixed`` are SDFormat
  types too and keep their type (libsdformat writes ``continuous`` as a
  ``revolute`` joint with limits of +-1e16: the same motion).
* A fixed joint named with ``disableFixedJointLumping`` (and not with
  ``preserveFixedJoint``) becomes, as in libsdformat, a ``revolute`` joint
  locked by limits ``[0, 0]``.
* ``floating``: SDFormat's free body is a link without a joint, so the
  child link is written without one, placed at a ``<frame>`` named after
  the joint (libsdformat 12 writes no joint and then cannot place the link).
* ``planar``: approximated by two prismatic joints along two orthogonal
  directions of the plane and a continuous joint about its normal (keeping
  the URDF joint's name), through two small links of ``default_mass``.
* A joint whose parent link was lumped hangs from the link it was lumped
  into; its pose stays measured from the lumped link, now a ``<frame>``.
* ``<mimic>`` becomes ``//axis/mimic`` in SDFormat 1.11, and a custom
  ``<urdf:mimic>`` element before that.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.massless import default_inertial
from sdf_tools.convert.poses import identity_pose
from sdf_tools.convert.sdf.writer import URDF_NS
from sdf_tools.model import Extra, Frame, Joint, JointAxis, Link
from sdf_tools.transform import Vec3


@dataclass
class JointOutput:
    """What one URDF joint becomes."""

    joints: list[Joint] = field(default_factory=list)
    links_before_child: list[Link] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)


def _where(joint: Joint) -> tuple[str | None, int | None]:
    loc = joint.loc
    return (loc.file if loc else None, loc.line if loc else None)


def locked_revolute(joint: Joint, report: ConversionReport) -> None:
    """Turn a ``disableFixedJointLumping`` fixed joint into libsdformat's locked revolute joint."""
    joint.type = 'revolute'
    joint.axis = JointAxis(xyz=(0.0, 0.0, 1.0), lower=0.0, upper=0.0)
    report.add(ReportKind.REWRITTEN, f'joint[{joint.name}]',
               'fixed joint named with disableFixedJointLumping: written as a revolute joint '
               'locked by limits [0, 0], as libsdformat does (preserveFixedJoint keeps it fixed)',
               *_where(joint))


def floating(joint: Joint, report: ConversionReport) -> JointOutput:
    """Write a floating joint as a frame: its child link is then a free body."""
    frame = Frame(joint.name, joint.parent if joint.parent != 'world' else '', joint.pose, joint.loc)
    report.add(ReportKind.REWRITTEN, f'joint[{joint.name}]',
               f'floating joint: SDFormat has no such type; link [{joint.child}] is written '
               f'without a joint (a free body) at <frame> [{joint.name}]', *_where(joint))
    return JointOutput(frames=[frame])


def _in_plane(n: Vec3) -> tuple[Vec3, Vec3]:
    """Return two unit vectors spanning the plane normal to ``n``."""
    basis = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    e = min(basis, key=lambda b: abs(b[0] * n[0] + b[1] * n[1] + b[2] * n[2]))
    d = e[0] * n[0] + e[1] * n[1] + e[2] * n[2]
    u = (e[0] - d * n[0], e[1] - d * n[1], e[2] - d * n[2])
    norm = math.sqrt(u[0] ** 2 + u[1] ** 2 + u[2] ** 2)
    u = (u[0] / norm, u[1] / norm, u[2] / norm)
    v = (n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0])
    return u, v


def planar(joint: Joint, mass: float, taken: set[str], report: ConversionReport) -> JointOutput:
    """Approximate a planar joint by prismatic, prismatic and continuous joints."""
    n = joint.axis.xyz if joint.axis is not None else (1.0, 0.0, 0.0)
    u, v = _in_plane(n)
    names = [_fresh(f'{joint.name}__planar_{s}', taken) for s in ('x', 'y', 'x_link', 'y_link')]
    links = []
    for lname, jname in ((names[2], names[0]), (names[3], names[1])):
        link = Link(lname, identity_pose(jname), loc=joint.loc)
        link.inertial = default_inertial(link, mass)
        links.append(link)
    first = Joint(names[0], 'prismatic', joint.parent, names[2], joint.pose, JointAxis(xyz=u),
                  loc=joint.loc)
    second = Joint(names[1], 'prismatic', names[2], names[3], identity_pose(names[2]),
                   JointAxis(xyz=v), loc=joint.loc)
    axis = joint.axis or JointAxis()
    turn = Joint(joint.name, 'continuous', names[3], joint.child, identity_pose(names[3]),
                 JointAxis(xyz=n, effort=axis.effort, velocity=axis.velocity, damping=axis.damping,
                           friction=axis.friction), loc=joint.loc)
    report.add(ReportKind.APPROXIMATED, f'joint[{joint.name}]',
               f'planar joint: SDFormat has no such type; written as prismatic joints [{names[0]}] '
               f'and [{names[1]}] in the plane and continuous joint [{joint.name}] about its '
               f'normal, through links [{names[2]}] and [{names[3]}] of {mass} kg each',
               *_where(joint))
    return JointOutput([first, second, turn], links)


def _fresh(name: str, taken: set[str]) -> str:
    out, i = name, 0
    while out in taken:
        out, i = f'{name}{i}', i + 1
    taken.add(out)
    return out


def mimic_as_custom(joint: Joint, report: ConversionReport, version: str) -> None:
    """Keep a mimic relation where the output version has no ``//axis/mimic``."""
    axis = joint.axis
    if axis is None or not axis.mimic_joint:
        return
    if version not in ('1.9', '1.10'):
        report.add(ReportKind.KEPT, f'joint[{joint.name}]/mimic',
                   f'written as //axis/mimic of joint [{axis.mimic_joint}] (SDFormat {version})',
                   *_where(joint))
        return
    xml = (f'<urdf:mimic xmlns:urdf="{URDF_NS}" joint="{axis.mimic_joint}" '
           f'multiplier="{axis.mimic_multiplier!r}" offset="{axis.mimic_offset!r}"/>')
    joint.extras.append(Extra('urdf:mimic', xml, axis.loc))
    report.add(ReportKind.KEPT, f'joint[{joint.name}]/mimic',
               f'SDFormat {version} has no mimic joints (1.11 has): written as custom element '
               '<urdf:mimic> (SDFormat 1.11 output writes //axis/mimic)', *_where(joint))
