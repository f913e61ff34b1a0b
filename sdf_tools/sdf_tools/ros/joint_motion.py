"""Moving joints: the parent-to-child transform at given joint positions.

One transform per joint, from the parent link's frame to the child link's
frame, as robot_state_publisher publishes it::

    X_parent_child(q) = X_parent_joint * M(q) * X_joint_child

``X_parent_joint`` and ``X_joint_child`` are the resolved poses at zero
position (for a URDF joint: the ``<origin>`` and the identity), ``M(q)`` the
motion along the joint axis expressed in the joint frame: a rotation by
``q`` radians (revolute, continuous), a translation by ``q`` metres
(prismatic), or rotations about each axis in turn, each axis carried by the
previous rotation: axis then axis2 (universal, revolute2), the joint
frame's x, y then z (ball). joint_states carries one position per name, so
the second and third positions come from the entries ``<joint>__axis2`` and
``<joint>__axis3``: the names of the extra joints the SDFormat -> URDF
conversion writes for these types, so one joint_states stream drives both.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from sdf_tools.transform import Quat, Transform, Vec3, rotate

#: Joint types whose motion joint_states can carry (one position per name).
ONE_AXIS_TYPES = ('revolute', 'continuous', 'prismatic')
#: Joint types with several rotational axes; position k (k >= 2) comes from
#: the joint_states entry named ``<joint>__axis<k>``.
MULTI_AXIS_TYPES = ('universal', 'revolute2', 'ball')
BALL_AXES: tuple[Vec3, ...] = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def axis_entry(joint: str, k: int) -> str:
    """Return the joint_states name of axis ``k`` (0-based) of a joint."""
    return joint if k == 0 else f'{joint}__axis{k + 1}'


@dataclass(frozen=True)
class Mimic:
    """``position = multiplier * position(joint) + offset`` (URDF and SDFormat ``<mimic>``)."""

    joint: str
    multiplier: float = 1.0
    offset: float = 0.0


def _qmul(a: Quat, b: Quat) -> Quat:
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz, aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw)


def _rotation(axis: Vec3, angle: float) -> Transform:
    s = math.sin(0.5 * angle)
    return Transform(q=(math.cos(0.5 * angle), axis[0] * s, axis[1] * s, axis[2] * s))


@dataclass(frozen=True)
class MovingJoint:
    """A joint whose transform depends on joint_states.

    Attributes:
        name: the joint_states name (scoped with the TF scope separator).
        type: 'revolute', 'continuous', 'prismatic', 'universal' or 'revolute2'.
        parent, child: TF frame ids (without frame_prefix).
        parent_to_joint, joint_to_child: the fixed parts of the transform.
        axes: unit axes in the joint frame (one, or two/three for multi-axis types).
        mimic: set when the joint follows another one.
        source: what to name in messages, e.g. "joint [arm::elbow] (arm.sdf:12)".
        initial: the file's ``//axis/initial_position`` of each axis (empty: all 0).
    """

    name: str
    type: str
    parent: str
    child: str
    parent_to_joint: Transform
    joint_to_child: Transform
    axes: tuple[Vec3, ...]
    mimic: Mimic | None = None
    source: str = ''
    initial: tuple[float, ...] = ()

    def motion(self, *q: float) -> Transform:
        """Return ``M(q)``, the motion of the child in the joint frame (one q per axis)."""
        if self.type == 'prismatic':
            a, d = self.axes[0], q[0]
            return Transform((a[0] * d, a[1] * d, a[2] * d))
        m = _rotation(self.axes[0], q[0])
        for axis, angle in zip(self.axes[1:], q[1:], strict=True):
            m = m * _rotation(axis, angle)
        return m

    def transform(self, *q: float) -> Transform:
        """Return ``X_parent_child`` at the given positions (one per axis)."""
        if len(q) == 1:
            return self._one_axis(q[0])
        return self.parent_to_joint * self.motion(*q) * self.joint_to_child

    def _one_axis(self, q: float) -> Transform:
        """The hot path of joint_states: the same product, unrolled on floats."""
        a, b = self.parent_to_joint, self.joint_to_child
        ax, ay, az = self.axes[0]
        if self.type == 'prismatic':
            p = rotate(a.q, (b.p[0] + ax * q, b.p[1] + ay * q, b.p[2] + az * q))
            return Transform((a.p[0] + p[0], a.p[1] + p[1], a.p[2] + p[2]), _qmul(a.q, b.q))
        s = math.sin(0.5 * q)
        r = (math.cos(0.5 * q), ax * s, ay * s, az * s)
        p = rotate(a.q, rotate(r, b.p))
        return Transform((a.p[0] + p[0], a.p[1] + p[1], a.p[2] + p[2]), _qmul(a.q, _qmul(r, b.q)))
