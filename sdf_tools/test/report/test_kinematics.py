"""What the page's script moves: joints ordered parents first, everything placed in its link."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from sdf_tools.report import build_report

Writer = Callable[..., Path]
INERTIAL = ('<inertial><pose>0.1 0 0 0 0 0.5</pose><mass>2</mass><inertia><ixx>0.02</ixx><iyy>0.03</iyy>'
            '<izz>0.04</izz></inertia></inertial>')


def _chain(write_sdf: Writer) -> Path:
    links = ''.join(f'<link name="l{i}"><pose relative_to="j{i}"/>{INERTIAL}</link>' if i else
                    f'<link name="l0">{INERTIAL}</link>' for i in range(3))
    joints = ''.join(f'<joint name="j{i}" type="revolute"><pose relative_to="l{i - 1}">0 0 1 0.3 0 0</pose>'
                     f'<parent>l{i - 1}</parent><child>l{i}</child><axis><xyz>0 1 0</xyz>'
                     '<limit><lower>-1</lower><upper>2</upper></limit></axis></joint>'
                     for i in (2, 1))  # written child-first: the order must not matter
    return write_sdf(f'<model name="m"><pose>1 2 3 0 0 0</pose>{links}{joints}'
                     '<frame name="tip" attached_to="l2"><pose relative_to="l2">0 0 0.5 0 0 0</pose></frame>'
                     '</model>')


def test_joints_ordered_parents_first_with_limits(write_sdf: Writer) -> None:
    kin = build_report(str(_chain(write_sdf))).kin
    assert kin is not None
    names = [j['name'] for j in kin['joints']]
    assert [names[k] for k in kin['order']] == ['m::j1', 'm::j2']
    j1 = kin['joints'][names.index('m::j1')]
    assert (j1['parent'], j1['child'], j1['dofs']) == (0, 1, 1)
    assert j1['axes'][0]['lower'] == -1 and j1['axes'][0]['upper'] == 2
    assert j1['local'] == pytest.approx([0, 0, 0, 0, 0, 0, 1])  # the child link sits at its joint


def test_inertial_and_frames_in_the_link_frame(write_sdf: Writer) -> None:
    kin = build_report(str(_chain(write_sdf))).kin
    assert kin is not None
    com = kin['links'][2]['inertial']['com']
    assert com[:3] == pytest.approx([0.1, 0, 0], abs=1e-9)
    assert [f['name'] for f in kin['frames']] == ['m::tip']
    assert kin['frames'][0]['link'] == 2 and kin['frames'][0]['local'][:3] == pytest.approx([0, 0, 0.5])
    box = kin['links'][0]['inertial']['box']
    sides = np.array(box['size'])
    # The uniform box with moments 0.02, 0.03, 0.04 and mass 2: a^2 = 6 (I2 + I3 - I1) / m ...
    assert sorted(sides ** 2) == pytest.approx(sorted([6 * 0.05 / 2, 6 * 0.03 / 2, 6 * 0.01 / 2]))
