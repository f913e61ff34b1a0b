"""Joint limit defaults per Gazebo target (``sdf/joint.py``).

libsdformat converts every file to the newest SDFormat it knows before reading it, so the
``<limit>`` defaults are those of that version, whatever the file says: 1.9's ``-1e16 ..
1e16`` for libsdformat 12 (Fortress), 1.10's infinite limits (gazebosim/sdformat#1112) from
13 on. Judges: the libsdformat 12 probe for Fortress, Drake's embedded libsdformat (1.12)
for the newer targets; libsdformat 14.9.0 and 15.4.0 built by hand agree with Drake
(test/differential/MISMATCHES.md, "Harmonic, Ionic, Jetty").
"""
from __future__ import annotations

import math
from pathlib import Path

import pytest
from differential.reference import ours_report
from support.drake import drake_load, require_drake
from support.libsdformat import probe_available, probe_unavailable_reason, run_probe

from sdf_tools.convert.api import convert_loaded
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file, load_string

# A revolute joint without <limit>, a prismatic one with only <upper>, a continuous one.
MODEL = '''<?xml version="1.0"?>
<sdf version="{version}"><model name="m">
  <link name="a"/><link name="b"/><link name="c"/><link name="d"/>
  <joint name="free" type="revolute"><parent>a</parent><child>b</child>
    <axis><xyz>0 0 1</xyz></axis></joint>
  <joint name="half" type="prismatic"><parent>b</parent><child>c</child>
    <axis><xyz>1 0 0</xyz><limit><upper>2</upper></limit></axis></joint>
  <joint name="wheel" type="continuous"><parent>c</parent><child>d</child>
    <axis><xyz>0 1 0</xyz></axis></joint>
</model></sdf>
'''
VERSIONS = ['1.6', '1.9', '1.11']


def _write(tmp_path: Path, version: str) -> Path:
    path = tmp_path / f'limits_{version}.sdf'
    path.write_text(MODEL.format(version=version))
    return path


def _limits(report: dict[str, object], name: str) -> tuple[float, float]:
    joint = next(j for j in report['joints'] if j['name'] == f'm::{name}')  # type: ignore[union-attr]
    lim = joint['limit']
    # inspect --json prints an infinite bound as null
    return (-math.inf if lim['lower'] is None else lim['lower'],
            math.inf if lim['upper'] is None else lim['upper'])


@pytest.mark.parametrize('version', VERSIONS)
@pytest.mark.parametrize('gazebo', ['harmonic', 'ionic', 'jetty'])
def test_newer_targets_read_unlimited_as_drake(tmp_path: Path, version: str, gazebo: str) -> None:
    require_drake()
    path = _write(tmp_path, version)
    ours = ours_report(path, gazebo=gazebo)
    assert ours['valid'], ours['errors']
    drake = drake_load(path).joint_limits
    for name in ('free', 'half'):
        lower, upper, _ = drake[f'm::{name}']
        assert _limits(ours, name) == (lower, upper), name
    assert _limits(ours, 'free') == (-math.inf, math.inf)  # not Fortress's +-1e16


@pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))
@pytest.mark.parametrize('version', ['1.6', '1.9'])
def test_fortress_reads_1_9_defaults_as_libsdformat_12(tmp_path: Path, version: str) -> None:
    path = _write(tmp_path, version)
    ours = ours_report(path, gazebo='fortress')
    ref = run_probe(path)
    for name in ('free', 'half'):
        lim = next(j for j in ref['joints'] if j['name'] == f'm::{name}')['limit']
        assert _limits(ours, name) == (lim['lower'], lim['upper']), name
    assert _limits(ours, 'free') == (-1e16, 1e16)


@pytest.mark.parametrize('to', ['1.9', '1.11'])
def test_unlimited_joint_written_back_as_read(tmp_path: Path, to: str) -> None:
    """A Harmonic read (-inf..inf) survives SDFormat output (every libsdformat reads ``inf``)."""
    path = _write(tmp_path, '1.9')
    loaded = load_file(path, gazebo='harmonic')
    text = convert_loaded(loaded, to='sdf', options=ConversionOptions(sdf_version=to)).text or ''
    again = load_string(text, 'back.sdf', gazebo='harmonic')
    joints = {j.name: j.axis for j in again.document.model.joints}  # type: ignore[union-attr]
    assert (joints['free'].lower, joints['free'].upper) == (-math.inf, math.inf)  # type: ignore[union-attr]
    assert (joints['half'].lower, joints['half'].upper) == (-math.inf, 2.0)  # type: ignore[union-attr]
    assert joints['free'].effort == math.inf  # type: ignore[union-attr]


def test_unlimited_continuous_joint_has_no_urdf_limit(tmp_path: Path) -> None:
    path = _write(tmp_path, '1.9')
    urdf = convert_loaded(load_file(path, gazebo='harmonic'), to='urdf', options=ConversionOptions()).text or ''
    wheel = urdf[urdf.index('name="wheel"'):]
    wheel = wheel[:wheel.index('</joint>')]
    assert '<limit' not in wheel


@pytest.mark.parametrize('gazebo, said', [('fortress', 'lower [-1e16], upper [1e16]'),
                                         ('harmonic', 'lower [-inf], upper [inf]')])
def test_missing_bounds_are_reported_with_the_targets_defaults(tmp_path: Path, gazebo: str,
                                                               said: str) -> None:
    path = tmp_path / 'effort_only.sdf'
    path.write_text(MODEL.format(version='1.9').replace(
        '<axis><xyz>0 0 1</xyz></axis>', '<axis><xyz>0 0 1</xyz><limit><effort>3</effort></limit></axis>'))
    messages = [d.message for d in load_file(path, gazebo=gazebo).diagnostics
                if 'element[limit]' in d.message]
    assert messages and said in messages[0]


def test_limit_defaults_follow_the_target_within_one_process(tmp_path: Path) -> None:
    """The defaults are kept per target (not parsed per joint): alternating targets in one
    process still gives each its own, as the probe and Drake say in the tests above."""
    path = _write(tmp_path, '1.9')
    for gazebo, bound in (('fortress', 1e16), ('harmonic', math.inf), ('fortress', 1e16),
                          ('jetty', math.inf)):
        model = load_file(path, gazebo=gazebo).document.model  # type: ignore[union-attr]
        joints = {j.name: j.axis for j in model.joints}  # type: ignore[union-attr]
        assert (joints['free'].lower, joints['free'].upper) == (-bound, bound), gazebo  # type: ignore[union-attr]
        assert joints['free'].effort == (-1.0 if bound == 1e16 else math.inf), gazebo  # type: ignore[union-attr]
