"""The libsdformat 12 probe reports what libsdformat resolves, and compare() is strict.

Every expected number below was worked out by hand from the SDFormat in the test, not by
running the probe, so these tests check the probe itself (every differential test of the
project is measured against it).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from support.tools import skip_or_fail

from .libsdformat import compare, probe_available, probe_unavailable_reason, run_probe

S = math.sqrt(0.5)  # sin(45°) = cos(45°)
TOL = 1e-12


@pytest.fixture(scope='module', autouse=True)
def _require_probe() -> None:
    if not probe_available():
        skip_or_fail(f'libsdformat 12 is not usable here: {probe_unavailable_reason()}')


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text.strip() + '\n', encoding='utf-8')
    return path


def _by_name(report: Mapping[str, Any], kind: str) -> dict[str, Mapping[str, Any]]:
    return {item['name']: item for item in report[kind]}


def _assert_close(actual: Any, expected: list[float], tol: float = TOL) -> None:
    assert actual is not None
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected, strict=True):
        assert abs(a - e) <= tol, f'{actual} != {expected}'


def _assert_pose(
    pose: Mapping[str, Any] | None, xyz: list[float], quat_xyzw: list[float],
) -> None:
    assert pose is not None
    _assert_close(pose['xyz'], xyz)
    _assert_close(pose['quat_xyzw'], quat_xyzw)


IDENTITY = [0.0, 0.0, 0.0, 1.0]
YAW_90 = [0.0, 0.0, S, S]


# ---------------------------------------------------------------------------------------
# The probe against hand-computed values.

MODEL_WITH_CHAINS = """
<?xml version="1.0"?>
<sdf version="1.9">
  <model name="m">
    <pose>1 2 3 0 0 1.5707963267948966</pose>
    <link name="base"/>
    <frame name="f1" attached_to="base"><pose>1 0 0 0 0 0</pose></frame>
    <link name="l1"><pose relative_to="f1">0 1 0 0 0 0</pose></link>
    <link name="l2">
      <pose relative_to="l1">0 0 1 1.5707963267948966 0 0</pose>
      <visual name="v">
        <pose>0 0 0.5 0 0 0</pose>
        <geometry><cylinder><radius>0.25</radius><length>1</length></cylinder></geometry>
      </visual>
    </link>
    <joint name="j" type="revolute">
      <parent>l1</parent>
      <child>l2</child>
      <pose>0 1 0 0 0 0</pose>
      <axis><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>2</upper></limit></axis>
    </joint>
  </model>
