"""``collapse_fixed_joints`` judged by the engines: MuJoCo compiles the MJCF, usd-core parses the USD.

The reference is the *source* file as our reader resolves it (frame graphs,
authored inertials): which links a fixed joint should merge (computed here
from the source joints, not from the exporter), each merged body's mass,
centre of mass and inertia as the parallel-axis combination of its source
links (a numpy sum written here, not the converter's combiner), each merged
link's frame at its resolved world pose, each moving joint's world anchor
and axis. Tolerances: MJCF 1e-9 (MuJoCo compiles doubles; inertia to
``INERTIA_RTOL``, MuJoCo diagonalises the tensor itself); USD body and
frame transforms 1e-9 (double translate/orient), masses, centres and inertias
to usd_judge's ``FLOAT_TOL`` because ``MassAPI`` stores 32-bit floats.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import mujoco
import numpy as np
import pytest
from differential.corpus import RobotFile, corpus_id
from pxr import Usd, UsdGeom, UsdPhysics
from transforms3d.quaternions import quat2mat

from convert.mjcf.mujoco_check import (
    INERTIA_RTOL,
    TOL,
    Checked,
    _joint,
    _link_pose,
    compile_mjcf,
    source_flats,
)
from convert.sdf.to_sdf_compare import environment
from convert.usd.corpus_sample import sample
from convert.usd.usd_judge import (
    FLOAT_TOL,
    POSE_TOL,
    _joint_problems,
    _transform,
    expected,
    key_of,
    name_of,
    parse,
    pose_error,
)
from sdf_tools.convert.command import main as convert_main
from sdf_tools.convert.flatten import WORLD, FlatModel, pose_in_link
from sdf_tools.convert.mjcf.to_mjcf import convert_to_mjcf
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.convert.sdf.to_sdf import convert_to_sdf
from sdf_tools.convert.usd.to_usd import convert_to_usd
from sdf_tools.load import LoadResult, load_file
from sdf_tools.model import Inertial
from sdf_tools.ros.convert_request import ConvertRequest, handle_convert
from sdf_tools.transform import IDENTITY

DATA = Path(__file__).resolve().parents[1] / 'data'
OURS = [DATA / 'convert' / 'lumping.urdf', DATA / 'urdf' / 'arm.urdf',
        DATA / 'usd' / 'features.sdf', DATA / 'ros' / 'nested_robot.sdf']
COLLAPSE = ConversionOptions(collapse_fixed_joints=True)
PER_COLLECTION = 2  # real robots with fixed joints taken from each corpus collection


def merges(flat: FlatModel) -> dict[str, str]:
    """Return merged link -> the link whose body it joins, from the source's fixed joints."""
    held: dict[str, int] = {}
    for j in flat.joints:
        if j.child is not None:
            held[j.child] = held.get(j.child, 0) + 1
    up = {j.child: j.parent for j in flat.joints
          if j.joint.type == 'fixed' and j.child not in (None, WORLD)
          and j.parent not in (None, WORLD) and j.child != j.parent and held[j.child] == 1}
    out = {}
    for link in up:
        top, seen = link, {link}
        while top in up and up[top] not in seen:
            top = up[top]
            seen.add(top)
        if top != link:
            out[link] = top
    return out


def _parts(flat: FlatModel, body: str, members: list[str], urdf: bool
           ) -> list[tuple[float, np.ndarray, np.ndarray]] | None:
    """Each member's mass, centre and tensor in ``body``'s frame (None: a URDF link without mass)."""
    out = []
    fb = flat.link(body)
    assert fb is not None
    for name in members:
        fl = flat.link(name)
        assert fl is not None
        i = fl.link.inertial
        if urdf and (i is None or i.mass <= 1e-6):
            return None  # massless URDF links follow massless_links, tested elsewhere
        i = i if i is not None else Inertial()  # libsdformat's 1 kg, unit inertia
        x = flat.rel(fb.vid, fl.vid) * pose_in_link(flat, fl, i.pose)
        ixx, ixy, ixz, iyy, iyz, izz = i.inertia
        r = np.asarray(quat2mat(x.q))
        t = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
        out.append((i.mass, np.asarray(x.p), r @ t @ r.T))
    return out


