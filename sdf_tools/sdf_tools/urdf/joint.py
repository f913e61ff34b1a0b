"""URDF ``<joint>``: type, origin, parent/child, axis, limit, dynamics, mimic.

The joint is placed as libsdformat places it when it converts a URDF: its
pose is the ``<origin>`` relative to the parent link (to ``__model__``
when the parent is the URDF ``world`` link), and the axis is expressed in
the joint frame.
"""
from __future__ import annotations

import math

from lxml import etree

from sdf_tools.errors import ErrorCode
from sdf_tools.model import Extra, Joint, JointAxis
from sdf_tools.sdf.context import ReadContext
from sdf_tools.sdf.joint import limit_defaults
from sdf_tools.urdf.attrs import first_child, read_float, read_floats, read_origin
from sdf_tools.xmlsafe import to_xml

URDF_JOINT_TYPES = ('revolute', 'continuous', 'prismatic', 'fixed', 'floating', 'planar')
# Types whose <axis> URDF reads (planar's is the plane normal).
_AXIS_TYPES = ('revolute', 'continuous', 'prismatic', 'planar')
_JOINT_CHILDREN = {'origin', 'parent', 'child', 'axis', 'limit', 'dynamics', 'mimic',
                   'safety_controller', 'calibration'}


def unlimited_axis(**given: float | tuple[float, float, float]) -> JointAxis:
    """An axis with the ``<limit>`` defaults of the target's SDFormat, then ``given``.

    libsdformat's conversion (``parser_urdf.cc`` ``CreateJoint``) writes an axis with an
    empty ``<limit>`` (only effort/velocity when the URDF has them, never the bounds of a
    continuous joint) into a document of its own SDFormat version: what is left out takes
    that spec's defaults, +-1e16 and -1 in 1.9 (12.3), -inf..inf and inf in 1.11+ (14+).
    """
    d = limit_defaults()
    axis = JointAxis(lower=d['lower'], upper=d['upper'], effort=d['effort'],
                     velocity=d['velocity'])
    for key, value in given.items():
        setattr(axis, key, value)
    return axis


def _link_ref(ctx: ReadContext, el: etree._Element, tag: str, name: str) -> str:
    ref = first_child(el, tag)
    value = ref.get('link') if ref is not None else None
    if value is None:
        ctx.error(ErrorCode.URDF_INVALID,
                  f'joint [{name}] has no <{tag} link="..."/>', ref if ref is not None else el)
        return ''
    return value


def _axis_xyz(ctx: ReadContext, el: etree._Element, name: str, axis: JointAxis) -> bool:
    axis_el = first_child(el, 'axis')
    if axis_el is None:
        ctx.warn(ErrorCode.DEFAULT_ASSUMED,
                 f'joint [{name}] has no <axis>: URDF assumes 1 0 0', el)
        axis.xyz = (1.0, 0.0, 0.0)
        return True
    axis.loc = ctx.loc(axis_el)
    # urdfdom leaves the axis at 0 0 0 for an <axis> without xyz.
    xyz = read_floats(ctx, axis_el, 'xyz', 3, f'joint [{name}]', default=(0.0, 0.0, 0.0))
    if xyz is None:
        return False
    norm = math.sqrt(xyz[0] ** 2 + xyz[1] ** 2 + xyz[2] ** 2)
    if norm == 0.0:
        ctx.error(ErrorCode.URDF_INVALID,
                  f'axis of joint [{name}] is 0 0 0: the norm of the xyz vector cannot be zero',
                  axis_el)
        return False
    axis.xyz = (xyz[0] / norm, xyz[1] / norm, xyz[2] / norm)
    return True


def _limit(ctx: ReadContext, el: etree._Element, name: str, jtype: str, axis: JointAxis) -> None:
    lim = first_child(el, 'limit')
    if lim is None:
        if jtype in ('revolute', 'prismatic'):
            ctx.error(ErrorCode.URDF_INVALID,
                      f'joint [{name}] is of type {jtype} but has no <limit>', el)
        return
    owner = f'joint [{name}]'
    lower = read_float(ctx, lim, 'lower', owner, default=0.0)
    upper = read_float(ctx, lim, 'upper', owner, default=0.0)
    effort = read_float(ctx, lim, 'effort', owner)
    velocity = read_float(ctx, lim, 'velocity', owner)
    if effort is not None:
        axis.effort = effort
    if velocity is not None:
        axis.velocity = velocity
    if lower is None or upper is None or jtype == 'continuous':
        return  # libsdformat ignores position limits of a continuous joint
    if lower > upper:
        ctx.warn(ErrorCode.JOINT_LIMITS_REVERSED,
                 f'joint [{name}] has lower limit {lower} > upper limit {upper}: libsdformat '
                 'swaps the two', lim)
        lower, upper = upper, lower
    axis.lower, axis.upper = lower, upper


