"""The spec check of what a URDF's <gazebo> blocks copy (urdf/gazebo_blobs.py)."""
from __future__ import annotations

from pathlib import Path

import sdf_tools.sdf.spec as spec
from sdf_tools.errors import ErrorCode
from sdf_tools.load import load_file

ROBOT = '''<robot name="r">
  <link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <gazebo reference="a"><mu1>0.5</mu1><material>Gazebo/Grey</material>{blob}</gazebo>
</robot>
'''


def _load(tmp_path: Path, blob: str) -> tuple[list[ErrorCode], int]:
    path = tmp_path / 'robot.urdf'
    path.write_text(ROBOT.format(blob=blob))
    spec._spec.cache_clear()
    result = load_file(path)
    return [d.code for d in result.errors], spec._spec.cache_info().currsize


def test_blocks_holding_only_what_libsdformat_reads_build_no_spec_table(tmp_path: Path) -> None:
    """The 1.9 table (~6 ms to build) was built for every URDF, a description publisher's
    start included, though only a copied child is checked against it."""
    assert _load(tmp_path, '') == ([], 0)


def test_a_copied_child_is_still_checked_against_the_spec(tmp_path: Path) -> None:
    assert _load(tmp_path, '<self_collide>maybe</self_collide>') == ([ErrorCode.ELEMENT_INVALID], 1)
