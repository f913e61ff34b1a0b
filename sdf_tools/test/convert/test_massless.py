"""A small positive mass is a mass: each writer keeps every mass its target accepts, replaces
only what it refuses (MuJoCo: mjMINVAL; libsdformat: 1e-6; UsdPhysics: 0) and reports the value
the link had, in one wording (``test/data/convert/small_masses.urdf``)."""
from __future__ import annotations

from pathlib import Path

import mujoco
import pytest
from pxr import Usd, UsdPhysics

from sdf_tools.convert.api import convert_loaded, write_result
from sdf_tools.convert.conversion_report import ConversionResult
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file, load_string

SMALL = Path(__file__).resolve().parents[1] / 'data' / 'convert' / 'small_masses.urdf'
WRITTEN = {'root': 1e-6, 'sensor': 1e-7, 'tool': 1e-5}  # as the URDF writes them


def _convert(to: str, gazebo: str | None = None) -> ConversionResult:
    result = convert_loaded(load_file(SMALL, gazebo=gazebo), to=to, options=ConversionOptions())
    assert result.ok, [str(d) for d in result.report.errors]
    return result


def _replaced(result: ConversionResult) -> dict[str, str]:
    return {e.element.split('[')[1].split(']')[0]: e.message for e in result.report.entries
            if 'which is no mass' in e.message}


def test_mujoco_keeps_every_mass_above_mjminval() -> None:
    result = _convert('mjcf')
    m = mujoco.MjModel.from_xml_string(result.text or '')
    for name, mass in WRITTEN.items():
        assert m.body_mass[m.body(name).id] == mass
    assert m.body_mass[m.body('dust').id] == 0.001  # 1e-20 kg: below mjMINVAL
    replaced = _replaced(result)
    assert set(replaced) == {'dust'}
    assert 'has mass 1e-20 kg' in replaced['dust'] and 'mjMINVAL' in replaced['dust']
    d = mujoco.MjData(m)
    mujoco.mj_step(m, d, 100)
    assert not any(d.warning[k].number for k in range(len(d.warning)))


def test_usd_keeps_every_positive_mass(tmp_path: Path) -> None:
    result = _convert('usd')
    assert _replaced(result) == {}
    out = tmp_path / 'small.usda'
    write_result(out, result)
    stage = Usd.Stage.Open(str(out))
    masses = {str(p.GetAttribute('sdf_tools:name').Get()): UsdPhysics.MassAPI(p).GetMassAttr().Get()
              for p in stage.Traverse() if p.HasAPI(UsdPhysics.MassAPI)}
    assert masses['sensor'] == pytest.approx(1e-7, rel=1e-6)  # float in the schema
    assert masses['dust'] == pytest.approx(1e-20, rel=1e-6)


def test_sdformat_replaces_what_libsdformat_drops_with_the_same_wording() -> None:
    result = _convert('sdf', 'fortress')  # libsdformat 12: |m| <= 1e-6 is no mass
    replaced = _replaced(result)
    assert set(replaced) == {'sensor', 'dust'}  # 1e-7 and 1e-20 kg; root and tool are lumped
    assert 'has mass 1e-07 kg (behind a revolute joint), which is no mass: libsdformat' in \
        replaced['sensor']
    back = load_string(result.text or '', 'back.sdf', gazebo='fortress')
    assert back.valid


@pytest.mark.parametrize('gazebo', ['harmonic', 'ionic', 'jetty'])
def test_sdformat_keeps_every_positive_mass_for_libsdformat_14(gazebo: str) -> None:
    # gazebosim/sdformat#1238: from 14 on only a mass <= 0 is no mass
    result = _convert('sdf', gazebo)
    assert _replaced(result) == {}
    back = load_string(result.text or '', 'back.sdf', gazebo=gazebo)
    assert back.valid and back.document is not None and back.document.model is not None
    masses = {lk.name: lk.inertial.mass for lk in back.document.model.links if lk.inertial}
    assert masses['sensor'] == 1e-7 and masses['dust'] == 1e-20


def test_urdf_output_writes_the_masses_as_they_are() -> None:
    back = load_string(_convert('urdf').text or '', 'back.urdf')
    model = back.document.model  # type: ignore[union-attr]
    assert model is not None
    masses = {lk.name: lk.inertial.mass for lk in model.links if lk.inertial is not None}
    assert {k: masses[k] for k in WRITTEN} == WRITTEN
