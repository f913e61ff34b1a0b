"""``sdf_tools report`` and ``check --strict`` from the command line."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sdf_tools.cli import main

DEMO = Path(__file__).resolve().parents[2] / 'sdf_tools' / 'examples' / 'demo_world.sdf'
CLEAN = """<?xml version="1.0"?><sdf version="1.9"><model name="m"><link name="base">
<inertial><mass>8</mass><inertia><ixx>0.0533333</ixx><iyy>0.0533333</iyy><izz>0.0533333</izz></inertia></inertial>
<collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision></link></model></sdf>
"""
MASSLESS = CLEAN.replace('</model>', '<link name="arm"><inertial><mass>0</mass><inertia><ixx>0</ixx>'
                         '<iyy>0</iyy><izz>0</izz></inertia></inertial></link></model>')


def test_page_is_self_contained(tmp_path: Path) -> None:
    out = tmp_path / 'r.html'
    assert main(['report', str(DEMO), '-o', str(out)]) == 0
    html = out.read_text()
    assert html.startswith('<!DOCTYPE html>')
    # Nothing is fetched: no external script, style, image or font.
    assert not re.search(r'<(script|link|img|iframe)[^>]+(src|href)=', html)
    assert 'three.js authors' in html.lower() and 'GLTFLoader' in html
    for name in ('rover::chassis', 'rover::arm::shoulder_link', 'rover::arm::forearm', 'rover::mast::mast'):
        assert name in html


def test_json_lists_the_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / 'm.sdf'
    path.write_text(MASSLESS)
    assert main(['report', str(path), '--json']) == 0
    data = json.loads(capsys.readouterr().out)
    assert data['counts']['links'] == 2 and data['failing'] == 1
    massless = [p for p in data['problems'] if p['code'] == 'MASSLESS_LINK']
    assert [(p['subject'], p['line']) for p in massless] == [('m::arm', 3)]
    assert [row['name'] for row in data['links']] == ['m::base', 'm::arm']


@pytest.mark.parametrize('text,strict,code', [
    (CLEAN, True, 0), (MASSLESS, False, 0), (MASSLESS, True, 1)])
def test_check_strict_fails_on_the_reports_findings(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     text: str, strict: bool, code: int) -> None:
    path = tmp_path / 'm.sdf'
    path.write_text(text)
    assert main(['check', str(path), *(['--strict'] if strict else [])]) == code
    if code:
        assert f'{path}:3: warning: [MASSLESS_LINK] m::arm' in capsys.readouterr().err


def test_invalid_file_still_gets_a_page_listing_its_errors(tmp_path: Path) -> None:
    path = tmp_path / 'bad.sdf'
    path.write_text(CLEAN.replace('</link>', '</link><joint name="j" type="fixed"><parent>base</parent>'
                                  '<child>nowhere</child></joint>'))
    out = tmp_path / 'r.html'
    assert main(['report', str(path), '-o', str(out)]) == 1
    html = out.read_text()
    # file:line, the file named relative to the input's directory (in full in its title)
    assert 'JOINT_CHILD_LINK_INVALID' in html and f'title="{path}">bad.sdf:3<' in html


def test_massless_root_urdf_gets_a_page_naming_the_root(tmp_path: Path, data_dir: Path) -> None:
    path = data_dir / 'urdf_rules' / 'massless_root.urdf'
    out = tmp_path / 'r.html'
    assert main(['report', str(path), '-o', str(out)]) in (0, 1)
    problems = out.read_text().split('id="problems"')[1].split('</section>')[0]
    assert 'base' in problems and ('MASSLESS_LINK' in problems or 'MODEL_WITHOUT_LINK' in problems)


def test_unreadable_file_gets_a_page_and_exit_2(tmp_path: Path) -> None:
    path = tmp_path / 'bad.sdf'
    path.write_text('<sdf version="1.9"><model name="m">')
    out = tmp_path / 'r.html'
    assert main(['report', str(path), '-o', str(out)]) == 2
    assert 'XML_INVALID' in out.read_text()


JOINTED = CLEAN.replace('</model>', '<link name="arm"/><joint name="hinge" type="revolute"><parent>base'
                        '</parent><child>arm</child><axis><xyz>0 0 1</xyz><initial_position>0.5'
                        '</initial_position></axis></joint></model>')


def _hinge_start(html: str) -> float:
    data = json.loads(re.search(r'"joints": ?(\[.*?\]), ?"frames"', html, re.S).group(1))
    return float(data[0]['axes'][0]['initial'])


def test_joint_positions_start_the_sliders(tmp_path: Path) -> None:
    path, out = tmp_path / 'm.sdf', tmp_path / 'r.html'
    path.write_text(JOINTED)
    assert main(['report', str(path), '-o', str(out)]) == 0
    assert _hinge_start(out.read_text()) == 0.5
    assert main(['report', str(path), '-o', str(out), '--joint-positions', 'm::hinge=-0.75']) == 0
    assert _hinge_start(out.read_text()) == -0.75
    given = tmp_path / 'q.yaml'
    given.write_text('initial_positions:\n  m::hinge: 1.5\n')
    assert main(['report', str(path), '-o', str(out), '--joint-positions', str(given)]) == 0
    assert _hinge_start(out.read_text()) == 1.5


@pytest.mark.parametrize('value,says', [('m::elbow=1', 'no joint [m::elbow]'),
                                             ('m::hinge=up', 'm::hinge'),
                                             ('hinge', 'is not NAME=VALUE')])
def test_bad_joint_positions_exit_2(value: str, says: str, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    path, out = tmp_path / 'm.sdf', tmp_path / 'r.html'
    path.write_text(JOINTED)
    assert main(['report', str(path), '-o', str(out), '--joint-positions', value]) == 2
    assert says in capsys.readouterr().err
    assert not out.exists()


def test_report_needs_an_output(tmp_path: Path) -> None:
    assert main(['report', str(DEMO)]) == 2


def test_xacro_arguments_after_the_options(tmp_path: Path, data_dir: Path) -> None:
    out = tmp_path / 'r.html'
    xacro = data_dir / 'urdf' / 'two_link.urdf.xacro'
    assert main(['report', str(xacro), '-o', str(out), 'prefix:=left_']) in (0, 1)
    assert 'left_' in out.read_text()
    assert main(['report', str(xacro), '-o', str(out), 'prefix']) == 2



def test_check_strict_and_report_say_the_same_lines_once(tmp_path: Path, data_dir: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    # A massless link lumping saves and one it does not: one line each, the same in both.
    # test/data/urdf_rules/massless_links.urdf, its [dummy] with an <inertial> of mass 0
    path = tmp_path / 'r.urdf'
    zero = ('<link name="dummy"><inertial><mass value="0"/><inertia ixx="0" iyy="0" izz="0" ixy="0" '
            'ixz="0" iyz="0"/></inertial></link>')
    path.write_text((data_dir / 'urdf_rules' / 'massless_links.urdf').read_text()
                    .replace('<link name="dummy"/>', zero))
    assert main(['check', str(path), '--strict']) == 1
    err = capsys.readouterr().err
    said = sorted(re.findall(r':(\d+): (?:error|warning|note): \[(\w+)\]', err))
    assert main(['report', str(path), '--json']) == 0
    data = json.loads(capsys.readouterr().out)
    listed = sorted((str(p['line']), p['code']) for p in data['problems'])
    assert said == listed
    about = dict(said)
    assert about['4'] == 'MASSLESS_LINK' and about['6'] == 'MASSLESS_LINK'
    assert len([1 for line, _ in said if line in ('4', '6')]) == 2
    assert 'WARNING' not in {code for _, code in said}
    notes = [p for p in data['problems'] if p['severity'] == 'note']
    assert [(p['subject'], p['code']) for p in notes] == [('r::sensor_frame', 'MASSLESS_LINK')]
