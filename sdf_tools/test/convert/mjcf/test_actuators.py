"""Actuators from effort limits on request (``actuators``), judged by MuJoCo: position servos hold an
arm up against gravity for 2,000 steps, motors take the effort range; joints without an effort
limit or already driven by a transmission are left alone and reported."""
from __future__ import annotations

import re
from pathlib import Path

import mujoco
import numpy as np
import pytest

from sdf_tools.convert.mjcf.actuators import FULL_EFFORT_ERROR
from sdf_tools.convert.mjcf.servo_gain import MAX_OMEGA_DT
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


CONTROLLED = ARM.replace('<axis xyz="1 0 0"/></joint>',
                         '<axis xyz="1 0 0"/><limit effort="5" velocity="9"/></joint>').replace(
    '</robot>', '''<ros2_control name="arm" type="system">
    <hardware><plugin>mock_components/GenericSystem</plugin></hardware>
    <joint name="shoulder"><command_interface name="position"/><state_interface name="position"/></joint>
    <joint name="elbow"><command_interface name="velocity"/></joint>
    <joint name="spin"><command_interface name="effort"/></joint>
  </ros2_control>
</robot>''')


def _from_ros2_control(text: str, **options: object) -> tuple[mujoco.MjModel, list[str]]:
    result = convert_to_mjcf(load_string(text, 'arm.urdf'), ConversionOptions(**options))  # type: ignore[arg-type]
    assert result.ok and result.text is not None, [str(d) for d in result.report.errors]
    notes = [f'{e.kind.value}: {e.element}: {e.message}' for e in result.report.entries
             if '/drive' in e.element or '/actuators' in e.element]
    return mujoco.MjModel.from_xml_string(result.text), notes


@pytest.mark.parametrize('options', [{'actuators': 'ros2_control'},
                                     {'actuators': 'ros2_control',
                                      'joint_drive_from_transmission': False},
                                     {}])  # the default does the same for a ros2_control URDF
def test_ros2_control_interfaces_become_their_actuators_and_drive_the_arm(
        options: dict[str, object]) -> None:
    m, notes = _from_ros2_control(CONTROLLED, **options)
    kinds = {m.actuator(k).name: k for k in range(m.nu)}
    assert sorted(kinds) == ['elbow', 'shoulder', 'spin']
    shoulder, elbow, spin = kinds['shoulder'], kinds['elbow'], kinds['spin']
    # position: the joint's limits as ctrlrange, the effort as forcerange, kp from the effort
    assert list(m.actuator_ctrlrange[shoulder]) == [-2, 2]
    assert list(m.actuator_forcerange[shoulder]) == [-80, 80]
    assert m.actuator_gainprm[shoulder][0] == 800 and m.actuator_biasprm[shoulder][1] == -800
    # velocity: the velocity limit as ctrlrange; effort: a motor limited to the effort
    assert list(m.actuator_ctrlrange[elbow]) == [-3, 3] and m.actuator_biasprm[elbow][2] < 0
    assert m.actuator_biastype[spin] == 0 and m.actuator_forcelimited[spin]
    assert list(m.actuator_forcerange[spin]) == [-5, 5]
    assert len(notes) == 3 and all(n.startswith('assumed') for n in notes), notes
    d = mujoco.MjData(m)
    d.ctrl[shoulder], d.ctrl[spin] = 0.5, 100.0  # the motor's force is clamped to 5
    mujoco.mj_step(m, d, 1000)
    assert not any(d.warning[k].number for k in range(len(d.warning)))
    q = {n: d.qpos[m.jnt_qposadr[m.joint(n).id]] for n in ('shoulder', 'spin')}
    assert abs(q['shoulder'] - 0.5) < 0.02  # the servo holds it there against gravity
    assert d.actuator_force[spin] == pytest.approx(5.0)
    assert d.qvel[m.jnt_dofadr[m.joint('spin').id]] > 1.0


def test_ros2_control_actuators_asked_of_a_robot_without_any_are_reported() -> None:
    m, notes = _from_ros2_control(ARM, actuators='ros2_control')
    assert m.nu == 0
    assert any('/actuators' in n and 'no <ros2_control> command interface' in n for n in notes)


def test_verify_checks_the_ros2_control_actuators_against_the_joint_limits(tmp_path: Path) -> None:
    from sdf_tools.convert.api import convert_file
    from sdf_tools.verify import verify_files
    src = tmp_path / 'arm.urdf'
    src.write_text(CONTROLLED)
    out = tmp_path / 'arm.xml'
    assert convert_file(src, to='mjcf', output_path=out,
                        options=ConversionOptions(actuators='ros2_control')).ok
    v = verify_files(str(out), str(src))
    assert v.ok, [str(x) for x in v.differences]
    assert v.measures['effort limit'].compared >= 6  # 3 joints, 3 forceranges, the motor's ctrl
    assert v.measures['velocity limit'].compared >= 1


