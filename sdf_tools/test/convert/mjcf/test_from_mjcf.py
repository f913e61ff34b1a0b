"""MJCF -> SDFormat/URDF through mujoco.MjSpec, and round trips through MJCF.

* SDF -> MJCF -> SDF and URDF -> MJCF -> URDF keep every link (and frame) pose,
  each joint's type, world axis and limits, and each link's mass and inertia
  (1e-9), on our own test models and on generated ones (hypothesis, the
  generators of ``test_roundtrip``);
* the import reports what MJCF has and SDFormat does not (actuators,
  tendons, equalities other than joint couplings);
* bad MJCF is a clear error, never a traceback.
"""
from __future__ import annotations

import contextlib
import math
import re
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, note, settings
from hypothesis.errors import InvalidArgument

from convert.mjcf.mujoco_check import INERTIA_RTOL, TOL, source_flats
from convert.test_roundtrip import SETTINGS, sdf_models, urdf_robots
from sdf_tools.convert.api import convert_file, convert_input
from sdf_tools.convert.conversion_report import ReportKind
from sdf_tools.convert.flatten import pose_in_link
from sdf_tools.convert.mjcf.from_mjcf import load_mjcf
from sdf_tools.convert.mjcf.to_mjcf import convert_to_mjcf
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import LoadResult, load_string
from sdf_tools.model.inertia import in_frame
from sdf_tools.transform import Transform

DATA = Path(__file__).resolve().parents[2] / 'data'
UNLIMITED = 1e15
SEP = '__'
# Joint types MJCF writes as several joints (each checked by the kinematics tests).
SEVERAL = ('universal', 'revolute2', 'screw', 'planar', 'floating', 'gearbox')
# Each example compiles a model in MuJoCo twice: fewer examples than the other round trips.
MJCF_SETTINGS = settings(SETTINGS, max_examples=30)


def _kind(jt: str, lower: float, upper: float) -> str:
    if jt == 'revolute' and not (lower > -UNLIMITED and upper < UNLIMITED):
        return 'continuous'  # an unlimited revolute joint is a continuous one
    return jt


def _diff(a: Transform, b: Transform) -> float:
    q = b.q if sum(x * y for x, y in zip(a.q, b.q, strict=True)) >= 0 else tuple(-c for c in b.q)
    return max(max(abs(x - y) for x, y in zip(a.p, b.p, strict=True)),
               max(abs(x - y) for x, y in zip(a.q, q, strict=True)))


def facts(loaded: LoadResult) -> dict[str, dict[str, Any]]:
    """Links and frames (world pose, mass, inertia), joints by child link (type, axis, limits)."""
    flat = source_flats(loaded)[0]
    places = {fl.name.replace('::', SEP): flat.world_pose(fl.vid) for fl in flat.links}
    places.update({fr.name.replace('::', SEP): flat.world_pose(fr.vid) for fr in flat.frames})
    masses = {}
    for fl in flat.links:
        i = fl.link.inertial
        if i is not None and i.mass > 0:
            x = pose_in_link(flat, fl, i.pose)
            masses[fl.name.replace('::', SEP)] = (i.mass, x.p, in_frame(i.inertia, x))
    joints = {}
    for j in flat.joints:
        if j.child is None or j.joint.type in SEVERAL:
            continue
        a = j.joint.axis
        lower, upper = (a.lower, a.upper) if a is not None else (-1e16, 1e16)
        axis = None
        if a is not None and j.axes[0] is not None and j.joint.type != 'ball':
            v = np.asarray(flat.world_pose(j.vid).rotate(j.axes[0]))
            axis = v / np.linalg.norm(v)
        kind = _kind(j.joint.type, lower, upper)
        limited = kind in ('revolute', 'prismatic') and lower > -UNLIMITED and upper < UNLIMITED
        joints[j.child.replace('::', SEP)] = (kind, axis, (lower, upper) if limited else None)
    return {'places': places, 'masses': masses, 'joints': joints}