</sdf>
"""


def test_probe_resolves_relative_to_chains_and_frames_of_a_lone_model(tmp_path: Path) -> None:
    report = run_probe(_write(tmp_path, 'chains.sdf', MODEL_WITH_CHAINS))
    assert report['valid'] is True, report['errors']
    assert report['format'] == 'sdf'
    assert report['version'] == '1.9'
    assert report['errors'] == []
    assert report['warnings'] == []

    # The model's own pose places it: p_world = (1, 2, 3) + Rz(90°) p_model,
    # with Rz(90°) (x, y, z) = (-y, x, z).
    (model,) = report['models']
    assert model['name'] == 'm'
    assert model['canonical_link'] == 'm::base'
    assert model['static'] is False
    _assert_pose(model['pose'], [1, 2, 3], YAW_90)

    links = _by_name(report, 'links')
    assert list(links) == ['m::base', 'm::l1', 'm::l2']
    _assert_pose(links['m::base']['pose'], [1, 2, 3], YAW_90)
    # f1 sits at (1, 0, 0) of base; l1 at (0, 1, 0) of f1 -> (1, 1, 0) in the model.
    _assert_pose(links['m::l1']['pose'], [0, 3, 3], YAW_90)
    # l2: (0, 0, 1) of l1 -> (1, 1, 1) in the model, rolled 90°:
    # q = q_yaw90 * q_roll90 = (0.5, 0.5, 0.5, 0.5).
    _assert_pose(links['m::l2']['pose'], [0, 3, 4], [0.5, 0.5, 0.5, 0.5])
    # Defaults of a link without <inertial>: mass 1, unit inertia at the link origin.
    assert links['m::l2']['mass'] == 1
    assert links['m::l2']['inertia'] == [1, 0, 0, 1, 0, 1]
    _assert_pose(links['m::l2']['inertial_pose'], [0, 3, 4], [0.5, 0.5, 0.5, 0.5])
    (visual,) = links['m::l2']['visuals']
    assert visual['name'] == 'v'
    _assert_pose(visual['pose'], [0, 0, 0.5], IDENTITY)  # in the link frame
    assert visual['geometry'] == {'type': 'cylinder', 'radius': 0.25, 'length': 1}
    assert links['m::l2']['collisions'] == []

    (frame,) = report['frames']
    assert frame['name'] == 'm::f1'
    assert frame['attached_to'] == 'm::base'
    _assert_pose(frame['pose'], [1, 3, 3], YAW_90)

    (joint,) = report['joints']
    assert joint['name'] == 'm::j'
    assert joint['type'] == 'revolute'
    assert (joint['parent'], joint['child']) == ('m::l1', 'm::l2')
    # The joint pose is relative to the child by default: (0, 1, 0) of l2, whose y axis
    # points along the model's z -> (1, 1, 2) in the model.
    _assert_pose(joint['pose'], [0, 3, 5], [0.5, 0.5, 0.5, 0.5])
    # Axis y of the joint frame: Rx(90°) y = z, then Rz(90°) z = z.
    _assert_close(joint['axis'], [0, 0, 1])
    assert joint['axis2'] is None
    assert joint['limit'] == {
        'lower': -1, 'upper': 2, 'effort': math.inf, 'velocity': math.inf,
    }  # libsdformat 12 turns the default -1 effort/velocity into +inf
    assert joint['dynamics'] == {'damping': 0, 'friction': 0}


WORLD_WITH_NESTED_MODELS = """
<?xml version="1.0"?>
<sdf version="1.8">
  <world name="w">
    <frame name="wf"><pose>0 0 1 0 0 0</pose></frame>
    <model name="outer">
      <pose relative_to="wf">1 0 0 0 0 0</pose>
      <link name="ol"><pose>0 1 0 0 0 0</pose></link>
      <model name="inner">
        <pose>0 0 2 0 0 0</pose>
        <link name="il"/>
        <frame name="inner_frame" attached_to="il"><pose>0 0 0 0 0 1.5707963267948966</pose></frame>
      </model>
      <joint name="oj" type="fixed"><parent>ol</parent><child>inner::il</child></joint>
    </model>
    <frame name="wf2" attached_to="outer::inner::il"/>
    <model name="statue">
      <static>true</static>
      <pose>5 0 0 0 0 0</pose>
      <link name="body"/>
    </model>
  </world>
</sdf>
"""


def test_probe_scopes_nested_models_and_world_frames(tmp_path: Path) -> None:
    report = run_probe(_write(tmp_path, 'world.sdf', WORLD_WITH_NESTED_MODELS))
    assert report['valid'] is True, report['errors']
    assert report['version'] == '1.8'

    models = _by_name(report, 'models')
    assert list(models) == ['outer', 'outer::inner', 'statue']
    _assert_pose(models['outer']['pose'], [1, 0, 1], IDENTITY)  # wf (0,0,1) + (1,0,0)
    _assert_pose(models['outer::inner']['pose'], [1, 0, 3], IDENTITY)
    assert models['outer']['canonical_link'] == 'outer::ol'
    assert models['outer::inner']['canonical_link'] == 'outer::inner::il'
    assert models['statue']['static'] is True
    assert models['statue']['canonical_link'] == 'statue::body'

    links = _by_name(report, 'links')
    _assert_pose(links['outer::ol']['pose'], [1, 1, 1], IDENTITY)
    _assert_pose(links['outer::inner::il']['pose'], [1, 0, 3], IDENTITY)
    _assert_pose(links['statue::body']['pose'], [5, 0, 0], IDENTITY)

    (joint,) = report['joints']
    assert joint['name'] == 'outer::oj'
    assert (joint['parent'], joint['child']) == ('outer::ol', 'outer::inner::il')
    _assert_pose(joint['pose'], [1, 0, 3], IDENTITY)
    assert joint['axis'] is None
    assert joint['limit'] is None
    assert joint['dynamics'] is None

    frames = _by_name(report, 'frames')
    assert set(frames) == {'wf', 'wf2', 'outer::inner::inner_frame'}
    assert frames['wf']['attached_to'] == 'world'
    _assert_pose(frames['wf']['pose'], [0, 0, 1], IDENTITY)
    # No relative_to: the pose is relative to the attached_to frame.
    assert frames['wf2']['attached_to'] == 'outer::inner::il'
    _assert_pose(frames['wf2']['pose'], [1, 0, 3], IDENTITY)
    assert frames['outer::inner::inner_frame']['attached_to'] == 'outer::inner::il'
    _assert_pose(frames['outer::inner::inner_frame']['pose'], [1, 0, 3], YAW_90)


DUPLICATE_LINKS = """
<?xml version="1.0"?>
<sdf version="1.9">
  <model name="m">
    <link name="a"/>
    <link name="a"/>
  </model>
