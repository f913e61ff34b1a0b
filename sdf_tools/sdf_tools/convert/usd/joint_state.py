"""Where a joint starts, as the joint state Newton and Isaac Sim read (see convert/joint_positions.py).

PhysX's ``JointStateAPI`` (multiple-apply, ``PhysicsJointStateAPI:<dof>``) holds
``state:<dof>:physics:position``: degrees for ``angular``/``rotX``/``rotY``,
metres for ``linear``. A revolute joint (and a screw joint, written as one)
starts at its axis' position, a prismatic joint likewise; a universal or
revolute2 joint, a D6 joint whose frame has X and Y along its two axes, at
``rotX``/``rotY``. The stage's bodies stay where the file places them (the zero
configuration); an engine applies the state when it loads the stage.

The schema holds 32-bit floats (in degrees for angular states): next to them
the writer keeps the exact radians or metres as ``sdf_tools:initial``
(:mod:`~sdf_tools.convert.usd.exact`), and the reader
(:func:`read_joint_state`) takes those while they still agree with the schema
to float precision, the schema values otherwise (a stage edited elsewhere).
"""
from __future__ import annotations

import math
from collections.abc import Mapping

from pxr import Sdf, Usd

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import FlatJoint, where
from sdf_tools.convert.joint_positions import initial_values
from sdf_tools.convert.usd.exact import FLOAT_REL, get, put
from sdf_tools.model import Joint

API = 'PhysicsJointStateAPI'
# The states of each joint type, (dof, angular) per axis.
_DOFS = {'revolute': (('angular', True),), 'continuous': (('angular', True),),
         'screw': (('angular', True),), 'prismatic': (('linear', False),),
         'universal': (('rotX', True), ('rotY', True)),
         'revolute2': (('rotX', True), ('rotY', True))}


def _state(prim: Usd.Prim, dof: str, value: float) -> None:
    prim.AddAppliedSchema(f'{API}:{dof}')
    prim.CreateAttribute(f'state:{dof}:physics:position', Sdf.ValueTypeNames.Float).Set(value)
    prim.CreateAttribute(f'state:{dof}:physics:velocity', Sdf.ValueTypeNames.Float).Set(0.0)


def write_joint_state(prim: Usd.Prim, j: FlatJoint, given: Mapping[str, float],
                      report: ConversionReport, prefix: str = '') -> None:
    """Author the starting position of joint ``j`` on its prim when it is not zero."""
    first, second = initial_values(prefix + j.scoped, j.joint, given)
    if first == 0.0 and second == 0.0:
        return
    kind = j.joint.type
    if kind in _DOFS:
        put(prim, 'initial', [first, second])
    if kind in ('revolute', 'continuous', 'screw'):
        _state(prim, 'angular', math.degrees(first))
    elif kind == 'prismatic':
        _state(prim, 'linear', first)
    elif kind in ('universal', 'revolute2'):
        _state(prim, 'rotX', math.degrees(first))
        _state(prim, 'rotY', math.degrees(second))
    else:
        report.add(ReportKind.DROPPED, f'joint[{j.scoped}]/initial_position',
                   f'{kind} joint: no single position to start it at', *where(j.joint.loc))


def read_joint_state(prim: Usd.Prim, joint: Joint) -> Joint:
    """Set ``joint``'s ``initial_position`` (each axis) from the prim's joint state; return it."""
    exact = get(prim, 'initial', 2)
    for i, (dof, angular) in enumerate(_DOFS.get(joint.type, ())):
        axis = joint.axis if i == 0 else joint.axis2
        attr = prim.GetAttribute(f'state:{dof}:physics:position')
        if axis is None or not attr or not attr.HasAuthoredValue() or attr.Get() is None:
            continue
        schema = float(attr.Get())
        if not math.isfinite(schema):
            continue
        if exact is not None:
            want = math.degrees(exact[i]) if angular else exact[i]
            if abs(want - schema) <= FLOAT_REL * max(1.0, abs(want)):
                axis.initial_position = exact[i]
                continue
        axis.initial_position = math.radians(schema) if angular else schema
    return joint
