"""libsdformat's URDF lumping rules, in their one home (urdf/conversion.py)."""
from __future__ import annotations

from pathlib import Path

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


_COLONS = """<?xml version="1.0"?>
<robot name="r">
  <link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="m::b"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="m::j" type="revolute"><parent link="a"/><child link="m::b"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""


@pytest.mark.parametrize('gazebo', ['fortress', 'harmonic', 'ionic', 'jetty'])
def test_colons_in_names_as_each_libsdformat_judges_them(tmp_path: Path, gazebo: str) -> None:
    # 12.3 converts a URDF to SDFormat 1.7, which allows '::' in names; 14+ to 1.11, which
    # refuses it (a flattened nested model written by SDFormat -> URDF, gz-sim's nested_model.sdf)
    from sdf_tools.errors import Severity
    from sdf_tools.load import load_file
    from urdf.test_lumping_walk import _probe

    path = tmp_path / 'colons.urdf'
    path.write_text(_COLONS)
    ref = _probe(gazebo, path)
    loaded = load_file(path, gazebo=gazebo)
    ours = {(d.code.value, d.line) for d in loaded.diagnostics if d.severity is Severity.ERROR}
    assert loaded.valid is ref['valid']
    if not ref['valid']:
        assert 'RESERVED_NAME' in {e['code'] for e in ref['errors']}
        assert ours == {('RESERVED_NAME', 4), ('RESERVED_NAME', 5)}
