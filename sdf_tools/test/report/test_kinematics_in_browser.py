"""The page's joint sliders move links where a physics engine puts them.

pybullet (the engine these robots were written for) is the judge: each joint
is set to a value inside its limits in both, and every link frame the page
draws must sit where pybullet's forward kinematics puts it.
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from differential.corpus import corpus, corpus_id
from support.chromium import Browser

from report.browser_checks import require_chromium
from report.test_page_in_browser import write_page

ROBOTS = ('pybullet_data/kuka_iiwa/model_free_base.urdf', 'pybullet_data/franka_panda/panda.urdf',
          'pybullet_data/r2d2.urdf')
#: pybullet's getLinkState hands its poses back rounded to float32 (a link at 0.36 m
#: comes back at 0.36000001430511475): a few 1e-8 per value for lengths below 1 m
#: and up to 1.2e-7 (two float32 steps) in rotation entries, measured on these
#: robots. The page itself rounds what it embeds to 1e-9 (kinematics.pose7).
TOL = 1e-6
#: The page draws SDFormat's Z-up world in three.js's Y-up one: a -90 degree turn about X.
Y_UP_TO_Z_UP = np.array([[1.0, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 0], [0, 0, 0, 1]])


@pytest.fixture(scope='module')
def browser() -> Iterator[Browser]:
    require_chromium()
    with Browser(800, 600) as b:
        yield b


def _pybullet_frames(path: Path, q: dict[str, float]) -> dict[str, np.ndarray]:
    """World 4x4 pose of every link frame in pybullet at joint positions ``q``."""
    import pybullet as p
    client = p.connect(p.DIRECT)
    try:
        body = p.loadURDF(str(path), useFixedBase=True, physicsClientId=client)
        out = {p.getBodyInfo(body, physicsClientId=client)[0].decode(): np.eye(4)}
        for j in range(p.getNumJoints(body, physicsClientId=client)):
            info = p.getJointInfo(body, j, physicsClientId=client)
            p.resetJointState(body, j, q.get(info[1].decode(), 0.0), physicsClientId=client)
        for j in range(p.getNumJoints(body, physicsClientId=client)):
            info = p.getJointInfo(body, j, physicsClientId=client)
            state = p.getLinkState(body, j, computeForwardKinematics=True, physicsClientId=client)
            m = np.eye(4)
            m[:3, :3] = np.array(p.getMatrixFromQuaternion(state[5])).reshape(3, 3)
            m[:3, 3] = state[4]
            out[info[12].decode()] = m
        return out
    finally:
        p.disconnect(client)


def _pick(lower: float, upper: float, k: int) -> float:
    """A joint value well inside the limits (or any angle when there are none)."""
    if lower >= upper or not math.isfinite(lower) or abs(lower) > 1e3:
        return 0.3 + 0.1 * k
    return lower + (upper - lower) * (0.2 + 0.6 * ((k * 0.37) % 1.0))


@pytest.mark.parametrize('robot', ROBOTS)
def test_sliders_match_pybullet_forward_kinematics(robot: str, browser: Browser, tmp_path: Path) -> None:
    entry = next(e for e in corpus() if corpus_id(e) == robot)
    page = tmp_path / 'page.html'
    assert write_page(entry.path, page, entry.env).returncode in (0, 1)
    browser.open(page)
    names: list[str] = browser.evaluate('sdfReport.joints')
    sliders = browser.evaluate('Array.from(document.querySelectorAll("#sliders input")).map('
                               'i => [Number(i.dataset.joint), Number(i.min), Number(i.max)])')
    assert sliders, 'no joint sliders'
    for n, (k, lo, hi) in enumerate(sliders):
        browser.evaluate(f'sdfReport.setJoint({k}, 0, {_pick(lo, hi, n)!r})')
    # Every joint's value as the page holds it: mimic joints follow their leader there
    # (pybullet ignores <mimic>, so it is given their values).
    values: list[list[float]] = browser.evaluate('sdfReport.q')
    q = {name.split('::')[-1]: v[0] for name, v in zip(names, values, strict=True) if v}
    links: list[str] = browser.evaluate('sdfReport.links')
    drawn = browser.evaluate('sdfReport.groups.map(g => { g.updateMatrixWorld(true);'
                             ' return g.matrixWorld.elements; })')
    expected = _pybullet_frames(entry.path, q)
    compared = 0
    for name, elements in zip(links, drawn, strict=True):
        ref = expected.get(name.split('::')[-1])
        if ref is None:
            continue
        ours = Y_UP_TO_Z_UP @ np.array(elements).reshape(4, 4).T  # three.js is column-major
        assert np.allclose(ours, ref, atol=TOL, rtol=0), f'{name}:\n{ours}\n!=\n{ref}'
        compared += 1
    assert compared == len(expected)


GRIPPER = """<?xml version="1.0"?>
<robot name="g">
  <link name="palm"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><box size="0.1 0.1 0.02"/></geometry></visual></link>
  <link name="left"><inertial><mass value="0.1"/><inertia ixx="1e-4" iyy="1e-4" izz="1e-4" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><box size="0.01 0.01 0.05"/></geometry></visual></link>
  <link name="right"><inertial><mass value="0.1"/><inertia ixx="1e-4" iyy="1e-4" izz="1e-4" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><box size="0.01 0.01 0.05"/></geometry></visual></link>
  <joint name="left_joint" type="prismatic"><parent link="palm"/><child link="left"/>
    <origin xyz="0 0.02 0.03"/><axis xyz="0 1 0"/><limit lower="0" upper="0.04" effort="10" velocity="1"/></joint>
  <joint name="right_joint" type="prismatic"><parent link="palm"/><child link="right"/>
    <origin xyz="0 -0.02 0.03"/><axis xyz="0 1 0"/><limit lower="-0.04" upper="0" effort="10" velocity="1"/>
    <mimic joint="left_joint" multiplier="-1" offset="0"/></joint>
</robot>
"""


def test_mimic_joint_follows_its_leader(browser: Browser, tmp_path: Path) -> None:
    urdf = tmp_path / 'gripper.urdf'
    urdf.write_text(GRIPPER)
    page = tmp_path / 'gripper.html'
    assert write_page(urdf, page, {}).returncode == 0
    browser.open(page)
    assert browser.evaluate('Array.from(document.querySelectorAll("#sliders span"))'
                            '.map(s => s.textContent)') == ['g::left_joint']
    browser.evaluate('sdfReport.setJoint(sdfReport.joints.indexOf("g::left_joint"), 0, 0.03)')
    links: list[str] = browser.evaluate('sdfReport.links')
    drawn = browser.evaluate('sdfReport.groups.map(g => { g.updateMatrixWorld(true);'
                             ' return g.matrixWorld.elements; })')
    where = {n: (Y_UP_TO_Z_UP @ np.array(e).reshape(4, 4).T)[:3, 3] for n, e in zip(links, drawn, strict=True)}
    # three.js keeps its matrices in doubles; the page rounds its numbers to 1e-9
    assert where['g::left'] == pytest.approx([0, 0.05, 0.03], abs=1e-9)
    assert where['g::right'] == pytest.approx([0, -0.05, 0.03], abs=1e-9)
