"""``<gazebo>`` extension tags: each lands where libsdformat's URDF parser puts it, or is reported.

The reference is libsdformat's own printout of the ORIGINAL URDF (``ign sdf -p``),
compared leaf by leaf with the printout of our SDFormat output: both pass
through the same printer, which fills in the spec defaults of the elements it
prints.
"""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from lxml import etree
from support.libsdformat import build_probe, probe_available, probe_unavailable_reason, run_probe

from convert.sdf.to_sdf_compare import DATA, convert, ign_available, leaves, printout, same_text, write
from sdf_tools.convert import ConversionOptions, ReportKind
from sdf_tools.convert.sdf.gazebo_apply import applies_to_shape
from sdf_tools.convert.sdf.gazebo_tags import GazeboBlock, parse_block, parse_number
from sdf_tools.convert.sdf.to_sdf import convert_to_sdf
from sdf_tools.errors import ErrorCode, Severity
from sdf_tools.load import load_string
from sdf_tools.model import Extra
from sdf_tools.transform import Transform

URDF_DIR = DATA.parent / 'urdf'
needs_ign = pytest.mark.skipif(not ign_available(), reason='`ign sdf` (libsdformat 12) is not installed')

# Leaf values libsdformat's printer writes for elements it creates empty, or that
# equal the spec default our writer leaves out.
_DEFAULTS = {'pose': '0 0 0 0 0 0', 'friction': '0', 'damping': '0', 'spring_reference': '0',
             'spring_stiffness': '0', 'cfm': '0', 'erp': '0.2', 'static': 'false',
             'self_collide': 'false', 'scale': '1 1 1', 'lower': '-1e16', 'upper': '1e16',
             'effort': '-1', 'velocity': '-1', 'xyz': '0 0 1', 'ode': '', 'contact': '',
             'friction_ode': ''}
# Deliberate differences, each documented where it is made.
_OURS_ONLY = ('/frame[', '/urdf:')
_PRINTED_6_DIGITS = ('/sensor[', '/xyzOffset', '/rpyOffset')  # libsdformat uses the stream default


def _default(path: str, text: str) -> bool:
    tag = path.rsplit('/', 1)[-1].split('[')[0]
    return tag in _DEFAULTS and same_text(text, _DEFAULTS[tag], 1e-12) or text == ''


def _placement(path: str) -> bool:
    """Link, joint and model poses: compared in the world frame by test_to_sdf instead."""
    parts = path.split('/')
    return parts[-1] == 'pose' and parts[-2].split('[')[0] in ('link', 'joint', 'model', 'frame')


def printout_differences(original: Path, ours: Path, env: dict[str, str] | None = None,
                         joints: dict[str, str] | None = None) -> list[str]:
    """``joints``: URDF joint name -> our name (a joint named like a link is renamed)."""
    a, b = leaves(printout(original, env)), leaves(printout(ours, env))
    for old, new in (joints or {}).items():
        a = {path.replace(f'/joint[{old}]', f'/joint[{new}]'): t for path, t in a.items()}
    diffs = []
    for path in sorted(set(a) | set(b)):
        if _placement(path) or any(k in path for k in _OURS_ONLY):
            continue
        if path.endswith(('/contact/collision', '/ignition_corrected_offsets')):
            continue  # renamed to the lumped collision; libsdformat's non-XML flag not written
        ta, tb = a.get(path), b.get(path)
        if ta is None or tb is None:
            only = ta if tb is None else tb
            if not all(_default(path, t) for t in only or []):
                diffs.append(f'{path}: libsdformat {ta}, ours {tb}')
            continue
        tol = 1e-5 if any(k in path for k in _PRINTED_6_DIGITS) else 1e-12
        if path.endswith('/axis/xyz'):
            ta = [' '.join(str(x) for x in np.array(t.split(), float) / np.linalg.norm(np.array(t.split(), float)))
                  for t in ta]
        if len(ta) != len(tb) or not all(same_text(x, y, tol) for x, y in zip(ta, tb, strict=False)):
            diffs.append(f'{path}: libsdformat {ta}, ours {tb}')
    return diffs


@needs_ign
@pytest.mark.parametrize('path', [DATA / 'gazebo_tags.urdf', DATA / 'lumping.urdf', URDF_DIR / 'arm.urdf'],
                         ids=['gazebo_tags', 'lumping', 'arm'])
