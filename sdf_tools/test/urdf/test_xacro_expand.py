"""xacro expansion: arguments, includes, ``$(find)``, and errors that stay quiet data."""
from __future__ import annotations

import math
from pathlib import Path

import pytest
from lxml import etree

from sdf_tools.errors import ErrorCode, Severity
from sdf_tools.urdf import expand_xacro, read_urdf_root

DATA = Path(__file__).resolve().parents[1] / 'data' / 'urdf'
TWO_LINK = DATA / 'two_link.urdf.xacro'
HEADER = '<?xml version="1.0"?>\n<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'


def _write(path: Path, body: str) -> Path:
    path.write_text(HEADER + body + '\n</robot>\n')
    return path


def _line(path: Path, fragment: str) -> int:
    return next(i for i, text in enumerate(path.read_text().splitlines(), 1) if fragment in text)


def test_expansion_gives_a_urdf_the_reader_accepts() -> None:
    data, diags = expand_xacro(TWO_LINK, {})
    assert data is not None and diags == []
    doc, read_diags = read_urdf_root(etree.fromstring(data), str(TWO_LINK))
    assert doc is not None and doc.model is not None
    assert [d for d in read_diags if d.severity is Severity.ERROR] == []
    assert [lk.name for lk in doc.model.links] == ['base', 'arm']
    hinge = doc.model.joints[0]
    assert hinge.pose is not None and hinge.pose.value.p == (0.0, 0.0, 0.3)
    assert hinge.pose.value.rpy()[1] == pytest.approx(math.pi / 4, abs=1e-12)


def test_arguments_override_defaults() -> None:
    data, diags = expand_xacro(TWO_LINK, {'prefix': 'left_', 'length': '1.0'})
    assert data is not None and diags == []
    robot = etree.fromstring(data)
    assert [lk.get('name') for lk in robot.findall('link')] == ['left_base', 'left_arm']
    assert robot.find('joint/origin').get('xyz') == '0 0 0.55'


def test_arguments_are_not_changed_by_expansion() -> None:
    args = {'prefix': 'p_'}
    expand_xacro(TWO_LINK, args)
    assert args == {'prefix': 'p_'}


def test_undefined_property_is_reported_at_its_line_in_the_macro_file(tmp_path: Path) -> None:
    (tmp_path / 'm.xacro').write_text(
        HEADER + '<xacro:macro name="part" params="n">\n'
        '  <link name="${n}"><visual><geometry>\n'
        '    <sphere radius="${undefined_radius}"/>\n'
        '  </geometry></visual></link>\n</xacro:macro>\n</robot>\n')
    top = _write(tmp_path / 'top.xacro', '<xacro:include filename="m.xacro"/>\n<xacro:part n="a"/>')
    data, diags = expand_xacro(top, {})
    assert data is None and len(diags) == 1
    d = diags[0]
    assert d.code is ErrorCode.XACRO_ERROR
    assert "name 'undefined_radius' is not defined" in d.message and 'in macro [part]' in d.message
    assert (d.file, d.line) == (str(tmp_path / 'm.xacro'), 5)


def test_malformed_include_is_reported_at_its_file_and_line(tmp_path: Path) -> None:
    (tmp_path / 'broken.xacro').write_text('<?xml version="1.0"?>\n<robot>\n<link name="x">\n</robot>\n')
    top = _write(tmp_path / 'top.xacro', '<xacro:include filename="broken.xacro"/>')
    data, diags = expand_xacro(top, {})
    assert data is None
    assert [(d.code, d.file, d.line) for d in diags] == [
        (ErrorCode.XML_INVALID, str(tmp_path / 'broken.xacro'), 4)]
    assert 'malformed XML' in diags[0].message


def test_missing_include_is_reported_at_the_include(tmp_path: Path) -> None:
    top = _write(tmp_path / 'top.xacro', '<link name="a"/>\n<xacro:include filename="gone.xacro"/>')
    data, diags = expand_xacro(top, {})
    assert data is None
    assert [(d.code, d.file, d.line) for d in diags] == [(ErrorCode.XACRO_ERROR, str(top), 4)]
    assert 'No such file or directory' in diags[0].message and 'gone.xacro' in diags[0].message


def test_undefined_argument_is_reported_at_its_line(tmp_path: Path) -> None:
    top = _write(tmp_path / 'top.xacro', '<link name="a"/>\n<link name="$(arg missing_arg)"/>')
    data, diags = expand_xacro(top, {})
    assert data is None
    assert [(d.code, d.line) for d in diags] == [(ErrorCode.XACRO_ERROR, 4)]
    assert 'Undefined substitution argument missing_arg' in diags[0].message


