"""The state a simulation starts in: ``<keyframe><key name="initial">`` (see convert/joint_positions.py).

``qpos0`` stays the zero configuration (the bodies where the file places them);
the key holds every joint's starting position in MuJoCo's ``qpos`` order: the
joints of the bodies in tree order (depth first, as written), a free joint's
position and orientation as its body is placed, a ball joint at rest, a hinge
or slide at its initial position plus its ``ref``. ``mj_resetDataKeyframe``
loads it.
"""
from __future__ import annotations

from collections.abc import Mapping

from lxml import etree

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import FlatModel, where
from sdf_tools.convert.joint_positions import initial_values
from sdf_tools.convert.mjcf.writer import MjcfDocument, nums, sub

KEY = 'initial'


def collect_initial(flat: FlatModel, written: Mapping[str, list[str]],
                    given: Mapping[str, float], report: ConversionReport,
                    prefix: str = '') -> dict[str, float]:
    """Return MJCF joint name -> starting position for the joints of one model."""
    out: dict[str, float] = {}
    for j in flat.joints:
        names = written.get(j.name) or []
        first, second = initial_values(prefix + j.scoped, j.joint, given)
        if not names or (first == 0.0 and second == 0.0):
            continue
        if j.joint.type in ('revolute', 'continuous', 'prismatic', 'gearbox'):
            out[names[0]] = first
        elif j.joint.type in ('universal', 'revolute2') and len(names) > 1:
            out[names[0]], out[names[1]] = first, second
        elif j.joint.type == 'screw' and len(names) > 1:
            pitch = j.joint.thread_pitch or 0.0
            out[names[0]] = first
            report.add(ReportKind.APPROXIMATED, f'joint[{j.scoped}]/initial_position',
                       f'screw joint: the key starts the hinge at {first!r}; the slide starts '
                       f'at 0 and the coupling (pitch {pitch!r}) pulls it along',
                       *where(j.joint.loc))
        else:
            report.add(ReportKind.DROPPED, f'joint[{j.scoped}]/initial_position',
                       f'{j.joint.type} joint: no single position to start it at',
                       *where(j.joint.loc))
    return out


def _qpos(body: etree._Element, values: Mapping[str, float], out: list[float]) -> None:
    for child in body:
        if child.tag == 'freejoint' or (child.tag == 'joint' and child.get('type') == 'free'):
            out += [float(v) for v in (body.get('pos') or '0 0 0').split()]
            out += [float(v) for v in (body.get('quat') or '1 0 0 0').split()]
        elif child.tag == 'joint' and child.get('type') == 'ball':
            out += [1.0, 0.0, 0.0, 0.0]
        elif child.tag == 'joint':
            out.append(values.get(child.get('name') or '', 0.0) + float(child.get('ref') or 0))
    for child in body:
        if child.tag == 'body':
            _qpos(child, values, out)


def write_initial_key(mj: MjcfDocument, values: Mapping[str, float]) -> None:
    """Write the key ``initial`` when any joint starts away from zero."""
    if not values:
        return
    qpos: list[float] = []
    _qpos(mj.section('worldbody'), values, qpos)
    sub(mj.section('keyframe'), 'key', name=KEY, qpos=nums(qpos))
