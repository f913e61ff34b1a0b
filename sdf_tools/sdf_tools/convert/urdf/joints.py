"""SDFormat joints as URDF joints, with extra links where URDF needs them.

**Joint frame vs. child link frame.** A URDF child link's frame *is* its
joint's frame; an SDFormat joint may sit anywhere on its child. When the two
differ (beyond 1e-12), the joint moves a massless link ``<joint>__frame``
placed at the joint frame, and the real link hangs from it by the fixed
joint ``<joint>__frame_fixed`` at its SDFormat pose. Every link keeps its
frame, visuals, collisions and inertial exactly; Gazebo (libsdformat) merges
the pair back into one body, under the massless link's name, with the real
link's mass. A *fixed* joint needs no such link: it is written from the
parent to the child link frame (its own frame has no kinematic effect).

**Joint types URDF lacks** (reported):

* ``universal`` / ``revolute2``: two revolute joints through a link
  ``<joint>__link1`` at the joint frame: ``<joint>`` about axis, then
  ``<joint>__axis2`` about axis2 (a cross, as in a real universal joint);
* ``ball``: three continuous joints about the joint frame's x, y and z
  (``<joint>``, ``<joint>__axis2``, ``<joint>__axis3``) through two links;
* ``screw``: a revolute joint about its axis; the coupled translation
  (thread pitch) is lost;
* ``gearbox`` holding a link no other joint holds: a revolute joint about
  its second axis; the ratio is lost.

Links between two moving joints get the mass ``default_mass`` and the
inertia of a 1 cm radius of gyration: libsdformat drops a massless link
together with everything below it.

Limits: URDF ``revolute``/``prismatic`` need effort and velocity. An
unlimited effort (negative in SDFormat) is written as ``-1``, which libsdformat
reads back as unlimited; an unlimited velocity as ``1e16``, SDFormat's bound for
"no limit" (Drake's URDF parser aborts the process on a negative velocity, and
ROS tools expect a positive one).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import FlatJoint, FlatModel, where
from sdf_tools.convert.joint_names import written_name, written_names
from sdf_tools.convert.urdf.ros_control import joint_extras
from sdf_tools.convert.urdf.writer import UInertial, UJoint, ULimit, ULink, UMimic, num
from sdf_tools.frames.graph import join
from sdf_tools.model import JointAxis
from sdf_tools.transform import IDENTITY, Transform, Vec3

SAME_FRAME_TOL = 1e-12
_DIRECT = {'revolute': 'revolute', 'prismatic': 'prismatic', 'continuous': 'continuous',
           'screw': 'revolute', 'gearbox': 'revolute',
           # a URDF read as written keeps these, which URDF has and SDFormat has not
           'planar': 'planar', 'floating': 'floating'}
_BALL_AXES: list[Vec3] = [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)]
_NOTES = {
    'universal': 'two revolute joints, [{0}] about axis and [{1}] about axis2, through link '
                 '[{2}] at the joint frame (same motion)',
    'revolute2': 'two revolute joints, [{0}] about axis and [{1}] about axis2, through link '
                 '[{2}] at the joint frame (same motion)',
    'ball': 'three continuous joints about the joint frame x, y and z axes ([{0}], [{1}], ...) '
            'through link [{2}] and one more (same motion away from gimbal lock)',
    'screw': 'a revolute joint about its axis; the coupled translation (thread_pitch) is lost',
    'gearbox': 'a revolute joint about its child-side axis; the gear ratio to the other '
               'joint is lost',
}


@dataclass
class Step:
    """One URDF joint of the chain an SDFormat joint becomes."""

    type: str
    axis: Vec3 | None
    sdf_axis: JointAxis | None


@dataclass
class JointOut:
    """The URDF joints and the extra links one SDFormat joint becomes."""

    joints: list[UJoint] = field(default_factory=list)
    links: list[ULink] = field(default_factory=list)


def same_frame(t: Transform) -> bool:
    """Return whether ``t`` is the identity within :data:`SAME_FRAME_TOL`."""
    q = t.q if t.q[0] >= 0 else (-t.q[0], -t.q[1], -t.q[2], -t.q[3])
    return (max(abs(c) for c in t.p) <= SAME_FRAME_TOL
            and max(abs(q[0] - 1), abs(q[1]), abs(q[2]), abs(q[3])) <= SAME_FRAME_TOL)


#: What an unlimited velocity is written as (SDFormat's and verify's bound for no limit).
NO_VELOCITY_LIMIT = 1e16


def _finite(x: float, fallback: float) -> float:
    return x if math.isfinite(x) else fallback


def _velocity(v: float) -> float:
    return v if 0 <= v < math.inf else NO_VELOCITY_LIMIT


def _limit(step: Step) -> ULimit | None:
    a = step.sdf_axis if step.sdf_axis is not None else JointAxis()
    if step.type == 'continuous':
        if not 0 <= a.effort < math.inf and not 0 <= a.velocity < math.inf:
            return None  # unlimited: -1 (SDFormat <= 1.9's default) or inf (1.10's)
        return ULimit(_finite(a.effort, -1.0), _velocity(a.velocity))
    return ULimit(_finite(a.effort, -1.0), _velocity(a.velocity),
                  _finite(a.lower, -1e16), _finite(a.upper, 1e16))


def _steps(j: FlatJoint) -> list[Step]:
    jt, ax = j.joint.type, j.axes
    if jt in ('universal', 'revolute2'):
        return [Step('revolute', ax[0], j.joint.axis), Step('revolute', ax[1], j.joint.axis2)]
    if jt == 'ball':
        return [Step('continuous', a, None) for a in _BALL_AXES]
    if jt == 'gearbox' and ax[1] is not None:
        return [Step('revolute', ax[1], j.joint.axis2)]
    return [Step(_DIRECT[jt], ax[0], j.joint.axis)]


@dataclass
class JointBuilder:
    """Expands the tree joints of one flattened model."""

    flat: FlatModel
    default_mass: float
    report: ConversionReport

    def rel(self, a: str | int, b: str | int) -> Transform:
        """Return ``X_ab`` for URDF link names or graph vertices (``world``: model frame)."""
        va = self.flat.vid(a) if isinstance(a, str) else a
        vb = self.flat.vid(b) if isinstance(b, str) else b
        return self.flat.rel(va, vb)

    def _dummy(self, wanted: str, massive: bool) -> ULink:
        name = self.flat.namer.take(wanted)
        if not massive:
            return ULink(name, comment='no mass: added by the SDFormat -> URDF conversion')
        m = self.default_mass
        inertial = UInertial(m, (m * 1e-4, 0.0, 0.0, m * 1e-4, 0.0, m * 1e-4))
        return ULink(name, inertial, comment=f'{num(m)} kg so that libsdformat keeps it: added '
                     'by the SDFormat -> URDF conversion')

    def _mimic(self, j: FlatJoint, axis: JointAxis | None) -> UMimic | None:
        if axis is None or not axis.mimic_joint:
            return None
        scoped = join(j.scope, axis.mimic_joint)[len(self.flat.scope) + 2:]
        target = self.flat.names.get(scoped)
        if target is None:
            self.report.add(ReportKind.DROPPED, f'joint[{j.scoped}]/mimic',
                            f'mimicked joint [{axis.mimic_joint}] not found', *where(axis.loc))
            return None
        return UMimic(written_names(self.flat).get(target, target), axis.mimic_multiplier, axis.mimic_offset)

    def _axis(self, j: FlatJoint, step: Step) -> Vec3:
        a = step.sdf_axis
        if a is not None and (a.stiffness != 1e8 or a.dissipation != 1.0):
            self.report.add(ReportKind.DROPPED, f'joint[{j.scoped}]/limit',
                            'limit stiffness and dissipation: URDF has none', *where(a.loc))
        if step.axis is None:
            self.report.add(ReportKind.ASSUMED, f'joint[{j.scoped}]',
                            "no <axis>: written with SDFormat's default axis 0 0 1",
                            *where(j.joint.loc))
            return (0.0, 0.0, 1.0)
        return step.axis

    def _moving(self, j: FlatJoint, k: int, step: Step, parent: str, child: str,
                origin: Transform) -> UJoint:
        name = written_name(j) if k == 0 else self.flat.namer.take(f'{j.name}__axis{k + 1}')
        a = step.sdf_axis
        return UJoint(name, step.type, parent, child, origin, self._axis(j, step),
                      _limit(step), a.damping if a else 0.0, a.friction if a else 0.0,
                      self._mimic(j, a), extras=joint_extras(j.joint.extras) if k == 0 else [])

    def _fixed(self, j: FlatJoint, parent: str, child: str) -> JointOut:
        if not same_frame(self.rel(j.vid, child)):
            self.report.add(ReportKind.REWRITTEN, f'joint[{j.scoped}]',
                            f'fixed joint written at the frame of its child link [{child}] '
                            '(URDF places a joint there; the child link keeps its pose)',
                            *where(j.joint.loc))
        return JointOut([UJoint(written_name(j), 'fixed', parent, child, self.rel(parent, child),
                                extras=joint_extras(j.joint.extras))])

    def _notes(self, j: FlatJoint, out: JointOut) -> None:
        note = _NOTES.get(j.joint.type)
        if note is not None:
            second = out.joints[1].name if len(out.joints) > 1 else ''
            link1 = out.links[0].name if out.links else ''
            text = f'{j.joint.type} joint written as ' + note.format(j.name, second, link1)
            if j.joint.type in ('universal', 'revolute2', 'ball'):
                text += f'; each link between two of them adds {num(self.default_mass)} kg'
            self.report.add(ReportKind.APPROXIMATED, f'joint[{j.scoped}]', text,
                            *where(j.joint.loc))
        if any(uj.limit is not None and uj.limit.effort < 0 for uj in out.joints):
            self.report.add(ReportKind.REWRITTEN, f'joint[{j.scoped}]',
                            'unlimited effort written as -1 (libsdformat reads it '
                            'back as unlimited; ROS tools expect a positive limit)',
                            *where(j.joint.loc))
        if any(uj.limit is not None and uj.limit.velocity == NO_VELOCITY_LIMIT
               for uj in out.joints):
            self.report.add(ReportKind.REWRITTEN, f'joint[{j.scoped}]',
                            "unlimited velocity written as 1e16, SDFormat's bound for no limit "
                            "(Drake's URDF parser aborts on a negative velocity)",
                            *where(j.joint.loc))

    def _lumped_inertia(self, j: FlatJoint, frame: str, x_jc: Transform) -> None:
        """Say when libsdformat's lumping of the child into ``frame`` gives an invalid inertia.

        Its arithmetic (urdf/ode_mass.py) moves the inertia to the frame link and back:
        a moment far below ``m d^2`` comes back 0 (Drake's cart-pole point mass).
        """
        from sdf_tools.model.inertia_validity import inertia_is_valid
        from sdf_tools.urdf.ode_mass import ode_lump

        child = self.flat.by_name.get(j.child or '')
        inertial = child.link.inertial if child is not None else None
        if inertial is None or inertial.mass <= 0.0:
            return
        summed = ode_lump(None, inertial, x_jc)
        if inertia_is_valid(summed.mass, summed.inertia):
            return
        moments = ', '.join(num(v) for v in (summed.inertia[0], summed.inertia[3],
                                                  summed.inertia[5]))
        self.report.add(ReportKind.KEPT, f'link[{j.child}]/inertial',
                        f'libsdformat lumps it into massless link [{frame}] and its arithmetic '
                        f'gives moments ({moments}) that are not a valid inertia: Gazebo '
                        'refuses this URDF (LINK_INERTIA_INVALID). Fix: moments well above '
                        'mass x offset^2 x 1e-15', *where(inertial.loc or j.joint.loc))

    def expand(self, j: FlatJoint) -> JointOut:
        """Return the URDF joints (and extra links) of tree joint ``j``."""
        assert j.parent is not None and j.child is not None
        if j.joint.type == 'fixed':
            return self._fixed(j, j.parent, j.child)
        out = JointOut()
        steps = _steps(j)
        x_jc = self.rel(j.vid, j.child)
        direct = same_frame(x_jc)
        parent, origin = j.parent, self.rel(j.parent, j.vid)
        for k, step in enumerate(steps):
            last = k == len(steps) - 1
            if last and direct:
                child = j.child
            else:
                wanted = f'{j.name}__frame' if last else f'{j.name}__link{k + 1}'
                out.links.append(self._dummy(wanted, massive=not last))
                child = out.links[-1].name
            out.joints.append(self._moving(j, k, step, parent, child, origin))
            parent, origin = child, IDENTITY
        if not direct:
            name = self.flat.namer.take(f'{j.name}__frame_fixed')
            out.joints.append(UJoint(name, 'fixed', parent, j.child, x_jc))
            self.report.add(ReportKind.REWRITTEN, f'joint[{j.scoped}]',
                            f'its frame is not the frame of its child link [{j.child}]: it '
                            f'moves massless link [{parent}] at the joint frame, which holds '
                            f'[{j.child}] at its SDFormat pose by fixed joint [{name}] (Gazebo '
                            'merges the two into one body)', *where(j.joint.loc))
            self._lumped_inertia(j, parent, x_jc)
        self._notes(j, out)
        return out
