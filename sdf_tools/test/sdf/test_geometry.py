"""Non-positive shape sizes per Gazebo target (``sdf/geometry.py`` ``positive_sizes``).

Documented behaviour: libsdformat 15.3 (gazebosim/sdformat#1553, commit 35a86190, "Fix Crash On
Negative Value") replaces a size that is not positive by a fixed default with a warning, in
Box.cc, Sphere.cc, Cylinder.cc, Capsule.cc, Cone.cc, Ellipsoid.cc and Plane.cc; 14 and 12 keep
the value. Checked by hand against libsdformat 15.4.0 (radius 1) and 14.9.0 (radius 0) on
pybullet's laikago_toes.urdf (test/differential/MISMATCHES.md); the Fortress side is judged
here by the libsdformat 12 probe.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from support.libsdformat import probe_available, probe_unavailable_reason, run_probe

from sdf_tools.errors import ErrorCode
from sdf_tools.load import load_string

SHAPES = {  # shape XML -> (field, value written, value libsdformat 15+ uses)
    '<box><size>1 0 2</size></box>': ('size', [1.0, 0.0, 2.0], [1.0, 1.0, 1.0]),
    '<sphere><radius>0</radius></sphere>': ('radius', 0.0, 1.0),
    '<cylinder><radius>-0.1</radius><length>2</length></cylinder>': ('radius', -0.1, 0.5),
    '<cylinder><radius>0.1</radius><length>0</length></cylinder>': ('length', 0.0, 1.0),
    '<capsule><radius>0</radius><length>2</length></capsule>': ('radius', 0.0, 0.5),
    '<ellipsoid><radii>1 1 -1</radii></ellipsoid>': ('radii', [1.0, 1.0, -1.0], [1.0, 1.0, 1.0]),
}


def _sdf(shape: str) -> str:
    return ('<?xml version="1.0"?>\n<sdf version="1.9"><model name="m"><link name="l">'
            f'<visual name="v"><geometry>{shape}</geometry></visual></link></model></sdf>\n')


def _geometry(text: str, name: str, gazebo: str) -> tuple[dict[str, object], list[ErrorCode]]:
    loaded = load_string(text, name, gazebo=gazebo)
    link = loaded.document.model.links[0]  # type: ignore[union-attr]
    return link.visuals[0].geometry.params, [d.code for d in loaded.diagnostics]


@pytest.mark.parametrize('shape', SHAPES)
@pytest.mark.parametrize('gazebo', ['ionic', 'jetty'])
def test_libsdformat_15_replaces_a_non_positive_size(shape: str, gazebo: str) -> None:
    field, _, replaced = SHAPES[shape]
    params, codes = _geometry(_sdf(shape), 'm.sdf', gazebo)
    assert params[field] == replaced
    assert ErrorCode.DEFAULT_ASSUMED in codes


@pytest.mark.parametrize('shape', SHAPES)
@pytest.mark.parametrize('gazebo', ['fortress', 'harmonic'])
def test_older_libsdformat_keeps_the_size_written(shape: str, gazebo: str) -> None:
    field, written, _ = SHAPES[shape]
    params, _ = _geometry(_sdf(shape), 'm.sdf', gazebo)
    assert params[field] == written


def test_urdf_sphere_of_radius_zero_per_target() -> None:
    urdf = ('<robot name="r"><link name="l"><visual><geometry><sphere radius="0"/></geometry>'
            '</visual></link></robot>')
    assert _geometry(urdf, 'r.urdf', 'harmonic')[0]['radius'] == 0.0
    assert _geometry(urdf, 'r.urdf', 'ionic')[0]['radius'] == 1.0


@pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))
def test_fortress_keeps_a_zero_radius_as_libsdformat_12(tmp_path: Path) -> None:
    path = tmp_path / 'zero.sdf'
    path.write_text(_sdf('<sphere><radius>0</radius></sphere>'))
    ref = run_probe(path)
    assert ref['links'][0]['visuals'][0]['geometry']['radius'] == 0
    assert _geometry(path.read_text(), str(path), 'fortress')[0]['radius'] == 0.0
