"""Real robots shipped as MJCF, judged by MuJoCo: written with their assets, moved to another folder,
compiled, ``mj_kinematics``, 2,000 steps under gravity without a warning; and URDF -> MJCF -> URDF
keeps every link and joint name.

A representative few of example-robot-data and pybullet_data (the registry packages the corpus
reads, :mod:`differential.corpus`), each chosen for what stopped users: ANYmal C's joints named
like links, B1's 1e-6 kg base, TIAGo's 1,676 excluded pairs, folded sensor frames (UR5, Panda),
meshes converted from Collada (Solo), a closed-loop-free quadruped with tiny links (Minitaur).
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import mujoco
import numpy as np
import pytest
from differential.corpus import RobotFile, corpus_id

from convert.sdf.to_sdf_compare import environment
from convert.ship_sample import picked
from sdf_tools.convert.api import convert_file
from sdf_tools.convert.options import ConversionOptions

STEPS = 2000
PICKED = picked()


def _names(urdf: Path) -> tuple[set[str], set[str]]:
    text = urdf.read_text()
    return (set(re.findall(r'<link\s+name="([^"]+)"', text)),
            set(re.findall(r'<joint\s+name="([^"]+)"', text)))


@pytest.mark.parametrize('robot', PICKED, ids=corpus_id)
def test_shipped_mjcf_moves_and_simulates(robot: RobotFile, tmp_path: Path) -> None:
    out = tmp_path / 'made' / 'robot.xml'
    out.parent.mkdir()
    with environment(robot.env):
        result = convert_file(robot.path, to='mjcf', output_path=out, options=ConversionOptions())
    assert result.ok, [str(d) for d in result.report.errors]
    moved = tmp_path / 'elsewhere'
    shutil.move(str(out.parent), str(moved))
    m = mujoco.MjModel.from_xml_path(str(moved / 'robot.xml'))  # no path outside the folder
    assert all(not Path(f).is_absolute() for f in re.findall(r'file="([^"]+)"',
                                                              (moved / 'robot.xml').read_text()))
    d = mujoco.MjData(m)
    mujoco.mj_kinematics(m, d)
    mujoco.mj_step(m, d, STEPS)
    warned = {mujoco.mjtWarning(k).name: d.warning[k].number for k in range(len(d.warning))
              if d.warning[k].number}
    assert not warned
    assert np.isfinite(d.qpos).all() and d.time == pytest.approx(STEPS * m.opt.timestep)


@pytest.mark.parametrize('robot', PICKED, ids=corpus_id)
def test_urdf_round_trip_through_mjcf_keeps_every_name(robot: RobotFile, tmp_path: Path) -> None:
    mjcf, back = tmp_path / 'robot.xml', tmp_path / 'back.urdf'
    with environment(robot.env):
        assert convert_file(robot.path, to='mjcf', output_path=mjcf,
                            options=ConversionOptions()).ok
    assert convert_file(mjcf, to='urdf', output_path=back, options=ConversionOptions(),
                        input_format='mjcf').ok
    links, joints = _names(robot.path)
    got_links, got_joints = _names(back)
    assert links <= got_links and joints <= got_joints
    # No made-up name stands in for one the file had (sensor sites, written by the sensor
    # export, may come back as frames of their own).
    assert not [n for n in got_joints - joints if n.endswith('__fixed')]
