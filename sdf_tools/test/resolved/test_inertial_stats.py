"""``inspect --inertial-stats`` (gz sdf --inertial-stats), for models and worlds."""
from __future__ import annotations

import io

import numpy as np
import pytest

from sdf_tools.load import load_string
from sdf_tools.resolved import resolve
from sdf_tools.resolved.inertial_stats import model_inertias, print_inertial_stats

TWO = """<sdf version="1.9"><model name="m"><pose>5 0 0 0 0 1.2</pose>
<link name="a"><pose>-1 0 0 0 0 0</pose><inertial><mass>2</mass>
<inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial></link>
<link name="b"><pose>1 0 0 0 0 0</pose><inertial><mass>2</mass>
<inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial></link>
<model name="inner"><link name="c"><inertial><mass>100</mass></inertial></link></model>
</model></sdf>"""


def test_two_links_sum_in_the_model_frame_without_nested_models() -> None:
    (mi,) = model_inertias(resolve(load_string(TWO)))
    assert mi.mass == pytest.approx(4.0) and mi.has_nested
    assert mi.com == pytest.approx((0.0, 0.0, 0.0), abs=1e-12)
    assert np.allclose(mi.inertia, np.diag([2.0, 2.0 + 4.0, 2.0 + 4.0]))


def test_world_models_each_get_a_block() -> None:
    world = TWO.replace('<sdf version="1.9">', '<sdf version="1.9"><world name="w">').replace(
        '</model></sdf>', '</model><model name="n"><link name="d"/></model></world></sdf>')
    out = io.StringIO()
    print_inertial_stats(resolve(load_string(world)), out)
    text = out.getvalue()
    assert 'Inertial statistics for model: m' in text and 'Inertial statistics for model: n' in text
    assert 'Total mass of the model: 4\n' in text and 'Total mass of the model: 1\n' in text
    assert text.count('Warning: Inertial properties of links in nested models') == 1