def compare(first: dict[str, dict[str, Any]], last: dict[str, dict[str, Any]]) -> None:
    """Everything of ``first`` is in ``last`` within 1e-9."""
    missing = first['places'].keys() - last['places'].keys()
    assert not missing, f'lost in the round trip: {sorted(missing)}'
    worst = {n: _diff(p, last['places'][n]) for n, p in first['places'].items()}
    assert max(worst.values()) <= TOL, worst
    for name, (mass, com, tensor) in first['masses'].items():
        m2, com2, t2 = last['masses'][name]
        assert abs(mass - m2) <= TOL * max(1, mass), name
        assert np.abs(np.asarray(com) - np.asarray(com2)).max() <= TOL, name
        assert np.abs(tensor - t2).max() <= INERTIA_RTOL * max(np.abs(tensor).max(), 1e-300), name
    for child, (kind, axis, limits) in first['joints'].items():
        if kind == 'fixed':
            continue  # MJCF welds the body: any joint name, same pose (checked above)
        got = last['joints'].get(child)
        assert got is not None and got[0] == kind, (child, kind, got)
        if axis is not None:
            assert np.abs(axis - got[1]).max() <= TOL, child
        assert limits == got[2] or (limits is not None and got[2] is not None and max(
            abs(x - y) for x, y in zip(limits, got[2], strict=True)) <= TOL), child


def _note(text: str) -> None:
    """Record ``text`` for a failing hypothesis example (a no-op in a plain test)."""
    with contextlib.suppress(InvalidArgument):
        note(text)


def _through_mjcf(loaded: LoadResult, to: str, tmp: Path) -> LoadResult:
    exported = convert_to_mjcf(loaded, ConversionOptions())
    assert exported.ok, [str(e) for e in exported.report.errors]
    _note(exported.text or '')
    path = tmp / 'model.xml'
    path.write_text(exported.text or '')
    back = convert_input(path, to=to, options=ConversionOptions(), input_format='mjcf')
    assert back.usable and back.ok, [str(e) for e in back.report.errors]
    _note(back.text or '')
    again = load_string(back.text or '', str(tmp / f'back.{to}'))
    assert again.valid, [str(d) for d in again.errors]
    return again


@MJCF_SETTINGS
@given(sdf_models())
def test_sdf_mjcf_sdf_keeps_poses_joints_and_inertias(text: str) -> None:
    loaded = load_string(text, 'gen.sdf')
    with tempfile.TemporaryDirectory() as tmp:
        compare(facts(loaded), facts(_through_mjcf(loaded, 'sdf', Path(tmp))))


@MJCF_SETTINGS
@given(urdf_robots())
def test_urdf_mjcf_urdf_keeps_poses_joints_and_inertias(text: str) -> None:
    loaded = load_string(text, 'gen.urdf')
    with tempfile.TemporaryDirectory() as tmp:
        compare(facts(loaded), facts(_through_mjcf(loaded, 'urdf', Path(tmp))))


@pytest.mark.parametrize('name', ['sdf/joints_all.sdf', 'sdf/v1_7_nested.sdf',
                                  'convert_urdf/arm_offsets.sdf', 'urdf/arm.urdf',
                                  'convert/joint_kinds.urdf'])
def test_own_models_survive_the_round_trip(name: str, tmp_path: Path) -> None:
    loaded = load_string((DATA / name).read_text(), str(DATA / name))
    to = 'urdf' if name.endswith('.urdf') else 'sdf'
    compare(facts(loaded), facts(_through_mjcf(loaded, to, tmp_path)))


MJCF_EXTRAS = """<mujoco model="extras">
  <compiler angle="degree"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1"/>
    <body name="arm" pos="0 0 1" euler="0 0 90">
      <joint name="hinge" type="hinge" axis="1 0 0" range="-45 45" armature="0.1"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
      <site name="tip" pos="0.5 0 0"/>
      <body name="b2" pos="0.5 0 0">
        <joint name="j2" axis="0 1 0"/>
        <geom type="box" size="0.1 0.1 0.1"/>
      </body>
    </body>
  </worldbody>
  <tendon><fixed name="t"><joint joint="hinge" coef="1"/></fixed></tendon>
  <equality><joint name="couple" joint1="j2" joint2="hinge" polycoef="0 2 0 0 0"/>
    <connect name="c" body1="arm" body2="b2" anchor="0 0 0"/></equality>
  <actuator><motor name="m" joint="hinge"/></actuator>
</mujoco>
"""


