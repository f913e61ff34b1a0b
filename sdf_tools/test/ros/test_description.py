"""From parameters to description text and TF tree (no ROS)."""
from __future__ import annotations

from pathlib import Path

import pytest

from sdf_tools.ros.description import load_description
from sdf_tools.ros.params import PublisherParams

DATA = Path(__file__).resolve().parents[1] / 'data'
ARM = DATA / 'urdf' / 'arm.urdf'
XACRO = DATA / 'urdf' / 'two_link.urdf.xacro'


def params(**values: object) -> PublisherParams:
    p, problems = PublisherParams.from_values(values)
    assert not problems
    return p


def test_a_urdf_is_passed_through_as_written() -> None:
    d = load_description(params(description_file=str(ARM)))
    assert d.ok and d.text == ARM.read_text() and not d.errors


XACRO_TEXT = """<?xml version="1.0"?>
<robot name="x" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="joint" default="j"/>
  <link name="a"/><link name="b"/>
  <joint name="$(arg joint)" type="continuous"><parent link="a"/><child link="b"/></joint>
</robot>
"""


def test_xacro_file_and_xacro_text_are_expanded() -> None:
    from_file = load_description(params(description_file=str(XACRO)))
    assert from_file.ok and from_file.text is not None
    assert '<robot' in from_file.text and 'xacro:' not in from_file.text
    from_text = load_description(params(robot_description=XACRO_TEXT, xacro_args='joint:=hinge'))
    assert from_text.tree is not None and set(from_text.tree.moving) == {'hinge'}
    assert from_text.text is not None and 'name="hinge"' in from_text.text


def test_an_sdf_model_is_converted_and_tf_follows_the_urdf() -> None:
    d = load_description(params(description_file=str(DATA / 'ros' / 'nested_robot.sdf')))
    assert d.ok and d.text is not None and '<robot name="crane"' in d.text
    assert d.tree is not None
    assert 'tower/hook/spin__axis3' in d.tree.moving  # the URDF's joint names drive TF
    assert d.tree.aliases['crane::tower::slew'] == 'tower/slew'
    assert d.tree.parents()['tower/hook'] == 'tower/hook/trolley'  # a frame only SDFormat has


@pytest.mark.parametrize('gazebo, version', [('fortress', '1.9'), ('harmonic', '1.11')])
def test_sdf_format_passes_the_resolved_sdf(gazebo: str, version: str) -> None:
    """Written in the SDFormat version the target's libsdformat writes (the gazebo parameter)."""
    d = load_description(params(description_file=str(DATA / 'ros' / 'nested_robot.sdf'),
                                robot_description_format='sdf', gazebo=gazebo))
    assert d.ok and d.text is not None and '<sdf ' in d.text and f'version="{version}"' in d.text
    assert d.tree is not None and 'tower/hook/spin' in d.tree.moving  # TF from the SDFormat


def test_a_world_of_several_models_has_tf_but_no_urdf() -> None:
    """Defect 5: this used to be an error naming the command line's --model."""
    d = load_description(params(description_file=str(DATA / 'ros' / 'two_robots_world.sdf')))
    assert d.ok and d.text is None and d.errors == []
    note = next(n for n in d.tf_notes if 'no robot_description' in n)
    assert 'set the parameter model to one of them' in note and '--model' not in note
    assert '[cart]' in note and 'TF is published for every model' in note
    picked = load_description(params(description_file=str(DATA / 'ros' / 'two_robots_world.sdf'),
                                     model='cart'))
    assert picked.text is not None and '<robot name="cart"' in picked.text


def test_urdf_joint_renamed_by_the_reader_keeps_its_urdf_name(tmp_path: Path) -> None:
    urdf = tmp_path / 'clash.urdf'
    urdf.write_text('<robot name="r"><link name="a"/><link name="b"/>\n'
                    '<joint name="b" type="revolute"><parent link="a"/><child link="b"/>'
                    '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>'
                    '</joint></robot>')
    d = load_description(params(description_file=str(urdf)))
    assert d.tree is not None and d.tree.aliases['b'] == 'b_joint'


def test_bad_input_gives_errors_with_file_and_line(tmp_path: Path) -> None:
    missing = load_description(params(description_file='/nonexistent/robot.sdf'))
    assert not missing.ok and 'no such file' in missing.errors[0]
    bad = tmp_path / 'bad.sdf'
    bad.write_text('<?xml version="1.0"?>\n<sdf version="1.9">\n<model name="m">\n'
                   '<link name="a"><pose relative_to="x"/></link></model></sdf>\n')
    d = load_description(params(description_file=str(bad)))
    assert not d.ok and d.errors[0].startswith(f'{bad}:4: error: [POSE_RELATIVE_TO_INVALID]')
    empty = load_description(params())
    assert not empty.ok and 'set parameter description_file or robot_description' in empty.errors[0]
    model = load_description(params(description_file=str(ARM), model='other'))
    assert not model.ok and 'holds model [arm] only' in model.errors[0]


