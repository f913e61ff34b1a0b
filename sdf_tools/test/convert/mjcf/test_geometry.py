"""Shapes, meshes, height fields and contact settings, as MuJoCo compiles them.

Every SDFormat shape of one model (box, sphere, cylinder, capsule, ellipsoid,
plane, mesh in Collada and ASCII STL, heightmap, cone, a zero-size sphere) is
exported; MuJoCo compiles the result, and the geoms, assets, friction,
solref and excluded pairs it holds are what the mapping promises, every
approximation reported.
"""
from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Any

import mujoco
import numpy as np
import trimesh

from convert.mjcf.mujoco_check import compile_mjcf
from sdf_tools.convert.mjcf.to_mjcf import convert_to_mjcf
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file


def _png(path: Path, size: int = 9) -> None:
    """Write a grey ``size`` x ``size`` PNG ramp (a height field image)."""
    rows = b''.join(b'\x00' + bytes((x * 255) // (size - 1) for x in range(size))
                    for _ in range(size))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack('>I', len(data)) + kind + data
                + struct.pack('>I', zlib.crc32(kind + data) & 0xFFFFFFFF))

    path.write_bytes(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', size, size, 8,
                                                                       0, 0, 0, 0))
                     + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))


SHAPES = """<?xml version="1.0"?>
<sdf version="1.11">
  <model name="shapes">
    <link name="ground">
      <collision name="floor"><geometry><plane><normal>0 0 1</normal><size>4 6</size></plane></geometry></collision>
      <collision name="terrain"><geometry><heightmap><uri>ramp.png</uri><size>2 2 0.5</size><pos>5 0 0</pos></heightmap></geometry></collision>
    </link>
    <joint name="fix" type="fixed"><parent>world</parent><child>ground</child></joint>
    <link name="body">
      <pose>0 0 1 0 0 0</pose>
      <collision name="box"><geometry><box><size>0.2 0.4 0.6</size></box></geometry>
        <surface><friction><ode><mu>0.7</mu><mu2>0.5</mu2></ode></friction>
          <contact><ode><kp>1000</kp><kd>10</kd></ode></contact><bounce><restitution_coefficient>0.3</restitution_coefficient></bounce></surface></collision>
      <visual name="sphere"><geometry><sphere><radius>0.1</radius></sphere></geometry>
        <material><diffuse>0.1 0.2 0.3 1</diffuse></material></visual>
      <visual name="cyl"><geometry><cylinder><radius>0.1</radius><length>0.5</length></cylinder></geometry></visual>
      <visual name="caps"><geometry><capsule><radius>0.1</radius><length>0.5</length></capsule></geometry></visual>
      <visual name="ell"><geometry><ellipsoid><radii>0.1 0.2 0.3</radii></ellipsoid></geometry></visual>
      <visual name="cone"><geometry><cone><radius>0.1</radius><length>0.2</length></cone></geometry></visual>
      <visual name="tilted_plane"><geometry><plane><normal>0 1 0</normal><size>1 1</size></plane></geometry></visual>
      <visual name="nothing"><geometry><sphere><radius>0</radius></sphere></geometry></visual>
      <visual name="dae"><geometry><mesh><uri>box.dae</uri><scale>2 1 1</scale></mesh></geometry></visual>
      <collision name="ascii"><geometry><mesh><uri>box.stl</uri></mesh></geometry></collision>
      <collision name="missing"><geometry><mesh><uri>model://nowhere/none.stl</uri></mesh></geometry></collision>
    </link>
    <link name="arm">
      <pose>0 0 2 0 0 0</pose>
      <collision name="c"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision>
    </link>
    <joint name="j" type="revolute"><parent>body</parent><child>arm</child><axis><xyz>0 1 0</xyz></axis></joint>
    <link name="tip">
      <pose>0 0 3 0 0 0</pose>
      <collision name="c"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision>
    </link>
    <joint name="k" type="revolute"><parent>arm</parent><child>tip</child><axis><xyz>0 1 0</xyz></axis></joint>
  </model>
</sdf>
"""


def _model(tmp: Path, cache: Path, monkeypatch: object, **options: object) -> tuple[object, object]:
    monkeypatch.setenv('SDF_TOOLS_MESH_CACHE', str(cache))  # type: ignore[attr-defined]
    _png(tmp / 'ramp.png')
    box = trimesh.creation.box((1.0, 1.0, 1.0))
    (tmp / 'box.dae').write_bytes(box.export(file_type='dae'))
    (tmp / 'box.stl').write_text(box.export(file_type='stl_ascii'))
    (tmp / 'shapes.sdf').write_text(SHAPES)
    # Harmonic: its libsdformat keeps the radius-0 sphere that must be dropped (15+ reads 1, #1553)
    result = convert_to_mjcf(load_file(tmp / 'shapes.sdf', gazebo='harmonic'), ConversionOptions(**options))
    assert result.ok, [str(e) for e in result.report.errors]
    return result, compile_mjcf(result.text or '')[0]


