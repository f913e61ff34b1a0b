"""Judge an exported stage with usd-core itself, against our resolved description.

Nothing here reads our writer's code: the stage is opened with usd-core,
parsed with ``UsdPhysics.LoadUsdPhysicsFromRange`` (the bodies and joints an
engine would simulate), world transforms are composed by USD
(``ComputeLocalToWorldTransform``), and the expected numbers come from our
reader's frame graphs (``resolve_pose``) for the input file.

Tolerances:

* link world transforms: ``POSE_TOL`` = 1e-9 (translate/orient are doubles);
* joint anchors and axes: ``FLOAT_TOL`` = 1e-6 relative, because
  ``localPos``/``localRot`` are ``point3f``/``quatf`` in the schema (32-bit
  floats, 24-bit mantissa: about 6e-8 relative per number, a few of them
  composed);
* masses and inertias: ``FLOAT_TOL`` relative to the largest moment, because
  ``MassAPI`` stores ``float``/``float3``/``quatf``.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from pxr import Gf, Usd, UsdGeom, UsdPhysics
from transforms3d.quaternions import quat2mat

from sdf_tools.frames import resolve_pose
from sdf_tools.frames.graph import join
from sdf_tools.load import LoadResult
from sdf_tools.model import Inertial, Model
from sdf_tools.transform import IDENTITY, Transform

POSE_TOL = 1e-9
FLOAT_TOL = 1e-6
_AXES = {'X': (1.0, 0.0, 0.0), 'Y': (0.0, 1.0, 0.0), 'Z': (0.0, 0.0, 1.0)}


@dataclass
class Expected:
    """What the stage should hold for one link or joint, from our frame graphs."""

    links: dict[tuple[str, str], tuple[Transform, Inertial | None, bool]] = \
        field(default_factory=dict)
    joints: dict[tuple[str, str], tuple[Transform, tuple[float, float, float] | None, str]] = \
        field(default_factory=dict)


def _walk(model: Model, scope: str, top: str, static: bool, exp: Expected, g: object,
          urdf: bool) -> None:
    static = static or model.static
    for link in model.links:
        full = join(scope, link.name)
        pose = resolve_pose(g, g.ids[full])  # type: ignore[attr-defined]
        exp.links[(top, full[len(top) + 2:])] = (pose or IDENTITY, link.inertial, static)
    for joint in model.joints:
        full = join(scope, joint.name)
        vid = g.ids[full]  # type: ignore[attr-defined]
        x = resolve_pose(g, vid) or IDENTITY
        axis = None
        if joint.axis is not None:
            ref = x
            if joint.axis.expressed_in:
                v = g.find(scope, joint.axis.expressed_in)  # type: ignore[attr-defined]
                ref = resolve_pose(g, v) or IDENTITY
            axis = ref.rotate(joint.axis.xyz)
        # A URDF joint named like a link is written under the file's name (joint_names).
        own = full[len(top) + 2:]
        if joint.file_name and own == joint.name:
            own = joint.file_name
        exp.joints[(top, own)] = (x, axis, joint.type)
    for m in model.models:
        _walk(m, join(scope, m.name), top, static, exp, g, urdf)


def expected(loaded: LoadResult) -> Expected:
    """Return our resolved link poses, inertials and joint frames/axes, by scoped name."""
    exp = Expected()
    doc = loaded.document
    assert doc is not None
    urdf = doc.format == 'urdf'
    if doc.model is not None:
        _walk(doc.model, doc.model.name, doc.model.name, False, exp, loaded.model_graphs, urdf)
    for world, g in zip(doc.worlds, loaded.world_graphs, strict=True):
        for m in world.models:
            _walk(m, m.name, m.name, False, exp, g, urdf)
    return exp


def _transform(m: Gf.Matrix4d) -> Transform:
    t = m.ExtractTranslation()
    q = m.ExtractRotationQuat()
    im = q.GetImaginary()
    return Transform((t[0], t[1], t[2]), (q.GetReal(), im[0], im[1], im[2]))


def pose_error(a: Transform, b: Transform) -> float:
    """Return max(position difference, rotation-matrix difference)."""
    dp = max(abs(x - y) for x, y in zip(a.p, b.p, strict=True))
    dr = float(np.abs(np.asarray(quat2mat(a.q)) - np.asarray(quat2mat(b.q))).max())
    return max(dp, dr)


def name_of(prim: Usd.Prim) -> str:
    attr = prim.GetAttribute('sdf_tools:name')
    return str(attr.Get()) if attr and attr.HasAuthoredValue() else str(prim.GetName())


def key_of(prim: Usd.Prim, depth: int = 1) -> tuple[str, str]:
    """Return (model name, scoped name) of a link (depth 1) or joint (depth 2, in ``joints``)."""
    model = prim
    for _ in range(depth):
        model = model.GetParent()
    return name_of(model), name_of(prim)


def parse(path: Path) -> tuple[Usd.Stage, dict[str, tuple[list[object], list[object]]]]:
    """Open the stage and parse it with usd-core's UsdPhysics parser."""
    stage = Usd.Stage.Open(str(path))
    assert stage is not None, f'usd-core cannot open {path}'
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        parsed = UsdPhysics.LoadUsdPhysicsFromRange(stage, ['/'])
    return stage, {str(k).split('.')[-1]: (list(p), list(d)) for k, (p, d) in parsed.items()}


