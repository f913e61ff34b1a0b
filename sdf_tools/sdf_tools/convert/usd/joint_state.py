"""Where a joint starts, as the joint state Newton and Isaac Sim read (see convert/joint_positions.py).

PhysX's ``JointStateAPI`` (multiple-apply, ``PhysicsJointStateAPI:<dof>``) holds
``state:<dof>:physics:position``: degrees for ``angular``/``rotX``/``rotY``,
metres for ``linear``. A revolute joint (and a screw joint, written as one)
starts at its axis' position, a prismatic joint likewise; a universal or
revolute2 joint, a D6 joint whose frame has X and Y along its two axes, at
``rotX``/``rotY``. The stage's bodies stay where the file places them (the zero
configuration); an engine applies the state when it loads the stage.
"""
from __future__ import annotations

import math
from collections.abc import Mapping

from pxr import Sdf, Usd

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import FlatJoint, where
from sdf_tools.convert.joint_positions import initial_values

API = 'PhysicsJointStateAPI'


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
