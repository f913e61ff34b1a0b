"""``--joint-positions``: NAME=VALUE lists and YAML/JSON files, every bad item named."""
from __future__ import annotations

from pathlib import Path

from sdf_tools.cli import main
from sdf_tools.convert.joint_positions import initial_values, parse_joint_positions
from sdf_tools.model import Joint, JointAxis

ARM = Path(__file__).resolve().parents[1] / 'data' / 'sim' / 'sensor_arm.sdf'


def test_name_value_lists_parse() -> None:
    assert parse_joint_positions('a=0.5, arm::b=-1e-3') == ({'a': 0.5, 'arm::b': -1e-3}, [])


def test_a_ros_parameter_file_nests_them(tmp_path: Path) -> None:
    f = tmp_path / 'home.yaml'
    f.write_text('initial_positions:\n  shoulder: 0.3\n  slide: 0.02\n')
    assert parse_joint_positions(str(f)) == ({'shoulder': 0.3, 'slide': 0.02}, [])


def test_bad_items_are_named(tmp_path: Path) -> None:
    assert 'is not NAME=VALUE' in parse_joint_positions('a=1,b')[1][0]
    assert 'joint [a]: position [x]' in parse_joint_positions('a=x')[1][0]
    assert 'cannot read' in parse_joint_positions(str(tmp_path / 'none.yaml'))[1][0]
    bad = tmp_path / 'bad.yaml'
    bad.write_text('[1, 2')
    assert 'not valid YAML' in parse_joint_positions(str(bad))[1][0]


def test_a_value_given_overrides_the_file_and_the_file_name_counts() -> None:
    j = Joint('LF_HAA_joint', 'revolute', axis=JointAxis(initial_position=0.2),
              file_name='LF_HAA')
    assert initial_values('LF_HAA_joint', j, {}) == (0.2, 0.0)
    assert initial_values('LF_HAA_joint', j, {'LF_HAA': -0.1}) == (-0.1, 0.0)


def test_convert_refuses_unknown_joints_and_bad_lists(tmp_path: Path,
                                                      capsys: object) -> None:
    out = tmp_path / 'arm.mjcf'
    assert main(['convert', str(ARM), '-o', str(out), '--joint-positions', 'elbow=1']) == 1
    assert main(['convert', str(ARM), '-o', str(out), '--joint-positions', 'slide']) == 2
    assert not out.exists()
