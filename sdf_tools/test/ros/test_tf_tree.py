"""The TF tree of a loaded description: parents, names, what is static, what moves, what is reported."""
from __future__ import annotations

from pathlib import Path

import pytest

from sdf_tools.load import load_file, load_string
from sdf_tools.ros.tf_tree import TfTree, TreeOptions, build_tf_tree
from sdf_tools.transform import Transform

DATA = Path(__file__).resolve().parents[1] / 'data'


def tree_of(text: str, **options: object) -> TfTree:
    result = load_string(text, 'test.sdf')
    assert result.valid, [str(d) for d in result.errors]
    return build_tf_tree(result, TreeOptions(**options))  # type: ignore[arg-type]


def sdf(body: str) -> str:
    return f'<?xml version="1.0"?>\n<sdf version="1.9">\n{body}\n</sdf>\n'


def test_urdf_tree_is_one_transform_per_joint() -> None:
    tree = build_tf_tree(load_file(DATA / 'urdf' / 'arm.urdf'))
    assert {(f.parent, f.child) for f in tree.fixed} == {('world', 'base'), ('forearm', 'tool')}
    assert {n: (m.parent, m.child) for n, m in tree.moving.items()} == {
        'shoulder_yaw': ('base', 'shoulder'), 'elbow': ('shoulder', 'upper_arm'),
        'slide': ('upper_arm', 'forearm'), 'finger_left_joint': ('tool', 'finger_left'),
        'finger_right_joint': ('tool', 'finger_right')}
    mimic = tree.moving['finger_right_joint'].mimic
    assert mimic is not None and (mimic.joint, mimic.multiplier, mimic.offset) == (
        'finger_left_joint', 2.0, 0.01)
    base = next(f for f in tree.fixed if f.child == 'base').transform
    want = Transform.from_xyz_rpy((0.5, -0.2, 0.1), (0.0, 0.0, 0.3))
    assert base.p == pytest.approx(want.p, abs=1e-12) and base.q == pytest.approx(want.q, abs=1e-12)


def test_world_with_several_models_prefixes_names_and_places_free_links() -> None:
    tree = build_tf_tree(load_file(DATA / 'ros' / 'two_robots_world.sdf'))
    parents = tree.parents()
    assert parents['table/top'] == 'world' and parents['table/corner'] == 'table/top'
    assert parents['arm/base'] == 'world'  # by its fixed joint to the world
    assert parents['cart/body'] == 'world'  # a free link: at its initial pose
    assert parents['gate_light'] == 'world' and parents['walker'] == 'world'
    assert set(tree.moving) == {'arm/j1', 'cart/axle'}
    assert tree.aliases['cart::axle'] == 'cart/axle'


def test_model_option_picks_one_model_of_a_world_with_names_relative_to_it() -> None:
    tree = build_tf_tree(load_file(DATA / 'ros' / 'two_robots_world.sdf'), TreeOptions(model='arm'))
    assert set(tree.moving) == {'j1'}
    assert tree.parents()['base'] == 'world' and 'table/top' not in tree.parents()


def test_unknown_model_is_an_error_naming_the_models() -> None:
    tree = build_tf_tree(load_file(DATA / 'ros' / 'two_robots_world.sdf'), TreeOptions(model='nope'))
    assert tree.errors and '[table], [arm], [cart]' in tree.errors[0].message
    assert not tree.fixed and not tree.moving


def test_root_frame_separator_and_frames_option() -> None:
    path = DATA / 'ros' / 'nested_robot.sdf'
    tree = build_tf_tree(load_file(path), TreeOptions(scope_separator='.', publish_frames=False))
    assert 'tower.hook.hoist' in tree.moving
    assert not any(f.source.startswith(('frame', 'model')) for f in tree.fixed)
    tree = build_tf_tree(load_file(DATA / 'ros' / 'two_robots_world.sdf'),
                         TreeOptions(root_frame='map'))
    assert tree.parents()['arm/base'] == 'map'


def test_multi_axis_joints_and_undrivable_joints() -> None:
    tree = tree_of(sdf('''<model name="m">
      <link name="a"/><link name="b"/><link name="c"/><link name="d"/>
      <joint name="ball" type="ball"><parent>a</parent><child>b</child></joint>
      <joint name="screw" type="screw"><parent>b</parent><child>c</child>
        <axis><xyz>0 0 1</xyz></axis></joint>
      <joint name="u" type="universal"><parent>b</parent><child>d</child>
        <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>
    </model>'''))
    assert tree.moving['ball'].axes == ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    assert len(tree.moving['u'].axes) == 2
    assert 'screw' not in tree.moving and 'screw' in tree.ignored_joints
    note = next(n for n in tree.notes if 'screw' in n.message)
    assert note.file == 'test.sdf' and note.line == 6 and '[screw]' in note.message


