"""URDF -> SDFormat -> URDF keeps ``<ros2_control>`` and ``<transmission>`` (equal as canonical XML)."""
from __future__ import annotations

from pathlib import Path

from lxml import etree

from sdf_tools.convert.api import convert_file
from sdf_tools.convert.options import ConversionOptions

CONTROL = Path(__file__).resolve().parents[2] / 'data' / 'convert' / 'control.urdf'
TAGS = ('transmission', 'ros2_control')


def _canonical(path: Path) -> list[bytes]:
    parser = etree.XMLParser(remove_blank_text=True, remove_comments=True)
    root = etree.parse(str(path), parser).getroot()
    return [etree.tostring(el, method='c14n') for el in root if el.tag in TAGS]


def test_a_round_trip_through_sdformat_keeps_the_control_blocks(tmp_path: Path) -> None:
    sdf, back = tmp_path / 'control.sdf', tmp_path / 'control.urdf'
    first = convert_file(CONTROL, to=None, output_path=sdf, options=ConversionOptions())
    assert first.ok, first.report.errors
    second = convert_file(sdf, to=None, output_path=back, options=ConversionOptions())
    assert second.ok, second.report.errors
    want = _canonical(CONTROL)
    assert len(want) == 2 and _canonical(back) == want
    kept = [e for e in second.report.entries if e.element.endswith(TAGS)]
    assert {e.kind.value for e in kept} == {'kept'} and all(e.line for e in kept)


def test_urdf_to_urdf_keeps_the_control_blocks(tmp_path: Path) -> None:
    # kinova.urdf (example-robot-data) to URDF lost its transmissions: the URDF reader
    # keeps them with their plain tags, which only the urdf: namespaced form matched.
    out = tmp_path / 'control.urdf'
    result = convert_file(CONTROL, to='urdf', output_path=out, options=ConversionOptions())
    assert result.ok, result.report.errors
    want = _canonical(CONTROL)
    assert len(want) == 2 and _canonical(out) == want
    assert not [e for e in result.report.entries
                if e.kind.value == 'dropped' and e.element.endswith(TAGS)]


def test_urdf_to_urdf_keeps_each_visual_colour(tmp_path: Path) -> None:
    # kinova.urdf's colours: a robot-level material named by visuals, and one in place.
    source, out = tmp_path / 'colours.urdf', tmp_path / 'out.urdf'
    source.write_text(
        '<robot name="r"><material name="carbon"><color rgba="0.3 0.3 0.3 1"/></material>'
        '<link name="a"><visual><geometry><box size="1 1 1"/></geometry>'
        '<material name="carbon"/></visual>'
        '<visual><geometry><sphere radius="1"/></geometry>'
        '<material name="red"><color rgba="1 0 0 0.5"/></material></visual></link></robot>')
    result = convert_file(source, to='urdf', output_path=out, options=ConversionOptions())
    assert result.ok, result.report.errors
    colours = [v.find('material/color').get('rgba')
               for v in etree.parse(str(out)).getroot().iter('visual')]
    assert colours == ['0.3 0.3 0.3 1', '1 0 0 0.5']
    assert not [e for e in result.report.entries if e.kind.value == 'dropped']


KINOVA_LIKE = '''<robot name="arm">
  <link name="base"/>
  <joint name="mount" type="fixed"><parent link="base"/><child link="link_base"/></joint>
  <link name="link_base"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <joint name="j1" type="revolute"><parent link="link_base"/><child link="link_1"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="10" velocity="1"/>
    <calibration rising="0.1"/>
    <safety_controller k_velocity="10" k_position="15" soft_lower_limit="-0.9" soft_upper_limit="0.9"/>
  </joint>
  <link name="link_1"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <gazebo reference="link_1"><sensor name="imu" type="imu"><update_rate>100</update_rate></sensor>
    <mu1>0.5</mu1></gazebo>
  <gazebo><plugin name="p" filename="libp.so"><a>1</a></plugin></gazebo>
</robot>
'''


def test_urdf_to_urdf_keeps_gazebo_blocks_joint_children_and_gazebos_lumping(
        tmp_path: Path) -> None:
    # tiago.urdf to URDF lost its 71 <gazebo> blocks (3 sensors, 9 plugins) and 13
    # <safety_controller>s; kinova.urdf's output marked every fixed joint
    # preserveFixedJoint, so its massless base was no longer lumped and Gazebo refused it.
    from sdf_tools.load import load_file

    source, out = tmp_path / 'arm.urdf', tmp_path / 'out.urdf'
    source.write_text(KINOVA_LIKE)
    assert load_file(str(source)).valid
    result = convert_file(source, to='urdf', output_path=out, options=ConversionOptions())
    assert result.ok, result.report.errors
    back = load_file(str(out))
    assert back.valid, [str(d) for d in back.errors]
    parser = etree.XMLParser(remove_blank_text=True, remove_comments=True)
    src_root, out_root = (etree.parse(str(p), parser).getroot() for p in (source, out))
    for path in ('gazebo', "joint[@name='j1']/calibration", "joint[@name='j1']/safety_controller"):
        assert [etree.tostring(e, method='c14n') for e in out_root.findall(path)] == \
            [etree.tostring(e, method='c14n') for e in src_root.findall(path)], path
    assert not [e for e in result.report.entries if e.kind.value == 'dropped']
