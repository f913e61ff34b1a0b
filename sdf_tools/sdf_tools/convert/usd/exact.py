"""Double-precision copies of the values UsdPhysics stores as 32-bit floats, for exact round trips.

``MassAPI`` and the joint schemas hold floats: a round trip through them
alone loses the digits after the seventh. Next to each such value the
writer puts the double-precision original as a custom ``sdf_tools:``
attribute; the reader takes it when it still agrees with the schema value
to float precision (so a stage edited in another tool is read from the
schema), and the schema value otherwise.

===========================  ==================================================
attribute                    value
===========================  ==================================================
``sdf_tools:inertial``       on a link: mass, inertial pose (x y z, qw qx qy qz)
                             in the link frame, ixx ixy ixz iyy iyz izz
``sdf_tools:joint``          on a joint: joint pose in the child link frame
                             (x y z, qw qx qy qz), axis xyz, axis2 xyz (joint
                             frame)
``sdf_tools:limits``         lower, upper, effort, velocity (radians, metres)
                             of axis then axis2
``sdf_tools:dynamics``       damping, friction, spring_reference,
                             spring_stiffness of axis then axis2
``sdf_tools:type``           the SDFormat joint type (continuous, universal...)
``sdf_tools:gravity``        on the physics scene: the world's gravity x y z
                             (:mod:`~sdf_tools.convert.usd.scene`)
===========================  ==================================================
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from pxr import Sdf, Usd, Vt

from sdf_tools.model import Inertial, Joint, JointAxis, RawPose
from sdf_tools.model.inertia import in_frame
from sdf_tools.transform import IDENTITY, Transform, Vec3, normalize_quat

PREFIX = 'sdf_tools:'
#: Relative agreement asked of a copy with its float schema value (float: 24 bits).
FLOAT_REL = 1e-6


def put(prim: Usd.Prim, name: str, values: Sequence[float]) -> None:
    """Author a custom double array ``sdf_tools:<name>``."""
    prim.CreateAttribute(PREFIX + name, Sdf.ValueTypeNames.DoubleArray, custom=True).Set(
        Vt.DoubleArray([float(v) for v in values]))


def get(prim: Usd.Prim, name: str, size: int) -> list[float] | None:
    """Return ``sdf_tools:<name>`` when authored with ``size`` numbers."""
    attr = prim.GetAttribute(PREFIX + name)
    if not attr or not attr.HasAuthoredValue():
        return None
    values = [float(v) for v in attr.Get()]
    return values if len(values) == size else None


def put_inertial(prim: Usd.Prim, i: Inertial) -> None:
    pose = i.pose.value if i.pose is not None else IDENTITY
    put(prim, 'inertial', [i.mass, *pose.p, *pose.q, *i.inertia])


def get_inertial(prim: Usd.Prim) -> Inertial | None:
    v = get(prim, 'inertial', 14)
    if v is None:
        return None
    pose = Transform((v[1], v[2], v[3]), (v[4], v[5], v[6], v[7]))
    return Inertial(v[0], (v[8], v[9], v[10], v[11], v[12], v[13]), RawPose(pose))


def _axis_values(ax: JointAxis | None) -> tuple[list[float], list[float]]:
    if ax is None:
        return [0.0] * 4, [0.0] * 4
    return ([ax.lower, ax.upper, ax.effort, ax.velocity],
            [ax.damping, ax.friction, ax.spring_reference, ax.spring_stiffness])


def put_joint(prim: Usd.Prim, joint: Joint, x_cj: Transform, axes: list[Vec3 | None]) -> None:
    a1 = axes[0] or (0.0, 0.0, 0.0)
    a2 = axes[1] if len(axes) > 1 and axes[1] else (0.0, 0.0, 0.0)
    put(prim, 'joint', [*x_cj.p, *x_cj.q, *a1, *a2])
    l1, d1 = _axis_values(joint.axis)
    l2, d2 = _axis_values(joint.axis2)
    put(prim, 'limits', l1 + l2)
    put(prim, 'dynamics', d1 + d2)
    prim.CreateAttribute(PREFIX + 'type', Sdf.ValueTypeNames.String, custom=True).Set(joint.type)


def get_type(prim: Usd.Prim) -> str | None:
    attr = prim.GetAttribute(PREFIX + 'type')
    return str(attr.Get()) if attr and attr.HasAuthoredValue() else None


def get_joint(prim: Usd.Prim) -> Joint | None:
    """Return the joint the copies hold (type, pose in the child link, axes, limits, dynamics;
    no names), None when any copy is missing."""
    jv, lv, dv = get(prim, 'joint', 13), get(prim, 'limits', 8), get(prim, 'dynamics', 8)
    kind = get_type(prim)
    if jv is None or lv is None or dv is None or kind is None:
        return None
    pose = Transform((jv[0], jv[1], jv[2]), normalize_quat((jv[3], jv[4], jv[5], jv[6])))
    axes: list[JointAxis | None] = []
    for k, a in enumerate(((jv[7], jv[8], jv[9]), (jv[10], jv[11], jv[12]))):
        if a == (0.0, 0.0, 0.0):
            axes.append(None)
            continue
        lo, hi, eff, vel = lv[4 * k:4 * k + 4]
        damp, fric, sref, sk = dv[4 * k:4 * k + 4]
        axes.append(JointAxis(a, '', lo, hi, eff, vel, damping=damp, friction=fric,
                              spring_reference=sref, spring_stiffness=sk))
    return Joint('', kind, pose=RawPose(pose), axis=axes[0], axis2=axes[1])


def same_inertial(exact: Inertial, schema: Inertial) -> bool:
    """Return whether the schema's float mass properties are ``exact`` rounded to floats."""
    if abs(exact.mass - schema.mass) > FLOAT_REL * max(abs(exact.mass), 1e-30):
        return False
    pe = exact.pose.value if exact.pose is not None else IDENTITY
    ps = schema.pose.value if schema.pose is not None else IDENTITY
    scale = max(1.0, *(abs(v) for v in pe.p))
    if max(abs(a - b) for a, b in zip(pe.p, ps.p, strict=True)) > 10 * FLOAT_REL * scale:
        return False
    te, ts = in_frame(exact.inertia, pe), in_frame(schema.inertia, ps)
    size = float(np.abs(te).max()) or 1.0
    return bool(np.abs(te - ts).max() <= 10 * FLOAT_REL * size)
