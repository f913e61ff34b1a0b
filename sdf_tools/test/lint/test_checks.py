"""Each lint check, tripped by a model built for it (and a clean model tripping none)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sdf_tools.errors import ErrorCode, Severity
from sdf_tools.gazebo import using
from sdf_tools.lint import Finding, Lint, lint
from sdf_tools.load import load_file
from sdf_tools.report import build_report
from sdf_tools.resolved import resolve

# A 0.2 m cube of 8 kg: 1000 kg/m^3, I = m (a^2 + a^2) / 12 on each axis.
DATA = Path(__file__).resolve().parents[1] / 'data' / 'urdf_rules'
#: A URDF arm with a massless link lumping cannot save ([dummy]) and one it saves ([sensor_frame]).
MASSLESS_LINKS = DATA / 'massless_links.urdf'
CUBE_I = 8.0 * (0.04 + 0.04) / 12.0
BOX = '<collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision>'


def inertial(mass: float = 8.0, ixx: float = CUBE_I, iyy: float = CUBE_I, izz: float = CUBE_I,
             ixy: float = 0.0) -> str:
    return (f'<inertial><mass>{mass}</mass><inertia><ixx>{ixx}</ixx><iyy>{iyy}</iyy><izz>{izz}</izz>'
            f'<ixy>{ixy}</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>')


def model(body: str, joint: str = '', static: bool = False) -> str:
    return (f'<model name="m"><static>{str(static).lower()}</static>\n'
            f'<link name="base">{inertial()}{BOX}</link>\n{body}\n{joint}</model>')


def revolute(limit: str = '<limit><lower>-1</lower><upper>1</upper></limit>', xyz: str = '0 0 1',
             kind: str = 'revolute') -> str:
    return (f'<joint name="j" type="{kind}"><parent>base</parent><child>arm</child>'
            f'<axis><xyz>{xyz}</xyz>{limit}</axis></joint>')


def linted(path: Path) -> Lint:
    return lint(resolve(load_file(str(path))))


def found(path: Path) -> list[Finding]:
    return linted(path).findings


def about(path: Path, subject: str) -> dict[str, Finding]:
    return {p.code.value: p for p in found(path) if p.subject == subject}


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


Writer = Callable[..., Path]


def test_clean_model_has_no_finding(write_sdf: Writer) -> None:
    path = write_sdf(model(f'<link name="arm">{inertial()}{BOX}</link>', revolute()))
    assert linted(path).failing == []


def test_link_without_inertial_is_said_once_as_the_readers_kilogram(write_sdf: Writer) -> None:
    # One fact, one line: the reader's DEFAULT_ASSUMED says what libsdformat (and so
    # Gazebo) gives it; no MASSLESS_LINK beside it (the link has a kilogram).
    path = write_sdf(model(f'<link name="arm">{BOX}</link>', revolute()))
    line = line_of(path, '<link name="arm">')
    said = [p for p in found(path) if p.line == line]
    assert [(p.code, p.severity) for p in said] == [(ErrorCode.DEFAULT_ASSUMED, Severity.WARNING)]
    assert '1 kg' in said[0].message and 'MASSLESS_LINK' not in about(path, 'm::arm')


def test_link_of_mass_zero_is_massless(write_sdf: Writer) -> None:
    path = write_sdf(model(f'<link name="arm">{inertial(0.0, 0, 0, 0)}{BOX}</link>', revolute()))
    assert 'mass 0' in about(path, 'm::arm')['MASSLESS_LINK'].message


def test_static_model_mass_is_not_checked(write_sdf: Writer) -> None:
    path = write_sdf(model(f'<link name="arm">{BOX}</link>', static=True))
    assert 'MASSLESS_LINK' not in about(path, 'm::arm')


def test_negative_mass(write_sdf: Writer) -> None:
    path = write_sdf(model(f'<link name="arm">{inertial(-1.0)}{BOX}</link>', revolute()))
    assert about(path, 'm::arm')['MASS_NOT_POSITIVE'].severity is Severity.ERROR


def _judged_once(path: Path, failed: str) -> None:
    """libsdformat's LINK_INERTIA_INVALID is the one line; the link's row says which test failed."""
    line = line_of(path, '<inertial>') if path.read_text().count('<inertial>') == 1 else None
    result = linted(path)
    at_arm = [p for p in result.findings if p.subject == 'm::arm' or 'named arm' in p.message]
    assert [p.code for p in at_arm] == [ErrorCode.LINK_INERTIA_INVALID]
    assert line is None or at_arm[0].line == line
    assert result.links[1][failed] is False


def test_inertia_not_positive_definite(write_sdf: Writer) -> None:
    path = write_sdf(model(f'<link name="arm">{inertial(ixx=-0.01)}{BOX}</link>', revolute()))
    _judged_once(path, 'positive_definite')


def test_inertia_off_diagonal_not_positive_definite(write_sdf: Writer) -> None:
    # Every diagonal entry positive, but the tensor is not: ixy larger than ixx, iyy.
    path = write_sdf(model(f'<link name="arm">{inertial(ixy=0.2)}{BOX}</link>', revolute()))
    _judged_once(path, 'positive_definite')


def test_triangle_inequality(write_sdf: Writer) -> None:
    path = write_sdf(model(f'<link name="arm">{inertial(ixx=0.01, iyy=0.01, izz=0.05)}{BOX}</link>',
                           revolute()))
    _judged_once(path, 'triangle')
    assert linted(path).links[1]['positive_definite'] is True


def test_inertia_checks_where_no_reader_judged() -> None:
    # A description no reader judged (an importer's, say): the lint's own codes say it.
    from sdf_tools.lint.checks import check_link
    from sdf_tools.model import Inertial, Link
    from sdf_tools.resolved import ResolvedInertial, ResolvedLink
    from sdf_tools.transform import IDENTITY
    bad = (0.01, 0.0, 0.0, 0.01, 0.0, 0.05)
    link = ResolvedLink('m::arm', 'm', IDENTITY, ResolvedInertial(1.0, bad, IDENTITY, IDENTITY, True),
                        (), (), Link('arm', inertial=Inertial(1.0, bad)))
    _, out = check_link(link, [], 'sdf', static=False)
    assert [p.code for p in out] == [ErrorCode.INERTIA_TRIANGLE_INEQUALITY]
    _, out = check_link(link, [], 'sdf', static=False, judged=True)
    assert out == []


def test_defaulted_inertia(write_sdf: Writer) -> None:
    path = write_sdf(model(f'<link name="arm"><inertial><mass>8</mass></inertial>{BOX}</link>', revolute()))
    assert 'DEFAULT_INERTIA' in about(path, 'm::arm')


def test_density_implausible_for_the_collision_volume(write_sdf: Writer) -> None:
    # 8000 kg in a 0.2 m cube: 1e6 kg/m^3.
    path = write_sdf(model(f'<link name="arm">{inertial(8000.0, *(1000 * CUBE_I,) * 3)}{BOX}</link>',
                           revolute()))
    p = about(path, 'm::arm')['DENSITY_IMPLAUSIBLE']
    assert '1e+06 kg/m^3' in p.message


def test_inertia_implausible_for_the_collision_geometry(write_sdf: Writer) -> None:
    path = write_sdf(model(f'<link name="arm">{inertial(8.0, 1.0, 1.0, 1.0)}{BOX}</link>', revolute()))
    rows = linted(path).links
    assert 'INERTIA_IMPLAUSIBLE' in about(path, 'm::arm')
    # trace 3 against the filled cube's 3 * CUBE_I
    assert rows[1]['inertia_ratio'] == pytest.approx(1.0 / CUBE_I, rel=1e-9)
    assert rows[0]['inertia_ratio'] == pytest.approx(1.0, rel=1e-9)


def test_zero_axis_listed_at_its_line(write_sdf: Writer) -> None:
    path = write_sdf(model(f'<link name="arm">{inertial()}{BOX}</link>', revolute(xyz='0 0 0')))
    p = next(p for p in found(path) if 'cannot be zero' in p.message)
    assert (p.severity, p.file, p.line) == (Severity.ERROR, str(path), line_of(path, '<xyz>0 0 0</xyz>'))


def test_zero_axis_in_urdf_listed_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / 'r.urdf'
    path.write_text(MASSLESS_LINKS.read_text().replace('<axis xyz="0 1 0"/>', '<axis xyz="0 0 0"/>'))
    p = next(p for p in found(path) if 'cannot be zero' in p.message)
    assert (p.severity, p.line) == (Severity.ERROR, line_of(path, '<axis xyz="0 0 0"/>'))


def test_revolute_without_limits(write_sdf: Writer) -> None:
    path = write_sdf(model(f'<link name="arm">{inertial()}{BOX}</link>', revolute(limit='')))
    p = about(path, 'm::j')['JOINT_NO_LIMITS']
    assert (p.file, p.line) == (str(path), line_of(path, '<joint name="j"'))
    # One fact, one line: the reader's "axis has no <limit>" lines are restated by it.
    assert not [d for d in found(path) if d.kind == 'file' and '<limit>' in d.message]
    assert [d for d in resolve(load_file(str(path))).diagnostics if 'limit' in d.message]


def test_continuous_joint_needs_no_limits(write_sdf: Writer) -> None:
    path = write_sdf(model(f'<link name="arm">{inertial()}{BOX}</link>', revolute(limit='', kind='continuous')))
    assert about(path, 'm::j') == {}


def test_reversed_limits(write_sdf: Writer) -> None:
    path = write_sdf(model(f'<link name="arm">{inertial()}{BOX}</link>',
                           revolute(limit='<limit><lower>1</lower><upper>-1</upper></limit>')))
    assert 'JOINT_LIMITS_REVERSED' in about(path, 'm::j')


def test_unresolved_mesh(write_sdf: Writer) -> None:
    mesh = '<visual name="v"><geometry><mesh><uri>meshes/nowhere.stl</uri></mesh></geometry></visual>'
    path = write_sdf(model(f'<link name="arm">{inertial()}{BOX}{mesh}</link>', revolute()))
    p = about(path, 'm::arm')['MESH_UNRESOLVED']
    assert 'meshes/nowhere.stl' in p.message and p.file == str(path) and p.line is not None


def test_validation_errors_listed_with_file_and_line(write_sdf: Writer) -> None:
    path = write_sdf(model(f'<link name="arm">{inertial()}{BOX}</link>',
                           revolute().replace('<child>arm</child>', '<child>nothing</child>')))
    probs = found(path)
    errors = [p for p in probs if p.kind == 'file' and p.severity is Severity.ERROR]
    assert errors and all(p.file == str(path) and p.line for p in errors)
    ranks = [{Severity.ERROR: 0, Severity.WARNING: 1, Severity.NOTE: 2}[p.severity] for p in probs]
    assert ranks == sorted(ranks)



def test_urdf_massless_links_dropped_or_lumped() -> None:
    path = MASSLESS_LINKS
    dummy = about(path, 'r::dummy')['MASSLESS_LINK']
    assert dummy.severity is Severity.WARNING and 'drops' in dummy.message and '[arm]' in dummy.message
    assert dummy.line == line_of(path, '<link name="dummy"/>')
    lumped = about(path, 'r::sensor_frame')['MASSLESS_LINK']
    assert lumped.severity is Severity.NOTE and 'lumps it into [base]' in lumped.message
    assert 'MASSLESS_LINK' not in about(path, 'r::arm')
    # One line each: the reader's hedged warnings about the same two links are restated.
    for name in ('dummy', 'sensor_frame'):
        assert [p.code for p in found(path) if f'[{name}]' in p.message or p.subject == f'r::{name}'] \
            == [ErrorCode.MASSLESS_LINK]


@pytest.mark.parametrize('severity', [Severity.ERROR, Severity.WARNING])
def test_strict_failing_holds_check_errors_and_warnings(write_sdf: Writer, severity: Severity) -> None:
    body = (f'<link name="arm">{inertial(-1.0)}{BOX}</link>' if severity is Severity.ERROR
            else f'<link name="arm">{inertial(0.0, 0, 0, 0)}{BOX}</link>')
    failing = linted(write_sdf(model(body, revolute()))).failing
    assert any(p.severity is severity for p in failing)
    assert all(p.kind != 'file' and p.severity is not Severity.NOTE for p in failing)


def test_zero_size_shape_is_noted_not_drawn(write_sdf: Writer) -> None:
    sphere = '<visual name="dot"><geometry><sphere><radius>0</radius></sphere></geometry></visual>'
    path = write_sdf(model(f'<link name="arm">{inertial()}{BOX}{sphere}</link>', revolute()))
    # Only a drawn report tessellates visuals, so only it can say one has no triangles.
    # Read for Harmonic: from libsdformat 15 (Ionic) a radius 0 is read as 1 (#1553).
    with using('harmonic'):
        p = {f.code.value: f for f in build_report(str(path)).lint.findings
             if f.subject == 'm::arm'}['SHAPE_NOT_DRAWN']
        report = build_report(str(path))
    assert p.severity is Severity.NOTE and 'visual [dot]' in p.message
    assert report.scene is not None and len(report.scene.nodes) == 2  # the two boxes only


def test_urdf_massless_root_is_the_readers_refusal_alone() -> None:
    # libsdformat refuses the robot (MODEL_WITHOUT_LINK): that error is the root's one line.
    path = DATA / 'massless_root.urdf'
    at_base = [p.code for p in found(path) if p.line == 3]
    assert at_base == [ErrorCode.MODEL_WITHOUT_LINK]


def test_urdf_kinematic_loop_is_linted_once_around() -> None:
    # The reader refuses the loop (URDF_INVALID) and keeps going; the massless check walks
    # libsdformat's tree (urdf/lumping_walk.py) and visits each link of the loop once (it
    # used to follow the loop forever: `check --strict` hung).
    path = DATA.parent / 'convert' / 'bad' / 'cyclic.urdf'
    findings = {p.subject: p for p in found(path) if p.code is ErrorCode.MASSLESS_LINK}
    assert sorted(findings) == ['cyclic::a', 'cyclic::b', 'cyclic::c']
    assert '2 more link(s) [b, c]' in findings['cyclic::a'].message


def test_urdf_links_lost_below_a_massless_link_in_libsdformats_order() -> None:
    # CreateSDF visits children in the order of their joints' names (urdfdom's std::map):
    # the links a massless link takes with it are listed in that order, not the file's.
    lost = about(DATA / 'massless_links_order.urdf', 'r::base')['MASSLESS_LINK']
    assert 'drops this link and its subtree: 3 more link(s) [a, a_tip, b]' in lost.message


def test_urdf_massless_mount_saved_by_its_lumped_child_loses_nothing_in_12(tmp_path: Path) -> None:
    # [mount] has no <inertial>, but [plate] is lumped into it before CreateSDF judges it:
    # libsdformat 12.3 writes [arm] below it (the probe: links base and arm,
    # test/urdf/test_lumping_walk.py), so nothing hangs lost below [mount].
    path = tmp_path / 'mount.urdf'
    mass = ('<inertial><mass value="{}"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" '
            'izz="1"/></inertial>')
    path.write_text(
        f'<robot name="r"><link name="base">{mass.format(1)}</link>'
        '<joint name="f" type="fixed"><parent link="base"/><child link="mount"/></joint>'
        '<link name="mount"/>'
        '<joint name="g" type="fixed"><parent link="mount"/><child link="plate"/></joint>'
        f'<link name="plate">{mass.format(0.5)}</link>'
        '<joint name="j" type="revolute"><parent link="mount"/><child link="arm"/>'
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        f'<link name="arm">{mass.format(1)}</link></robot>')
    with using('fortress'):
        mount = about(path, 'r::mount')['MASSLESS_LINK']
    assert mount.severity is Severity.NOTE and 'nothing is lost' in mount.message
