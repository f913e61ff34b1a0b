"""The frames libsdformat 13.1+ leaves for lumped URDF joints and links (gazebosim/sdformat#1148).

``parser_urdf.cc`` ``ReduceFixedJoints`` (13.1 on; the same in 14.9, 15.4 and 16.1) adds,
for each fixed joint it lumps and in the order it lumps them, ``<frame name=JOINT
attached_to=PARENT>`` at the joint's origin and ``<frame name=CHILD attached_to=JOINT/>``.
The expected frames here follow from that code and the URDF's numbers (scipy), not from our
output; Fortress (12.3, no such frames) is judged by the probe in
``differential/test_libsdformat_urdf_rules.py``.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from lxml import etree
from scipy.spatial.transform import Rotation

from sdf_tools.convert.api import convert_loaded
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file
from sdf_tools.resolved import inspect_json, resolve
from sdf_tools.ros.tf_tree import build_tf_tree

DATA = Path(__file__).resolve().parents[1] / 'data' / 'urdf_rules'
NEWER = ('harmonic', 'ionic', 'jetty')


def _origins(path: Path) -> dict[str, np.ndarray]:
    """Each joint's ``<origin>`` as a 4x4 matrix (URDF rpy: fixed axes x, y, z)."""
    out = {}
    for j in etree.parse(str(path)).getroot().iter('joint'):
        o = j.find('origin')
        xyz = [float(v) for v in (o.get('xyz') or '0 0 0').split()]
        rpy = [float(v) for v in (o.get('rpy') or '0 0 0').split()]
        m = np.eye(4)
        m[:3, :3] = Rotation.from_euler('xyz', rpy).as_matrix()
        m[:3, 3] = xyz
        out[j.get('name', '')] = m
    return out


def _matrix(pose: dict) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = Rotation.from_quat(pose['quat_xyzw']).as_matrix()
    m[:3, 3] = pose['xyz']
    return m


@pytest.mark.parametrize('gazebo', NEWER)
def test_lumped_joints_and_links_are_frames_where_libsdformat_puts_them(gazebo: str) -> None:
    path = DATA / 'lumped_frames.urdf'
    ours = inspect_json(load_file(path, gazebo=gazebo), str(path))
    assert ours['valid'], ours['errors']
    # ReduceFixedJoints from [base]: its fixed child [sensor] first, then down [arm_joint]:
    # [tool]'s fixed child [tip] before [tool] itself; each joint's frame before its link's.
    order = ['sensor_joint', 'sensor', 'tip_joint', 'tip', 'tool_joint', 'tool']
    assert [f['name'] for f in ours['frames']] == [f'lf::{n}' for n in order]
    # Each chain ends at the link it was lumped into.
    body = {'sensor_joint': 'base', 'sensor': 'base', 'tip_joint': 'arm', 'tip': 'arm',
            'tool_joint': 'arm', 'tool': 'arm'}
    assert {f['name']: f['attached_to'] for f in ours['frames']} == {
        f'lf::{n}': f'lf::{b}' for n, b in body.items()}
    # A joint's frame is at its origin in its parent link; its link's at the same place.
    x = _origins(path)
    at = {'sensor_joint': x['sensor_joint'], 'tool_joint': x['arm_joint'] @ x['tool_joint'],
          'tip_joint': x['arm_joint'] @ x['tool_joint'] @ x['tip_joint']}
    at.update(sensor=at['sensor_joint'], tool=at['tool_joint'], tip=at['tip_joint'])
    for f in ours['frames']:
        np.testing.assert_allclose(_matrix(f['pose']), at[f['name'][4:]], rtol=0, atol=1e-9)


def test_fortress_lists_no_lumped_frames() -> None:
    path = DATA / 'lumped_frames.urdf'
    assert inspect_json(load_file(path, gazebo='fortress'), str(path))['frames'] == []


@pytest.mark.parametrize('gazebo', NEWER)
def test_lumped_frame_on_a_link_libsdformat_leaves_out_is_refused(gazebo: str) -> None:
    # [arm] has no mass, even with [tip] lumped in: libsdformat does not write it, and the
    # frame of [tip_joint] is attached to nothing (14.9: FRAME_ATTACHED_TO_INVALID).
    path = DATA / 'lumped_frames_massless_parent.urdf'
    ours = inspect_json(load_file(path, gazebo=gazebo), str(path))
    assert [(e['code'], e['line']) for e in ours['errors']] == [('FRAME_ATTACHED_TO_INVALID', 14)]
    assert 'name[arm]' in ours['errors'][0]['message']
    assert [(f['name'], f['attached_to'], f['pose']) for f in ours['frames']] == [
        ('r::tip_joint', None, None), ('r::tip', None, None)]
    # Giving [arm] a mass (the default conversion) repairs it.
    converted = convert_loaded(load_file(path, gazebo=gazebo), to='sdf',
                               options=ConversionOptions())
    assert converted.ok and converted.text is not None


@pytest.mark.parametrize('gazebo', NEWER)
def test_tf_and_writers_keep_one_frame_per_lumped_link(gazebo: str) -> None:
    loaded = load_file(DATA / 'lumped_frames.urdf', gazebo=gazebo)
    # TF as robot_state_publisher: every link but the root, no joint frame.
    resolved = resolve(loaded)
    tf = build_tf_tree(resolved)
    assert set(tf.parents()) == {'sensor', 'arm', 'tool', 'tip'}, tf.parents()
    # A writer that flattens the resolved description writes each lumped link once.
    urdf = convert_loaded(loaded, to='urdf', options=ConversionOptions(), resolved=resolved)
    assert urdf.ok and urdf.text is not None
    root = etree.fromstring(urdf.text.encode())
    assert sorted(lk.get('name') for lk in root.iter('link')) == [
        'arm', 'base', 'sensor', 'tip', 'tool']
    assert not [e for e in urdf.report.entries if e.kind.value == 'renamed'], urdf.report.entries
