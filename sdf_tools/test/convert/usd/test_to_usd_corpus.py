"""Real robots (pybullet_data, example-robot-data, gym-ignition-models, dart-doc) -> USD, judged by usd-core.

Every other package or folder, one robot each (:mod:`convert.usd.corpus_sample`): each exported stage
opens in usd-core, ``LoadUsdPhysicsFromRange`` finds every moving link as a rigid body and
every joint, at our resolved poses (1e-9), with our joint anchors, axes and mass
properties (float precision: the schema stores floats).
"""
from __future__ import annotations

from pathlib import Path

import pytest
from differential.corpus import RobotFile, corpus_id

from convert.sdf.to_sdf_compare import environment
from convert.usd.corpus_sample import sample
from convert.usd.usd_judge import judge
from sdf_tools.convert.api import convert_loaded, write_result
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file

# About half the groups keeps this under a minute and a half on two cores; SDF_TOOLS_CORPUS_ALL=1
# takes every readable file.
SAMPLE = sample(40)


@pytest.mark.parametrize('entry', SAMPLE, ids=[corpus_id(e) for e in SAMPLE])
def test_real_robot_stage_parses_where_our_graphs_put_it(entry: RobotFile, tmp_path: Path) -> None:
    with environment(entry.env):
        loaded = load_file(entry.path)
        result = convert_loaded(loaded, to='usd', options=ConversionOptions())
        assert result.ok, [str(d) for d in result.report.errors]
        out = tmp_path / 'robot.usdc'
        write_result(out, result)
        assert judge(out, loaded) == []