</sdf>
"""


def test_probe_reports_duplicate_link_names(tmp_path: Path) -> None:
    report = run_probe(_write(tmp_path, 'dup.sdf', DUPLICATE_LINKS))
    assert report['valid'] is False
    codes = [e['code'] for e in report['errors']]
    assert codes == ['DUPLICATE_NAME']
    assert 'link with name[a] already exists' in report['errors'][0]['message']
    # Errors found on the DOM carry no file or line in libsdformat 12.
    assert report['errors'][0]['file'] is None
    assert report['errors'][0]['line'] is None


def test_probe_reports_parse_errors_with_file_and_line(tmp_path: Path) -> None:
    path = _write(tmp_path, 'top_rel.sdf', """
<?xml version="1.0"?>
<sdf version="1.9">
  <model name="m">
    <pose relative_to="a">0 0 0 0 0 0</pose>
    <link name="a"/>
  </model>
</sdf>
""")
    report = run_probe(path)
    assert report['valid'] is False
    codes = [e['code'] for e in report['errors']]
    assert codes == ['ATTRIBUTE_INVALID', 'ELEMENT_INVALID', 'FILE_READ']
    assert report['errors'][0]['line'] == 4
    assert report['errors'][0]['file'] == str(path)
    assert report['models'] == []


VERSION_1_6 = """
<?xml version="1.0"?>
<sdf version="1.6">
  <model name="m">
    <link name="a"/>
    <link name="b"><pose>0 0 0 0 1.5707963267948966 0</pose></link>
    <joint name="in_model" type="revolute">
      <parent>a</parent><child>b</child>
      <axis><xyz>1 0 0</xyz><use_parent_model_frame>true</use_parent_model_frame></axis>
    </joint>
    <joint name="in_joint" type="revolute">
      <parent>a</parent><child>b</child>
      <axis><xyz>1 0 0</xyz></axis>
    </joint>
    <frame name="f"><pose frame="b">0 0 1 0 0 0</pose></frame>
  </model>
</sdf>
"""


def test_probe_applies_use_parent_model_frame_and_pose_frame_of_1_6(tmp_path: Path) -> None:
    report = run_probe(_write(tmp_path, 'v16.sdf', VERSION_1_6))
    assert report['valid'] is True, report['errors']
    assert report['version'] == '1.6'
    joints = _by_name(report, 'joints')
    # use_parent_model_frame: xyz is in the model frame.
    _assert_close(joints['m::in_model']['axis'], [1, 0, 0])
    # Otherwise in the joint frame, here b's: Ry(90°) x = (0, 0, -1).
    _assert_close(joints['m::in_joint']['axis'], [0, 0, -1])
    # <pose frame="b"> becomes relative_to="b": Ry(90°) (0, 0, 1) = (1, 0, 0).
    (frame,) = report['frames']
    assert frame['attached_to'] == 'm::a'  # model frame -> canonical link
    _assert_pose(frame['pose'], [1, 0, 0], [0, S, 0, S])


def test_probe_adds_use_parent_model_frame_to_1_4_joints_of_top_models_only(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path, 'v14.sdf', """
<?xml version="1.0"?>
<sdf version="1.4">
  <model name="m">
    <link name="a"/>
    <link name="b"><pose>0 0 0 0 1.5707963267948966 0</pose></link>
    <joint name="top" type="revolute"><parent>a</parent><child>b</child>
      <axis><xyz>1 0 0</xyz></axis></joint>
    <model name="n">
      <link name="c"/>
      <link name="d"><pose>0 0 0 0 1.5707963267948966 0</pose></link>
      <joint name="nested" type="revolute"><parent>c</parent><child>d</child>
        <axis><xyz>1 0 0</xyz></axis></joint>
    </model>
  </model>
