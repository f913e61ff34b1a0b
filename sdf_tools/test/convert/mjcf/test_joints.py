"""MJCF joints and couplings, judged by MuJoCo: loops closed, screw and mimic couplings hold.

At qpos0 every equality constraint the export writes (loop welds, screw threads,
mimic and gearbox couplings) must already be satisfied: MuJoCo's constraint
residual ``efc_pos`` of each equality row is zero (1e-9). Moving a coupled
joint then moves its partner as the source says.
"""
from __future__ import annotations

from pathlib import Path

import mujoco
import numpy as np
import pytest

from convert.mjcf.mujoco_check import TOL, compile_mjcf
from sdf_tools.convert.mjcf.to_mjcf import convert_to_mjcf
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file, load_string

DATA = Path(__file__).resolve().parents[2] / 'data'


def _export(loaded: object) -> str:
    result = convert_to_mjcf(loaded, ConversionOptions())  # type: ignore[arg-type]
    assert result.ok, [str(e) for e in result.report.errors]
    return result.text or ''


def _equality_residuals(text: str) -> tuple[int, float]:
    m, d = compile_mjcf(text)
    mujoco.mj_forward(m, d)
    rows = [i for i in range(d.nefc) if d.efc_type[i] == int(mujoco.mjtConstraint.mjCNSTR_EQUALITY)]
    worst = max((abs(float(d.efc_pos[i])) for i in rows), default=0.0)
    return m.neq, worst


@pytest.mark.parametrize('name', ['convert_urdf/loop.sdf', 'convert_urdf/two_parents.sdf',
                                  'convert_urdf/cycle.sdf', 'sdf/joints_all.sdf'])
def test_equalities_hold_at_qpos0(name: str) -> None:
    loaded = load_file(DATA / name)
    if not loaded.valid:
        pytest.skip('invalid input')
    neq, worst = _equality_residuals(_export(loaded))
    assert neq > 0
    assert worst <= TOL


def test_loop_cut_joint_keeps_its_place_and_is_reported() -> None:
    loaded = load_file(DATA / 'convert_urdf' / 'loop.sdf')
    result = convert_to_mjcf(loaded, ConversionOptions())
    assert any('loop' in e.message for e in result.report.entries)
    m, _ = compile_mjcf(result.text or '')
    welds = [i for i in range(m.neq) if m.eq_type[i] == int(mujoco.mjtEq.mjEQ_WELD)]
    assert welds


MIMIC = """<robot name="m">
  <link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="c"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="j1" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="3" velocity="2"/></joint>
  <joint name="j2" type="revolute"><parent link="a"/><child link="c"/><origin xyz="1 0 0"/>
    <axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="3" velocity="2"/>
    <mimic joint="j1" multiplier="-2" offset="0.5"/></joint>
</robot>
"""


def test_mimic_is_a_joint_equality_mujoco_enforces() -> None:
    text = _export(load_string(MIMIC, 'mimic.urdf'))
    m, d = compile_mjcf(text)
    e = next(i for i in range(m.neq) if m.eq_type[i] == int(mujoco.mjtEq.mjEQ_JOINT))
    assert m.joint(int(m.eq_obj1id[e])).name == 'j2' and m.joint(int(m.eq_obj2id[e])).name == 'j1'
    assert np.allclose(m.eq_data[e][:5], [0.5, -2, 0, 0, 0])
    d.qpos[m.joint('j1').qposadr[0]] = 0.3
    d.qpos[m.joint('j2').qposadr[0]] = 0.5 - 2 * 0.3
    mujoco.mj_forward(m, d)
    rows = [i for i in range(d.nefc) if d.efc_type[i] == int(mujoco.mjtConstraint.mjCNSTR_EQUALITY)]
    assert rows and max(abs(float(d.efc_pos[i])) for i in rows) <= TOL


def test_joint_locked_by_its_limits_stays_locked_under_gravity() -> None:
    # lumping.urdf's locked_joint (disableFixedJointLumping) is libsdformat's revolute locked
    # at 0: range="0 0" alone is no limit for MuJoCo (autolimits), and the link swung freely.
    src = DATA / 'convert' / 'lumping.urdf'
    result = convert_to_mjcf(load_file(src), ConversionOptions())
    assert result.text is not None
    model = mujoco.MjModel.from_xml_string(result.text)
    data = mujoco.MjData(model)
    jid = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, 'locked_joint')
    assert jid >= 0
    adr = model.jnt_qposadr[jid]
    worst = 0.0
    for _ in range(2000):
        mujoco.mj_step(model, data)
        worst = max(worst, abs(float(data.qpos[adr])))
    # MuJoCo's equality constraints are soft (solref): a few milliradians under gravity,
    # where the unlocked hinge swings by tenths of a radian.
    assert worst < 5e-3
    assert any(e.element == 'joint[locked_joint]/limit' and 'locked at 0' in e.message
               for e in result.report.entries)
