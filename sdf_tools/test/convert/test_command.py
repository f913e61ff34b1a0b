"""``sdf_tools convert`` as a user runs it: exit codes, nothing written on failure, no tracebacks."""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sdf_tools.convert import ConversionOptions
from sdf_tools.convert.command import FLAGS, add_convert_arguments, options_from_args

PKG_ROOT = Path(__file__).resolve().parents[2]
DATA = PKG_ROOT / 'test' / 'data'
ARM = DATA / 'convert_urdf' / 'arm_offsets.sdf'
LOOP = DATA / 'convert_urdf' / 'loop.sdf'
XACRO = DATA / 'urdf' / 'two_link.urdf.xacro'


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(PKG_ROOT))
    return subprocess.run([sys.executable, '-m', 'sdf_tools', *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=120)


def _no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert 'Traceback' not in proc.stderr and 'Traceback' not in proc.stdout


def test_converts_and_prints_a_summary(tmp_path: Path) -> None:
    out = tmp_path / 'arm.urdf'
    proc = run('convert', ARM, '-o', out, '--report', tmp_path / 'r.json')
    assert proc.returncode == 0, proc.stderr
    assert out.read_text().startswith("<?xml version='1.0'")
    assert f'converted {ARM} -> {out} (urdf):' in proc.stdout and 'dropped' in proc.stdout
    assert 'dropped: world[lab]' in proc.stderr  # each report entry, unless --quiet
    assert json.loads((tmp_path / 'r.json').read_text())['ok'] is True


def test_quiet_prints_only_the_summary(tmp_path: Path) -> None:
    proc = run('convert', ARM, '-o', tmp_path / 'arm.urdf', '-q')
    assert proc.returncode == 0 and proc.stderr == ''


def test_conversion_error_exits_1_writes_nothing_but_the_report(tmp_path: Path) -> None:
    out, rep = tmp_path / 'loop.urdf', tmp_path / 'loop.json'
    proc = run('convert', LOOP, '-o', out, '--report', rep)
    assert proc.returncode == 1
    assert not out.exists() and not list(tmp_path.glob('.*'))
    assert f'{LOOP}:12: error: [URDF_INVALID] kinematic loop' in proc.stderr
    assert 'nothing written' in proc.stderr
    assert json.loads(rep.read_text())['errors'][0]['line'] == 12
    _no_traceback(proc)


def test_break_loops_flag_converts(tmp_path: Path) -> None:
    proc = run('convert', LOOP, '-o', tmp_path / 'loop.urdf', '--break-loops', '-q')
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize('name,content,code', [
    ('broken.sdf', None, 1),                       # invalid SDFormat
    ('missing.sdf', '', 2),                        # no such file
    ('cut.sdf', '<sdf version="1.9"><model name="m">', 2),  # not XML
    ('other.sdf', '<html/>', 2),                   # unknown root
    ('bad_joint.urdf', '<robot name="r"><link name="a"/><link name="b"/><joint name="j" '
     'type="hinge"><parent link="a"/><child link="b"/></joint></robot>', 1),
    ('cyclic.urdf', '<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="fixed">'
     '<parent link="a"/><child link="b"/></joint><joint name="k" type="fixed"><parent link="b"/>'
     '<child link="a"/></joint></robot>', 1),
    ('no_parent.urdf', '<robot name="r"><link name="a"/><joint name="j" type="fixed">'
     '<parent link="ghost"/><child link="a"/></joint></robot>', 1),
    ('bad.urdf.xacro', '<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="r">'
     '<xacro:undefined_macro/></robot>', 2),
])
def test_bad_input_gives_file_line_exit_code_and_no_output(
        tmp_path: Path, name: str, content: str | None, code: int) -> None:
    src = DATA / 'convert_urdf' / name if content is None else tmp_path / name
    if content:
        src.write_text(content)
    out = tmp_path / 'out.urdf'
    out.write_text('old')
    proc = run('convert', src, '-o', out)
    assert proc.returncode == code, proc.stderr
    assert out.read_text() == 'old'
    assert f'{src}' in proc.stderr and ': error: [' in proc.stderr
    _no_traceback(proc)


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    for args in (['convert', ARM], ['convert', ARM, '-o', tmp_path / 'x.txt'],
                 ['convert', ARM, '-o', tmp_path / 'x.urdf', 'notanarg'],
                 ['convert', ARM, '-o', tmp_path / 'x.urdf', '--root-transform', '1 2'],
                 ['convert', ARM, '-o', tmp_path / 'x.urdf', '--default-mass', '-1'],
                 ['convert', ARM, '-o', tmp_path / 'no' / 'dir' / 'x.urdf']):
        proc = run(*args)
        assert proc.returncode == 2, (args, proc.stderr)
        _no_traceback(proc)
    assert not list(tmp_path.iterdir())


def test_xacro_arguments_may_follow_the_options(tmp_path: Path) -> None:
    out = tmp_path / 'two.urdf'
    proc = run('convert', XACRO, '-o', out, '--to', 'urdf', 'prefix:=left_')
    assert proc.returncode == 0, proc.stderr
    assert '<link name="left_base">' in out.read_text()


def test_standard_output(tmp_path: Path) -> None:
    proc = run('convert', ARM, '-o', '-', '--to', 'urdf', '--scope-separator', '/', '-q')
    assert proc.returncode == 0 and proc.stdout.startswith('<?xml')
    assert '<link name="hand/palm">' in proc.stdout and 'converted' in proc.stderr


def test_converts_to_sdf_by_extension(tmp_path: Path) -> None:
    out = tmp_path / 'two.sdf'
    proc = run('convert', XACRO, '-o', out, '-q', '--gazebo', 'fortress')
    assert proc.returncode == 0, proc.stderr
    assert '<sdf version="1.9">' in out.read_text()


def test_every_option_has_a_flag_with_its_default_in_the_help() -> None:
    fields = {f.name for f in dataclasses.fields(ConversionOptions)} - {'xacro_args'}
    assert {dest for dest, _, _ in FLAGS} == fields
    proc = run('convert', '--help')
    assert proc.returncode == 0
    help_text = ' '.join(proc.stdout.split())
    for _, flags, kwargs in FLAGS:
        assert flags[0] in help_text
        assert '(default:' in ' '.join(kwargs['help'].split())


def test_flags_build_the_options() -> None:
    parser = argparse.ArgumentParser()
    add_convert_arguments(parser)
    ns = parser.parse_intermixed_args([
        'in.sdf', '-o', 'o.urdf', 'a:=1', '--sdf-version', '1.11', '--keep-fixed-joints',
        '--collapse-fixed-joints',
        '--massless-links', 'drop', '--default-mass', '0.5', '--uris', 'file', '--fixed-base',
        '--root-transform', '1 2 3 0 0 0', '--self-collide', 'off', '--visual-as-collision',
        '--inertia-from-geometry', '--mesh-collision', 'box', '--no-joint-drive-from-transmission',
        '--model', 'm', '--scope-separator', '/', '--drop-frames', '--break-loops', 'b:=2',
        '--assets-dir', 'meshes', '--usd-mesh-approximation', 'convexDecomposition',
        '--actuators', 'motor', '--joint-positions', 'j1=0.5,j2=-1',
        '--gazebo', 'fortress', '--expand-auto-inertials'])
    opts, problems = options_from_args(ns)
    assert not problems
    defaults = ConversionOptions()
    for f in dataclasses.fields(ConversionOptions):
        assert getattr(opts, f.name) != getattr(defaults, f.name), f.name
    assert opts.xacro_args == {'a': '1', 'b': '2'} and opts.root_transform.p == (1.0, 2.0, 3.0)
    assert opts.self_collide is False
    assert opts.joint_positions == {'j1': 0.5, 'j2': -1.0}


def test_top_level_help_lists_every_command() -> None:
    proc = run('--help')
    assert proc.returncode == 0
    for command in ('inspect', 'check', 'frames', 'convert'):
        assert command in proc.stdout


@pytest.mark.parametrize('gazebo, version', [('fortress', '1.9'), ('harmonic', '1.11'),
                                             ('ionic', '1.12'), ('jetty', '1.12')])
def test_default_sdf_version_is_the_targets(gazebo: str, version: str, tmp_path: Path) -> None:
    out = tmp_path / 'out.sdf'
    proc = run('convert', XACRO, '-o', out, '-q', '--gazebo', gazebo)
    assert proc.returncode == 0, proc.stderr
    assert f'<sdf version="{version}">' in out.read_text()
    proc = run('convert', XACRO, '-o', out, '-q', '--gazebo', gazebo, '--sdf-version', '1.10')
    assert proc.returncode == 0 and '<sdf version="1.10">' in out.read_text()
