"""URDF as libsdformat sees it: small robots that trip one rule each, judged by libsdformat 12.

libsdformat converts a URDF with urdfdom before it validates it; these rules come from that
conversion. Each robot is compared with the probe through ``compare_urdf`` (which replays
the conversion's lumping and dropping), and the warning or error we give is asserted with
its code and line.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from support.libsdformat import compare, probe_available, probe_unavailable_reason, run_probe

from differential.reference import _normalise_ref, ours_report
from differential.urdf_compare import compare_urdf

DATA = Path(__file__).resolve().parents[1] / 'data' / 'urdf_rules'

pytestmark = pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))

# (file, libsdformat's verdict, (severity, code, line) we report)
CASES = [
    # urdfdom stops reading an <inertial> at a missing <inertia> (or <mass>): the mass read
    # so far, zero inertia; a link of mass 0 is then dropped with its subtree
    ('inertial_without_inertia.urdf', True, ('warnings', 'DEFAULT_ASSUMED', 7)),
    ('inertial_without_mass.urdf', True, ('warnings', 'DEFAULT_ASSUMED', 7)),
    # ... and it stops reading the link there: no visuals, no collisions
    ('inertial_cut_short_drops_shapes.urdf', True, ('warnings', 'URDF_SHAPE_SKIPPED', 6)),
    # disableFixedJointLumping: a revolute joint locked by limits [0, 0]
    ('disable_fixed_joint_lumping.urdf', True, ('warnings', 'DEFAULT_ASSUMED', 9)),
    # a massless root link takes the whole robot with it
    ('massless_root.urdf', False, ('errors', 'MODEL_WITHOUT_LINK', 3)),
    ('massless_single_link.urdf', False, ('errors', 'MODEL_WITHOUT_LINK', 3)),
    # ... unless lumping its fixed children gives it mass
    ('massless_root_lumped_mass.urdf', True, None),
    # ... and that lumped sum is judged at the link without <inertial>
    ('massless_root_lumped_bad_inertia.urdf', False, ('errors', 'LINK_INERTIA_INVALID', 4)),
    # a link that is the child of two joints: libsdformat writes it twice
    ('link_with_two_parents.urdf', False, ('errors', 'DUPLICATE_NAME', 14)),
    # <gazebo> children libsdformat copies into the converted link, joint or model are
    # judged by the spec there; the value that fails is named at its line
    ('gazebo_blob_link_bad_colour.urdf', False, ('errors', 'ELEMENT_INVALID', 12)),
    ('gazebo_blob_lumped_link_bad_bool.urdf', False, ('errors', 'ELEMENT_INVALID', 11)),
    ('gazebo_blob_joint_bad_double.urdf', False, ('errors', 'ELEMENT_INVALID', 12)),
    ('gazebo_blob_robot_bad_bool.urdf', False, ('errors', 'ELEMENT_INVALID', 12)),
    ('gazebo_blob_not_copied.urdf', True, None),
    # the <link>/<joint>/<frame>/<model> of a reference-less <gazebo> block join the converted
    # model after lumping: their names and the frames they name are checked there
    ('gazebo_entity_joint_parent_lumped.urdf', False, ('errors', 'JOINT_PARENT_LINK_INVALID', 15)),
    ('gazebo_entity_joint_child_unknown.urdf', False, ('errors', 'JOINT_CHILD_LINK_INVALID', 16)),
    ('gazebo_entity_duplicate_name.urdf', False, ('errors', 'DUPLICATE_NAME', 11)),
    ('gazebo_entity_model_named_like_a_link.urdf', False, ('errors', 'DUPLICATE_NAME', 11)),
    ('gazebo_entity_pose_relative_to_lumped.urdf', False, ('errors', 'POSE_RELATIVE_TO_INVALID', 11)),
    ('gazebo_entity_frame_attached_to_lumped.urdf', False, ('errors', 'FRAME_ATTACHED_TO_INVALID', 11)),
    # Where libsdformat 14+ converts differently (test/urdf/test_releases.py has the newer
    # targets): 12.3 drops a massless lumped link's subtree, takes 1e-7 kg for no mass and
    # keeps a negative one, and lets a later <static>-less <gazebo> block unset <static>
    ('massless_mount.urdf', True, ('warnings', 'DEFAULT_ASSUMED', 12)),
    ('small_and_negative_mass.urdf', False, ('errors', 'LINK_INERTIA_INVALID', 20)),
    ('static_two_blocks.urdf', True, None),
    # 12.3 drops a massless link fixed to world with its subtree: no link is left (14+
    # refuses the robot for another reason)
    ('massless_fixed_to_world.urdf', False, ('errors', 'MODEL_WITHOUT_LINK', 8)),
    # 12.3 converts no <mimic>, so no leader is checked (14+ refuses both: #1333)
    ('mimic_leaders.urdf', True, None),
    ('mimic_leader_axis.urdf', True, None),
    # 12.3 lumps a fixed joint named like a link away: no clash (14+ keeps its frame, #1148)
    ('lumped_joint_named_like_child_link.urdf', True, None),
    ('lumped_joint_named_like_parent_link.urdf', True, None),
    # 12.3 leaves no <frame> for a lumped joint or link (13.1+ does, #1148: test/urdf/
    # test_lumped_frames.py), so none is attached to a link it leaves out either
    ('lumped_frames.urdf', True, None),
    ('lumped_frames_massless_parent.urdf', True, None),
    # a zero-mass <inertial> lumped into a parent of mass 0 so far: dMassAdd's 0/0 centre of
    # mass, written for the link the chain ends at, is refused (12.3 as 14.9-16.1); in the
    # order of the joints' names, and only when that link is written
    ('zero_mass_sum.urdf', False, ('errors', 'ELEMENT_INVALID', 26)),
    ('zero_mass_sum_first.urdf', False, ('errors', 'ELEMENT_INVALID', 16)),
    ('zero_mass_sum_second.urdf', True, None),
    ('zero_mass_sum_unwritten.urdf', True, None),
    # the lumped sum is judged on libsdformat's arithmetic: its round-off takes a point
    # mass's moments to 0 (Drake's cart-pole through SDFormat -> URDF)
    ('lumped_point_mass_round_off.urdf', False, ('errors', 'LINK_INERTIA_INVALID', 9)),
    # no link written is no refusal for a static robot: libsdformat loads it empty
    ('static_massless_root.urdf', True, None),
    ('static_massless_world.urdf', True, None),
]


@pytest.mark.parametrize('name, valid, said', CASES, ids=[c[0] for c in CASES])
def test_urdf_rule_matches_libsdformat(name: str, valid: bool,
                                       said: tuple[str, str, int] | None) -> None:
    path = DATA / name
    ours = ours_report(path)
    ref = _normalise_ref(run_probe(path))
    assert ref['valid'] is valid
    assert ours['valid'] is valid, ours['errors']
    if said is not None:
        kind, code, line = said
        assert (code, line) in {(d['code'], d['line']) for d in ours[kind]}, ours[kind]
    diffs = compare_urdf(ours, ref)
    assert not diffs, '\n'.join(diffs)


@pytest.mark.parametrize('name, added', [
    ('gazebo_entity_valid.urdf', ('lamp', 'lamp::body', 'lamp_joint')),
    ('gazebo_entity_frame_valid.urdf', ('fr',)),
    # 12.3 keeps no frame of a lumped link: a <gazebo> frame may take its name (not 13.1+)
    ('gazebo_entity_frame_named_like_lumped_link.urdf', ('c',)),
])
def test_gazebo_entities_that_resolve_are_valid(name: str, added: tuple[str, ...]) -> None:
    path = DATA / name
    ours = ours_report(path)
    ref = _normalise_ref(run_probe(path))
    assert ref['valid'] and ours['valid'], ours['errors']
    # The entities a <gazebo> block adds stay in the block for the converter (MISMATCHES.md,
    # "Other collections"): they are the only difference.
    diffs = compare_urdf(ours, ref)
    assert diffs and all(any(f'[{a}]' in d or f"r::{a}'" in d for a in added) for d in diffs), diffs


def test_inertial_without_inertia_keeps_mass_and_zero_inertia() -> None:
    ours = ours_report(DATA / 'inertial_without_inertia.urdf')
    arm = next(link for link in ours['links'] if link['name'] == 'r::arm')
    assert arm['mass'] == 2.0
    assert arm['inertia'] == [0.0] * 6
    assert arm['inertial_pose']['xyz'] == [0.0, 0.0, 1.5]


def test_locked_joint_is_revolute_with_zero_limits_in_inspect() -> None:
    ours = ours_report(DATA / 'disable_fixed_joint_lumping.urdf')
    (joint,) = ours['joints']
    assert joint['type'] == 'revolute'
    assert (joint['limit']['lower'], joint['limit']['upper']) == (0.0, 0.0)


def test_massless_root_says_why_and_how_to_fix() -> None:
    ours = ours_report(DATA / 'massless_root.urdf')
    (err,) = [e for e in ours['errors'] if e['code'] == 'MODEL_WITHOUT_LINK']
    assert '[base]' in err['message']
    assert 'Fix:' in err['message']
    # our model keeps the links: every frame is known, only libsdformat drops them
    assert {link['name'] for link in ours['links']} == {'r::base', 'r::arm'}
    assert ours['errors'] == [err]


def test_massless_root_converted_with_a_mass_loads_in_libsdformat(tmp_path: Path) -> None:
    """Only libsdformat refuses the robot: converting it (default ``--massless-links lump``)
    gives the root a reported mass, and libsdformat loads what we write."""
    from sdf_tools.convert.api import convert_loaded
    from sdf_tools.convert.options import ConversionOptions
    from sdf_tools.load import load_file

    result = convert_loaded(load_file(str(DATA / 'massless_root.urdf')), to='sdf',
                            options=ConversionOptions())
    assert result.text is not None, [str(d) for d in result.report.errors]
    out = tmp_path / 'massless_root.sdf'
    out.write_text(result.text)
    assert run_probe(out)['valid'] is True
    refused = convert_loaded(load_file(str(DATA / 'massless_root.urdf')), to='sdf',
                             options=ConversionOptions(massless_links='error'))
    assert refused.text is None


def test_continuous_joint_is_revolute_without_bounds_in_inspect() -> None:
    """libsdformat writes a ``continuous`` joint as ``revolute`` without position limits.

    Compared strictly (``compare``, not ``compare_urdf``, which would forgive the type):
    type, axis, effort/velocity and the spec's unbounded defaults all as libsdformat reports.
    """
    path = DATA / 'continuous_joints.urdf'
    ours = ours_report(path)
    ref = _normalise_ref(run_probe(path))
    assert ref['valid'] is True and ours['valid'] is True, ours['errors']
    assert [j['type'] for j in ours['joints']] == ['revolute', 'revolute']
    spin = next(j for j in ours['joints'] if j['name'] == 'r::spin')
    assert (spin['limit']['lower'], spin['limit']['upper']) == (-1e16, 1e16)
    assert (spin['limit']['effort'], spin['limit']['velocity']) == (7.0, 3.0)
    diffs = compare(ours, ref)
    assert not diffs, '\n'.join(diffs)


def test_written_fixed_joint_named_by_gazebo_reference_gets_an_axis() -> None:
    """``InsertSDFExtensionJoint`` adds an empty ``<axis>`` to a fixed joint a block names.

    So libsdformat reports ``0 0 1`` in the joint frame with the spec's unbounded limits
    for ``anchor`` (parent ``world``) and ``mount`` (``preserveFixedJoint``), and no axis
    for ``hold``, which no block names. Compared strictly.
    """
    path = DATA / 'gazebo_reference_fixed_joints.urdf'
    ours = ours_report(path)
    ref = _normalise_ref(run_probe(path))
    assert ref['valid'] is True and ours['valid'] is True, ours['errors']
    axes = {j['name']: j['axis'] for j in ours['joints']}
    assert axes['r::hold'] is None
    assert axes['r::anchor'] is not None and axes['r::mount'] is not None
    diffs = compare(ours, ref)
    assert not diffs, '\n'.join(diffs)


def test_replay_follows_the_target_for_massless_lumped_links() -> None:
    """The replay the newer targets are judged with (tools/libsdformat_test_sweep.py) keeps
    what 14+ keeps (#1238): 12.3 drops [mount]'s subtree, 14 writes [arm] below it."""
    from differential.urdf_compare import plan_urdf

    old, new = (plan_urdf(DATA / 'massless_mount.urdf', newer=n) for n in (False, True))
    assert old is not None and new is not None
    assert (old.links, new.links) == (['base'], ['base', 'arm'])
    assert new.joint_parent == {'arm_joint': 'base'}  # re-parented past the lumped mount