def combined(parts: list[tuple[float, np.ndarray, np.ndarray]]
             ) -> tuple[float, np.ndarray, np.ndarray]:
    """Mass, centre of mass and inertia about it of rigidly joined parts (parallel axes)."""
    mass = sum(m for m, _, _ in parts)
    com = sum(m * c for m, c, _ in parts) / mass
    tensor = sum(t + m * (float((c - com) @ (c - com)) * np.eye(3) - np.outer(c - com, c - com))
                 for m, c, t in parts)
    return mass, com, tensor


def _members(flat: FlatModel, merged: dict[str, str]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for fl in flat.links:
        groups.setdefault(merged.get(fl.name, fl.name), []).append(fl.name)
    return groups


def _body_names(m: Any) -> set[str]:
    return {m.body(b).name for b in range(1, m.nbody)}


def welded(plain: str, merged: dict[str, str]) -> dict[str, str]:
    """Keep the merges of links that are welded bodies (no joint) in the plain MJCF.

    The MJCF preparation reads a URDF as Gazebo does: massless links are already
    folded, a ``disableFixedJointLumping`` joint is a locked revolute joint.
    """
    m0, _ = compile_mjcf(plain)
    out = {}
    for link, into in merged.items():
        b = mujoco.mj_name2id(m0, mujoco.mjtObj.mjOBJ_BODY, link)
        if b >= 0 and m0.body_jntnum[b] == 0:
            out[link] = into
    return out


def judge_mjcf(loaded: LoadResult, plain: str, collapsed: str) -> Checked:
    """Compare the collapsed MJCF with the plain one and the source, in MuJoCo."""
    (flat,) = source_flats(loaded)
    urdf = loaded.document is not None and loaded.document.format == 'urdf'
    every = merges(flat)
    merged = welded(plain, every)
    m0, _ = compile_mjcf(plain)
    m, d = compile_mjcf(collapsed)
    c = Checked()
    before, after = _body_names(m0), _body_names(m)
    if after != before - set(merged):
        c.problems.append(f'bodies {sorted(after)} != {sorted(before - set(merged))}')
    if m0.nbody - m.nbody != len(merged):
        c.problems.append(f'{m0.nbody - m.nbody} bodies fewer, {len(merged)} merged')
    for link, into in merged.items():
        fl = flat.link(link)
        assert fl is not None
        b = _link_pose(c, m, d, link, flat.world_pose(fl.vid))  # the site, 1e-9
        if b >= 0 and m.body(b).name != into and into in after:
            c.problems.append(f'site [{link}] is on body [{m.body(b).name}], not [{into}]')
    # A body's links: its own, the welded ones merged, those the preparation folded.
    folded = {n: t for n, t in every.items() if n in merged or n not in before}
    for body, members in _members(flat, folded).items():
        b = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, body)
        parts = _parts(flat, body, members, urdf)
        if b < 0 or parts is None or len(members) == 1:
            continue
        mass, com, want = combined(parts)
        r = np.zeros(9)
        mujoco.mju_quat2Mat(r, m.body_iquat[b])
        got = r.reshape(3, 3) @ np.diag(m.body_inertia[b]) @ r.reshape(3, 3).T
        c.masses += 1
        scale = max(float(np.abs(want).max()), 1e-300)
        if abs(m.body_mass[b] - mass) > TOL * max(1.0, mass):
            c.problems.append(f'body [{body}]: mass {m.body_mass[b]!r} != {mass!r}')
        if float(np.abs(m.body_ipos[b] - com).max()) > TOL:
            c.problems.append(f'body [{body}]: centre of mass {m.body_ipos[b]} != {com}')
        if float(np.abs(got - want).max()) > INERTIA_RTOL * scale:
            c.problems.append(f'body [{body}]: inertia off by {float(np.abs(got - want).max())}')
    for link, into in merged.items():
        _moved_geoms(c, m, flat, link, into)
    for j in flat.joints:
        _joint(c, m, d, flat, j, IDENTITY, '')
    return c


