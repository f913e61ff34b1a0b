"""Frame semantics: poses resolved against values computed by hand with scipy."""
from __future__ import annotations

import math

import numpy as np
from scipy.spatial.transform import Rotation

from sdf_tools.load import load_file
from sdf_tools.resolved import inspect_json


def _mat(xyz, rpy) -> np.ndarray:  # type: ignore[no-untyped-def]
    m = np.eye(4)
    m[:3, :3] = Rotation.from_euler('xyz', rpy).as_matrix()
    m[:3, 3] = xyz
    return m


def _pose_mat(p: dict) -> np.ndarray:  # type: ignore[type-arg]
    m = np.eye(4)
    m[:3, :3] = Rotation.from_quat(p['quat_xyzw']).as_matrix()
    m[:3, 3] = p['xyz']
    return m


def _by_name(items: list[dict]) -> dict[str, dict]:  # type: ignore[type-arg]
    return {i['name']: i for i in items}


def test_link_defaults_to_model_frame_and_joint_to_child_link(write_sdf):  # type: ignore[no-untyped-def]
    f = write_sdf('''<model name="m"><pose>1 0 0 0 0 0.5</pose>
      <link name="a"><pose>0 1 0 0 0 0</pose></link>
      <link name="b"><pose>0 0 1 0.3 0 0</pose></link>
      <joint name="j" type="revolute"><pose>0 0 0.5 0 0 0</pose><parent>a</parent><child>b</child>
        <axis><xyz>1 0 0</xyz></axis></joint></model>''')
    out = inspect_json(load_file(str(f)))
    assert out['valid'], out['errors']
    x_wm = _mat([1, 0, 0], [0, 0, 0.5])
    links, joints = _by_name(out['links']), _by_name(out['joints'])
    np.testing.assert_allclose(_pose_mat(links['m::a']['pose']), x_wm @ _mat([0, 1, 0], [0, 0, 0]), atol=1e-12)
    x_wb = x_wm @ _mat([0, 0, 1], [0.3, 0, 0])
    np.testing.assert_allclose(_pose_mat(links['m::b']['pose']), x_wb, atol=1e-12)
    x_wj = x_wb @ _mat([0, 0, 0.5], [0, 0, 0])
    np.testing.assert_allclose(_pose_mat(joints['m::j']['pose']), x_wj, atol=1e-12)
    np.testing.assert_allclose(joints['m::j']['axis'], x_wj[:3, :3] @ [1, 0, 0], atol=1e-12)
    assert joints['m::j']['parent'] == 'm::a' and joints['m::j']['child'] == 'm::b'


def test_relative_to_chain_through_frames_and_nested_models(write_sdf):  # type: ignore[no-untyped-def]
    f = write_sdf('''<model name="m">
      <link name="base"/>
      <frame name="f1" attached_to="base"><pose degrees="true">1 0 0 0 0 90</pose></frame>
      <frame name="f2"><pose relative_to="f1" rotation_format="quat_xyzw">0 2 0 0 0.7071067811865476 0 0.7071067811865476</pose></frame>
      <model name="inner"><pose relative_to="f2">0 0 3 0 0 0</pose>
        <link name="l"/><frame name="tip"><pose relative_to="l">1 1 1 0 0 0</pose></frame></model>
    </model>''')
    out = inspect_json(load_file(str(f)))
    assert out['valid'], out['errors']
    x_f1 = _mat([1, 0, 0], [0, 0, math.pi / 2])
    rot_y90 = np.eye(4)
    rot_y90[:3, :3] = Rotation.from_quat([0, 0.7071067811865476, 0, 0.7071067811865476]).as_matrix()
    rot_y90[:3, 3] = [0, 2, 0]
    x_f2 = x_f1 @ rot_y90
    x_inner = x_f2 @ _mat([0, 0, 3], [0, 0, 0])
    frames, models = _by_name(out['frames']), _by_name(out['models'])
    np.testing.assert_allclose(_pose_mat(frames['m::f2']['pose']), x_f2, atol=1e-12)
    np.testing.assert_allclose(_pose_mat(models['m::inner']['pose']), x_inner, atol=1e-12)
    np.testing.assert_allclose(_pose_mat(frames['m::inner::tip']['pose']),
                               x_inner @ _mat([1, 1, 1], [0, 0, 0]), atol=1e-12)
    # f2 has no attached_to: it is attached to the model frame, hence to the
    # canonical link.
    assert frames['m::f2']['attached_to'] == 'm::base'
    assert frames['m::inner::tip']['attached_to'] == 'm::inner::l'


def test_placement_frame_places_named_frame_at_model_pose(write_sdf):  # type: ignore[no-untyped-def]
    f = write_sdf('''<world name="w"><model name="m" placement_frame="p">
      <pose>5 0 0 0 0 0</pose>
      <link name="a"><pose>0 0 2 0 0 0</pose></link>
      <frame name="p" attached_to="a"><pose>0 0 -0.5 0 0 1.0</pose></frame></model></world>''')
    out = inspect_json(load_file(str(f)))
    assert out['valid'], out['errors']
    frames = _by_name(out['frames'])
    np.testing.assert_allclose(_pose_mat(frames['m::p']['pose']), _mat([5, 0, 0], [0, 0, 0]), atol=1e-12)
    x_mp = _mat([0, 0, 2], [0, 0, 0]) @ _mat([0, 0, -0.5], [0, 0, 1.0])
    x_wm = _mat([5, 0, 0], [0, 0, 0]) @ np.linalg.inv(x_mp)
    np.testing.assert_allclose(_pose_mat(_by_name(out['models'])['m']['pose']), x_wm, atol=1e-12)


def test_pre_1_7_use_parent_model_frame_expresses_axis_in_model_frame(write_sdf):  # type: ignore[no-untyped-def]
    f = write_sdf('''<model name="m"><pose>0 0 0 0 0 1.5707963267948966</pose>
      <link name="a"/><link name="b"><pose>0 0 1 0 0 0.5</pose></link>
      <joint name="j" type="revolute"><parent>a</parent><child>b</child>
        <axis><xyz>1 0 0</xyz><use_parent_model_frame>true</use_parent_model_frame></axis></joint>
    </model>''', version='1.6')
    out = inspect_json(load_file(str(f)))
    assert out['valid'], out['errors']
    np.testing.assert_allclose(out['joints'][0]['axis'], [0, 1, 0], atol=1e-12)


def test_sdf_1_4_axes_default_to_model_frame(write_sdf):  # type: ignore[no-untyped-def]
    f = write_sdf('''<model name="m"><link name="a"/><link name="b"><pose>0 0 1 0 0 1.5707963267948966</pose></link>
      <joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz>1 0 0</xyz></axis></joint>
    </model>''', version='1.4')
    out = inspect_json(load_file(str(f)))
    np.testing.assert_allclose(out['joints'][0]['axis'], [1, 0, 0], atol=1e-12)