def test_every_gazebo_tag_lands_where_libsdformat_puts_it(path: Path, tmp_path: Path) -> None:
    out = write(convert(path, uris='model', joint_drive_from_transmission=False), tmp_path)
    diffs = printout_differences(path, out)
    assert not diffs, '\n'.join(diffs)


def _gazebo_lines(path: Path) -> set[int]:
    root = etree.parse(str(path)).getroot()
    lines: set[int] = set()
    for g in root.iterfind('gazebo'):
        for c in g.iterchildren(etree.Element):
            kids = list(c.iterchildren(etree.Element)) if c.tag in ('visual', 'collision') else [c]
            lines.update(int(k.sourceline) for k in kids)  # type: ignore[arg-type]
    return lines


def test_every_tag_of_every_block_is_in_the_report() -> None:
    path = DATA / 'gazebo_tags.urdf'
    result = convert(path)
    reported = {e.line for e in result.report.entries if e.element.startswith('gazebo')}
    missing = _gazebo_lines(path) - reported
    assert not missing, f'tags on lines {sorted(missing)} are not reported'


def test_unknown_and_misspelled_tags_are_reported_with_a_suggestion() -> None:
    result = convert(DATA / 'gazebo_tags.urdf')
    by_tag = {e.element: e for e in result.report.entries}
    assert 'did you mean <mu1>?' in by_tag['gazebo[reference=arm]/mu_1'].message
    assert 'did you mean <turnGravityOff>?' in by_tag['gazebo[reference=arm]/turnGravityof'].message
    assert by_tag['gazebo[reference=arm]/mu_1'].line == 140
    warnings = [d for d in result.report.diagnostics
                if d.code is ErrorCode.ELEMENT_UNKNOWN and d.severity is Severity.WARNING and d.line in (140, 141)]
    assert len(warnings) == 2
    # libsdformat copies them into the link anyway; so do we.
    root = etree.fromstring((result.text or '').encode())
    assert root.find('model/link[@name="arm"]/mu_1') is not None


def test_tags_that_cannot_land_are_reported_as_dropped_with_the_reason() -> None:
    result = convert(DATA / 'gazebo_tags.urdf')
    dropped = {e.element: e.message for e in result.report.entries if e.kind is ReportKind.DROPPED}
    assert 'names no link or joint' in dropped['gazebo[reference=no_such_link]/mu1']
    assert 'applies to links' in dropped['gazebo[reference=arm_joint]/mu1']
    assert 'does nothing with it' in dropped['gazebo/canonicalBody']
    result = convert(DATA / 'lumping.urdf')
    dropped = {e.element: e.message for e in result.report.entries if e.kind is ReportKind.DROPPED}
    # libsdformat gives a lumped link's <collision> blobs only to its shapes that had no name.
    assert 'gazebo[reference=plate]/collision/max_contacts' in dropped


@pytest.mark.parametrize('gazebo', ['fortress', 'harmonic'])
def test_a_later_block_without_static_makes_the_model_dynamic_and_says_so(gazebo: str) -> None:
    # libsdformat 12; from 13.3 (gazebosim/sdformat#1193) only a block with <static> sets it
    urdf = ('<robot name="r"><link name="a"><inertial><mass value="1"/>'
            '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>'
            '<gazebo><static>true</static></gazebo>\n'
            '<gazebo><plugin name="p" filename="libp.so"/></gazebo></robot>')
    result = _convert_text(urdf, gazebo)
    doc = load_string(result.text or '', 'o.sdf').document
    assert doc is not None and doc.model is not None
    assert doc.model.static is (gazebo != 'fortress')
    said = any('sets the model back to not static' in e.message for e in result.report.entries)
    assert said is (gazebo == 'fortress')


def test_turn_gravity_off_false_keeps_gravity_and_value_attributes_are_read() -> None:
    urdf = ('<robot name="r"><link name="a"><inertial><mass value="1"/>'
            '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>'
            '<collision><geometry><sphere radius="1"/></geometry></collision></link>'
            '<gazebo reference="a"><turnGravityOff value="no"/><mu1 value=" 0.5abc"/>'
            '<selfCollide>yes</selfCollide></gazebo></robot>')
    result = _convert_text(urdf)
    root = etree.fromstring((result.text or '').encode())
    link = root.find('model/link')
    assert link is not None and link.findtext('gravity') is None  # true is the default
    assert link.findtext('self_collide') == 'true'
    assert link.findtext('collision/surface/friction/ode/mu') == '0.5'