def _dynamics(ctx: ReadContext, el: etree._Element, name: str, axis: JointAxis) -> None:
    dyn = first_child(el, 'dynamics')
    if dyn is None:
        return
    if dyn.get('damping') is None and dyn.get('friction') is None:
        ctx.error(ErrorCode.URDF_INVALID,
                  f'<dynamics> of joint [{name}] needs attribute [damping] or [friction]', dyn)
        return
    owner = f'joint [{name}]'
    damping = read_float(ctx, dyn, 'damping', owner, default=0.0)
    friction = read_float(ctx, dyn, 'friction', owner, default=0.0)
    axis.damping = damping if damping is not None else 0.0
    axis.friction = friction if friction is not None else 0.0


def _mimic(ctx: ReadContext, el: etree._Element, name: str, axis: JointAxis) -> None:
    mim = first_child(el, 'mimic')
    if mim is None:
        return
    target = mim.get('joint')
    if target is None:
        ctx.error(ErrorCode.URDF_INVALID, f'<mimic> of joint [{name}] needs attribute [joint]', mim)
        return
    owner = f'joint [{name}]'
    multiplier = read_float(ctx, mim, 'multiplier', owner, default=1.0)
    offset = read_float(ctx, mim, 'offset', owner, default=0.0)
    axis.mimic_joint = target
    axis.mimic_multiplier = multiplier if multiplier is not None else 1.0
    axis.mimic_offset = offset if offset is not None else 0.0


def _check_extras(ctx: ReadContext, el: etree._Element, name: str, joint: Joint) -> None:
    """Keep calibration, safety controller and unknown children; check their numbers."""
    owner = f'joint [{name}]'
    for c in el:
        if not isinstance(c.tag, str) or c.tag in ('origin', 'parent', 'child', 'axis', 'limit',
                                                   'dynamics', 'mimic'):
            continue
        if c.tag == 'safety_controller':
            for attr in ('soft_lower_limit', 'soft_upper_limit', 'k_position'):
                read_float(ctx, c, attr, owner, default=0.0)
            read_float(ctx, c, 'k_velocity', owner)
        elif c.tag == 'calibration':
            for attr in ('rising', 'falling'):
                read_float(ctx, c, attr, owner, default=0.0)
        elif c.tag not in _JOINT_CHILDREN:
            ctx.warn(ErrorCode.ELEMENT_UNKNOWN,
                     f'<{c.tag}> is not a URDF child of <joint>; kept verbatim', c)
        joint.extras.append(Extra(c.tag, to_xml(c), ctx.loc(c)))


def read_joint(ctx: ReadContext, el: etree._Element) -> Joint:
    """Read a named ``<joint>`` (the caller checks the name and the tree).

    Types URDF has and SDFormat lacks (``floating``, ``planar``) are kept
    as written, with a warning: libsdformat 12 writes no joint for them but
    still places the child link relative to it, so it rejects the robot.
    """
    name = el.get('name', '')
    jtype = el.get('type')
    if jtype is None:
        ctx.error(ErrorCode.URDF_INVALID, f'joint [{name}] has no type attribute', el)
        jtype = ''
    elif jtype not in URDF_JOINT_TYPES:
        ctx.error(ErrorCode.URDF_INVALID,
                  f'joint [{name}] has unknown type [{jtype}]; URDF knows '
                  + ', '.join(URDF_JOINT_TYPES), el)
    elif jtype in ('floating', 'planar'):
        ctx.warn(ErrorCode.URDF_JOINT_TYPE_UNSUPPORTED,
                 f'joint [{name}] is {jtype}, a type SDFormat lacks: libsdformat 12 writes no '
                 'joint for it (and then cannot place its child link)', el)
    parent = _link_ref(ctx, el, 'parent', name)
    child = _link_ref(ctx, el, 'child', name)
    pose = read_origin(ctx, el, f'joint [{name}]', '__model__' if parent == 'world' else parent)
    joint = Joint(name, jtype, parent, child, pose, loc=ctx.loc(el))
    if jtype in _AXIS_TYPES:
        axis = unlimited_axis()
        axis.loc = ctx.loc(el)
        _axis_xyz(ctx, el, name, axis)
        _limit(ctx, el, name, jtype, axis)
        _dynamics(ctx, el, name, axis)
        _mimic(ctx, el, name, axis)
        joint.axis = axis
    else:
        # Still checked: urdfdom rejects a malformed <limit>, <dynamics> or <mimic>.
        scratch = JointAxis()
        _limit(ctx, el, name, jtype, scratch)
        _dynamics(ctx, el, name, scratch)
        _mimic(ctx, el, name, scratch)
    _check_extras(ctx, el, name, joint)
    return joint