def test_find_resolves_packages_from_ament_prefix_path(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    share = tmp_path / 'install' / 'share' / 'arm_description'
    (share / 'urdf').mkdir(parents=True)
    (share / 'urdf' / 'part.xacro').write_text(HEADER + '<link name="from_package"/>\n</robot>\n')
    monkeypatch.setenv('AMENT_PREFIX_PATH', f'/nonexistent:{tmp_path / "install"}')
    top = _write(tmp_path / 'top.xacro',
                 '<xacro:include filename="$(find arm_description)/urdf/part.xacro"/>')
    data, diags = expand_xacro(top, {})
    assert data is not None and diags == []
    assert etree.fromstring(data).find('link').get('name') == 'from_package'


def test_find_of_a_missing_package_says_where_it_looked(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv('AMENT_PREFIX_PATH', str(tmp_path))
    top = _write(tmp_path / 'top.xacro', '<link name="a"/>\n<link name="$(find no_such_pkg)"/>')
    data, diags = expand_xacro(top, {})
    assert data is None
    assert [(d.code, d.line) for d in diags] == [(ErrorCode.XACRO_ERROR, 4)]
    assert 'package [no_such_pkg] not found' in diags[0].message
    assert 'AMENT_PREFIX_PATH' in diags[0].message


def test_xacro_fatal_becomes_an_error(tmp_path: Path) -> None:
    top = _write(tmp_path / 'top.xacro', '<link name="${xacro.fatal(\'bad robot\')}"/>')
    data, diags = expand_xacro(top, {})
    assert data is None and diags[0].code is ErrorCode.XACRO_ERROR
    assert 'bad robot' in diags[0].message and diags[0].file == str(top)


def test_system_exit_inside_xacro_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import xacro

    def exits(*_args: object, **_kwargs: object) -> None:
        raise SystemExit(2)

    monkeypatch.setattr(xacro, 'process_file', exits)
    data, diags = expand_xacro(TWO_LINK, {})
    assert data is None
    assert [d.code for d in diags] == [ErrorCode.XACRO_ERROR]
    assert 'exit status 2' in diags[0].message


def test_warnings_are_captured_and_nothing_is_printed(tmp_path: Path,
                                                      capfd: pytest.CaptureFixture[str]) -> None:
    top = _write(tmp_path / 'top.xacro', '<link name="a${xacro.warning(\'mind the gap\')}"/>')
    data, diags = expand_xacro(top, {})
    bad = _write(tmp_path / 'bad.xacro', '<link name="${nope}"/>')
    expand_xacro(bad, {})
    out, err = capfd.readouterr()
    assert (out, err) == ('', '')
    assert data is not None
    assert [(d.code, d.severity, d.file) for d in diags] == [
        (ErrorCode.XACRO_WARNING, Severity.WARNING, str(top))]
    assert 'mind the gap' in diags[0].message


def test_state_is_restored_after_a_failure(tmp_path: Path) -> None:
    import xacro
    import xacro.substitution_args as subst

    find = subst._eval_find
    bad = _write(tmp_path / 'bad.xacro', '<link name="$(arg x)"/>')
    assert expand_xacro(bad, {'y': '1'})[0] is None
    assert subst._eval_find is find and xacro.substitution_args_context['arg'] == {}
    data, diags = expand_xacro(TWO_LINK, {})
    assert data is not None and diags == []


def test_unsafe_and_unreadable_inputs_are_refused(tmp_path: Path) -> None:
    bomb = tmp_path / 'bomb.xacro'
    bomb.write_text('<?xml version="1.0"?>\n<!DOCTYPE robot [<!ENTITY a "aaaa">]>\n'
                    '<robot name="r"><link name="&a;"/></robot>\n')
    data, diags = expand_xacro(bomb, {})
    assert data is None and [d.code for d in diags] == [ErrorCode.XML_UNSAFE]
    data, diags = expand_xacro(tmp_path / 'missing.xacro', {})
    assert data is None and [d.code for d in diags] == [ErrorCode.FILE_READ]
    inc = tmp_path / 'inc.xacro'
    inc.write_text('<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n'
                   '<robot><link name="&e;"/></robot>\n')
    top = _write(tmp_path / 'top.xacro', '<xacro:include filename="inc.xacro"/>')
    data, diags = expand_xacro(top, {})
    assert data is None and [(d.code, d.file) for d in diags] == [(ErrorCode.XML_UNSAFE, str(inc))]