def test_import_maps_joints_sites_couplings_and_reports_the_rest(tmp_path: Path) -> None:
    path = tmp_path / 'extras.xml'
    path.write_text(MJCF_EXTRAS)
    opts = ConversionOptions(sdf_version='1.11')  # <mimic> is SDFormat 1.11
    result = convert_input(path, to='sdf', options=opts, input_format='mjcf')
    assert result.usable and result.ok, [str(e) for e in result.report.errors]
    loaded = load_string(result.text or '', str(tmp_path / 'out.sdf'))
    doc = loaded.document
    assert doc is not None and doc.model is not None
    hinge = next(j for j in doc.model.joints if j.name == 'hinge')
    assert hinge.type == 'revolute' and hinge.axis is not None
    assert math.isclose(hinge.axis.lower, -math.pi / 4, abs_tol=1e-12)
    j2 = next(j for j in doc.model.joints if j.name == 'j2')
    assert j2.axis is not None and j2.axis.mimic_joint == 'hinge' and j2.axis.mimic_multiplier == 2
    assert [f.name for f in doc.model.frames] == ['tip']
    dropped = {e.element for e in result.report.entries if e.kind.value == 'dropped'}
    assert {'tendon[t]', 'actuator[m]', 'equality[c]', 'joint[hinge]/armature'} <= dropped
    lines = {e.element: e.line for e in result.report.entries}
    assert lines['actuator[m]'] == MJCF_EXTRAS.splitlines().index(
        '  <actuator><motor name="m" joint="hinge"/></actuator>') + 1


def test_import_load_result_and_outputs_cite_the_mjcf_lines(tmp_path: Path) -> None:
    path = tmp_path / 'extras.xml'
    path.write_text(MJCF_EXTRAS)
    source = MJCF_EXTRAS.splitlines()
    imported = load_mjcf(str(path))
    assert imported.loaded is not None and imported.loaded.document is not None
    model = imported.loaded.document.model
    assert model is not None
    bodies = [link for link in model.links if link.name != 'world_body']  # the world's geoms
    assert bodies
    for link in bodies:  # each body's own line of the MJCF file
        assert link.loc is not None and link.loc.file == str(path) and link.loc.line
        assert f'name="{link.name}"' in source[link.loc.line - 1]
    # The outputs' header comments cite what the reports cite: lines of the MJCF file.
    forms = (rf'{re.escape(str(path))}:(\d+): \w+: ([^:]+):',  # URDF, USD, MJCF
             r'^ +\w+: ([^:]+): .*\(line (\d+)\)$')  # SDFormat
    checked = 0
    for to in ('urdf', 'usd', 'mjcf', 'sdf'):
        result = convert_input(path, to=to, options=ConversionOptions(), input_format='mjcf')
        assert result.ok and result.text is not None
        said = {e.element: e.line for e in result.report.entries}
        cited = [(int(line), element) for line, element in re.findall(forms[0], result.text)]
        cited += [(int(line), element)
                  for element, line in re.findall(forms[1], result.text, re.MULTILINE)]
        for line, element in cited:
            assert line <= len(source) and said[element] == line
        checked += len(cited)
    assert checked >= 4


@pytest.mark.parametrize('text', ['<mujoco><worldbody><body><joint type="nope"/></body>'
                                  '</worldbody></mujoco>', '<mujoco><worldbody>', 'not xml',
                                  '<mujoco><worldbody><geom type="mesh" mesh="missing"/>'
                                  '</worldbody></mujoco>'])
def test_bad_mjcf_is_a_clear_error(text: str, tmp_path: Path) -> None:
    path = tmp_path / 'bad.xml'
    path.write_text(text)
    result = convert_file(path, to='sdf', output_path=tmp_path / 'out.sdf',
                          options=ConversionOptions())
    assert not result.ok
    assert any(d.file == str(path) or str(path) in d.message for d in result.report.errors)
    assert not (tmp_path / 'out.sdf').exists()


@pytest.mark.parametrize('text', ['<mujoco/>',
                                  '<mujoco>\n<worldbody>\n<light pos="0 0 3"/>\n</worldbody>\n</mujoco>',
                                  # dart-doc's mjcf/test/include_default.xml: defaults only
                                  '<mujoco>\n<default class="main"><geom size="1 1 1"/></default>\n'
                                  '</mujoco>'])