def _convert_text(urdf: str, gazebo: str = 'fortress'):  # type: ignore[no-untyped-def]
    from sdf_tools.convert import ConversionOptions
    from sdf_tools.convert.sdf.to_sdf import convert_to_sdf
    return convert_to_sdf(load_string(urdf, 'r.urdf', gazebo=gazebo), ConversionOptions())


def test_sensor_of_a_lumped_link_is_posed_exactly_in_the_link_it_joins() -> None:
    result = convert(DATA / 'gazebo_tags.urdf')
    root = etree.fromstring((result.text or '').encode())
    sensor = root.find('model/link[@name="base"]/sensor[@name="camera"]')
    assert sensor is not None
    got = [float(v) for v in (sensor.findtext('pose') or '').split()]
    expected = Transform.from_xyz_rpy((0.2, 0, 0.1), (0, 0.3, 0)) * Transform((0, 0, 0.01))
    assert np.allclose(got[:3], expected.p, atol=1e-15)
    assert np.allclose(got[3:], expected.rpy(), atol=1e-15)


def test_plugin_body_name_and_contact_collision_follow_the_lumped_link() -> None:
    result = convert(DATA / 'gazebo_tags.urdf')
    root = etree.fromstring((result.text or '').encode())
    plugin = root.find('model/plugin[@name="p3d"]')
    assert plugin is not None and plugin.findtext('bodyName') == 'base'
    assert plugin.findtext('frameName') == 'world'
    offset = Transform.from_xyz_rpy((0.2, 0, 0.1), (0, 0.3, 0)) * Transform((0.01, 0, 0))
    assert np.allclose([float(v) for v in (plugin.findtext('xyzOffset') or '').split()], offset.p)
    contact = root.find('model/link[@name="base"]/sensor[@name="bumper_contact"]/contact/collision')
    assert contact is not None and contact.text == 'base_fixed_joint_lump__bumper_collision_1'
    assert root.find('model/link[@name="base"]/collision[@name="base_fixed_joint_lump__bumper_collision_1"]') \
        is not None


def test_joint_tags_and_blobs_land_on_the_joint() -> None:
    root = etree.fromstring((convert(DATA / 'gazebo_tags.urdf').text or '').encode())
    arm = root.find('model/joint[@name="arm_joint"]')
    assert arm is not None
    assert arm.findtext('physics/ode/limit/cfm') == '0.01'
    assert arm.findtext('physics/ode/limit/erp') == '0.3'
    assert arm.findtext('axis/dynamics/spring_stiffness') == '20'
    assert arm.findtext('physics/provide_feedback') == 'true'
    wheel = root.find('model/joint[@name="wheel_joint"]')
    assert wheel is not None and wheel.findtext('physics/ode/implicit_spring_damper') == 'false'
    assert wheel.find('sensor[@name="wheel_torque"]') is not None


def test_urdf_colors_are_urdfdom_floats_over_point_eight() -> None:
    root = etree.fromstring((convert(DATA / 'gazebo_tags.urdf').text or '').encode())
    material = root.find('model/link[@name="base"]/visual[@name="base_visual"]/material')
    assert material is not None and material.findtext('script/name') == 'Gazebo/Grey'
    assert material.findtext('diffuse') == '0.625 0.625 0.625 1'
    assert material.findtext('ambient') == '0.625 0.625 0.625 1'
    urdf = ('<robot name="r"><material name="m"><color rgba="0.1 0.2 0.3 1"/>'
            '<texture filename="t.png"/></material><link name="a"><inertial><mass value="1"/>'
            '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial><visual>'
            '<geometry><sphere radius="1"/></geometry><material name="m"/></visual></link></robot>')
    result = _convert_text(urdf)
    diffuse = etree.fromstring((result.text or '').encode()).findtext('model/link/visual/material/diffuse')
    assert diffuse == f'{float(np.float32(0.1)) / 0.8!r} {float(np.float32(0.2)) / 0.8!r} ' \
                      f'{float(np.float32(0.3)) / 0.8!r} 1'
    assert any(e.kind is ReportKind.DROPPED and e.element.endswith('/texture') for e in result.report.entries)


def test_shape_rule_of_moved_blocks() -> None:
    own = GazeboBlock('base', None)
    moved = GazeboBlock('cam', None)
    assert applies_to_shape('base_collision', 'base', own, '_collision')
    assert not applies_to_shape('base_fixed_joint_lump__lid_visual_1', 'base', own, '_visual')
    assert applies_to_shape('base_fixed_joint_lump__cam_collision_2', 'base', moved, '_collision')
    assert not applies_to_shape('base_fixed_joint_lump__camshell_collision_2', 'base', moved, '_collision')
    assert not applies_to_shape('base_collision', 'base', moved, '_collision')


