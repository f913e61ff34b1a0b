"""SDFormat 1.10/1.11 models judged by Drake's embedded (newer) libsdformat.

libsdformat 12 cannot read 1.10+ files, so these features are compared with Drake:
verdicts where Drake accepts or refuses for the same reason as libsdformat, and every
link's world pose at default positions (1e-9) where it accepts the file. Where Drake's
plant is stricter than libsdformat, the test says so (``MISMATCHES.md``, "Drake").
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from support.drake import DrakeRefusedError, drake_load, require_drake

from differential.reference import ours_report

DATA = Path(__file__).resolve().parents[1] / 'data' / 'sdf_newer'
TOL = 1e-9
# Drake embeds a libsdformat that reads SDFormat 1.12: the Jetty target.
DRAKE_TARGET = 'jetty'

# joint_child_model_frame_1_10: libsdformat 12.9+ read a child __model__ as the canonical link
ACCEPTED = ['world_joint_fixed.sdf', 'nested_1_11.sdf', 'joint_child_model_frame_1_10.sdf']
# Our own 1.9 models whose elements mean the same in 1.11, declared 1.11.
OWN_1_9 = DATA.parent / 'sdf'
AS_1_11 = ['geometry_all.sdf', 'sensors_plugins.sdf', 'static_no_links.sdf', 'v1_7_nested.sdf']


@pytest.fixture(autouse=True)
def _drake() -> None:
    require_drake()


def _pose_diffs(ours: dict[str, Any], drake_poses: dict[str, tuple[list[float], list[float]]],
                ) -> list[str]:
    links = {link['name']: link['pose'] for link in ours['links']}
    diffs = [f'{name}: in Drake, not in ours' for name in drake_poses.keys() - links.keys()]
    diffs += [f'{name}: in ours, not in Drake' for name in links.keys() - drake_poses.keys()]
    for name in drake_poses.keys() & links.keys():
        xyz, quat = drake_poses[name]
        oxyz, oquat = links[name]['xyz'], links[name]['quat_xyzw']
        dx = max(abs(a - b) for a, b in zip(xyz, oxyz, strict=True))
        dq = min(max(abs(a - b) for a, b in zip(quat, oquat, strict=True)),
                 max(abs(a + b) for a, b in zip(quat, oquat, strict=True)))
        if dx > TOL or dq > TOL:
            diffs.append(f'{name}: ours {oxyz} {oquat}, Drake {xyz} {quat}')
    return diffs


def _merge_world(tmp_path: Path) -> Path:
    """The merge-include world, with the include's URI absolute (Drake reads no SDF_PATH)."""
    text = (DATA / 'world_merge_include.sdf').read_text()
    text = text.replace('<uri>models/two_arms</uri>',
                        f'<uri>{DATA / "models" / "two_arms"}</uri>')
    path = tmp_path / 'world_merge_include.sdf'
    path.write_text(text)
    return path


@pytest.mark.parametrize('name', ACCEPTED)
def test_newer_model_poses_match_drake(name: str) -> None:
    path = DATA / name
    ours = ours_report(path, gazebo=DRAKE_TARGET)
    assert ours['valid'], ours['errors']
    diffs = _pose_diffs(ours, drake_load(path).poses)
    assert not diffs, '\n'.join(diffs)


def _as_1_11(name: str, tmp_path: Path) -> Path:
    text = (OWN_1_9 / name).read_text()
    path = tmp_path / name
    path.write_text(re.sub(r'<sdf version=["\']1\.\d+["\']', '<sdf version="1.11"', text, count=1))
    return path


@pytest.mark.parametrize('name', AS_1_11)
def test_own_model_read_as_1_11_matches_drake(name: str, tmp_path: Path) -> None:
    path = _as_1_11(name, tmp_path)
    ours = ours_report(path, gazebo=DRAKE_TARGET)
    assert ours['valid'], ours['errors']
    assert ours['version'] == '1.11'
    diffs = _pose_diffs(ours, drake_load(path).poses)
    assert not diffs, '\n'.join(diffs)


def test_drake_refuses_non_orthogonal_universal_axes_libsdformat_accepts(tmp_path: Path) -> None:
    """Drake's universal joint needs orthogonal axes; libsdformat (and we) take any two."""
    path = _as_1_11('joints_all.sdf', tmp_path)
    assert ours_report(path, gazebo=DRAKE_TARGET)['valid']
    with pytest.raises(DrakeRefusedError, match='axis and axis2 must be orthogonal'):
        drake_load(path)


def test_world_joint_is_in_both_graphs() -> None:
    ours = ours_report(DATA / 'world_joint_fixed.sdf', gazebo=DRAKE_TARGET)
    (joint,) = ours['joints']
    assert (joint['name'], joint['parent'], joint['child']) == ('weld', 'a::l', 'b::l')
    (tip,) = ours['frames']
    assert tip['attached_to'] == 'b::l'  # tip -> weld -> b::l (attached-to graph)
    assert tip['pose']['xyz'][2] > 2.9  # placed through the joint (pose graph)
    drake_joints = drake_load(DATA / 'world_joint_fixed.sdf').joint_types
    assert [t for n, t in drake_joints.items() if n.endswith('::weld')] == ['weld'], drake_joints


def test_merge_include_into_world_matches_drake(tmp_path: Path) -> None:
    path = _merge_world(tmp_path)
    ours = ours_report(path, gazebo=DRAKE_TARGET)
    assert ours['valid'], ours['errors']
    names = {f['name'] for f in ours['frames']}
    assert '_merged__two_arms__model__' in names
    diffs = _pose_diffs(ours, drake_load(path).poses)
    assert not diffs, '\n'.join(diffs)


@pytest.mark.parametrize('name, code, line', [
    ('world_joint_bad_child.sdf', 'JOINT_CHILD_LINK_INVALID', 7),
    ('world_joint_same.sdf', 'JOINT_PARENT_SAME_AS_CHILD', 8),
    ('world_joint_axis_frame.sdf', 'JOINT_AXIS_EXPRESSED_IN_INVALID', 12),
])
def test_bad_world_joint_refused_by_both(name: str, code: str, line: int) -> None:
    path = DATA / name
    ours = ours_report(path, gazebo=DRAKE_TARGET)
    assert (code, line) in {(e['code'], e['line']) for e in ours['errors']}, ours['errors']
    with pytest.raises(DrakeRefusedError):
        drake_load(path)


def test_drake_refuses_moving_world_joints_libsdformat_accepts(tmp_path: Path) -> None:
    """Drake's plant only welds at world level; libsdformat 13+ (and we) accept any type."""
    text = (DATA / 'world_joint_fixed.sdf').read_text().replace('type="fixed"', 'type="revolute"')
    text = text.replace('<child>b::l</child>', '<child>b::l</child><axis><xyz>0 0 1</xyz></axis>')
    path = tmp_path / 'world_joint_revolute.sdf'
    path.write_text(text)
    assert ours_report(path, gazebo=DRAKE_TARGET)['valid']
    with pytest.raises(DrakeRefusedError, match='Only fixed joints are permitted in world joints'):
        drake_load(path)