</sdf>
""")
    report = run_probe(path)
    assert report['valid'] is True, report['errors']
    joints = _by_name(report, 'joints')
    _assert_close(joints['m::top']['axis'], [1, 0, 0])
    _assert_close(joints['m::n::nested']['axis'], [0, 0, -1])


URDF_ARM = """
<?xml version="1.0"?>
<robot name="r">
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
  </link>
  <link name="arm">
    <inertial><mass value="1"/>
      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
  </link>
  <link name="tool">
    <inertial><mass value="0.5"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <visual><geometry><box size="0.1 0.2 0.3"/></geometry></visual>
  </link>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="arm"/>
    <origin xyz="0 0 1" rpy="0 0 1.5707963267948966"/>
    <axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="10" velocity="2"/>
  </joint>
  <joint name="j2" type="fixed">
    <parent link="arm"/><child link="tool"/><origin xyz="0 0 1"/>
  </joint>
</robot>
"""


def test_probe_loads_urdf_with_fixed_joint_lumping(tmp_path: Path) -> None:
    report = run_probe(_write(tmp_path, 'arm.urdf', URDF_ARM))
    assert report['valid'] is True, report['errors']
    assert report['format'] == 'urdf'
    assert report['version'] is None
    (model,) = report['models']
    assert model['name'] == 'r'
    assert model['canonical_link'] == 'r::base'
    links = _by_name(report, 'links')
    assert list(links) == ['r::base', 'r::arm']  # tool was lumped into arm
    _assert_pose(links['r::base']['pose'], [0, 0, 0], IDENTITY)
    # URDF poses pass through Euler angles printed with 16 digits: looser tolerance.
    pose = links['r::arm']['pose']
    _assert_close(pose['xyz'], [0, 0, 1], 1e-12)
    _assert_close(pose['quat_xyzw'], YAW_90, 1e-12)
    # Lumped: mass 1 + 0.5, centre of mass at z = 0.5 * 1 / 1.5 = 1/3 above arm;
    # ixx = 0.1 + 1 * (1/3)^2 + 0.01 + 0.5 * (2/3)^2 = 0.11 + 1/3, izz = 0.11.
    arm = links['r::arm']
    assert abs(arm['mass'] - 1.5) <= TOL
    _assert_close(arm['inertia'], [0.11 + 1 / 3, 0, 0, 0.11 + 1 / 3, 0, 0.11], 1e-12)
    _assert_close(arm['inertial_pose']['xyz'], [0, 0, 4 / 3], 1e-12)
    (visual,) = arm['visuals']
    assert visual['name'] == 'arm_fixed_joint_lump__tool_visual'
    _assert_close(visual['pose']['xyz'], [0, 0, 1], 1e-12)
    assert visual['geometry'] == {'type': 'box', 'size': [0.1, 0.2, 0.3]}

    (joint,) = report['joints']
    assert joint['name'] == 'r::j1'
    assert (joint['type'], joint['parent'], joint['child']) == ('revolute', 'r::base', 'r::arm')
    _assert_close(joint['pose']['xyz'], [0, 0, 1], 1e-12)
    # Axis y of a joint frame yawed 90°: Rz(90°) y = -x.
    _assert_close(joint['axis'], [-1, 0, 0], 1e-12)
    assert joint['limit'] == {'lower': -1, 'upper': 1, 'effort': 10, 'velocity': 2}


def test_probe_reports_actors(tmp_path: Path) -> None:
    path = _write(tmp_path, 'actor.sdf', """