def _tensor(i: Inertial | None, urdf: bool) -> tuple[float, np.ndarray, np.ndarray]:
    """Return the mass, centre and link-frame tensor the stage should hold.

    A URDF link without mass (none, or at most 0: UsdPhysics reads 0 as "compute it";
    any positive mass is kept) gets 1 g as a 5 cm solid sphere (massless_links,
    default_mass); an SDFormat link without <inertial> libsdformat's 1 kg, unit inertia.
    """
    pose = i.pose.value if i is not None and i.pose is not None else IDENTITY
    if urdf and (i is None or i.mass <= 0.0):
        return 1e-3, np.asarray(pose.p), 0.4 * 1e-3 * 0.05 ** 2 * np.eye(3)
    if i is None:
        return 1.0, np.zeros(3), np.eye(3)
    ixx, ixy, ixz, iyy, iyz, izz = i.inertia
    r = np.asarray(quat2mat(pose.q))
    full = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    return i.mass, np.asarray(pose.p), r @ full @ r.T


def _mass_problems(prim: Usd.Prim, inertial: Inertial | None, urdf: bool, name: object) -> list[str]:
    api = UsdPhysics.MassAPI(prim)
    mass = api.GetMassAttr().Get()
    com = np.asarray(api.GetCenterOfMassAttr().Get(), dtype=float)
    diag = np.asarray(api.GetDiagonalInertiaAttr().Get(), dtype=float)
    q = api.GetPrincipalAxesAttr().Get()
    r = np.asarray(quat2mat((q.GetReal(), *q.GetImaginary())))
    got = r @ np.diag(diag) @ r.T
    m, c, t = _tensor(inertial, urdf)
    out = []
    if abs(mass - m) > FLOAT_TOL * max(m, 1e-12):
        out.append(f'{name}: mass {mass} != {m}')
    if np.abs(com - c).max() > FLOAT_TOL * max(1.0, float(np.abs(c).max())):
        out.append(f'{name}: centre of mass {com} != {c}')
    scale = max(float(np.abs(t).max()), 1e-300)
    if np.abs(got - t).max() > 10 * FLOAT_TOL * scale:
        out.append(f'{name}: inertia {got.tolist()} != {t.tolist()}')
    return out


