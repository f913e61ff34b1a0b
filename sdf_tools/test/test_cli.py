"""The command line as a user runs it: exit codes, JSON, messages, no tracebacks."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PKG_ROOT = Path(__file__).resolve().parents[1]
DEMO = PKG_ROOT / 'sdf_tools' / 'examples' / 'demo_world.sdf'


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(PKG_ROOT))
    return subprocess.run([sys.executable, '-m', 'sdf_tools', *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=120)


def test_inspect_json_prints_one_object_with_the_documented_keys() -> None:
    proc = run('inspect', str(DEMO), '--json')
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert set(data) == {'file', 'format', 'version', 'gazebo', 'valid', 'errors', 'warnings',
                         'models', 'links', 'joints', 'frames', 'actors'}
    assert data['gazebo']['name'] in ('fortress', 'harmonic', 'ionic', 'jetty')
    assert data['format'] == 'sdf' and data['version'] == '1.9' and data['valid'] is True
    names = {m['name'] for m in data['models']}
    assert {'rover', 'rover::arm', 'rover::mast'} <= names
    actor = data['actors'][0]
    assert actor['name'] == 'walker' and len(actor['trajectories'][0]['waypoints']) == 5
    for link in data['links']:
        assert set(link) == {'name', 'pose', 'mass', 'inertia', 'inertial_pose', 'visuals', 'collisions'}
        assert set(link['pose']) == {'xyz', 'quat_xyzw'}


def test_frames_prints_the_tree_with_scoped_names() -> None:
    proc = run('frames', str(DEMO))
    assert proc.returncode == 0, proc.stderr
    assert 'rover::arm::forearm [link]' in proc.stdout
    assert 'dock [frame] xyz=(2, 1, 0)' in proc.stdout


def test_frames_marks_what_libsdformat_keeps_as_frames_of_a_urdf() -> None:
    # 13.1+ (gazebosim/sdformat#1148): a lumped joint and link are frames of the converted model
    urdf = PKG_ROOT / 'test' / 'data' / 'urdf_rules' / 'lumped_frames.urdf'
    newer = run('frames', '--gazebo', 'harmonic', str(urdf))
    assert newer.returncode == 0, newer.stderr
    assert 'lf::tool_joint [joint; a frame in libsdformat]' in newer.stdout
    assert 'lf::tool [link; a frame in libsdformat]' in newer.stdout
    assert 'lf::arm [link] ' in newer.stdout
    assert 'a frame in libsdformat' not in run('frames', '--gazebo', 'fortress', str(urdf)).stdout


@pytest.mark.parametrize('content,code', [
    (b'', 2),
    (b'\x00\x01\x02binary junk\xff', 2),
    (b'<sdf version="1.9"><model name="m"><link name="a"></model></sdf>', 2),
    (b'<notsdf/>', 2),
    (b'<sdf><model name="m"><link name="a"/></model></sdf>', 2),
    (b'<sdf version="1.9"><model name="m"><link name="a"/><link name="a"/></model></sdf>', 1),
    (b'<sdf version="1.9"><model name="m"><link name="a"/></model></sdf>', 0),
])
def test_check_exit_codes(tmp_path: Path, content: bytes, code: int) -> None:
    f = tmp_path / 'in.sdf'
    f.write_bytes(content)
    proc = run('check', str(f))
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert 'Traceback' not in proc.stderr
    if code:
        assert str(f) in proc.stderr


def test_missing_file_is_unusable_input(tmp_path: Path) -> None:
    proc = run('check', str(tmp_path / 'nope.sdf'))
    assert proc.returncode == 2
    assert 'FILE_READ' in proc.stderr and 'Traceback' not in proc.stderr


def test_usage_error_exits_2() -> None:
    proc = run('inspect')
    assert proc.returncode == 2
    proc = run('inspect', str(DEMO), 'not_an_arg')
    assert proc.returncode == 2 and 'name:=value' in proc.stderr


def test_invalid_file_json_has_errors_with_file_and_line(tmp_path: Path) -> None:
    f = tmp_path / 'bad.sdf'
    f.write_text('<sdf version="1.9">\n<model name="m">\n<link name="a">\n'
                 '<pose relative_to="zz"/>\n</link>\n</model>\n</sdf>\n')
    proc = run('inspect', str(f), '--json')
    assert proc.returncode == 1
    data = json.loads(proc.stdout)
    assert data['valid'] is False
    err = [e for e in data['errors'] if e['code'] == 'POSE_RELATIVE_TO_INVALID'][0]
    assert err['file'] == str(f) and err['line'] == 3


# Runs `sdf_tools check FILE` in this process's interpreter and prints the modules it imported.
IMPORTED_BY_CHECK = r'''
import runpy, sys
sys.argv = ['sdf_tools', 'check', sys.argv[1]]
try:
    runpy.run_module('sdf_tools', run_name='__main__')
except SystemExit as exc:
    print('exit', exc.code)
print(' '.join(sorted(sys.modules)))
'''


def test_check_imports_only_what_checking_needs() -> None:
    """`check` starts fast: no converter, report, lint, spawn pipeline, numpy or xacro is imported."""
    proc = subprocess.run([sys.executable, '-c', IMPORTED_BY_CHECK, str(DEMO)], capture_output=True,
                          text=True, env=dict(os.environ, PYTHONPATH=str(PKG_ROOT)), timeout=120)
    status, modules = proc.stdout.splitlines()[-2:]
    assert status == 'exit 0', proc.stdout + proc.stderr
    imported = set(modules.split())
    assert 'sdf_tools.load' in imported and 'lxml.etree' in imported  # it did check the file
    # shutil: argparse's help formatter imports it (and its compressors) unless told the width.
    for heavy in ('sdf_tools.convert', 'sdf_tools.lint', 'sdf_tools.spawn', 'sdf_tools.resolved',
                  'numpy', 'scipy', 'transforms3d', 'xacro', 'trimesh', 'shutil'):
        assert heavy not in imported, f'`sdf_tools check` imported {heavy}'
    # Of the report, only its argparse helpers (check's --package option).
    assert {m for m in imported if m.startswith('sdf_tools.report')} <= {
        'sdf_tools.report', 'sdf_tools.report.command'}


# A 1.9 model with links, a joint and a frame, and none of the elements whose readers are
# imported on first use.
PLAIN = '''<?xml version="1.0"?>
<sdf version="1.9"><model name="m">
  <link name="a"><inertial><mass>2</mass></inertial>
    <collision name="c"><geometry><box><size>1 1 1</size></box></geometry></collision></link>
  <link name="b"/>
  <joint name="j" type="revolute"><parent>a</parent><child>b</child>
    <axis><xyz>0 0 1</xyz></axis></joint>
  <frame name="f" attached_to="b"><pose>0 0 1 0 0 0</pose></frame>
</model></sdf>
'''


def _imported_by_check(path: Path) -> set[str]:
    proc = subprocess.run([sys.executable, '-c', IMPORTED_BY_CHECK, str(path)], capture_output=True,
                          text=True, env=dict(os.environ, PYTHONPATH=str(PKG_ROOT)), timeout=120)
    status, modules = proc.stdout.splitlines()[-2:]
    assert status == 'exit 0', proc.stdout + proc.stderr
    return set(modules.split())


def test_check_of_a_plain_model_imports_no_reader_it_does_not_need(tmp_path: Path) -> None:
    """Readers of elements the file does not contain load on first use (bench_startup.py)."""
    plain = tmp_path / 'plain.sdf'
    plain.write_text(PLAIN)
    imported = _imported_by_check(plain)
    assert 'sdf_tools.sdf.joint' in imported and 'sdf_tools.sdf.geometry' in imported
    for lazy in ('sdf_tools.sdf.include', 'sdf_tools.sdf.params', 'sdf_tools.sdf.merge',
                 'sdf_tools.sdf.uris', 'sdf_tools.sdf.auto_inertial', 'sdf_tools.model.auto_inertia',
                 'sdf_tools.urdf', 'sdf_tools.xacro', 'sdf_tools.model.actor',
                 'sdf_tools.model.verbatim', 'sdf_tools.sdf.world',
                 'sdf_tools.model.inertia'):  # its validity test lives apart, in inertia_validity
        assert lazy not in imported, f'`sdf_tools check` of a plain model imported {lazy}'
    # ... and each is imported once the file has the element it reads.
    with_include = tmp_path / 'with_include.sdf'
    with_include.write_text(PLAIN.replace('<link name="b"/>', '<link name="b"/><include>'
                                          f'<uri>{plain}</uri><name>inc</name></include>'))
    assert {'sdf_tools.sdf.include', 'sdf_tools.sdf.params'} <= _imported_by_check(with_include)
    with_auto = tmp_path / 'with_auto.sdf'
    with_auto.write_text(PLAIN.replace('1.9', '1.11').replace('<inertial>', '<inertial auto="true">')
                         .replace('<mass>2</mass>', ''))
    assert 'sdf_tools.sdf.auto_inertial' in _imported_by_check(with_auto)
    with_plugin = tmp_path / 'with_plugin.sdf'
    with_plugin.write_text(PLAIN.replace('<link name="b"/>', '<link name="b"/><plugin name="p" filename="x"/>'))
    assert 'sdf_tools.model.verbatim' in _imported_by_check(with_plugin)
    in_world = tmp_path / 'in_world.sdf'
    in_world.write_text(PLAIN.replace('<model', '<world name="w"><model').replace('</model>', '</model></world>'))
    assert 'sdf_tools.sdf.world' in _imported_by_check(in_world)
    with_actor = tmp_path / 'with_actor.sdf'
    with_actor.write_text('<sdf version="1.9"><actor name="a"><link name="x"/></actor></sdf>')
    assert 'sdf_tools.sdf.world' in _imported_by_check(with_actor)
def test_gazebo_option_anywhere_picks_the_target_and_json_says_it() -> None:
    for args in (('inspect', str(DEMO), '--json', '--gazebo', 'fortress'),
                 ('--gazebo=fortress', 'inspect', str(DEMO), '--json')):
        proc = run(*args)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)['gazebo'] == {'name': 'fortress', 'libsdformat': 12,
                                                     'sdformat': '1.9'}
    proc = run('check', str(DEMO), '--gazebo', 'humble')
    assert proc.returncode == 2 and 'unknown Gazebo target' in proc.stderr
