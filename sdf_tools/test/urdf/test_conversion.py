"""libsdformat's URDF lumping rules, in their one home (urdf/conversion.py)."""
from __future__ import annotations

import pytest
from lxml import etree

from sdf_tools.load import load_string
from sdf_tools.urdf.conversion import locked_joints, lumped_joints, preserved_joints, switch_on

ROBOT = """<robot name="r">
  <link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="b"/><link name="c"/><link name="d"/>
  <joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="ac" type="fixed"><parent link="a"/><child link="c"/></joint>
  <joint name="ad" type="fixed"><parent link="a"/><child link="d"/></joint>
  <gazebo reference="ab"><preserveFixedJoint value="Yes"/></gazebo>
  <gazebo reference="ac"><disableFixedJointLumping>1</disableFixedJointLumping></gazebo>
  <gazebo reference="ad"><disableFixedJointLumping>on</disableFixedJointLumping></gazebo>
</robot>"""


@pytest.mark.parametrize('xml, on', [
    ('<s>true</s>', True), ('<s> TRUE </s>', True), ('<s>yes</s>', True), ('<s>1</s>', True),
    ('<s value="true">false</s>', True), ('<s>on</s>', False), ('<s>0</s>', False), ('<s/>', False)])
def test_a_switch_is_read_as_parser_urdf_reads_it(xml: str, on: bool) -> None:
    assert switch_on(etree.fromstring(xml)) is on


def test_preserved_locked_and_lumped_joints_follow_the_switches() -> None:
    loaded = load_string(ROBOT, 'r.urdf')
    model = loaded.document.model if loaded.document else None
    assert model is not None
    assert preserved_joints(model) == {'ab', 'ac'}
    assert locked_joints(model) == {'ac'}
    assert lumped_joints(model) == {'ad'}
