"""The initial state in MJCF: ``<key name="initial">``, judged by ``mj_resetDataKeyframe``."""
from __future__ import annotations

from pathlib import Path

import mujoco
import numpy as np

from sdf_tools.convert.mjcf.to_mjcf import convert_to_mjcf
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file, load_string
from sdf_tools.resolved import resolve

ARM = Path(__file__).resolve().parents[2] / 'data' / 'sim' / 'sensor_arm.sdf'


def _model(loaded: object, **given: float) -> mujoco.MjModel:
    result = convert_to_mjcf(loaded, ConversionOptions(joint_positions=dict(given)))  # type: ignore[arg-type]
    assert result.ok, result.report.errors
    return mujoco.MjModel.from_xml_string(result.text)


def _q(m: mujoco.MjModel, d: mujoco.MjData, joint: str) -> float:
    return float(d.qpos[m.jnt_qposadr[m.joint(joint).id]])


def test_the_key_starts_each_joint_at_its_initial_position_and_qpos0_stays_zero() -> None:
    loaded = load_file(ARM)
    m = _model(loaded, slide=0.05)
    d = mujoco.MjData(m)
    mujoco.mj_resetDataKeyframe(m, d, m.key('initial').id)
    want = {j.name.split('::')[-1]: j.axis.initial_position for j in resolve(loaded).joints
            if j.axis is not None}
    assert want['shoulder'] == 0.4  # <initial_position> of the file
    assert _q(m, d, 'shoulder') == want['shoulder']
    assert _q(m, d, 'slide') == 0.05  # --joint-positions
    assert _q(m, d, 'spin') == 0.0
    free = m.jnt_qposadr[m.joint('base__free').id]
    assert np.array_equal(d.qpos[free:free + 7], m.qpos0[free:free + 7])  # base where it is
    hinge = [m.jnt_qposadr[j] for j in range(m.njnt) if m.jnt_type[j] != mujoco.mjtJoint.mjJNT_FREE]
    assert not m.qpos0[hinge].any()


def test_no_key_when_every_joint_starts_at_zero() -> None:
    text = ARM.read_text().replace('<initial_position>0.4</initial_position>', '')
    m = _model(load_string(text, str(ARM)))
    assert m.nkey == 0


def test_universal_joints_start_both_hinges_and_unknown_names_fail() -> None:
    sdf = """<sdf version='1.9'><model name='u'>
      <link name='a'/><link name='b'><pose>0 0 1 0 0 0</pose></link>
      <joint name='uj' type='universal'><parent>a</parent><child>b</child>
        <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>
    </model></sdf>"""
    loaded = load_string(sdf, 'u.sdf')
    m = _model(loaded, **{'uj': 0.3, 'uj/2': -0.2})
    d = mujoco.MjData(m)
    mujoco.mj_resetDataKeyframe(m, d, 0)
    assert (_q(m, d, 'uj'), _q(m, d, 'uj__axis2')) == (0.3, -0.2)
    bad = convert_to_mjcf(loaded, ConversionOptions(joint_positions={'nope': 1.0}))
    assert not bad.ok and 'no joint [nope]' in bad.report.errors[0].message
