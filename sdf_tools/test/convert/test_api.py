"""convert_file / convert_text: format from the extension, output only on success, report always."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from sdf_tools.convert import ConversionOptions
from sdf_tools.convert.api import convert_file, convert_text, output_format
from sdf_tools.errors import ErrorCode

DATA = Path(__file__).resolve().parents[1] / 'data'
ARM = DATA / 'convert_urdf' / 'arm_offsets.sdf'
LOOP = DATA / 'convert_urdf' / 'loop.sdf'
XACRO = DATA / 'urdf' / 'two_link.urdf.xacro'


@pytest.mark.parametrize('to,path,fmt', [
    (None, 'a.urdf', 'urdf'), (None, 'a.SDF', 'sdf'), (None, 'w.world', 'sdf'),
    ('sdf', 'a.urdf', 'sdf'), (None, 'a.xml', None), (None, None, None), ('step', 'a.urdf', None),
    (None, 'r.usda', 'usd'), (None, 'r.usdc', 'usd'), ('usd', 'a.urdf', 'usd'),
])
def test_output_format_comes_from_to_or_the_extension(to: str | None, path: str | None,
                                                       fmt: str | None) -> None:
    assert output_format(to, path) == fmt


def test_convert_file_writes_output_and_report(tmp_path: Path) -> None:
    out, rep = tmp_path / 'arm.urdf', tmp_path / 'arm.json'
    result = convert_file(ARM, to=None, output_path=out, options=ConversionOptions(),
                          report_path=rep)
    assert result.ok and result.format == 'urdf'
    assert out.read_text() == result.text
    data = json.loads(rep.read_text())
    assert data['ok'] is True and data['output'] == str(out) and data['format'] == 'urdf'
    assert data['entries'] and all({'kind', 'element', 'message', 'file', 'line'} <= set(e)
                                   for e in data['entries'])
    assert data['summary'] == result.report.summary()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith('.')] == []  # no temp file left
    assert oct(out.stat().st_mode & 0o777) != oct(0o600)  # not mkstemp's private mode


def test_failed_conversion_writes_no_output_but_the_report(tmp_path: Path) -> None:
    out, rep = tmp_path / 'loop.urdf', tmp_path / 'loop.json'
    out.write_text('previous')
    result = convert_file(LOOP, to='urdf', output_path=out, options=ConversionOptions(),
                          report_path=rep)
    assert not result.ok and result.text is None
    assert out.read_text() == 'previous'
    data = json.loads(rep.read_text())
    assert data['ok'] is False and data['output'] is None
    [err] = data['errors']
    assert err['code'] == 'URDF_INVALID' and err['line'] == 12 and 'kinematic loop' in err['message']


def test_unusable_input_and_unknown_format_are_failed_results(tmp_path: Path) -> None:
    missing = convert_file(tmp_path / 'nope.sdf', to='urdf', output_path=tmp_path / 'o.urdf',
                           options=ConversionOptions(), report_path=tmp_path / 'r.json')
    assert not missing.ok and missing.report.errors[0].code is ErrorCode.FILE_READ
    assert not (tmp_path / 'o.urdf').exists() and (tmp_path / 'r.json').exists()
    unknown = convert_file(ARM, to=None, output_path=tmp_path / 'o.txt', options=ConversionOptions())
    assert not unknown.ok and 'output format' in unknown.report.errors[0].message


def test_unwritable_output_fails_with_a_message(tmp_path: Path) -> None:
    result = convert_file(ARM, to=None, output_path=tmp_path / 'no' / 'dir' / 'arm.urdf',
                          options=ConversionOptions())
    assert not result.ok
    assert 'cannot write the output' in result.report.errors[-1].message


def test_xacro_file_with_arguments_converts(tmp_path: Path) -> None:
    out = tmp_path / 'two.urdf'
    result = convert_file(XACRO, to=None, output_path=out, options=ConversionOptions())
    assert result.ok, result.report.errors
    assert '<robot name=' in out.read_text()


def test_convert_file_to_sdf_dispatches_to_the_sdf_writer(tmp_path: Path) -> None:
    out = tmp_path / 'arm.sdf'
    result = convert_file(ARM, to=None, output_path=out, options=ConversionOptions(gazebo='fortress'))
    assert result.ok and result.format == 'sdf'
    assert '<sdf version="1.9">' in out.read_text()


def test_convert_text_detects_the_input_format() -> None:
    sdf = ARM.read_text()
    result = convert_text(sdf, to='urdf', options=ConversionOptions(scope_separator='/'),
                          source_name=str(ARM))
    assert result.ok and result.text is not None and '<robot name="arm">' in result.text
    urdf = result.text
    again = convert_text(urdf, to='urdf', options=ConversionOptions())
    assert again.ok
    wrong = convert_text(sdf, input_format='urdf', to='urdf', options=ConversionOptions())
    assert not wrong.ok and 'not URDF' in wrong.report.errors[0].message
    bad = convert_text(sdf, input_format='mjcf', to='urdf', options=ConversionOptions())
    assert not bad.ok


def test_convert_text_expands_xacro_with_includes_next_to_its_source() -> None:
    options = ConversionOptions(xacro_args={'prefix': 'x_'})
    result = convert_text(XACRO.read_text(), to='urdf', options=options, source_name=str(XACRO))
    assert result.ok, result.report.errors
    assert result.text is not None and '<link name="x_base">' in result.text
    assert not [p for p in XACRO.parent.iterdir() if p.name.startswith('.sdf_tools_')]


def test_convert_text_names_broken_xacro_by_its_source_name() -> None:
    broken = convert_text('<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="r">'
                          '<xacro:call_unknown/></robot>', to='urdf',
                          options=ConversionOptions(), source_name='mine.urdf.xacro')
    assert not broken.ok and broken.report.errors
    assert all(e.file in (None, 'mine.urdf.xacro') for e in broken.report.errors)