def _world(stage: Usd.Stage, path: object) -> Gf.Matrix4d:
    prim = stage.GetPrimAtPath(str(path))
    return UsdGeom.Xformable(prim).ComputeLocalToWorldTransform(Usd.TimeCode.Default())


def _joint_problems(stage: Usd.Stage, desc: object, want: tuple[Transform, object, str],
                    name: object) -> list[str]:
    d = desc
    m1 = _world(stage, d.body1)  # type: ignore[attr-defined]
    anchor1 = m1.Transform(Gf.Vec3d(d.localPose1Position))  # type: ignore[attr-defined]
    m0 = _world(stage, d.body0) if str(d.body0) not in ('', '/') else Gf.Matrix4d(1.0)  # type: ignore[attr-defined]
    anchor0 = m0.Transform(Gf.Vec3d(d.localPose0Position))  # type: ignore[attr-defined]
    x, axis, _ = want
    scale = max(1.0, *(abs(v) for v in x.p))
    out = []
    for side, a in (('body1', anchor1), ('body0', anchor0)):
        if max(abs(a[k] - x.p[k]) for k in range(3)) > FLOAT_TOL * scale:
            out.append(f'{name}: anchor from {side} {tuple(a)} != {x.p}')
    token = getattr(d, 'axis', None)
    moving_axis = want[2] in ('revolute', 'continuous', 'prismatic', 'screw')
    if moving_axis and axis is not None and token is not None and \
            str(token).split('.')[-1] in _AXES:
        rot1 = Gf.Matrix4d().SetRotate(Gf.Quatd(d.localPose1Orientation))  # type: ignore[attr-defined]
        local = Gf.Vec3d(*_AXES[str(token).split('.')[-1]])
        world = (rot1 * m1).TransformDir(local)
        n = math.sqrt(sum(v * v for v in axis))  # type: ignore[attr-defined]
        want_axis = [v / n for v in axis]  # type: ignore[attr-defined]
        if max(abs(world[k] - want_axis[k]) for k in range(3)) > FLOAT_TOL:
            out.append(f'{name}: axis {tuple(world)} != {tuple(want_axis)}')
    return out


def judge(path: Path, loaded: LoadResult) -> list[str]:
    """Return every disagreement between the stage at ``path`` and our reading of the input."""
    exp = expected(loaded)
    urdf = loaded.document is not None and loaded.document.format == 'urdf'
    stage, parsed = parse(path)
    out: list[str] = []
    bodies = {str(p): stage.GetPrimAtPath(p) for p in parsed.get('RigidBody', ([], []))[0]}
    by_name = {key_of(prim): prim for prim in bodies.values()}
    moving = {n for n, (_, _, static) in exp.links.items() if not static}
    if set(by_name) != moving:
        out.append(f'rigid bodies {sorted(by_name)} != moving links {sorted(moving)}')
    for name, prim in by_name.items():
        if name not in exp.links:
            continue
        pose, inertial, _ = exp.links[name]
        got = _transform(UsdGeom.Xformable(prim).ComputeLocalToWorldTransform(
            Usd.TimeCode.Default()))
        if pose_error(got, pose) > POSE_TOL:
            out.append(f'link {name}: world {got} != ours {pose}')
        out += _mass_problems(prim, inertial, urdf, name)
    written = {n for n, (_, _, kind) in exp.joints.items() if kind not in ('floating', 'gearbox')}
    found: set[str] = set()
    for kind, (paths, descs) in parsed.items():
        if not kind.endswith('Joint'):
            continue
        found |= {key_of(stage.GetPrimAtPath(p), 2) for p in paths}
        for p, d in zip(paths, descs, strict=True):
            name = key_of(stage.GetPrimAtPath(p), 2)
            if name not in exp.joints:
                out.append(f'joint {name} ({p}) is not ours')
                continue
            out += _joint_problems(stage, d, exp.joints[name], name)
    if found != written:
        out.append(f'joints parsed {sorted(found)} != ours {sorted(written)}')
    return out
