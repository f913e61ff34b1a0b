"""SDF -> URDF: frames resolved first, every link where the SDFormat put it, the tree chosen."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from lxml import etree

from convert.urdf.urdf_readback import (
    TOL,
    axis_errors,
    by_name,
    convert,
    link_pose_errors,
    load,
    pose_diff,
    readback,
)
from sdf_tools.convert import ReportKind
from sdf_tools.errors import ErrorCode
from sdf_tools.load import load_file
from sdf_tools.resolved import inspect_json

DATA = Path(__file__).resolve().parents[2] / 'data'
CONV = DATA / 'convert_urdf'


def _entries(result, kind: ReportKind | None = None, element: str | None = None) -> list[str]:
    return [e.message for e in result.report.entries
            if (kind is None or e.kind is kind) and (element is None or e.element == element)]


def test_every_link_and_axis_of_the_feature_model_reads_back_exactly() -> None:
    loaded = load(str(CONV / 'arm_offsets.sdf'))
    result = convert(loaded, scope_separator='/')
    assert result.ok, result.report.errors
    back = readback(result.text)
    errors = link_pose_errors(loaded, back, 'arm', '/')
    assert set(errors) == {'base', 'upper', 'hand::palm', 'hand::finger'}
    assert max(errors.values()) <= TOL, errors
    axes = axis_errors(loaded, back, 'arm', '/')
    assert set(axes) == {'shoulder.axis', 'elbow.axis', 'hand::finger_joint.axis'}
    assert max(axes.values()) <= TOL, axes


@pytest.mark.parametrize('name', ['joints_all.sdf', 'legacy_1_5.sdf', 'legacy_1_6_frames.sdf',
                                  'v1_7_nested.sdf', 'geometry_all.sdf', 'sensors_plugins.sdf'])
def test_own_test_models_read_back_with_every_link_in_place(name: str) -> None:
    loaded = load(str(DATA / 'sdf' / name))
    model = inspect_json(loaded)['models'][0]['name']
    result = convert(loaded, scope_separator='__')
    assert result.ok, result.report.errors
    back = readback(result.text)
    errors = link_pose_errors(loaded, back, model, '__')
    assert errors and max(errors.values()) <= TOL, errors
    axes = axis_errors(loaded, back, model, '__')
    axes.pop('gearbox.axis', None)  # written about its second axis (reported)
    assert max(axes.values(), default=0.0) <= TOL, axes


def test_joint_frame_away_from_its_child_moves_a_massless_link_at_the_joint() -> None:
    loaded = load(str(CONV / 'arm_offsets.sdf'))
    result = convert(loaded, scope_separator='/')
    robot = etree.fromstring(result.text.encode())
    joint = robot.find("joint[@name='shoulder']")
    assert joint.find('child').get('link') == 'shoulder__frame'
    fixed = robot.find("joint[@name='shoulder__frame_fixed']")
    assert fixed.get('type') == 'fixed' and fixed.find('child').get('link') == 'upper'
    assert robot.find("link[@name='shoulder__frame']/inertial") is None
    assert any('[shoulder__frame]' in m for m in _entries(result, ReportKind.REWRITTEN,
                                                          'joint[shoulder]'))
    # The joint itself sits where the SDFormat put it.
    back = by_name(inspect_json(readback(result.text))['joints'], 'arm')
    src = by_name(inspect_json(loaded)['joints'], 'arm')
    assert pose_diff(back['shoulder']['pose'], src['shoulder']['pose']) <= TOL


def test_joint_at_its_child_frame_needs_no_extra_link(write_sdf: Callable[..., Path]) -> None:
    path = write_sdf('<model name="m"><link name="a"/><link name="b"><pose>1 0 0 0 0 0.5</pose></link>'
                     '<joint name="j" type="revolute"><parent>a</parent><child>b</child>'
                     '<axis><xyz>0 0 1</xyz></axis></joint></model>')
    result = convert(load(str(path)))
    robot = etree.fromstring(result.text.encode())
    assert [lk.get('name') for lk in robot.iter('link')] == ['a', 'b']
    assert robot.find("joint[@name='j']/origin").get('xyz') == '1 0 0'
    assert robot.find("joint[@name='j']/origin").get('rpy') == '0 0 0.5'


def test_fixed_joint_away_from_its_child_is_written_at_the_child(write_sdf: Callable[..., Path]) -> None:
    path = write_sdf('<model name="m"><link name="a"/><link name="b"><pose>1 0 0 0 0 0</pose></link>'
                     '<joint name="j" type="fixed"><pose>0 0 1 0 0 0</pose><parent>a</parent>'
                     '<child>b</child></joint></model>')
    loaded = load(str(path))
    result = convert(loaded)
    robot = etree.fromstring(result.text.encode())
    assert robot.find("joint[@name='j']/child").get('link') == 'b'
    assert len(robot.findall('link')) == 2
    assert _entries(result, ReportKind.REWRITTEN, 'joint[j]')
    assert robot.find("gazebo[@reference='j']/preserveFixedJoint").text == 'true'
    assert max(link_pose_errors(loaded, readback(result.text), 'm').values()) <= TOL


def test_link_without_inertial_gets_one_kilogram_and_the_file_says_so(
        write_sdf: Callable[..., Path]) -> None:
    path = write_sdf('<model name="m">\n<link name="bare"/>\n</model>')
    result = convert(load(str(path)))
    robot = etree.fromstring(result.text.encode())
    link = robot.find("link[@name='bare']")
    assert link.find('inertial/mass').get('value') == '1'
    assert link.find('inertial/inertia').attrib == {'ixx': '1', 'ixy': '0', 'ixz': '0', 'iyy': '1',
                                                    'iyz': '0', 'izz': '1'}
    notes = [c.text for c in link.iter(etree.Comment)]
    assert any('1 kg' in n for n in notes)
    [entry] = [e for e in result.report.entries if e.kind is ReportKind.ASSUMED]
    assert entry.element == 'link[bare]' and entry.line == 4 and entry.file == str(path)


def test_output_starts_with_a_comment_listing_the_report() -> None:
    result = convert(load(str(CONV / 'arm_offsets.sdf')))
    head = result.text.split('\n<robot ', 1)[0]
    assert '<!--' in head
    for entry in result.report.entries:
        assert str(entry).replace('--', '- -') in head


def test_nested_models_are_flattened_with_the_separator() -> None:
    loaded = load(str(CONV / 'arm_offsets.sdf'))
    for sep in ('::', '/', '_'):
        result = convert(loaded, scope_separator=sep)
        robot = etree.fromstring(result.text.encode())
        names = {lk.get('name') for lk in robot.iter('link')}
        assert {f'hand{sep}palm', f'hand{sep}finger', f'hand{sep}grasp'} <= names
        assert robot.find(f"joint[@name='hand{sep}finger_joint']/parent").get('link') == f'hand{sep}palm'
    assert _entries(result, ReportKind.RENAMED, 'model[hand]')


@pytest.mark.parametrize('gazebo, sep, refused', [('ionic', '::', True), ('fortress', '::', False),
                                                   ('jetty', '__', False)])
def test_scoped_names_gazebo_refuses_are_reported(tmp_path: Path, gazebo: str, sep: str,
                                                  refused: bool) -> None:
    # gz-sim's nested_model.sdf: libsdformat 14+ refuses '::' in URDF names (RESERVED_NAME)
    from sdf_tools.gazebo import using

    with using(gazebo):
        result = convert(load(str(CONV / 'arm_offsets.sdf')), scope_separator=sep)
        out = tmp_path / 'out.urdf'
        out.write_text(result.text)
        back = load_file(str(out))
    said = [e for e in result.report.entries
            if e.kind is ReportKind.KEPT and 'RESERVED_NAME' in e.message]
    assert bool(said) is refused
    assert (ErrorCode.RESERVED_NAME in {d.code for d in back.diagnostics}) is refused


def test_flattened_name_clash_renames_the_later_element(write_sdf: Callable[..., Path]) -> None:
    path = write_sdf('<model name="m"><link name="in_l"/><model name="in"><link name="l">'
                     '<pose>0 0 1 0 0 0</pose></link></model>'
                     '<joint name="j" type="fixed"><parent>in_l</parent><child>in::l</child></joint></model>')
    loaded = load(str(path))
    result = convert(loaded, scope_separator='_')
    names = [lk.get('name') for lk in etree.fromstring(result.text.encode()).iter('link')]
    assert names == ['in_l', 'in_l_2']
    assert any('[in_l_2]' in m for m in _entries(result, ReportKind.RENAMED, 'link[in::l]'))


def test_frames_become_fixed_links_or_are_dropped() -> None:
    loaded = load(str(CONV / 'arm_offsets.sdf'))
    result = convert(loaded, scope_separator='/')
    back = by_name(inspect_json(readback(result.text))['links'], 'arm')
    src = {f['name'][len('arm::'):]: f for f in inspect_json(loaded)['frames']}
    for name in ('shoulder_mount', 'tool_tip', 'hand::grasp'):
        other = back[name.replace('::', '/')]
        assert pose_diff(other['pose'], src[name]['pose']) <= TOL
    dropped = convert(loaded, frames_as_links=False)
    names = {lk.get('name') for lk in etree.fromstring(dropped.text.encode()).iter('link')}
    assert 'tool_tip' not in names and 'shoulder_mount' not in names
    assert any(e.element == 'frame[tool_tip]' and e.kind is ReportKind.DROPPED
               for e in dropped.report.entries)


def test_model_pose_in_the_world_is_kept_as_robot_origin() -> None:
    loaded = load(str(CONV / 'arm_offsets.sdf'))
    result = convert(loaded)
    origin = etree.fromstring(result.text.encode()).find('origin')
    assert origin.get('xyz') == '1 2 0.6'
    assert _entries(result, ReportKind.DROPPED, 'world[lab]')
    assert _entries(result, ReportKind.DROPPED, 'world[lab]/light[sun]')


def test_world_with_several_models_needs_the_model_option() -> None:
    loaded = load(str(CONV / 'world_two_models.sdf'))
    failed = convert(loaded)
    assert not failed.ok and failed.text is None
    [err] = failed.report.errors
    assert '[one], [two]' in err.message and '--model' in err.message
    picked = convert(loaded, model='two')
    assert picked.ok
    back = readback(picked.text)
    assert max(link_pose_errors(loaded, back, 'two').values()) <= TOL
    missing = convert(loaded, model='three')
    assert not missing.ok and 'no model [three]' in missing.report.errors[0].message


def test_loop_is_an_error_naming_it_unless_break_loops() -> None:
    loaded = load(str(CONV / 'loop.sdf'))
    failed = convert(loaded)
    assert not failed.ok and failed.text is None
    [err] = failed.report.errors
    assert err.code is ErrorCode.URDF_INVALID and err.line == 12 and err.file == str(CONV / 'loop.sdf')
    for part in ('link [base] -> joint [ja] -> link [a] -> joint [jc] -> link [c]',
                 'link [base] -> joint [jb] -> link [b] -> joint [jd] -> link [c]', 'break_loops'):
        assert part in err.message
    cut = convert(loaded, break_loops=True)
    assert cut.ok
    assert any('cut to break the loop' in m for m in _entries(cut, ReportKind.DROPPED, 'joint[jd]'))
    assert 'name="jd"' not in cut.text
    assert max(link_pose_errors(loaded, readback(cut.text), 'fourbar').values()) <= TOL


def test_cycle_without_root_is_cut_at_the_canonical_link() -> None:
    loaded = load(str(CONV / 'cycle.sdf'))
    [err] = convert(loaded).report.errors
    assert 'link [b] -> joint [j2] -> link [c] -> joint [j3] -> link [a] -> joint [j1] -> link [b]' \
        in err.message
    cut = convert(loaded, break_loops=True)
    assert cut.ok and 'name="j1"' not in cut.text


def test_link_with_two_parent_joints_is_an_error() -> None:
    loaded = load(str(CONV / 'two_parents.sdf'))
    [err] = convert(loaded).report.errors
    assert 'link [c] is the child of two joints, [ac] and [bc]' in err.message and err.line == 9


def test_free_bodies_and_static_models_are_welded_and_reported() -> None:
    loaded = load(str(CONV / 'free_bodies.sdf'))
    result = convert(loaded)
    assert result.ok
    robot = etree.fromstring(result.text.encode())
    fixed = {j.find('child').get('link'): j.find('parent').get('link')
             for j in robot.iter('joint') if j.get('type') == 'fixed'}
    assert fixed['shelf::board'] == 'world' and fixed['second'] == 'world'
    assert fixed['shelf::mark'] == 'world'
    kinds = {e.element: e.kind for e in result.report.entries}
    assert kinds['link[second]'] is ReportKind.APPROXIMATED
    assert kinds['link[shelf::board]'] is ReportKind.REWRITTEN
    back = readback(convert(loaded, scope_separator='/').text)
    assert max(link_pose_errors(loaded, back, 'loose', '/').values()) <= TOL


def test_fixed_base_option_adds_a_world_joint(write_sdf: Callable[..., Path]) -> None:
    path = write_sdf('<model name="m"><pose>0 0 2 0 0 0</pose><link name="a"><pose>1 0 0 0 0 0</pose>'
                     '</link></model>')
    loaded = load(str(path))
    result = convert(loaded, floating_base=False)
    robot = etree.fromstring(result.text.encode())
    assert robot.find("joint/parent[@link='world']") is not None
    assert max(link_pose_errors(loaded, readback(result.text), 'm').values()) <= TOL
    floating = etree.fromstring(convert(loaded).text.encode())
    assert floating.find("link[@name='world']") is None
    assert floating.find('origin').get('xyz') == '1 0 2'


@pytest.mark.parametrize('jtype,joints,kind', [
    ('universal', ['j', 'j__axis2'], ReportKind.APPROXIMATED),
    ('revolute2', ['j', 'j__axis2'], ReportKind.APPROXIMATED),
    ('ball', ['j', 'j__axis2', 'j__axis3'], ReportKind.APPROXIMATED),
    ('screw', ['j'], ReportKind.APPROXIMATED),
])
def test_joint_types_urdf_lacks_are_chains_of_its_joints(
        write_sdf: Callable[..., Path], jtype: str, joints: list[str], kind: ReportKind) -> None:
    path = write_sdf('<model name="m"><link name="a"/><link name="b"><pose>0 0 1 0 0 0</pose></link>'
                     f'<joint name="j" type="{jtype}"><parent>a</parent><child>b</child>'
                     '<axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint></model>')
    loaded = load(str(path))
    result = convert(loaded)
    robot = etree.fromstring(result.text.encode())
    assert [j.get('name') for j in robot.iter('joint')] == joints
    assert robot.find(f"joint[@name='{joints[-1]}']/child").get('link') == 'b'
    middle = [lk for lk in robot.iter('link') if lk.get('name') not in ('a', 'b')]
    for link in middle:  # massive, or libsdformat would drop everything below
        assert float(link.find('inertial/mass').get('value')) == 1e-3
    assert _entries(result, kind, 'joint[j]')
    back = readback(result.text)
    assert max(link_pose_errors(loaded, back, 'm').values()) <= TOL
    assert max(axis_errors(loaded, back, 'm').values(), default=0.0) <= TOL


def test_gearbox_between_two_driven_links_is_dropped_not_a_loop() -> None:
    body = (DATA / 'sdf' / 'joints_all.sdf').read_text().replace(
        '<joint name="to_frame"', '<joint name="drive" type="revolute"><parent>l6</parent>'
        '<child>l8</child><axis><xyz>0 0 1</xyz></axis></joint><joint name="to_frame"')
    from sdf_tools.load import load_string
    loaded = load_string(body, str(DATA / 'sdf' / 'joints_all.sdf'))
    assert loaded.valid
    result = convert(loaded)
    assert result.ok
    assert any('gearbox' in m for m in _entries(result, ReportKind.DROPPED, 'joint[gearbox]'))


def test_limits_dynamics_and_mimic_are_written(write_sdf: Callable[..., Path]) -> None:
    path = write_sdf('<model name="m"><link name="a"/><link name="b"/><link name="c"/>'
                     '<joint name="lead" type="revolute"><parent>a</parent><child>b</child><axis>'
                     '<xyz>0 0 1</xyz><limit><lower>-1</lower><upper>2</upper><effort>3</effort>'
                     '<velocity>4</velocity></limit><dynamics><damping>0.5</damping><friction>0.25'
                     '</friction><spring_stiffness>7</spring_stiffness></dynamics></axis></joint>'
                     '<joint name="follow" type="continuous"><parent>b</parent><child>c</child><axis>'
                     '<xyz>0 0 1</xyz><mimic joint="lead"><multiplier>-2</multiplier><offset>0.1'
                     '</offset></mimic></axis></joint></model>', version='1.11')
    result = convert(load(str(path)))
    robot = etree.fromstring(result.text.encode())
    assert robot.find("joint[@name='lead']/limit").attrib == {
        'lower': '-1', 'upper': '2', 'effort': '3', 'velocity': '4'}
    assert robot.find("joint[@name='lead']/dynamics").attrib == {'damping': '0.5', 'friction': '0.25'}
    assert robot.find("gazebo[@reference='lead']/springStiffness").text == '7'
    assert robot.find("joint[@name='follow']/mimic").attrib == {
        'joint': 'lead', 'multiplier': '-2', 'offset': '0.1'}
    assert robot.find("joint[@name='follow']/limit") is None


def test_invalid_input_gives_no_text_and_the_input_errors() -> None:
    result = convert(load_file(str(CONV / 'broken.sdf')))
    assert not result.ok and result.text is None
    assert any(e.code is ErrorCode.POSE_RELATIVE_TO_INVALID and e.line == 5
               for e in result.report.errors)


def test_model_without_links_is_an_error() -> None:
    loaded = load(str(DATA / 'sdf' / 'static_no_links.sdf'))
    result = convert(loaded, model='marker')
    assert not result.ok and 'has no link' in result.report.errors[0].message


def test_options_for_sdf_output_only_are_reported_as_without_effect() -> None:
    result = convert(load(str(CONV / 'loop.sdf')), break_loops=True, keep_fixed_joints=True)
    assert _entries(result, ReportKind.ASSUMED, 'option[keep_fixed_joints]')


def test_bad_option_value_fails_the_conversion() -> None:
    result = convert(load(str(CONV / 'loop.sdf')), uris='nope')
    assert not result.ok and result.report.errors[0].code is ErrorCode.PARAMETER_ERROR


def test_urdf_input_is_normalised(data_dir: Path) -> None:
    loaded = load(str(data_dir / 'urdf' / 'arm.urdf'))
    result = convert(loaded)
    assert result.ok
    model = inspect_json(loaded)['models'][0]['name']
    assert max(link_pose_errors(loaded, readback(result.text), model).values()) <= TOL


def test_joint_ends_named_by_frames_resolve_to_their_links(write_sdf: Callable[..., Path]) -> None:
    path = write_sdf('<model name="m"><link name="a"/><link name="b"><pose>0 1 0 0 0 0</pose></link>'
                     '<frame name="on_a" attached_to="a"><pose>0 0 1 0 0 0</pose></frame>'
                     '<frame name="on_b" attached_to="b"><pose>1 0 0 0 0 0</pose></frame>'
                     '<joint name="j" type="revolute"><parent>on_a</parent><child>on_b</child>'
                     '<axis><xyz>0 0 1</xyz></axis></joint></model>')
    loaded = load(str(path))
    result = convert(loaded)
    robot = etree.fromstring(result.text.encode())
    assert robot.find("joint[@name='j']/parent").get('link') == 'a'
    assert robot.find("joint[@name='j']/child").get('link') == 'j__frame'
    back = readback(result.text)
    assert max(link_pose_errors(loaded, back, 'm').values()) <= TOL
    assert max(axis_errors(loaded, back, 'm').values()) <= TOL


def test_a_long_chain_converts_quickly() -> None:
    """Relative poses are composed through the nearest common ancestor, not the root."""
    import time

    from sdf_tools.load import load_string
    parts = ['<link name="l0"/>']
    for i in range(1, 1500):
        parts.append(f'<link name="l{i}"><pose relative_to="j{i}">0 0 0.1 0 0 0</pose></link>'
                     f'<joint name="j{i}" type="revolute"><pose relative_to="l{i - 1}">0 0 1 0 0.1 0'
                     f'</pose><parent>l{i - 1}</parent><child>l{i}</child><axis><xyz>0 1 0</xyz>'
                     '</axis></joint>')
    loaded = load_string('<sdf version="1.9"><model name="m">' + ''.join(parts) + '</model></sdf>',
                         'chain.sdf')
    start = time.perf_counter()
    result = convert(loaded)
    assert result.ok and time.perf_counter() - start < 10.0
    assert '<origin xyz="0 0 1" rpy="0 0.1 0"/>' in result.text


@pytest.mark.parametrize('name', ['convert/joint_kinds.urdf', 'urdf/floating_planar.urdf'])
def test_urdf_planar_and_floating_joints_are_written_back_as_they_are(name: str) -> None:
    from sdf_tools.convert.api import convert_loaded
    from sdf_tools.convert.options import ConversionOptions

    src = load_file(str(DATA / name))
    result = convert_loaded(src, to='urdf', options=ConversionOptions())
    assert result.ok, [str(e) for e in result.report.errors]
    written = {j.get('name'): j.get('type') for j in etree.fromstring(
        (result.text or '').encode()).iter('joint')}
    assert src.document is not None and src.document.model is not None
    for joint in src.document.model.joints:
        if joint.type in ('planar', 'floating'):
            assert written[joint.name] == joint.type