def _moved_geoms(c: Checked, m: Any, flat: FlatModel, link: str, into: str) -> None:
    """Compare each primitive geom moved from ``link`` with its source pose in ``into``'s frame."""
    fl, ft = flat.link(link), flat.link(into)
    assert fl is not None and ft is not None
    shared = {v.name for v in fl.link.visuals} & {x.name for x in fl.link.collisions}
    for item in [*fl.link.visuals, *fl.link.collisions]:
        g = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, f'{into}/{link}__{item.name}')
        kind = item.geometry.type if item.geometry is not None else None
        if g < 0 or kind not in ('box', 'sphere', 'cylinder') or item.name in shared:
            continue  # meshes sit at their centroid; renamed geoms are not matched by name
        want = flat.rel(ft.vid, fl.vid) * pose_in_link(flat, fl, item.pose)
        r = np.zeros(9)
        mujoco.mju_quat2Mat(r, m.geom_quat[g])
        c.geoms += 1
        err = max(float(np.abs(np.asarray(want.p) - m.geom_pos[g]).max()),
                  float(np.abs(np.asarray(quat2mat(want.q)) - r.reshape(3, 3)).max()))
        if err > TOL:
            c.problems.append(f'geom [{into}/{link}__{item.name}]: pose off by {err:.3g}')


def _usd_mass(prim: Usd.Prim, want: tuple[float, np.ndarray, np.ndarray]) -> list[str]:
    api = UsdPhysics.MassAPI(prim)
    q = api.GetPrincipalAxesAttr().Get()
    r = np.asarray(quat2mat((q.GetReal(), *q.GetImaginary())))
    got = r @ np.diag(np.asarray(api.GetDiagonalInertiaAttr().Get(), dtype=float)) @ r.T
    com = np.asarray(api.GetCenterOfMassAttr().Get(), dtype=float)
    mass, c, t = want
    out = []
    if abs(api.GetMassAttr().Get() - mass) > FLOAT_TOL * mass:
        out.append(f'mass {api.GetMassAttr().Get()} != {mass}')
    if float(np.abs(com - c).max()) > FLOAT_TOL * max(1.0, float(np.abs(c).max())):
        out.append(f'centre of mass {com} != {c}')
    if float(np.abs(got - t).max()) > 10 * FLOAT_TOL * max(float(np.abs(t).max()), 1e-300):
        out.append(f'inertia {got.tolist()} != {t.tolist()}')
    return out


def judge_usd(path: Path, loaded: LoadResult) -> tuple[list[str], int, int]:
    """Return the problems of a collapsed stage, the merged frames and the bodies compared."""
    (flat,) = source_flats(loaded)
    urdf = loaded.document is not None and loaded.document.format == 'urdf'
    merged = merges(flat)
    scoped = {fl.name: fl.scoped for fl in flat.links}
    exp = expected(loaded)
    stage, parsed = parse(path)
    bodies = {key_of(stage.GetPrimAtPath(p)): stage.GetPrimAtPath(p)
              for p in parsed.get('RigidBody', ([], []))[0]}
    gone = {scoped[n] for n in merged}
    want = {k for k, (_, _, static) in exp.links.items() if not static and k[1] not in gone}
    out = [] if set(bodies) == want else [f'bodies {sorted(bodies)} != {sorted(want)}']
    compared = 0
    for body, members in _members(flat, merged).items():
        prim = bodies.get((flat.name, scoped[body]))
        parts = _parts(flat, body, members, urdf)
        if prim is None or parts is None or len(members) == 1:
            continue
        compared += 1
        out += [f'{body}: {p}' for p in _usd_mass(prim, combined(parts))]
    frames = 0
    for prim in stage.Traverse():
        name = name_of(prim)
        link = next((n for n, s in scoped.items() if s == name and n in merged), None)
        if link is None or prim.GetTypeName() != 'Xform' or prim.GetChildren() \
                or prim.HasAPI(UsdPhysics.RigidBodyAPI):
            continue  # a body, or a shape named like the link
        fl = flat.link(link)
        assert fl is not None
        frames += 1
        got = _transform(UsdGeom.Xformable(prim).ComputeLocalToWorldTransform(
            Usd.TimeCode.Default()))
        if pose_error(got, flat.world_pose(fl.vid)) > POSE_TOL:
            out.append(f'frame of merged link {name}: {got} != {flat.world_pose(fl.vid)}')
        if name_of(prim.GetParent()) != scoped[merged[link]]:
            out.append(f'frame of merged link {name} is under {prim.GetParent().GetPath()}')
    kept = {(flat.name, j.scoped) for j in flat.joints if j.child not in merged}
    for kind, (paths, descs) in parsed.items():
        if kind.endswith('Joint'):
            for p, d in zip(paths, descs, strict=True):
                name = key_of(stage.GetPrimAtPath(p), 2)
                if name not in kept:
                    out.append(f'joint {name} should have been merged')
                else:
                    out += _joint_problems(stage, d, exp.joints[name], name)
    return out, frames, compared


