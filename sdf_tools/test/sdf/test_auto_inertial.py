"""``<inertial auto="true">`` as read per target: computed (Harmonic+), ignored (Fortress)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from sdf_tools.convert.api import convert_input
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file, load_string
from sdf_tools.resolved import resolve

BOX = """<?xml version="1.0"?>
<sdf version="1.11"><model name="m"><link name="l">
<inertial auto="true"/>
<collision name="c"><density>500</density>
<geometry><box><size>1 2 3</size></box></geometry></collision>
</link></model></sdf>
"""


def test_issue_example_box_of_density_500_weighs_3000_kg() -> None:
    result = load_string(BOX, gazebo='harmonic')
    assert not result.errors and not result.warnings, result.diagnostics
    (link,) = resolve(result).links
    assert link.inertial.mass == pytest.approx(3000.0, rel=1e-12)
    assert link.inertial.inertia == pytest.approx(
        (3000 / 12 * 13, 0.0, 0.0, 3000 / 12 * 10, 0.0, 3000 / 12 * 5), rel=1e-12)


@pytest.mark.parametrize('gazebo', ['harmonic', 'ionic', 'jetty'])
def test_every_newer_target_computes(gazebo: str) -> None:
    doc = load_string(BOX, gazebo=gazebo).document
    assert doc is not None and doc.model is not None
    inertial = doc.model.links[0].inertial
    assert inertial is not None and inertial.auto and inertial.mass == pytest.approx(3000.0)


def test_fortress_does_not_understand_auto() -> None:
    result = load_string(BOX, gazebo='fortress')
    (warning,) = [d for d in result.warnings if 'auto' in d.message]
    assert warning.code.value == 'AUTO_INERTIAL_NOT_UNDERSTOOD' and warning.line == 3
    assert 'Fortress' in warning.message and 'libsdformat 12' in warning.message
    (link,) = resolve(result).links
    assert link.inertial.mass == 1.0
    assert result.gazebo.name == 'fortress'


def test_auto_in_a_1_10_file_is_read_as_the_target_newest_spec() -> None:
    # libsdformat 16 converts a 1.10 file to 1.12 before reading it, so auto is computed
    # (the 16.1.0 build and Drake agree: spec/test_newest_spec.py); Fortress ignores it.
    text = BOX.replace('1.11', '1.10')
    assert resolve(load_string(text, gazebo='jetty')).links[0].inertial.mass == pytest.approx(3000.0)
    assert resolve(load_string(text, gazebo='fortress')).links[0].inertial.mass == 1.0


def test_default_density_is_reported_per_collision_at_its_line() -> None:
    text = BOX.replace('<density>500</density>', '')
    result = load_string(text, gazebo='harmonic')
    (d,) = result.warnings
    assert (d.code.value, d.line) == ('ELEMENT_MISSING', 4)
    assert 'default density value of 1000' in d.message
    assert resolve(result).links[0].inertial.mass == pytest.approx(6000.0)


def test_given_mass_rescales_and_link_density_applies() -> None:
    text = BOX.replace('<inertial auto="true"/>',
                       '<inertial auto="true"><density>1</density><mass>2</mass></inertial>')
    text = text.replace('<density>500</density>', '')
    result = load_string(text, gazebo='harmonic')
    assert not result.diagnostics, result.diagnostics
    inertial = resolve(result).links[0].inertial
    assert inertial.mass == 2.0
    assert inertial.inertia[0] == pytest.approx(2 / 12 * 13)


def test_unknown_shape_is_invalid_but_others_still_count() -> None:
    text = BOX.replace('</link>', '<collision name="p"><geometry><plane><normal>0 0 1</normal>'
                       '<size>1 1</size></plane></geometry></collision>\n</link>')
    result = load_string(text, gazebo='harmonic')
    assert [(e.code.value, e.line) for e in result.errors] == [('LINK_INERTIA_INVALID', 6)]
    assert resolve(result).links[0].inertial.mass == pytest.approx(3000.0)


def test_missing_mesh_file_is_an_error_of_the_collision(tmp_path: Path) -> None:
    text = BOX.replace('<box><size>1 2 3</size></box>', '<mesh><uri>nowhere.obj</uri></mesh>')
    path = tmp_path / 'm.sdf'
    path.write_text(text)
    result = load_file(path, gazebo='harmonic')
    assert [(e.code.value, e.line) for e in result.errors] == [('LINK_INERTIA_INVALID', 4)]
    assert any('nowhere.obj' in w.message for w in result.warnings)


@pytest.mark.parametrize('to', ['urdf', 'mjcf'])
def test_writers_carry_the_computed_mass(to: str, tmp_path: Path) -> None:
    src = tmp_path / 'box.sdf'
    src.write_text(BOX)
    result = convert_input(src, to=to, options=ConversionOptions(gazebo='harmonic'))
    assert result.ok and result.text is not None
    masses = re.findall(r'mass[= ]*(?:value=)?"([0-9.e+]+)"', result.text)
    assert masses and float(masses[0]) == pytest.approx(3000.0), result.text


def test_sdf_writer_keeps_auto_or_expands_it(tmp_path: Path) -> None:
    src = tmp_path / 'box.sdf'
    src.write_text(BOX.replace('<inertial auto="true"/>',
                               '<inertial auto="true"><mass>2</mass></inertial>'))
    kept = convert_input(src, to='sdf', options=ConversionOptions(sdf_version='1.11',
                                                                  gazebo='harmonic'))
    assert kept.text is not None and '<inertial auto="true">' in kept.text
    assert '<ixx>' not in kept.text and '<mass>2</mass>' in kept.text
    expanded = convert_input(src, to='sdf', options=ConversionOptions(
        sdf_version='1.11', gazebo='harmonic', expand_auto_inertials=True))
    assert expanded.text is not None and '<ixx>' in expanded.text
    # read back: the same values (the given mass rescales to itself)
    back = tmp_path / 'back.sdf'
    back.write_text(expanded.text)
    again = resolve(load_file(back, gazebo='harmonic')).links[0].inertial
    first = resolve(load_file(src, gazebo='harmonic')).links[0].inertial
    assert again.mass == first.mass == 2.0
    assert again.inertia == pytest.approx(first.inertia, rel=1e-12)
    old = convert_input(src, to='sdf', options=ConversionOptions(sdf_version='1.9',
                                                                 gazebo='harmonic'))
    assert old.text is not None and '<inertial auto=' not in old.text and '<ixx>' in old.text
    assert any('auto="true" written as the values' in e.message for e in old.report.entries)
