"""Hostile and broken input: refused with a diagnostic, never fetched or expanded."""
from __future__ import annotations

import time
from pathlib import Path

from sdf_tools.load import load_file, load_string


def test_external_entity_is_refused_and_never_read(tmp_path: Path) -> None:
    secret = tmp_path / 'secret.txt'
    secret.write_text('TOP-SECRET')
    doc = (f'<?xml version="1.0"?>\n<!DOCTYPE sdf [<!ENTITY x SYSTEM "file://{secret}">]>\n'
           '<sdf version="1.9"><model name="m"><link name="&x;"/></model></sdf>')
    result = load_string(doc, 'evil.sdf')
    assert not result.valid and not result.usable
    assert result.diagnostics[0].code.value == 'XML_UNSAFE'
    assert 'TOP-SECRET' not in str(result.diagnostics)


def test_entity_expansion_bomb_is_refused_quickly() -> None:
    lol = '<!ENTITY a0 "lol">' + ''.join(
        f'<!ENTITY a{i} "{("&a" + str(i - 1) + ";") * 10}">' for i in range(1, 10))
    doc = f'<?xml version="1.0"?><!DOCTYPE sdf [{lol}]><sdf version="1.9"><model name="&a9;"/></sdf>'
    start = time.monotonic()
    result = load_string(doc, 'bomb.sdf')
    assert time.monotonic() - start < 5
    assert not result.usable and result.diagnostics[0].code.value == 'XML_UNSAFE'


def test_malformed_xml_reports_line(tmp_path: Path) -> None:
    f = tmp_path / 'broken.sdf'
    f.write_text('<sdf version="1.9">\n<model name="m">\n<link name="a">\n</model>\n</sdf>\n')
    result = load_file(f)
    assert not result.usable
    d = result.diagnostics[0]
    assert d.code.value == 'XML_INVALID' and d.file == str(f) and d.line == 4


def test_include_cycle_is_an_error_not_a_hang(tmp_path: Path) -> None:
    a, b = tmp_path / 'a.sdf', tmp_path / 'b.sdf'
    a.write_text('<sdf version="1.9"><model name="a"><link name="l"/>'
                 '<include><uri>b.sdf</uri></include></model></sdf>')
    b.write_text('<sdf version="1.9"><model name="b"><link name="l"/>'
                 '<include><uri>a.sdf</uri></include></model></sdf>')
    result = load_file(a)
    assert not result.valid
    assert any(d.code.value == 'INCLUDE_CYCLE' for d in result.errors)


def test_unknown_version_is_read_with_a_warning(tmp_path: Path) -> None:
    # libsdformat reads any version string; so do we, and say so.
    f = tmp_path / 'v.sdf'
    f.write_text('<sdf version="2.7"><model name="m"><link name="a"/></model></sdf>')
    result = load_file(f)
    assert result.valid and result.document is not None and result.document.model is not None
    assert result.warnings[0].code.value == 'VERSION_UNSUPPORTED'


def test_directory_input_uses_model_config(tmp_path: Path) -> None:
    (tmp_path / 'model.config').write_text(
        '<model><name>x</name><sdf version="1.6">old.sdf</sdf><sdf version="1.9">new.sdf</sdf></model>')
    (tmp_path / 'old.sdf').write_text('<sdf version="1.6"><model name="old"><link name="a"/></model></sdf>')
    (tmp_path / 'new.sdf').write_text('<sdf version="1.9"><model name="new"><link name="a"/></model></sdf>')
    result = load_file(tmp_path)
    assert result.valid and result.document is not None and result.document.model is not None
    assert result.document.model.name == 'new'


def test_an_mjcf_file_is_refused_with_the_commands_that_read_it(tmp_path: Path) -> None:
    path = tmp_path / 'g1.xml'
    path.write_text('<mujoco model="g1">\n<worldbody/>\n</mujoco>\n')
    result = load_file(path)
    assert not result.usable
    first = result.diagnostics[0]
    assert (first.file, first.line) == (str(path), 1)
    assert 'neither <sdf> nor <robot>' in first.message
    assert 'MJCF is read by sdf_tools convert and verify' in first.message


def test_a_urdf_document_built_in_memory_is_walked_like_a_read_one() -> None:
    # load_document walks a URDF document it is given (no reader ran): the conversion of
    # it is the conversion of the file, byte for byte.
    from sdf_tools.convert import ConversionOptions
    from sdf_tools.convert.sdf.to_sdf import convert_to_sdf
    from sdf_tools.load import load_document
    from sdf_tools.urdf import read_urdf_file

    path = Path(__file__).resolve().parent / 'data' / 'convert' / 'lumping.urdf'
    doc, diagnostics = read_urdf_file(path)
    assert doc is not None
    built = load_document(doc, diagnostics)
    loaded = load_file(path)
    assert built.urdf_walk is not None and loaded.urdf_walk is not None
    assert built.urdf_walk.lumping_order() == loaded.urdf_walk.lumping_order()
    options = ConversionOptions()
    ours, ref = convert_to_sdf(built, options), convert_to_sdf(loaded, options)
    assert ours.text is not None and ours.text == ref.text


def test_urdf_without_link_is_urdfdoms_refusal_alone(tmp_path: Path) -> None:
    # example-robot-data's quadrotor_base.urdf.xacro (a macro file): urdfdom refuses the
    # robot before libsdformat builds any frame graph, so no graph error follows
    import pytest
    from support.libsdformat import probe_available, probe_unavailable_reason, run_probe

    path = tmp_path / 'nolink.urdf'
    path.write_text('<robot name="r">\n</robot>\n')
    if not probe_available():
        pytest.skip(str(probe_unavailable_reason()))
    ref = run_probe(path)
    assert not ref['valid'] and {e['code'] for e in ref['errors']} <= {'FILE_READ', 'URDF_INVALID'}
    loaded = load_file(path)
    assert {d.code.value for d in loaded.errors} == {'URDF_INVALID', 'FILE_READ'}
