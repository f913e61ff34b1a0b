"""``<joint>`` and its ``<axis>``/``<axis2>``; ``<frame>``."""
from __future__ import annotations

import math

from lxml import etree

from sdf_tools import gazebo
from sdf_tools.errors import ErrorCode
from sdf_tools.model import Extra, Frame, Joint, JointAxis
from sdf_tools.sdf.context import ReadContext
from sdf_tools.sdf.link import parse_sensor
from sdf_tools.sdf.names import read_name
from sdf_tools.sdf.values import (
    children,
    float_value,
    floats_by_tag,
    get_float,
    get_pose,
    get_str,
    index,
    parse_bool_text,
    parse_floats,
)
from sdf_tools.xmlsafe import to_xml

JOINT_TYPES = ('ball', 'continuous', 'fixed', 'gearbox', 'prismatic', 'revolute',
               'revolute2', 'screw', 'universal')
# Joint types whose axis limits bound the motion (continuous ones ignore them).
LIMITED_TYPES = ('revolute', 'prismatic', 'universal', 'revolute2')
JOINT_CHILDREN = {'pose', 'parent', 'child', 'axis', 'axis2', 'thread_pitch', 'gearbox_ratio',
                  'gearbox_reference_body', 'physics', 'sensor', 'frame', 'screw_thread_pitch'}


# Spec defaults of <limit> and <dynamics> (libsdformat's joint.sdf).
_LIMIT_DEFAULTS = {'lower': -1e16, 'upper': 1e16, 'effort': -1.0, 'velocity': -1.0,
                   'stiffness': 1e8, 'dissipation': 1.0}
# SDFormat 1.10's joint.sdf (libsdformat 13.0, gazebosim/sdformat#1112) makes every limit
# infinite by default. libsdformat converts each file to the newest version it knows before
# reading it, so from 14 (Harmonic) on these are the defaults of a file of ANY version; a 1.9
# file without <limit> reads as unlimited (-inf..inf), not +-1e16 (checked with libsdformat
# 14.9.0 and 15.4.0 on their test/sdf/empty_axis.sdf, test/differential/MISMATCHES.md).
_LIMIT_DEFAULTS_1_10 = {**_LIMIT_DEFAULTS, 'lower': -math.inf, 'upper': math.inf,
                        'effort': math.inf, 'velocity': math.inf}


# By the target's newest spec version: every joint asks, and the target rarely changes.
_LIMIT_DEFAULTS_BY_SPEC: dict[str, dict[str, float]] = {}


def limit_defaults() -> dict[str, float]:
    """The ``<limit>`` defaults of the libsdformat of the target being read for."""
    newest = gazebo.current().spec
    found = _LIMIT_DEFAULTS_BY_SPEC.get(newest)
    if found is None:
        found = _LIMIT_DEFAULTS_1_10 if tuple(map(int, newest.split('.'))) >= (1, 10) else _LIMIT_DEFAULTS
        _LIMIT_DEFAULTS_BY_SPEC[newest] = found
    return found


#: SDFormat 1.9 dropped ``//axis/initial_position``; our writer keeps where a joint starts
#: as this custom element (libsdformat copies namespaced elements without a word), and the
#: reader takes it where the spec's element is absent.
SDF_TOOLS_NS = 'urn:sdf_tools'
INITIAL_POSITION_TAG = f'{{{SDF_TOOLS_NS}}}initial_position'
_DYNAMICS_DEFAULTS = {'damping': 0.0, 'friction': 0.0, 'spring_reference': 0.0,
                      'spring_stiffness': 0.0}


def parse_axis(ctx: ReadContext, el: etree._Element, *, legacy_model_frame: bool,
               kind: str = '') -> JointAxis:
    """Read an axis; ``legacy_model_frame`` is 1.4's implied use_parent_model_frame."""
    axis = JointAxis(loc=ctx.loc(el))
    k = index(el)
    xyz_el = k.get('xyz')
    if xyz_el is not None and (xyz_el.text or '').strip():
        vals = parse_floats(ctx, xyz_el, 3)
        if vals is not None:
            norm = (vals[0] ** 2 + vals[1] ** 2 + vals[2] ** 2) ** 0.5
            if norm == 0.0:
                ctx.error(ErrorCode.ELEMENT_INVALID, 'The norm of the xyz vector cannot be zero', xyz_el)
            else:
                axis.xyz = (vals[0] / norm, vals[1] / norm, vals[2] / norm)
    elif xyz_el is None:
        ctx.warn(ErrorCode.DEFAULT_ASSUMED, 'axis has no <xyz>: libsdformat assumes 0 0 1', el)
    if xyz_el is not None:
        axis.expressed_in = xyz_el.get('expressed_in', '')
    if ctx.version_tuple < (1, 7):
        upm = k.get('use_parent_model_frame')
        use_model = legacy_model_frame
        if upm is not None:
            use_model = bool(parse_bool_text(upm.text or ''))
        if use_model:
            # 1.6 -> 1.7 turns use_parent_model_frame into expressed_in.
            axis.expressed_in = '__model__'
    lim = k.get('limit')
    defaults = limit_defaults()
    if lim is None and kind in LIMITED_TYPES:
        bounds = ('lower -inf, upper inf' if math.isinf(defaults['upper'])
                  else 'lower -1e16, upper 1e16')
        ctx.warn(ErrorCode.DEFAULT_ASSUMED,
                 f'{kind} joint axis has no <limit>: libsdformat assumes {bounds} '
                 'and unlimited effort and velocity', el)
    if lim is None and defaults is _LIMIT_DEFAULTS_1_10:
        axis.lower, axis.upper = defaults['lower'], defaults['upper']
        axis.effort, axis.velocity = defaults['effort'], defaults['velocity']
    if lim is not None:
        li = floats_by_tag(ctx, lim, defaults, infinite=True)  # inf bounds as libsdformat
        axis.lower, axis.upper = li['lower'], li['upper']
        axis.effort, axis.velocity = li['effort'], li['velocity']
        axis.stiffness, axis.dissipation = li['stiffness'], li['dissipation']
    dyn = k.get('dynamics')
    if dyn is not None:
        di = floats_by_tag(ctx, dyn, _DYNAMICS_DEFAULTS)
        axis.damping, axis.friction = di['damping'], di['friction']
        axis.spring_reference, axis.spring_stiffness = di['spring_reference'], di['spring_stiffness']
    initial = k.get('initial_position')
    if initial is not None:
        axis.initial_position = get_float(ctx, k, 'initial_position', 0.0)
    elif (custom := k.get(INITIAL_POSITION_TAG)) is not None:
        axis.initial_position = float_value(ctx, custom, 0.0)
    mim = k.get('mimic')
    if mim is not None:
        axis.mimic_joint = mim.get('joint', '')
        axis.mimic_multiplier = get_float(ctx, mim, 'multiplier', 1.0)
        axis.mimic_offset = get_float(ctx, mim, 'offset', 0.0)
    return axis