def test_a_kinematic_loop_is_cut_at_the_last_declared_transform() -> None:
    tree = tree_of(sdf('''<model name="m">
      <link name="a"/><link name="b"><pose>1 0 0 0 0 0</pose></link>
      <link name="c"><pose>1 1 0 0 0 0</pose></link>
      <joint name="ab" type="revolute"><parent>a</parent><child>b</child></joint>
      <joint name="bc" type="revolute"><parent>b</parent><child>c</child></joint>
      <joint name="ca" type="fixed"><parent>c</parent><child>a</child></joint>
    </model>'''))
    parents = tree.parents()
    assert 'a' not in parents and parents['c'] == 'b'
    assert any('kinematic loop' in n.message for n in tree.notes)


def test_a_second_parent_is_reported_and_dropped() -> None:
    tree = tree_of(sdf('''<model name="m">
      <link name="a"/><link name="b"/><link name="c"/>
      <joint name="ac" type="fixed"><parent>a</parent><child>c</child></joint>
      <joint name="bc" type="fixed"><parent>b</parent><child>c</child></joint>
      <joint name="ab" type="fixed"><parent>a</parent><child>b</child></joint>
    </model>'''))
    assert tree.parents() == {'c': 'a', 'b': 'a'}
    assert any('[c] already has parent [a]' in n.message for n in tree.notes)


def test_a_free_link_of_a_lone_model_is_reported_not_placed() -> None:
    tree = tree_of(sdf('<model name="m"><link name="a"/><link name="loose"/></model>'))
    assert not tree.fixed
    assert any('[m::loose]' in n.message and 'free body' in n.message for n in tree.notes)


def test_static_lone_model_hangs_from_the_world() -> None:
    tree = tree_of(sdf('''<model name="m"><static>true</static><pose>1 0 0 0 0 0</pose>
      <link name="a"/><link name="b"><pose>0 1 0 0 0 0</pose></link>
      <joint name="j" type="revolute"><parent>a</parent><child>b</child></joint></model>'''))
    assert {f.child: f.parent for f in tree.fixed} == {'a': 'world', 'b': 'world'}
    assert next(f for f in tree.fixed if f.child == 'b').transform.p == pytest.approx((1, 1, 0))
    assert not tree.moving


def test_mimic_of_an_unknown_joint_is_reported() -> None:
    tree = tree_of(sdf('''<model name="m"><link name="a"/><link name="b"/>
      <joint name="j" type="revolute"><parent>a</parent><child>b</child>
        <axis><xyz>0 0 1</xyz><mimic joint="ghost"><multiplier>2</multiplier></mimic></axis>
      </joint></model>'''))
    assert tree.moving['j'].mimic is None
    assert any('mimics [m::ghost]' in n.message for n in tree.notes)


def test_a_lone_actor_file() -> None:
    tree = tree_of('<?xml version="1.0"?><sdf version="1.9"><actor name="bob"><pose>1 2 0 0 0 0</pose>'
                   '</actor></sdf>')
    assert [(f.parent, f.child) for f in tree.fixed] == [('world', 'bob')]


def test_file_initial_positions_fill_in_what_the_parameter_does_not_name() -> None:
    from sdf_tools.ros.tf_tree import file_initial_positions
    tree = tree_of(sdf('''<model name="m">
  <link name="a"/><link name="b"/><link name="c"/><link name="d"/>
  <joint name="hinge" type="revolute"><parent>a</parent><child>b</child>
    <axis><xyz>0 0 1</xyz><initial_position>0.4</initial_position></axis></joint>
  <joint name="pair" type="universal"><parent>b</parent><child>c</child>
    <axis><xyz>1 0 0</xyz><initial_position>0.1</initial_position></axis>
    <axis2><xyz>0 1 0</xyz><initial_position>-0.2</initial_position></axis2></joint>
  <joint name="follow" type="revolute"><parent>c</parent><child>d</child>
    <axis><xyz>0 0 1</xyz><initial_position>0.9</initial_position>
      <mimic joint="hinge"><multiplier>2</multiplier></mimic></axis></joint>
</model>'''))
    assert tree.moving['hinge'].initial == (0.4,)
    assert tree.moving['pair'].initial == (0.1, -0.2)
    # the mimic follows its leader: its own initial_position is not a second source
    assert file_initial_positions(tree) == {'hinge': 0.4, 'pair': 0.1, 'pair__axis2': -0.2}
    assert file_initial_positions(tree, {'hinge': 0.0, 'pair__axis2': 1.0}) == {'pair': 0.1}