def test_mjcf_without_a_body_is_one_error_at_its_line(text: str, tmp_path: Path) -> None:
    import mujoco

    path = tmp_path / 'empty.xml'
    path.write_text(text)
    compiled = mujoco.MjModel.from_xml_path(str(path))  # MuJoCo: a valid, empty model
    assert (compiled.nbody, compiled.ngeom) == (1, 0)
    for to in ('sdf', 'urdf'):
        result = convert_file(path, to=to, output_path=tmp_path / f'out.{to}',
                              options=ConversionOptions())
        assert not result.ok
        (err,) = result.report.errors
        assert err.code.value == 'MODEL_WITHOUT_LINK' and 'nothing to convert' in err.message
        line = 2 if '<worldbody>' in text else 1
        assert (err.file, err.line) == (str(path), line)
        assert not (tmp_path / f'out.{to}').exists()


def test_mujoco_refusal_cites_the_element_even_in_an_included_file(tmp_path: Path) -> None:
    # A menagerie scene.xml copied without its meshes: the asset that cannot be opened
    # is declared in the robot file it includes, and MuJoCo's message has no line for it.
    (tmp_path / 'robot.xml').write_text(
        '<mujoco>\n<compiler meshdir="assets"/>\n<asset>\n'
        '<mesh name="link0" file="link0.stl"/>\n</asset>\n'
        '<worldbody><body><geom type="mesh" mesh="link0"/></body></worldbody>\n</mujoco>\n')
    scene = tmp_path / 'scene.xml'
    scene.write_text('<mujoco>\n<include file="robot.xml"/>\n</mujoco>\n')
    bad = tmp_path / 'bad.xml'
    bad.write_text('<mujoco>\n<worldbody>\n<body>\n<joint type="hinge" range="1"/>\n'
                   '<geom type="box" size="1 1 1"/>\n</body>\n</worldbody>\n</mujoco>\n')
    for source, file, line in ((scene, tmp_path / 'robot.xml', 4), (bad, bad, 4)):
        result = convert_file(source, to='sdf', output_path=tmp_path / 'out.sdf',
                              options=ConversionOptions())
        assert [(d.file, d.line) for d in result.report.errors] == [(str(file), line)], \
            [str(d) for d in result.report.errors]
        assert 'MuJoCo cannot read' in result.report.errors[0].message


def test_mujoco_refusal_of_a_keyframe_cites_its_start_line(tmp_path: Path) -> None:
    # Menagerie's aloha/keyframe_ctrl.xml on its own: MuJoCo names the key, with no line.
    bad = tmp_path / 'keys.xml'
    bad.write_text('<mujoco>\n<worldbody><body name="home"><joint name="j"/>\n'
                   '<geom size="1"/></body></worldbody>\n<keyframe>\n'
                   '<key name="home" qpos="\n 0 0"\n ctrl=""/>\n</keyframe>\n</mujoco>\n')
    result = convert_file(bad, to='sdf', output_path=tmp_path / 'out.sdf',
                          options=ConversionOptions())
    assert [(d.file, d.line) for d in result.report.errors] == [(str(bad), 5)], \
        [str(d) for d in result.report.errors]
    assert "keyframe 'home'" in result.report.errors[0].message


def test_a_mesh_left_as_a_git_lfs_pointer_is_named(tmp_path: Path) -> None:
    # A Menagerie clone without `git lfs pull`: MuJoCo only says "at least 4 vertices required".
    (tmp_path / 'assets').mkdir()
    (tmp_path / 'assets' / 'link0.obj').write_text(
        'version https://git-lfs.github.com/spec/v1\noid sha256:' + '0' * 64 + '\nsize 9\n')
    (tmp_path / 'robot.xml').write_text(
        '<mujoco>\n<compiler meshdir="assets"/>\n<asset>\n'
        '<mesh name="link0" file="link0.obj"/>\n</asset>\n'
        '<worldbody><body><geom type="mesh" mesh="link0"/></body></worldbody>\n</mujoco>\n')
    scene = tmp_path / 'scene.xml'
    scene.write_text('<mujoco>\n<include file="robot.xml"/>\n</mujoco>\n')
    result = convert_file(scene, to='sdf', output_path=tmp_path / 'out.sdf',
                          options=ConversionOptions())
    assert [(d.file, d.line) for d in result.report.errors] == [(str(tmp_path / 'robot.xml'), 4)]
    assert f'[{tmp_path / "assets" / "link0.obj"}] is a Git LFS pointer' in \
        result.report.errors[0].message


