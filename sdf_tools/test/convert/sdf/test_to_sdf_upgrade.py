"""SDF -> SDF: any version in, 1.9/1.10/1.11/1.12 out, every resolved pose unchanged."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from lxml import etree
from support.libsdformat import compare, probe_available, probe_unavailable_reason, run_probe

from convert.sdf.to_sdf_compare import SDF_DATA, convert, write
from sdf_tools.convert import ReportKind
from sdf_tools.load import load_file
from sdf_tools.resolved import inspect_json

ENV = {'SDF_PATH': str(SDF_DATA / 'models')}
EXAMPLES = SDF_DATA.parents[2] / 'sdf_tools' / 'examples'
FILES = sorted(SDF_DATA.glob('*.sdf')) + sorted(EXAMPLES.glob('*.sdf'))
VERSIONS = ('1.9', '1.10', '1.11', '1.12')
needs_probe = pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))


def _ours(path: Path) -> dict[str, Any]:
    # Fortress, as `convert` reads (to_sdf_compare): a Fortress conversion writes 1.9's
    # +-1e16 for an absent limit, which a newer target reads as given, not as its own +-inf.
    data = inspect_json(load_file(path, gazebo='fortress'), str(path))
    out: dict[str, Any] = json.loads(json.dumps(data))
    return out


def _same_but_version(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    a, b = dict(a), dict(b)
    a['version'] = b['version']
    a['file'] = b['file']
    return compare(a, b)


@pytest.mark.parametrize('version', VERSIONS)
@pytest.mark.parametrize('path', FILES, ids=[p.name for p in FILES])
def test_rewritten_file_resolves_every_pose_as_the_original(path: Path, version: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv('SDF_PATH', ENV['SDF_PATH'])
    result = convert(path, sdf_version=version)
    out = write(result, tmp_path)
    assert etree.parse(str(out)).getroot().get('version') == version
    original = _ours(path)
    assert original['valid']
    diffs = _same_but_version(_ours(out), original)
    assert not diffs, '\n'.join(diffs)


@needs_probe
@pytest.mark.parametrize('version', ['1.9', '1.11'])
@pytest.mark.parametrize('path', FILES, ids=[p.name for p in FILES])
def test_libsdformat_resolves_the_rewritten_file_as_the_original(path: Path, version: str,
                                                                tmp_path: Path) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv('SDF_PATH', ENV['SDF_PATH'])
        out = write(convert(path, sdf_version=version), tmp_path)
    ref = run_probe(path, env=ENV)
    assert ref['valid'], ref['errors']
    diffs = _same_but_version(run_probe(out, env=ENV), ref)
    assert not diffs, '\n'.join(diffs)


def test_includes_are_written_in_full_and_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv('SDF_PATH', ENV['SDF_PATH'])
    result = convert(SDF_DATA / 'includes.sdf')
    root = etree.fromstring((result.text or '').encode())
    assert not list(root.iter('include'))
    assert {m.get('name') for m in root.iterfind('world/model')} == {'box_bot', 'bot2', 'bot3', 'host'}
    expanded = [e for e in result.report.entries if 'written out in full' in e.message]
    assert {e.element for e in expanded} >= {'model[box_bot]', 'model[bot2]', 'model[bot3]'}
    assert all(e.line is not None for e in expanded)


def test_legacy_pieces_are_brought_up_to_date(tmp_path: Path) -> None:
    src = tmp_path / 'old.sdf'
    src.write_text(
        '<?xml version="1.0"?>\n<sdf version="1.4">\n<world name="w">\n'
        '  <physics type="ode"><gravity>0 0 -3</gravity><max_step_size>0.002</max_step_size></physics>\n'
        '  <model name="m"><link name="a"><pose>0 0 1 0 0 0</pose></link>\n'
        '    <link name="b"><pose>1 0 0 0 0 0</pose>\n'
        '      <sensor name="s" type="imu"><pose frame="a">0 0 2 0 0 0</pose></sensor>\n'
        '      <velocity_decay><linear>0.1</linear></velocity_decay>\n'
        '      <battery name="bat"><voltage>12</voltage></battery>\n'
        '    </link>\n'
        '    <joint name="j" type="revolute"><parent>a</parent><child>b</child>\n'
        '      <axis><xyz>0 0 1</xyz></axis><physics><ode><cfm>0.1</cfm></ode></physics></joint>\n'
        '  </model>\n</world>\n</sdf>\n')
    result = convert(src)
    assert result.ok, [str(d) for d in result.report.errors]
    root = etree.fromstring((result.text or '').encode())
    assert root.findtext('world/gravity') == '0 0 -3'
    assert root.find('world/physics/gravity') is None
    pose = root.find('world/model/link[@name="b"]/sensor/pose')
    assert pose is not None and pose.get('relative_to') == 'a' and pose.get('frame') is None
    assert root.findtext('world/model/link[@name="b"]/velocity_decay/linear') == '0.1'
    assert root.find('world/model/link[@name="b"]/battery[@name="bat"]') is not None
    assert root.findtext('world/model/joint/physics/ode/cfm') == '0.1'
    # 1.4 joints in a world model have their axis in the model frame.
    assert root.find('world/model/joint/axis/xyz').get('expressed_in') == '__model__'  # type: ignore[union-attr]
    kinds = {(e.kind, e.element) for e in result.report.entries}
    assert (ReportKind.REWRITTEN, 'world[w]/physics/gravity') in kinds
    assert (ReportKind.REWRITTEN, 'sdf/@version') in kinds


def test_heightmap_keeps_what_the_model_does_not_hold(tmp_path: Path) -> None:
    src = tmp_path / 'terrain.sdf'
    src.write_text(
        '<sdf version="1.9"><model name="t"><static>true</static><link name="l"><collision name="c">'
        '<geometry><heightmap><uri>h.png</uri><size>1 1 1</size>'
        '<texture><diffuse>d.png</diffuse><normal>n.png</normal><size>1</size></texture>'
        '</heightmap></geometry></collision></link></model></sdf>')
    root = etree.fromstring((convert(src).text or '').encode())
    assert root.findtext('model/link/collision/geometry/heightmap/texture/diffuse') == 'd.png'


def test_imu_noise_of_1_5_files_takes_the_1_6_layout(tmp_path: Path) -> None:
    src = tmp_path / 'imu.sdf'
    src.write_text(
        '<sdf version="1.5"><model name="m"><link name="l"><sensor name="imu" type="imu"><imu>'
        '<noise><type>gaussian</type><rate><mean>0.1</mean><stddev>0.2</stddev></rate>'
        '<accel><mean>0.3</mean><bias_stddev>0.4</bias_stddev></accel></noise>'
        '</imu></sensor></link></model></sdf>')
    result = convert(src)
    imu = etree.fromstring((result.text or '').encode()).find('model/link/sensor/imu')
    assert imu is not None and imu.find('noise') is None
    for axis in 'xyz':
        rate = imu.find(f'angular_velocity/{axis}/noise')
        accel = imu.find(f'linear_acceleration/{axis}/noise')
        assert rate is not None and accel is not None
        assert (rate.get('type'), rate.findtext('mean'), rate.findtext('stddev')) == ('gaussian', '0.1', '0.2')
        assert (accel.findtext('mean'), accel.findtext('bias_stddev')) == ('0.3', '0.4')
    assert any('IMU <noise>' in e.message for e in result.report.entries)


def _corpus_sdf() -> list[Any]:
    from differential.corpus import corpus

    from convert.sdf.to_sdf_compare import environment
    out = []
    for entry in sorted((e for e in corpus() if e.path.suffix in ('.sdf', '.world')), key=lambda e: str(e.path)):
        with environment(entry.env):
            if load_file(entry.path).valid:
                out.append(entry)
    return out[::max(1, len(out) // 10)][:10]


CORPUS_SDF = _corpus_sdf() if probe_available() else []


@needs_probe
@pytest.mark.parametrize('entry', CORPUS_SDF, ids=[f'{e.collection}/{e.path.name}' for e in CORPUS_SDF])
def test_real_sdf_files_keep_their_poses(entry: Any, tmp_path: Path) -> None:
    from convert.sdf.to_sdf_compare import environment
    with environment(entry.env):
        original = _ours(entry.path)
        out = write(convert(entry.path), tmp_path)
        assert not _same_but_version(_ours(out), original)
    ref = run_probe(entry.path, env=entry.env)
    if ref['valid']:
        assert not _same_but_version(run_probe(out, env=entry.env), ref)