<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <actor name="walker">
      <pose>1 2 3 0 0 0</pose>
      <skin><filename>walk.dae</filename></skin>
      <animation name="walking">
        <filename>walk.dae</filename><scale>2</scale><interpolate_x>true</interpolate_x>
      </animation>
      <script>
        <loop>false</loop><delay_start>0.5</delay_start>
        <trajectory id="3" type="walking" tension="0.25">
          <waypoint><time>1.5</time><pose>1 0 0 0 0 0</pose></waypoint>
        </trajectory>
      </script>
    </actor>
  </world>
</sdf>
""")
    report = run_probe(path)
    assert report['valid'] is True, report['errors']
    (actor,) = report['actors']
    assert actor['name'] == 'walker'
    _assert_pose(actor['pose'], [1, 2, 3], IDENTITY)
    assert actor['skin'] == 'walk.dae'
    assert actor['animations'] == [
        {'name': 'walking', 'filename': 'walk.dae', 'scale': 2, 'interpolate_x': True},
    ]
    (trajectory,) = actor['trajectories']
    assert (trajectory['id'], trajectory['type'], trajectory['tension']) == (3, 'walking', 0.25)
    (waypoint,) = trajectory['waypoints']
    assert waypoint['time'] == 1.5
    _assert_pose(waypoint['pose'], [1, 0, 0], IDENTITY)
    assert actor['script'] == {'loop': False, 'delay_start': 0.5, 'auto_start': True}


def test_probe_resolves_model_uris_through_resource_variables(tmp_path: Path) -> None:
    model_dir = tmp_path / 'models' / 'crate'
    model_dir.mkdir(parents=True)
    _write(model_dir, 'model.config', """
<?xml version="1.0"?>
<model><name>crate</name><sdf version="1.9">crate.sdf</sdf></model>
""")
    _write(model_dir, 'crate.sdf', """
<?xml version="1.0"?>
<sdf version="1.9"><model name="crate"><link name="l"/></model></sdf>
""")
    world = _write(tmp_path, 'w.sdf', """
<?xml version="1.0"?>
<sdf version="1.9"><world name="w">
  <include><uri>model://crate</uri><name>c1</name><pose>1 0 0 0 0 0</pose></include>