def _check(path: Path, env: dict[str, str] | None, tmp_path: Path) -> tuple[int, int]:
    with environment(env):
        loaded = load_file(path)
        plain = convert_to_mjcf(loaded, ConversionOptions())
        collapsed = convert_to_mjcf(loaded, COLLAPSE)
        usd = convert_to_usd(loaded, COLLAPSE)
    assert plain.ok and collapsed.ok and usd.ok, [str(d) for d in collapsed.report.errors]
    (flat,) = source_flats(loaded)
    merged = merges(flat)
    assert merged, 'no fixed joint to collapse'
    reported = {e.element[len('link['):-1] for e in collapsed.report.entries
                if e.kind.value == 'merged' and 'collapse_fixed_joints' in e.message}
    mjcf_merged = welded(plain.text or '', merged)
    assert reported == {flat.link(n).scoped for n in mjcf_merged}  # type: ignore[union-attr]
    assert all(e.file and e.line for e in collapsed.report.entries
               if 'collapse_fixed_joints' in e.message and e.kind.value == 'merged')
    c = judge_mjcf(loaded, plain.text or '', collapsed.text or '')
    assert not c.problems, c.problems
    assert c.bodies == len(mjcf_merged)
    out = tmp_path / 'robot.usda'
    out.write_text(usd.text or '')
    problems, frames, compared = judge_usd(out, loaded)
    assert not problems, problems
    assert frames == len(merged)
    print(f'{path.name}: {len(merged)} merged ({len(mjcf_merged)} MJCF bodies fewer), '
          f'masses compared MJCF {c.masses} USD {compared}, moved geoms {c.geoms}, '
          f'moving joints {c.joints}')
    return c.masses, compared


@pytest.mark.parametrize('path', OURS, ids=lambda p: p.name)
def test_collapse_ours(path: Path, tmp_path: Path) -> None:
    _check(path, None, tmp_path)


@functools.cache
def _robots() -> list[RobotFile]:
    """A few real robots of the corpus sample with fixed joints between links (single models)."""
    found: dict[str, list[RobotFile]] = {}
    for entry in sample(40):
        if len(found.get(entry.collection, [])) >= PER_COLLECTION:
            continue
        with environment(entry.env):
            loaded = load_file(entry.path)
        if loaded.document is None or loaded.document.model is None or not loaded.valid:
            continue
        if merges(source_flats(loaded)[0]):
            found.setdefault(entry.collection, []).append(entry)
    return [e for group in found.values() for e in group]


@pytest.mark.parametrize('entry', _robots(), ids=corpus_id)
def test_collapse_real_robots(entry: RobotFile, tmp_path: Path) -> None:
    _check(entry.path, entry.env, tmp_path)


def test_collapse_flag_and_other_formats(tmp_path: Path) -> None:
    """The CLI flag reaches the option; SDFormat output says it has no effect."""
    src = DATA / 'urdf' / 'arm.urdf'
    out = tmp_path / 'arm.xml'
    assert convert_main([str(src), '-o', str(out), '--to', 'mjcf', '--collapse-fixed-joints',
                         '-q']) == 0
    m = mujoco.MjModel.from_xml_path(str(out))
    assert mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_SITE, 'tool') >= 0
    assert mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, 'tool') < 0
    sdf = convert_to_sdf(load_file(src), COLLAPSE)
    assert sdf.ok and any(e.element == 'option[collapse_fixed_joints]'
                          for e in sdf.report.entries)
    options, problems = ConversionOptions.from_mapping({'collapse_fixed_joints': True})
    assert options.collapse_fixed_joints and not problems
    resp = handle_convert(ConvertRequest(input_path=str(src), output_format='mjcf',
                                         options_yaml='{collapse_fixed_joints: true}'))
    assert resp.success, resp.error_message
    m = mujoco.MjModel.from_xml_string(resp.output_text)
    assert mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_SITE, 'tool') >= 0
    assert any('collapse_fixed_joints' in x for x in resp.losses + resp.warnings)