def test_a_bad_xml_or_urdf_says_why_once(tmp_path: Path) -> None:
    """Defect 4: no [FILE_READ] Unable to read file after the error that says why."""
    xml = load_description(params(robot_description='<robot name="r"><link name="a"></robot>'))
    assert len(xml.errors) == 1 and '[XML_INVALID]' in xml.errors[0], xml.errors
    urdf = tmp_path / 'bad.urdf'
    urdf.write_text('<robot name="r">\n<link name="a"/>\n<joint name="j" type="revolute">'
                    '<parent link="a"/><child link="b"/></joint></robot>\n')
    d = load_description(params(description_file=str(urdf)))
    assert d.errors and not any('FILE_READ' in e for e in d.errors), d.errors
    assert all(e.startswith(f'{urdf}:3: error: [URDF_INVALID]') for e in d.errors), d.errors


INVALID_INERTIA = """<sdf version="1.9"><model name="m">
<link name="a"><inertial><mass>1</mass><inertia><ixx>-1</ixx><iyy>1</iyy><izz>1</izz></inertia>
</inertial></link><link name="b"><pose>0 0 1 0 0 0</pose></link>
<joint name="j" type="fixed"><parent>a</parent><child>b</child></joint></model></sdf>
"""


def test_an_invalid_inertia_still_publishes_the_urdf_with_the_warning() -> None:
    """Issue 21 §2: RViz draws it; only Gazebo refuses an invalid inertia."""
    d = load_description(params(robot_description=INVALID_INERTIA))
    assert d.ok and not d.errors, d.errors
    assert d.text is not None and '<robot name="m"' in d.text and '<link name="b"' in d.text
    assert any('LINK_INERTIA_INVALID' in w and 'Gazebo would refuse' in w for w in d.gazebo_only)


def test_mesh_uris_default_to_what_rviz_opens(tmp_path: Path) -> None:
    """Issue 21 §3: model:// and relative mesh URIs reached robot_description as written."""
    import pytest
    from convert.urdf.test_to_urdf_mesh_uris import _package_and_model
    mp = pytest.MonkeyPatch()
    try:
        sdf = _package_and_model(tmp_path)
        mp.setenv('AMENT_PREFIX_PATH', str(tmp_path / 'prefix'))
        mp.setenv('GZ_SIM_RESOURCE_PATH', str(tmp_path / 'gz'))
        d = load_description(params(description_file=str(sdf)))
        kept = load_description(params(description_file=str(sdf), mesh_uris='keep'))
    finally:
        mp.undo()
    assert d.ok and d.text is not None
    from lxml import etree
    uris = [m.get('filename') for m in etree.fromstring(d.text.encode()).iter('mesh')]
    assert uris[0] == 'package://meshes_pkg/meshes/arm.stl'
    assert all(u.startswith('file:///') for u in uris[1:]), uris
    assert len(d.mesh_uris) == 3  # the three rewritten, each reported
    assert not any('not found' in m for m in d.mesh_uris)
    assert kept.text is not None and 'model://bot/meshes/wheel.stl' in kept.text and not kept.mesh_uris


@pytest.mark.parametrize('model', ['', 'rover'])
def test_the_bundled_example_is_published_without_a_note(model: str) -> None:
    example = Path(__file__).resolve().parents[2] / 'sdf_tools' / 'examples' / 'demo_world.sdf'
    d = load_description(params(description_file=str(example), model=model))
    assert d.ok and d.text is not None
    assert (d.errors, d.warnings, d.tf_notes, d.gazebo_only) == ([], [], [], [])


def test_the_model_is_resolved_once_for_tf_and_its_urdf(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 19: the URDF conversion resolved the model again after TF had."""
    import sdf_tools.convert.flatten
    import sdf_tools.ros.description
    import sdf_tools.ros.tf_tree
    from sdf_tools.resolved import resolve
    example = Path(__file__).resolve().parents[2] / 'sdf_tools' / 'examples' / 'demo_world.sdf'
    calls: list[str] = []

    def counted(result: object, *args: object) -> object:
        doc = getattr(result, 'document', None)
        calls.append(str(getattr(doc, 'file', None)))
        return resolve(result, *args)  # type: ignore[arg-type]

    for module in (sdf_tools.ros.description, sdf_tools.ros.tf_tree, sdf_tools.convert.flatten):
        monkeypatch.setattr(module, 'resolve', counted)
    d = load_description(params(description_file=str(example), model='rover'))
    assert d.ok and d.text is not None and '<robot name="rover"' in d.text
    # the SDFormat once; then the URDF made of it, read back for its joint names
    assert [Path(c).name if c != 'None' else c for c in calls].count('demo_world.sdf') == 1, calls