def test_values_are_read_like_libsdformat_reads_them() -> None:
    assert parse_number(' 1.5abc') == 1.5
    assert parse_number('abc') is None
    assert parse_number('7.9', integer=True) == 7.0
    block = parse_block(Extra('gazebo', '<gazebo reference="j"><cfmDamping>1</cfmDamping>'
                                        '<preserveFixedJoint>yes</preserveFixedJoint>'
                                        '<preserveFixedJoint>false</preserveFixedJoint>'
                                        '<kp>x</kp></gazebo>'))
    assert block is not None
    assert block.get('implicitSpringDamper') is True
    assert block.values['implicitSpringDamper'].tag == 'cfmDamping'
    assert block.get('preserveFixedJoint') is True  # once on, stays on
    assert [p.tag for p in block.problems] == ['kp']


# A joint named like a link: the reader calls joint [tool] [tool_joint] (SDFormat has one
# namespace for both), libsdformat keeps the URDF's name, so it puts a <gazebo reference="tool">
# block into link [tool] and joint [tool] alike (parser_urdf.cc InsertSDFExtensionLink and
# InsertSDFExtensionJoint match by name: the same in 12.3, 14.9, 15.4 and 16.1) and then
# refuses the model for the clash. Our output writes the joint's part into [tool_joint].
_CLASH_BLOCK = ('<gazebo reference="tool"><provideFeedback>true</provideFeedback>'
                '<springStiffness>20</springStiffness><springReference>0.1</springReference>'
                '<stopCfm>0.01</stopCfm><stopErp>0.3</stopErp><fudgeFactor>0.5</fudgeFactor>'
                '<implicitSpringDamper>true</implicitSpringDamper><selfCollide>true</selfCollide>'
                '<gravity>false</gravity>{switch}</gazebo>')
_CLASHES = {  # joint type, lumping switch
    'revolute': ('revolute', ''),
    'preserved': ('fixed', '<preserveFixedJoint>true</preserveFixedJoint>'),
    'locked': ('fixed', '<disableFixedJointLumping>true</disableFixedJointLumping>'),
}
_PROBES = {'fortress': None, 'harmonic': os.environ.get('SDFORMAT_PROBE_14'),
           'ionic': os.environ.get('SDFORMAT_PROBE_15'),
           'jetty': os.environ.get('SDFORMAT_PROBE_16')}


_INERTIAL = ('<inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" '
             'iyz="0" izz="0.01"/></inertial>')


