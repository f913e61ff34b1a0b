"""The tf2_msgs in use has the type hashes of real ROS 2 (Humble+ type descriptions)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

# RIHS01 hashes of the upstream definitions (as `ros2 topic info --verbose` prints them on a ROS 2
# installation), per distro; ./dev builds tf2_msgs from those definitions when it is not installed.
# TFMessage and its dependencies (geometry_msgs, std_msgs, builtin_interfaces) did not change from
# Jazzy to Kilted, so neither did the hashes: a node of one distro talks to a node of the other.
_SAME = {
    'TFMessage': 'RIHS01_e369d0f05a23ae52508854b66f6aa0437f3449d652e8cbf22d5abe85d020f087',
    'TF2Error': 'RIHS01_db2485e7d6a0ec75bf087e058ee45df682acc3a621ca7780503d10aac141809a',
}
GOLDEN_BY_DISTRO = {'jazzy': _SAME, 'kilted': _SAME}
GOLDEN = GOLDEN_BY_DISTRO[os.environ.get('ROS_DISTRO', 'kilted')]


def _type_description(name: str) -> Path | None:
    for prefix in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep):
        path = Path(prefix) / 'share' / 'tf2_msgs' / 'msg' / f'{name}.json'
        if prefix and path.is_file():
            return path
    return None


@pytest.mark.parametrize('name', sorted(GOLDEN))
def test_tf2_msgs_type_hash_matches_ros(name: str) -> None:
    pytest.importorskip('tf2_msgs.msg', reason='tf2_msgs is not installed; run the tests with ./dev test')
    path = _type_description(name)
    if path is None:
        pytest.skip('no tf2_msgs type description on AMENT_PREFIX_PATH')
    hashes = json.loads(path.read_text())['type_hashes']
    assert hashes[0] == {'type_name': f'tf2_msgs/msg/{name}', 'hash_string': GOLDEN[name]}


def test_the_fallback_build_never_enters_a_colcon_crawl() -> None:
    root = Path(__file__).resolve().parents[3]
    extra = root / '.cache' / 'ros_extra'
    if not (extra / 'src' / 'tf2_msgs').is_dir():
        pytest.skip('the tf2_msgs fallback is not built here')
    assert (extra / 'COLCON_IGNORE').is_file()