def _small_link(name: str) -> str:
    return (f'<link name="{name}"><inertial><origin xyz="0.025 0 0"/><mass value="0.05"/>'
            '<inertia ixx="1e-6" ixy="0" ixz="0" iyy="1e-5" iyz="0" izz="1e-5"/></inertial></link>')


def _small_joint(name: str, parent: str, child: str, at: float) -> str:
    return (f'<joint name="{name}" type="revolute"><parent link="{parent}"/><child link="{child}"/>'
            f'<origin xyz="{at} 0 0"/><axis xyz="0 1 0"/>'
            '<limit lower="-2" upper="2" effort="5" velocity="6"/></joint>')


# A hobby servo arm (so101-sized): 50 g links 5 cm long, 5 N m servos. kp = effort / 0.1 = 50 on
# the wrist's ~5e-5 kg m^2 is sqrt(50 / 5e-5) * 0.002 ~ 2 rad per step: Euler blows it up.
SMALL = ('<robot name="small"><link name="world"/>' + ''.join(
    _small_link(n) for n in ('base', 'shoulder_l', 'elbow_l', 'wrist_l')) +
    '<joint name="fix" type="fixed"><parent link="world"/><child link="base"/></joint>' +
    _small_joint('shoulder', 'base', 'shoulder_l', 0.05) +
    _small_joint('elbow', 'shoulder_l', 'elbow_l', 0.05) +
    _small_joint('wrist', 'elbow_l', 'wrist_l', 0.05) + '</robot>')
SMALL_CONTROLLED = SMALL.replace('</robot>', '<ros2_control name="s" type="system"><hardware>'
                                 '<plugin>mock_components/GenericSystem</plugin></hardware>' +
                                 ''.join(f'<joint name="{n}"><command_interface name="position"/>'
                                         '</joint>' for n in ('shoulder', 'elbow', 'wrist')) +
                                 '</ros2_control></robot>')
TARGETS = {'shoulder': 0.4, 'elbow': -0.6, 'wrist': 0.8}


def _step_to_targets(m: mujoco.MjModel) -> tuple[np.ndarray, list[int]]:
    d = mujoco.MjData(m)
    for name, target in TARGETS.items():
        d.ctrl[m.actuator(name).id] = target
    mujoco.mj_step(m, d, 2000)
    q = np.asarray([d.qpos[m.jnt_qposadr[m.joint(n).id]] for n in TARGETS])
    return q, [k for k in range(len(d.warning)) if d.warning[k].number]


@pytest.mark.parametrize('text,options', [(SMALL, {'actuators': 'position'}),
                                          (SMALL_CONTROLLED, {})])
def test_servos_of_a_small_robot_are_capped_to_stay_stable_and_hold_their_targets(
        text: str, options: dict[str, object]) -> None:
    result = convert_to_mjcf(load_string(text, 'small.urdf'), ConversionOptions(**options))  # type: ignore[arg-type]
    assert result.ok and result.text is not None
    m = mujoco.MjModel.from_xml_string(result.text)
    dt, expected = m.opt.timestep, []
    for name in TARGETS:
        a, dof = m.actuator(name).id, m.jnt_dofadr[m.joint(name).id]
        # the cap, judged by MuJoCo's own effective inertia of the joint (dof_M0)
        cap = m.dof_M0[dof] * (MAX_OMEGA_DT / dt) ** 2
        assert m.actuator_gainprm[a][0] == pytest.approx(min(cap, 5 / FULL_EFFORT_ERROR), rel=1e-9)
        expected += [(name, 1)] if cap < 5 / FULL_EFFORT_ERROR else []
    assert [n for n, _ in expected] == ['elbow', 'wrist']  # the shoulder moves enough inertia
    capped = [e for e in result.report.entries if 'capped from 50.0' in e.message]
    assert sorted((e.element.split(']')[0][6:], e.line) for e in capped) == expected
    q, warnings = _step_to_targets(m)
    assert not warnings and np.isfinite(q).all()
    assert np.abs(q - np.asarray(list(TARGETS.values()))).max() < 0.05
    assert m.opt.integrator == mujoco.mjtIntegrator.mjINT_IMPLICITFAST
    # each half of the fix alone: the uncapped kp (what was written before), or MuJoCo's Euler
    uncapped = re.sub(r'kp="[^"]*"', 'kp="50"', result.text)
    euler = result.text.replace(' integrator="implicitfast"', '')
    for text in (uncapped, euler):
        q, warnings = _step_to_targets(mujoco.MjModel.from_xml_string(text))
        assert warnings or not np.isfinite(q).all()