def test_every_shape_compiles_with_its_size(tmp_path: Path, monkeypatch: object) -> None:
    result, m = _model(tmp_path, tmp_path / 'cache', monkeypatch)
    geom = {m.geom(i).name: i for i in range(m.ngeom)}  # type: ignore[attr-defined]
    size = m.geom_size  # type: ignore[attr-defined]
    assert np.allclose(size[geom['body/box']], [0.1, 0.2, 0.3])
    assert np.allclose(size[geom['body/cyl']][:2], [0.1, 0.25])
    assert np.allclose(size[geom['body/caps']][:2], [0.1, 0.25])
    assert np.allclose(size[geom['body/ell']], [0.1, 0.2, 0.3])
    assert m.geom_type[geom['ground/floor']] == int(mujoco.mjtGeom.mjGEOM_PLANE)  # type: ignore[attr-defined]
    assert np.allclose(size[geom['ground/floor']][:2], [2, 3])
    assert m.geom_type[geom['body/tilted_plane']] == int(mujoco.mjtGeom.mjGEOM_BOX)  # type: ignore[attr-defined]
    assert m.geom_type[geom['ground/terrain']] == int(mujoco.mjtGeom.mjGEOM_HFIELD)  # type: ignore[attr-defined]
    assert np.allclose(m.hfield_size[0][:3], [1, 1, 0.5])  # type: ignore[attr-defined]
    assert m.geom_type[geom['body/dae']] == int(mujoco.mjtGeom.mjGEOM_MESH)  # type: ignore[attr-defined]
    assert m.geom_type[geom['body/ascii']] == int(mujoco.mjtGeom.mjGEOM_MESH)  # type: ignore[attr-defined]
    assert 'body/nothing' not in geom and 'body/missing' not in geom
    kinds = {(e.element.split('/')[-1], e.kind.value) for e in result.report.entries}  # type: ignore[attr-defined]
    for item, kind in [('visual[cone]', 'approximated'), ('visual[tilted_plane]', 'approximated'),
                       ('visual[nothing]', 'dropped'), ('collision[missing]', 'dropped'),
                       ('visual[dae]', 'rewritten'), ('collision[ascii]', 'rewritten'),
                       ('collision[terrain]', 'approximated')]:
        assert (item, kind) in kinds, item
    rgba = m.mat_rgba[m.geom_matid[geom['body/sphere']]]  # type: ignore[attr-defined]
    assert np.allclose(rgba, [0.1, 0.2, 0.3, 1])


def test_surface_becomes_friction_and_solref(tmp_path: Path, monkeypatch: object) -> None:
    result, m = _model(tmp_path, tmp_path / 'cache', monkeypatch)
    g = m.geom('body/box').id  # type: ignore[attr-defined]
    assert m.geom_friction[g][0] == 0.7  # type: ignore[attr-defined]
    assert np.allclose(m.geom_solref[g], [-1000, -10])  # type: ignore[attr-defined]
    lost = [e for e in result.report.entries if e.element.endswith('collision[box]/surface')]  # type: ignore[attr-defined]
    assert {e.kind.value for e in lost} == {'dropped', 'approximated'}  # bounce; mu2 and kp/kd


def test_self_collision_follows_the_model(tmp_path: Path, monkeypatch: object) -> None:
    _, apart = _model(tmp_path, tmp_path / 'cache', monkeypatch)
    m: Any = apart

    def touch(a: str, b: str) -> bool:
        """MuJoCo's contype/conaffinity test for the collision geoms of two bodies."""
        ga = [g for g in range(m.ngeom) if m.body(int(m.geom_bodyid[g])).name == a
              and m.geom_contype[g] | m.geom_conaffinity[g]]
        gb = [g for g in range(m.ngeom) if m.body(int(m.geom_bodyid[g])).name == b
              and m.geom_contype[g] | m.geom_conaffinity[g]]
        return any(m.geom_contype[x] & m.geom_conaffinity[y] or m.geom_contype[y]
                   & m.geom_conaffinity[x] for x in ga for y in gb)

    assert m.nexclude == 0  # a contact bit for the model, not pairs
    assert not touch('body', 'tip')  # not parent and child: kept apart by the bits
    _, together = _model(tmp_path, tmp_path / 'cache', monkeypatch, self_collide=True)
    assert together.nexclude == 0  # type: ignore[attr-defined]


WORLD = """<?xml version="1.0"?>
<sdf version="1.9"><world name="w">
  <gravity>0 0 -3.7</gravity>
  <physics type="ode"><max_step_size>0.002</max_step_size></physics>
  <model name="box"><pose>0 0 1 0 0 0</pose><link name="l">
    <collision name="c"><geometry><box><size>1 1 1</size></box></geometry></collision></link></model>
</world></sdf>
"""


def test_world_gravity_and_step_become_options(tmp_path: Path) -> None:
    (tmp_path / 'w.sdf').write_text(WORLD)
    result = convert_to_mjcf(load_file(tmp_path / 'w.sdf'), ConversionOptions())
    m, _ = compile_mjcf(result.text or '')
    assert np.allclose(m.opt.gravity, [0, 0, -3.7]) and m.opt.timestep == 0.002
    assert m.jnt_type[0] == int(mujoco.mjtJoint.mjJNT_FREE)