def test_custom_data_the_export_did_not_write_is_reported_dropped(tmp_path: Path) -> None:
    # Menagerie's barkour_v0_mjx.xml keeps its initial pose as <numeric name="init_qpos">.
    path = tmp_path / 'custom.xml'
    path.write_text('<mujoco>\n<custom>\n<numeric name="init_qpos" data="0 0 0.2"/>\n'
                    '<numeric name="velocity_limit:hinge" data="2"/>\n'
                    '<text name="note" data="hello"/>\n'
                    '<tuple name="group"><element objtype="body" objname="b"/></tuple>\n'
                    '</custom>\n<worldbody><body name="b"><joint name="hinge"/>'
                    '<geom size="0.1"/></body></worldbody>\n</mujoco>\n')
    result = convert_file(path, to='sdf', output_path=tmp_path / 'out.sdf',
                          options=ConversionOptions())
    assert result.ok
    dropped = {e.element: e.line for e in result.report.entries
               if e.kind is ReportKind.DROPPED and e.element.startswith('custom/')}
    assert dropped == {'custom/numeric[init_qpos]': 3, 'custom/text[note]': 5,
                       'custom/tuple[group]': 6}


def test_mujoco_refusal_of_an_unnamed_mesh_cites_its_asset_line(tmp_path: Path) -> None:
    # Menagerie's hello_robot_stretch/scene.xml with MuJoCo 3.3+: "mesh volume is too small:
    # base_link_2 ... Element name 'base_link_2', id 1, line 0", a mesh named after its file.
    (tmp_path / 'tiny.obj').write_text('v 0 0 0\nv 1e-7 0 0\nv 0 1e-7 0\nv 0 0 1e-7\n'
                                      'f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n')
    (tmp_path / 'robot.xml').write_text(
        '<mujoco>\n<asset>\n<mesh file="tiny.obj"/>\n</asset>\n<worldbody><body>'
        '<geom type="mesh" mesh="tiny"/></body></worldbody>\n</mujoco>\n')
    scene = tmp_path / 'scene.xml'
    scene.write_text('<mujoco>\n<include file="robot.xml"/>\n</mujoco>\n')
    result = convert_file(scene, to='sdf', output_path=tmp_path / 'out.sdf',
                          options=ConversionOptions())
    assert [(d.file, d.line) for d in result.report.errors] == [(str(tmp_path / 'robot.xml'), 3)], \
        [str(d) for d in result.report.errors]


def test_cli_exports_and_imports(tmp_path: Path) -> None:
    from sdf_tools.convert.command import main
    out = tmp_path / 'robot.mjcf'
    assert main([str(DATA / 'convert' / 'joint_kinds.urdf'), '-o', str(out), '-q']) == 0
    assert out.read_text().startswith('<mujoco model="joint_kinds">')
    xml = tmp_path / 'robot.xml'
    assert main([str(DATA / 'convert' / 'joint_kinds.urdf'), '-o', str(xml), '--to', 'mjcf',
                 '-q']) == 0
    assert main([str(out), '-o', str(tmp_path / 'back.urdf'), '-q']) == 0  # .mjcf: MJCF
    assert main([str(xml), '-o', str(tmp_path / 'back.sdf'), '-q']) == 0  # <mujoco> in .xml
    assert main([str(xml), '-o', str(tmp_path / 'again.sdf'), '--from', 'mjcf', '-q']) == 0
    back = load_string((tmp_path / 'back.urdf').read_text(), str(tmp_path / 'back.urdf'))
    assert back.valid and back.document is not None and back.document.model is not None
    assert {'base', 'puck', 'drone'} <= {lk.name for lk in back.document.model.links}
    assert main([str(tmp_path / 'missing.xml'), '-o', str(tmp_path / 'x.sdf'), '--from', 'mjcf',
                 '-q']) != 0