def parse_joint(ctx: ReadContext, el: etree._Element, *, legacy_axes: bool = False) -> Joint:
    """Read a ``<joint>`` with libsdformat's checks on type, parent and child."""
    name = read_name(ctx, el, 'joint')
    jtype = el.get('type')
    if jtype is None:
        ctx.error(ErrorCode.ATTRIBUTE_MISSING, 'A joint type is required, but is not set.', el)
        jtype = ''
    jtype = jtype.lower()
    if jtype and jtype not in JOINT_TYPES:
        ctx.error(ErrorCode.ATTRIBUTE_INVALID, f'Joint type of {jtype} is invalid.', el)
    k = index(el)
    joint = Joint(name, jtype, pose=get_pose(ctx, k), loc=ctx.loc(el))
    for tag in ('parent', 'child'):
        c = k.get(tag)
        if c is None and jtype == 'ball':
            # libsdformat's parser refuses a missing parent/child except in a ball joint,
            # where it fills in the spec default and the frame checks refuse that name.
            ctx.warn(ErrorCode.DEFAULT_ASSUMED, f'ball joint [{name}] has no <{tag}>: '
                     'libsdformat assumes the name [__default__]', el)
            setattr(joint, tag, '__default__')
            continue
        if c is None:
            ctx.error(ErrorCode.ELEMENT_MISSING,
                      f'XML Missing required element[{tag}], child of element[joint]', el)
            continue
        value = (c.text or '').strip()
        if value == '__root__':
            ctx.error(ErrorCode.RESERVED_NAME, f'The supplied joint {tag} name [{value}] is not valid.', c)
        setattr(joint, tag, value)
    if joint.child == 'world':
        ctx.error(ErrorCode.JOINT_CHILD_LINK_INVALID,
                  f'Joint with name[{name}] specified invalid child link [world].', el)
    if joint.child and joint.child == joint.parent:
        ctx.error(ErrorCode.JOINT_PARENT_SAME_AS_CHILD,
                  f'Joint with name[{name}] must specify different frame names for parent and '
                  f'child, while [{joint.child}] was specified for both.', el)
    a1, a2 = k.get('axis'), k.get('axis2')
    if a1 is not None:
        joint.axis = parse_axis(ctx, a1, legacy_model_frame=legacy_axes, kind=jtype)
    if a2 is not None:
        joint.axis2 = parse_axis(ctx, a2, legacy_model_frame=legacy_axes, kind=jtype)
    if 'thread_pitch' in k:
        joint.thread_pitch = get_float(ctx, k, 'thread_pitch', 1.0)
    if 'gearbox_ratio' in k:
        joint.gearbox_ratio = get_float(ctx, k, 'gearbox_ratio', 1.0)
    if 'gearbox_reference_body' in k:
        joint.gearbox_reference_body = get_str(k, 'gearbox_reference_body')
    if 'sensor' in k:
        joint.sensors = [parse_sensor(ctx, c) for c in children(el, 'sensor')]
    if JOINT_CHILDREN.issuperset(k):
        return joint
    for c in el.iterchildren(etree.Element):
        if c.tag not in JOINT_CHILDREN:
            joint.extras.append(Extra(c.tag, to_xml(c), ctx.loc(c)))
    return joint


def parse_frame(ctx: ReadContext, el: etree._Element) -> Frame:
    """Read a ``<frame>`` (``attached_to`` stays '' when not written)."""
    name = read_name(ctx, el, 'frame')
    attached = el.get('attached_to', '')
    if attached == '__root__':
        ctx.error(ErrorCode.ATTRIBUTE_INVALID,
                  "'__root__' is reserved; it cannot be used as a value of attribute [attached_to]", el)
    return Frame(name, attached, get_pose(ctx, el), ctx.loc(el))
