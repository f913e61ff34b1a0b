"""libsdformat's own load-time rules, one small model each, judged by libsdformat 12.

Each invalid model trips one rule: we must report libsdformat's code at the line of the
offending element, libsdformat (the probe) must report the same code (at the same line
when it gives one; libsdformat 12 gives none for its DOM checks), and the two reports must
agree as everywhere else. The valid models must load in both with the same numbers.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from support.libsdformat import ProbeError, probe_available, probe_unavailable_reason, run_probe

from differential.reference import differences, ours_report

DATA = Path(__file__).resolve().parents[1] / 'data' / 'sdf_rules'

pytestmark = pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))

# (file, code libsdformat gives, line of the element we point at)
INVALID = [
    # sdf::Material::Load
    ('material_script_no_uri.sdf', 'ELEMENT_INVALID', 8),
    ('material_script_no_name.sdf', 'ELEMENT_MISSING', 8),
    ('material_shader_type.sdf', 'ELEMENT_INVALID', 8),
    ('material_normal_map_missing.sdf', 'ELEMENT_MISSING', 8),
    # sdf::Sensor::Load and the camera / force-torque / noise loaders below it
    ('sensor_type_unknown.sdf', 'ATTRIBUTE_INVALID', 5),
    ('sensor_camera_format.sdf', 'ELEMENT_INVALID', 8),
    ('sensor_camera_noise_type.sdf', 'ELEMENT_MISSING', 9),
    ('sensor_force_torque_values.sdf', 'ELEMENT_INVALID', 10),
    ('sensor_force_torque_values.sdf', 'ELEMENT_INVALID', 11),
    ('sensor_force_torque_values.sdf', 'ELEMENT_MISSING', 12),
    # joints: the implicit __model__ frame is no child; parent/child required except in ball
    ('joint_child_model_frame.sdf', 'JOINT_CHILD_LINK_INVALID', 5),
    ('joint_missing_parent.sdf', 'ELEMENT_MISSING', 6),
    ('joint_missing_child.sdf', 'ELEMENT_MISSING', 6),
    ('joint_ball_missing_parent.sdf', 'JOINT_PARENT_LINK_INVALID', 6),
    ('joint_ball_missing_child.sdf', 'JOINT_CHILD_LINK_INVALID', 6),
    # a double too large for a double is no infinity
    ('joint_limit_overflow.sdf', 'ELEMENT_INVALID', 9),
    # sdf::Root::Load: loadUniqueRepeated first, then one entity per root
    ('root_duplicate_models.sdf', 'DUPLICATE_NAME', 6),
    ('include_at_root_and_model.sdf', 'ELEMENT_INCORRECT_TYPE', 6),
    # <include> of a directory needs model.config or manifest.xml
    ('include_dir_without_config.sdf', 'URI_LOOKUP', 5),
    # ... and a model.config naming a file that is not there cannot be read (at the <uri>)
    ('include_config_names_missing_file.sdf', 'FILE_READ', 7),
    # merge-include into a world is SDFormat 1.10+ (libsdformat 12 refuses it)
    ('world_merge_include_1_9.sdf', 'MERGE_INCLUDE_UNSUPPORTED', 4),
    # <experimental:params> (ParamPassing.cc): each broken instruction, at its line
    ('params_no_element_id.sdf', 'ATTRIBUTE_MISSING', 7),
    ('params_bad_action.sdf', 'ATTRIBUTE_INVALID', 7),
    ('params_unknown_id.sdf', 'ELEMENT_MISSING', 7),
    ('params_trailing_colons.sdf', 'ATTRIBUTE_INVALID', 7),
    ('params_bad_attribute.sdf', 'ATTRIBUTE_INVALID', 7),
    ('params_child_without_action.sdf', 'ATTRIBUTE_MISSING', 8),
    # libsdformat's lookup never finds a one-letter name at the start of an element_id
    ('params_remove_add.sdf', 'ELEMENT_MISSING', 7),
    # 1.7 -> 1.8 unflattening cuts one prefix off a relative_to: a deeper link's reference
    # to its outer model's link then names nothing in its own model
    ('flattened_1_7_relative_to_outer.sdf', 'POSE_RELATIVE_TO_INVALID', 9),
    # libsdformat 12 adds a custom attribute as required: an empty one is refused (14.3+
    # accepts it, gazebosim/sdformat#1407; the newer targets: test/sdf/spec/test_check_targets.py)
    ('custom_attribute_empty.sdf', 'ATTRIBUTE_MISSING', 4),
    # air_speed is a sensor type from libsdformat 13.3 on (#1215; test/sdf/test_domchecks.py)
    ('sensor_type_air_speed_1_9.sdf', 'ATTRIBUTE_INVALID', 5),
]

VALID = [
    'joint_limit_inf.sdf',
    'joint_limit_infinity_spelled.sdf',
    'include_dir_manifest.sdf',
    'include_at_root.sdf',
    # a world has joints from 1.10 on; before, <joint> is an unknown element, no joint
    'world_joint_in_1_9.sdf',
    # no libsdformat version checks a nested model's joint parent or axis frame (under bad/:
    # valid, but no exporter can place a joint without a parent)
    'bad/nested_joint_unchecked.sdf',
    # <experimental:params> that libsdformat applies: the changed model is compared
    'params_modify.sdf',
    'params_add.sdf',
    'params_replace_children.sdf',
    # instructions aimed inside a nested <include> of the included model
    'params_nested_include.sdf',
    # the experimental prefix declared as a namespace; a custom attribute in a modify
    'params_declared_namespace.sdf',
    # flattened 'M1::L1' names of a 1.7 world model are nested models again (1.7 -> 1.8)
    'flattened_1_7.sdf',
    # ... with the references inside links (sensor, camera), joints (axis, sensor), grippers
    'flattened_1_7_sensors_gripper.sdf',
    # older files: an axis in the joint frame (1.5; 1.4 with use_parent_model_frame false)
    'flattened_1_5_axis.sdf',
    'flattened_1_4_axis_in_joint_frame.sdf',
    # before 1.7 a pose names its frame with @frame (1.6 -> 1.7 renames it relative_to)
    'flattened_1_6_pose_frame.sdf',
    # the recipe unflattens models of a world only: a top-level model keeps its flat names
    'flattened_1_7_root_model_kept.sdf',
    # an actor without <skin>, a <skin> or <animation> without <filename>: '__default__'
    'actor_default_files.sdf',
    # required children are those of the converted (1.9) document: a 1.4 joint without <axis>
    'joint_1_4_without_axis.sdf',
    # a plane's normal is kept normalised
    'plane_normal_not_unit.sdf',
    # a world frame named like a model is renamed <name>_frame by libsdformat 12 (14+ refuses
    # it in 1.7+ files, gazebosim/sdformat#1311: test/sdf/test_world.py)
    'world_frame_named_like_model.sdf',
]


@pytest.mark.parametrize('name, code, line', INVALID,
                         ids=[f'{n}:{c}:{ln}' for n, c, ln in INVALID])
def test_rule_reported_with_libsdformat_code_and_line(name: str, code: str, line: int) -> None:
    path = DATA / name
    ours = ours_report(path)
    ref = run_probe(path)
    assert not ours['valid']
    ours_at = {(e['code'], e['line']) for e in ours['errors']}
    assert (code, line) in ours_at, ours['errors']
    ref_lines = {e['line'] for e in ref['errors'] if e['code'] == code}
    assert ref_lines, f'libsdformat does not report {code}: {ref["errors"]}'
    assert None in ref_lines or line in ref_lines, ref['errors']
    diffs = differences(path)
    assert not diffs, '\n'.join(diffs)


@pytest.mark.parametrize('name', VALID)
def test_model_libsdformat_accepts_loads_alike(name: str) -> None:
    path = DATA / name
    ours = ours_report(path)
    assert ours['valid'], ours['errors']
    diffs = differences(path)
    assert not diffs, '\n'.join(diffs)


def test_actor_files_default_as_libsdformat_reads_them() -> None:
    ours = ours_report(DATA / 'actor_default_files.sdf')
    ref = run_probe(DATA / 'actor_default_files.sdf')
    for report in (ours, ref):
        actors = {a['name']: a for a in report['actors']}
        assert actors['no_skin']['skin'] == '__default__'
        assert actors['no_skin']['animations'][0]['filename'] == '__default__'
        assert actors['skin_without_filename']['skin'] == '__default__'


def test_required_children_are_judged_after_the_conversion() -> None:
    ours = ours_report(DATA / 'joint_1_4_without_axis.sdf')
    assert ours['valid'], ours['errors']
    # 1.4 requires <velocity_decay>; libsdformat 12 reads the 1.9 document and adds nothing
    assert not [w for w in ours['warnings'] if 'velocity_decay' in w['message']], ours['warnings']


def test_infinite_limits_are_unbounded() -> None:
    ours = ours_report(DATA / 'joint_limit_inf.sdf')
    (joint,) = ours['joints']
    assert joint['limit']['lower'] is None
    assert joint['limit']['upper'] is None
    assert joint['limit']['effort'] is None


def test_include_at_root_applies_name_and_pose() -> None:
    ours = ours_report(DATA / 'include_at_root.sdf')
    (model,) = ours['models']
    assert model['name'] == 'renamed'
    assert model['pose']['xyz'] == [1.0, 2.0, 3.0]


def test_nan_limit_stays_an_error_although_libsdformat_reads_it() -> None:
    """Deliberate: libsdformat (every version) reads ``nan`` as a double; a NaN bound is junk."""
    path = DATA / 'joint_limit_nan.sdf'
    ours = ours_report(path)
    assert {(e['code'], e['line']) for e in ours['errors']} == {('ELEMENT_INVALID', 9)}
    assert run_probe(path)['valid'] is True


def test_axis_expressed_in_checked_as_libsdformat_13_3_does() -> None:
    """Deliberate: libsdformat 12 does not check ``expressed_in``; 13.3 and later do."""
    path = DATA / 'axis_expressed_in_invalid.sdf'
    ours = ours_report(path)
    assert {(e['code'], e['line']) for e in ours['errors']} == {
        ('JOINT_AXIS_EXPRESSED_IN_INVALID', 6)}
    assert run_probe(path)['valid'] is True


def test_include_found_only_beside_the_file_is_said(tmp_path: Path) -> None:
    """Deliberate: libsdformat (every version) looks in the working directory and SDF_PATH
    only; we also look beside the including file, and say so with a warning."""
    path = DATA / 'include_dir_manifest.sdf'
    ref = run_probe(path, cwd=tmp_path, env={'SDF_PATH': None})
    assert 'URI_LOOKUP' in {e['code'] for e in ref['errors']}
    ours = ours_report(path)  # the working directory is not the file's
    assert ours['valid'], ours['errors']
    assert ('URI_LOOKUP', 5) in {(w['code'], w['line']) for w in ours['warnings']}


def test_params_change_the_included_model() -> None:
    ours = ours_report(DATA / 'params_modify.sdf')
    tip = next(link for link in ours['links'] if link['name'] == 'arm::tip')
    assert tip['pose']['xyz'] == [0.1, 0.2, 0.7]
    base = next(link for link in ours['links'] if link['name'] == 'arm::base')
    assert base['visuals'][0]['geometry'] == {'type': 'box', 'size': [1.0, 2.0, 3.0]}


def test_params_add_of_an_existing_name_refused_by_both() -> None:
    """libsdformat's duplicate check looks for ``::tip`` and misses: the link is added, and
    the model then holds two links [tip] (DUPLICATE_NAME from the model, as here)."""
    path = DATA / 'params_add_existing.sdf'
    ours = ours_report(path)
    assert 'DUPLICATE_NAME' in {e['code'] for e in ours['errors']}
    diffs = differences(path)
    assert not diffs, '\n'.join(diffs)


def test_params_reach_into_nested_includes() -> None:
    ours = ours_report(DATA / 'params_nested_include.sdf')
    links = {link['name']: link for link in ours['links']}
    box = links['shelf_unit::top_drawer::box']
    assert box['visuals'][0]['geometry'] == {'type': 'box', 'size': [0.5, 0.5, 0.5]}
    assert [c['name'] for c in box['collisions']] == ['bump']
    assert links['shelf_unit::top_drawer::knob']['pose']['xyz'] == [0.3, 0.0, 0.8]


def test_params_with_declared_namespace_are_applied() -> None:
    ours = ours_report(DATA / 'params_declared_namespace.sdf')
    tip = next(link for link in ours['links'] if link['name'] == 'arm::tip')
    assert tip['pose']['xyz'] == [0.0, 0.0, 0.9]


def test_flattened_1_7_names_become_nested_models() -> None:
    """``Converter::Unflatten``: ``M1::__model__`` is M1's own frame (pose, canonical link).

    A nested model without ``::`` is unflattened in turn and ends its parent's scan, so
    ``R``'s later ``N::L`` stays a flat link name while ``Q``'s ``K::L`` becomes ``Q::K``.
    """
    ours = ours_report(DATA / 'flattened_1_7.sdf')
    assert ours['valid'], ours['errors']
    models = {m['name']: m for m in ours['models']}
    assert set(models) == {'P', 'P::M1', 'P::M1::M2', 'P::M1::M3', 'R', 'R::Q', 'R::Q::K'}
    assert models['P::M1']['canonical_link'] == 'P::M1::L1'
    assert [f['name'] for f in ours['frames']] == ['P::M1::F1']
    assert {'P::M1::J'} == {j['name'] for j in ours['joints']}
    assert 'R::N::L' in {link['name'] for link in ours['links']}


@pytest.mark.parametrize('name, line, asserted', [
    # a flattened joint M1::J whose parent is outside M1
    ('flattened_1_7_parent_outside.sdf', 8, "Joint's <parent>"),
    # an axis the steps before 1.7 -> 1.8 put in the model frame (expressed_in="__model__"):
    # 1.6 with use_parent_model_frame true; 1.4, where 1.4 -> 1.5 adds it to every axis
    ('flattened_1_6_axis_in_model_frame.sdf', 15, "<xyz>'s attribute 'expressed_in'"),
    ('flattened_1_4_axis.sdf', 15, "<xyz>'s attribute 'expressed_in'"),
])
def test_flattened_reference_outside_its_model_is_refused_as_libsdformat_asserts(
        name: str, line: int, asserted: str) -> None:
    """A reference of a flattened member that does not start with its model's prefix.

    libsdformat asserts it does, throws and loads nothing (the probe reports the
    assertion); we refuse the file at that element with ``ELEMENT_INVALID``.
    """
    path = DATA / name
    ours = ours_report(path)
    assert not ours['valid']
    assert ('ELEMENT_INVALID', line) in {(e['code'], e['line']) for e in ours['errors']}, ours['errors']
    ref = run_probe(path)
    assert not ref['valid'] and asserted in ref['errors'][0]['message'], ref['errors']
    assert not differences(path)


def test_flattened_axis_without_xyz_is_refused_where_libsdformat_crashes() -> None:
    """libsdformat 12 dereferences the missing ``<xyz>`` while unflattening: it crashes."""
    path = DATA / 'flattened_1_7_axis_without_xyz.sdf'
    ours = ours_report(path)
    assert not ours['valid']
    assert ('ELEMENT_INVALID', 10) in {(e['code'], e['line']) for e in ours['errors']}, ours['errors']
    with pytest.raises(ProbeError, match='exited with -11'):
        run_probe(path)
