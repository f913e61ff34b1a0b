"""Actuators from effort limits on request (``actuators``), judged by MuJoCo: position servos hold an
arm up against gravity for 2,000 steps, motors take the effort range; joints without an effort
limit or already driven by a transmission are left alone and reported."""
from __future__ import annotations

import mujoco
import numpy as np
import pytest

from sdf_tools.convert.mjcf.to_mjcf import convert_to_mjcf
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_string

INERTIAL = ('<inertial><origin xyz="0.15 0 0"/><mass value="1"/>'
            '<inertia ixx="0.001" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>')
ARM = f"""<robot name="arm">
  <link name="world"/>
  <link name="base">{INERTIAL}</link>
  <link name="upper">{INERTIAL}</link>
  <link name="fore">{INERTIAL}</link>
  <link name="free_spin">{INERTIAL}</link>
  <joint name="fix" type="fixed"><parent link="world"/><child link="base"/></joint>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="80" velocity="3"/></joint>
  <joint name="elbow" type="continuous"><parent link="upper"/><child link="fore"/>
    <origin xyz="0.3 0 0"/><axis xyz="0 1 0"/><limit effort="40" velocity="3"/></joint>
  <joint name="spin" type="continuous"><parent link="fore"/><child link="free_spin"/>
    <origin xyz="0.3 0 0"/><axis xyz="1 0 0"/></joint>
</robot>
"""


def _compile(kind: str) -> tuple[mujoco.MjModel, list[tuple[str, str]]]:
    result = convert_to_mjcf(load_string(ARM, 'arm.urdf'), ConversionOptions(actuators=kind))
    assert result.ok and result.text is not None, [str(d) for d in result.report.errors]
    notes = [(e.element, e.message) for e in result.report.entries if '/actuator' in e.element]
    return mujoco.MjModel.from_xml_string(result.text), notes


def _hold(m: mujoco.MjModel) -> np.ndarray:
    d = mujoco.MjData(m)
    mujoco.mj_step(m, d, 2000)
    assert not any(d.warning[k].number for k in range(len(d.warning)))
    return np.asarray([d.qpos[m.jnt_qposadr[m.joint(n).id]] for n in ('shoulder', 'elbow')])


def test_position_servos_hold_the_arm_against_gravity() -> None:
    m, notes = _compile('position')
    assert sorted(m.actuator(k).name for k in range(m.nu)) == ['elbow', 'shoulder']
    shoulder = m.actuator('shoulder').id
    assert list(m.actuator_forcerange[shoulder]) == [-80, 80]
    assert list(m.actuator_ctrlrange[shoulder]) == [-2, 2]
    assert m.actuator_gainprm[shoulder][0] == 800  # effort / 0.1 rad
    assert not m.actuator_ctrllimited[m.actuator('elbow').id]  # continuous: no range
    assert np.abs(_hold(m)).max() < 0.1
    limp, _ = _compile('none')
    assert limp.nu == 0 and np.abs(_hold(limp)).max() > 0.5  # the same arm falls
    assert ('joint[spin]/actuator', 'no effort limit: no <position> actuator '
            '(actuators=position)') in notes


def test_motors_take_the_effort_range() -> None:
    m, notes = _compile('motor')
    assert list(m.actuator_ctrlrange[m.actuator('elbow').id]) == [-40, 40]
    assert m.actuator_biastype[m.actuator('elbow').id] == 0  # no servo: a force
    assert sum('tune the gains' in text for _, text in notes) == 2


@pytest.mark.parametrize('kind', ['position', 'motor'])
def test_a_transmission_keeps_its_own_actuator(kind: str) -> None:
    driven = ARM.replace('</robot>', '<transmission name="t"><joint name="shoulder">'
                         '<hardwareInterface>hardware_interface/EffortJointInterface'
                         '</hardwareInterface></joint></transmission></robot>')
    result = convert_to_mjcf(load_string(driven, 'arm.urdf'), ConversionOptions(actuators=kind))
    m = mujoco.MjModel.from_xml_string(result.text or '')
    assert m.nu == 2 and m.actuator_biastype[m.actuator('shoulder').id] == 0  # the motor