</world></sdf>
""")
    unset = {'SDF_PATH': None, 'GZ_SIM_RESOURCE_PATH': None, 'IGN_GAZEBO_RESOURCE_PATH': None}
    missing = run_probe(world, env=unset)
    assert missing['valid'] is False
    assert [e['code'] for e in missing['errors']] == ['URI_LOOKUP']
    for var in ('SDF_PATH', 'GZ_SIM_RESOURCE_PATH', 'IGN_GAZEBO_RESOURCE_PATH'):
        found = run_probe(world, env={**unset, var: str(tmp_path / 'models')})
        assert found['valid'] is True, (var, found['errors'])
        links = _by_name(found, 'links')
        _assert_pose(links['c1::l']['pose'], [1, 0, 0], IDENTITY)


# ---------------------------------------------------------------------------------------
# compare() on hand-made reports.


def _pose(xyz: list[float], quat: list[float]) -> dict[str, list[float]]:
    return {'xyz': list(xyz), 'quat_xyzw': list(quat)}


def _report() -> dict[str, Any]:
    return {
        'file': 'x.sdf', 'format': 'sdf', 'version': '1.9', 'valid': True,
        'errors': [], 'warnings': [],
        'models': [{
            'name': 'm', 'pose': _pose([0, 0, 0], IDENTITY),
            'canonical_link': 'm::a', 'static': False,
        }],
        'links': [
            {
                'name': 'm::a', 'pose': _pose([1, 2, 3], YAW_90), 'mass': 1.0,
                'inertia': [1, 0, 0, 1, 0, 1], 'inertial_pose': _pose([1, 2, 3], YAW_90),
                'visuals': [{
                    'name': 'v', 'pose': _pose([0, 0, 0], IDENTITY),
                    'geometry': {'type': 'box', 'size': [1, 1, 1]},
                }],
                'collisions': [],
            },
            {
                'name': 'm::b', 'pose': _pose([0, 0, 0], IDENTITY), 'mass': 1.0,
                'inertia': [1, 0, 0, 1, 0, 1], 'inertial_pose': _pose([0, 0, 0], IDENTITY),
                'visuals': [], 'collisions': [],
            },
        ],
        'joints': [{
            'name': 'm::j', 'type': 'revolute', 'parent': 'm::a', 'child': 'm::b',
            'pose': _pose([0, 0, 0], IDENTITY), 'axis': [0, 0, 1], 'axis2': None,
            'limit': {'lower': -1, 'upper': 1, 'effort': math.inf, 'velocity': math.inf},
            'dynamics': {'damping': 0, 'friction': 0},
        }],
        'frames': [{'name': 'm::f', 'attached_to': 'm::a', 'pose': _pose([0, 0, 1], IDENTITY)}],
        'actors': [],
    }


def test_compare_finds_no_difference_between_equal_reports() -> None:
    assert compare(_report(), _report()) == []


def test_compare_detects_a_1e_8_position_difference() -> None:
    ours = _report()
    ours['links'][0]['pose']['xyz'][0] += 1e-8
    diffs = compare(ours, _report())
    assert len(diffs) == 1
    assert "links['m::a'].pose.xyz.x" in diffs[0]


def test_compare_detects_a_1e_8_quaternion_difference() -> None:
    ours = _report()
    ours['frames'][0]['pose']['quat_xyzw'][3] -= 1e-8
    diffs = compare(ours, _report())
    assert len(diffs) == 1
    assert "frames['m::f'].pose.quat_xyzw" in diffs[0]


def test_compare_treats_q_and_minus_q_as_the_same_rotation() -> None:
    ours = _report()
    pose = ours['links'][0]['pose']
    pose['quat_xyzw'] = [-q for q in pose['quat_xyzw']]
    assert compare(ours, _report()) == []


def test_compare_reports_missing_and_extra_links() -> None:
    ours = _report()
    del ours['links'][1]
    diffs = compare(ours, _report())
    assert diffs == ["links['m::b']: missing from ours"]
    assert compare(_report(), ours) == ["links['m::b']: not in libsdformat (extra in ours)"]


def test_compare_checks_nested_fields_geometry_and_infinity() -> None:
    ours = _report()
    ours['links'][0]['visuals'][0]['geometry']['size'][2] = 2
    ours['joints'][0]['limit']['effort'] = 1e300
    ours['models'][0]['static'] = True
    ours['joints'][0]['child'] = 'm::a'
    diffs = compare(ours, _report())
    assert len(diffs) == 4, diffs
    joined = '\n'.join(diffs)
    assert "visuals['v'].geometry.size[2]" in joined
    assert "joints['m::j'].limit.effort" in joined
    assert "models['m'].static" in joined
    assert "joints['m::j'].child" in joined


def test_compare_reports_a_schema_field_missing_on_one_side() -> None:
    ours = _report()
    del ours['joints'][0]['axis2']
    assert compare(ours, _report()) == ["joints['m::j'].axis2: missing from ours"]


def test_compare_requires_the_same_verdict_and_a_shared_error_code() -> None:
    invalid = copy.deepcopy(_report())
    invalid['valid'] = False
    invalid['errors'] = [{'code': 'DUPLICATE_NAME', 'message': 'x', 'file': None, 'line': None}]
    diffs = compare(_report(), invalid)
    assert len(diffs) == 1
    assert diffs[0].startswith('verdict:')
    other = copy.deepcopy(invalid)
    other['errors'] = [{'code': 'RESERVED_NAME', 'message': 'y', 'file': 'x.sdf', 'line': 3}]
    assert len(compare(other, invalid)) == 1
    other['errors'].append({'code': 'DUPLICATE_NAME', 'message': 'z', 'file': None, 'line': 1})
    assert compare(other, invalid) == []


def test_compare_accepts_any_error_of_ours_when_libsdformat_threw() -> None:
    threw = copy.deepcopy(_report())
    threw['valid'] = False
    threw['errors'] = [{'code': 'EXCEPTION', 'message': 'boom', 'file': None, 'line': None}]
    ours = copy.deepcopy(threw)
    ours['errors'] = [{'code': 'URI_LOOKUP', 'message': 'empty uri', 'file': 'x', 'line': 2}]
    assert compare(ours, threw) == []