def _clash_urdf(tmp_path: Path, kind: str) -> Path:
    jtype, switch = _CLASHES[kind]
    inertial = _INERTIAL
    axis = '' if jtype == 'fixed' else (
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>')
    path = tmp_path / f'{kind}.urdf'
    path.write_text(
        f'<?xml version="1.0"?>\n<robot name="r">\n<link name="base">{inertial}</link>\n'
        f'<joint name="tool" type="{jtype}"><parent link="base"/><child link="tool"/>'
        f'<origin xyz="0 0 0.1"/>{axis}</joint>\n<link name="tool">{inertial}</link>\n'
        f'{_CLASH_BLOCK.format(switch=switch)}\n</robot>\n')
    return path


@needs_ign
@pytest.mark.parametrize('kind', list(_CLASHES))
def test_block_of_a_joint_named_like_its_link_lands_on_both(kind: str, tmp_path: Path) -> None:
    path = _clash_urdf(tmp_path, kind)
    result = convert(path, uris='model')
    out = write(result, tmp_path)
    diffs = printout_differences(path, out, joints={'tool': 'tool_joint'})
    assert not diffs, '\n'.join(diffs)
    assert not [e for e in result.report.entries if e.kind is ReportKind.DROPPED]


@needs_ign
def test_block_of_a_lumped_link_leaves_the_joint_named_like_it(tmp_path: Path) -> None:
    # Link [tool] is lumped into [base]: its block goes with it (ReduceSDFExtensionToParent),
    # so the kept joint named [tool] gets none of it, in libsdformat and here.
    path = tmp_path / 'moved.urdf'
    path.write_text(
        f'<?xml version="1.0"?>\n<robot name="r">\n<link name="base">{_INERTIAL}</link>\n'
        '<joint name="f" type="fixed"><parent link="base"/><child link="tool"/>'
        f'<origin xyz="0 0 0.1"/></joint>\n<link name="tool">{_INERTIAL}</link>\n'
        '<joint name="tool" type="revolute"><parent link="base"/><child link="arm"/>'
        '<origin xyz="0 0 0.2"/><axis xyz="0 0 1"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>\n'
        f'<link name="arm">{_INERTIAL}</link>\n{_CLASH_BLOCK.format(switch="")}\n</robot>\n')
    result = convert(path, uris='model')
    diffs = printout_differences(path, write(result, tmp_path), joints={'tool': 'tool_joint'})
    assert not diffs, '\n'.join(diffs)
    dropped = {e.element.rsplit('/', 1)[-1]: e.message for e in result.report.entries
               if e.kind is ReportKind.DROPPED}
    assert {'provideFeedback', 'springStiffness', 'stopCfm'} <= set(dropped)
    assert 'applies to joints, and this block is about a link' in dropped['provideFeedback']


_COPIED = re.compile(r'/joint\[@name="([^"]+)"\]/([^:\]]+):.*not defined in SDF\. Copying')


def _copied_into_joints(probe: Path, path: Path) -> set[tuple[str, str]]:
    """(joint, element) libsdformat copies into a joint without a spec for it, from its warnings."""
    run = subprocess.run([str(probe), str(path)], capture_output=True, text=True, timeout=60,
                         check=False, cwd=str(path.parent))
    return set(_COPIED.findall(run.stderr))


def _probe(gazebo: str) -> Path:
    if gazebo == 'fortress':
        if not probe_available():
            pytest.skip(str(probe_unavailable_reason()))
        return build_probe()
    path = _PROBES[gazebo]
    if not path or not Path(path).is_file():
        pytest.skip(f'no libsdformat probe for {gazebo} (SDFORMAT_PROBE_1x)')
    return Path(path)


def _convert_for(path: Path, gazebo: str, tmp_path: Path) -> Path:
    loaded = load_string(path.read_text(), str(path), gazebo=gazebo)
    return write(convert_to_sdf(loaded, ConversionOptions(gazebo=gazebo)), tmp_path)


@pytest.mark.parametrize('gazebo', list(_PROBES))
@pytest.mark.parametrize('kind', list(_CLASHES))
def test_joint_named_like_its_link_is_refused_and_its_conversion_loads(kind: str, gazebo: str,
                                                                      tmp_path: Path) -> None:
    probe = _probe(gazebo)
    path = _clash_urdf(tmp_path, kind)
    ref = run_probe(path, probe=probe)
    assert not ref['valid'] and 'DUPLICATE_NAME' in {e['code'] for e in ref['errors']}
    loaded = load_string(path.read_text(), str(path), gazebo=gazebo)
    assert 'DUPLICATE_NAME' in {d.code.name for d in loaded.errors}
    back = run_probe(_convert_for(path, gazebo, tmp_path), probe=probe)
    assert back['valid'], back['errors']
    # the joint as libsdformat builds it (its type, and the limits of the axis the block
    # gives a fixed joint), under our name
    assert [(j['name'], j['type'], j['limit']) for j in back['joints']] == [
        ('r::tool_joint', j['type'], j['limit']) for j in ref['joints']]


@pytest.mark.parametrize('gazebo', [g for g in _PROBES if g != 'fortress'])
@pytest.mark.parametrize('kind', list(_CLASHES))
def test_block_of_a_joint_named_like_its_link_judged_by_libsdformat(kind: str, gazebo: str,
                                                                   tmp_path: Path) -> None:
    # libsdformat 14+ warns of each element it copies without a spec for it: the block's
    # <gravity> blob and its physics/ode/provide_feedback show that the block fills joint
    # [tool]; loading our output, the same go into [tool_joint]. (12.3 copies without a
    # word: its printout judges, test_block_of_a_joint_named_like_its_link_lands_on_both.)
    probe = _probe(gazebo)
    path = _clash_urdf(tmp_path, kind)
    copied = _copied_into_joints(probe, path)
    assert {('tool', 'gravity'), ('tool', 'physics/ode/provide_feedback')} <= copied
    out = _convert_for(path, gazebo, tmp_path)
    assert _copied_into_joints(probe, out) == {('tool_joint', p) for j, p in copied if j == 'tool'}
