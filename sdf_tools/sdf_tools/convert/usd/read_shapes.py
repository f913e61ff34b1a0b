"""USD geometry prims under a rigid body back to SDFormat visuals and collisions.

``Cube`` -> box, ``Sphere`` -> sphere, ``Cylinder``/``Capsule``/``Cone`` ->
the same shape (turned so its axis is Z), ``Plane`` -> plane, ``Mesh`` -> a
mesh file: the points (scale applied) and faces (fan-triangulated) are
written as binary STL into the mesh cache
(:func:`~sdf_tools.convert.mesh_files.cache_dir`) and referenced by an
absolute ``file://`` URI. Prims with ``CollisionAPI`` are collisions, other
geometry is visual; a visual's ``displayColor`` becomes its material and a
collision's bound physics material its ``<surface>`` friction.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np
import trimesh
from pxr import Gf, Usd, UsdGeom, UsdPhysics, UsdShade

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.mesh_files import cache_dir
from sdf_tools.convert.usd.shapes import ellipsoid_radii
from sdf_tools.files import write_atomically
from sdf_tools.model import Collision, Extra, Geometry, RawPose, Visual
from sdf_tools.transform import Transform, normalize_quat

# Rotation taking +Z onto each axis token (for shapes whose axis is X or Y).
_AXIS_TURN = {'X': (0.7071067811865476, 0.0, 0.7071067811865476, 0.0),
              'Y': (0.7071067811865476, -0.7071067811865476, 0.0, 0.0),
              'Z': (1.0, 0.0, 0.0, 0.0)}


@dataclass
class ShapeReader:
    """Reads the shapes of one body."""

    link_world: Gf.Matrix4d     # the body's world transform
    report: ConversionReport
    file: str
    length: float = 1.0         # metresPerUnit

    def rigid(self, prim: Usd.Prim) -> tuple[Transform, tuple[float, float, float]]:
        """Return a shape prim's pose in the body frame and its scale."""
        m = UsdGeom.Xformable(prim).ComputeLocalToWorldTransform(Usd.TimeCode.Default())
        rel = Gf.Transform(m * self.link_world.GetInverse())
        t, s = rel.GetTranslation(), rel.GetScale()
        q = rel.GetRotation().GetQuat()
        im = q.GetImaginary()
        pose = Transform((t[0] * self.length, t[1] * self.length, t[2] * self.length),
                         normalize_quat((q.GetReal(), im[0], im[1], im[2])))
        return pose, (s[0], s[1], s[2])


def _get(prim: Usd.Prim, name: str, default: Any) -> Any:
    attr = prim.GetAttribute(name)
    value = attr.Get() if attr else None
    return default if value is None else value


def _mesh_file(prim: Usd.Prim, scale: tuple[float, float, float], length: float) -> str | None:
    mesh = UsdGeom.Mesh(prim)
    points = np.asarray(mesh.GetPointsAttr().Get() or [], dtype=float) * np.asarray(scale) * length
    counts = list(mesh.GetFaceVertexCountsAttr().Get() or [])
    index = list(mesh.GetFaceVertexIndicesAttr().Get() or [])
    faces: list[list[int]] = []
    at = 0
    for n in counts:
        ring = index[at:at + n]
        faces.extend([ring[0], ring[k], ring[k + 1]] for k in range(1, n - 1))
        at += n
    if len(points) == 0 or not faces:
        return None
    tm = trimesh.Trimesh(points, np.asarray(faces, dtype=int), process=False)
    data = bytes(tm.export(file_type='stl'))  # type: ignore[arg-type]
    digest = hashlib.sha256(data).hexdigest()[:20]
    target = cache_dir() / 'usd' / f'{prim.GetName()}-{digest}.stl'
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, data)
    return target.resolve().as_uri()


def _geometry(sr: ShapeReader, prim: Usd.Prim, pose: Transform, scale: tuple[float, float, float]
              ) -> tuple[Geometry | None, Transform]:
    tname, length = prim.GetTypeName(), sr.length
    where = str(prim.GetPath())
    if tname == 'Cube':
        size = float(_get(prim, 'size', 2.0)) * length
        return Geometry('box', {'size': [size * abs(s) for s in scale]}), pose
    if tname == 'Sphere':
        if max(scale) - min(scale) > 1e-6 * max(scale):
            sr.report.add(ReportKind.APPROXIMATED, where, 'sphere with non-uniform scale read '
                          'as an ellipsoid', sr.file)
            r = float(_get(prim, 'radius', 1.0)) * length
            return Geometry('ellipsoid', {'radii': [r * s for s in scale]}), pose
        return Geometry('sphere', {'radius': float(_get(prim, 'radius', 1.0)) * scale[0] * length}), pose
    if tname in ('Cylinder', 'Capsule', 'Cone'):
        axis = str(_get(prim, 'axis', 'Z'))
        turn = Transform(q=_AXIS_TURN.get(axis, _AXIS_TURN['Z']))
        radial = [s for s, a in zip(scale, 'XYZ', strict=True) if a != axis]
        along = scale['XYZ'.index(axis)] if axis in 'XYZ' else 1.0
        r = float(_get(prim, 'radius', 1.0)) * max(radial) * length
        h = float(_get(prim, 'height', 2.0)) * along * length
        return Geometry(tname.lower(), {'radius': r, 'length': h}), pose * turn
    if tname == 'Plane':
        axis = str(_get(prim, 'axis', 'Z'))
        normal = {'X': [1.0, 0.0, 0.0], 'Y': [0.0, 1.0, 0.0]}.get(axis, [0.0, 0.0, 1.0])
        w, ln = float(_get(prim, 'width', 2.0)), float(_get(prim, 'length', 2.0))
        return Geometry('plane', {'normal': normal, 'size': [w * length, ln * length]}), pose
    if tname == 'Mesh':
        radii = ellipsoid_radii(prim)
        if radii is not None:  # written from an ellipsoid: the exact radii
            return Geometry('ellipsoid', {'radii': [r * abs(s) * length for r, s in
                                                    zip(radii, scale, strict=True)]}), pose
        uri = _mesh_file(prim, scale, length)
        if uri is None:
            return None, pose
        return Geometry('mesh', {'uri': uri, 'scale': [1.0, 1.0, 1.0], 'submesh': None}), pose
    return None, pose


def _color(prim: Usd.Prim) -> Extra | None:
    colors = UsdGeom.Gprim(prim).GetDisplayColorAttr().Get()
    if not colors:
        return None
    opacity = UsdGeom.Gprim(prim).GetDisplayOpacityAttr().Get()
    a = float(opacity[0]) if opacity else 1.0
    c = colors[0]
    rgba = f'{float(c[0])} {float(c[1])} {float(c[2])} {a}'
    return Extra('material', f'<material><ambient>{rgba}</ambient><diffuse>{rgba}</diffuse>'
                 '</material>')


def _friction(prim: Usd.Prim) -> Extra | None:
    mat, _ = UsdShade.MaterialBindingAPI(prim).ComputeBoundMaterial('physics')
    if not mat or not mat.GetPrim().HasAPI(UsdPhysics.MaterialAPI):
        return None
    api = UsdPhysics.MaterialAPI(mat.GetPrim())
    mu = api.GetDynamicFrictionAttr().Get()
    if mu is None:
        return None
    return Extra('surface', f'<surface><friction><ode><mu>{float(mu)}</mu><mu2>{float(mu)}</mu2>'
                 '</ode></friction></surface>')


def read_shape(sr: ShapeReader, prim: Usd.Prim, name: str) -> Visual | Collision | None:
    """Return the visual or collision of one geometry prim (None, reported, when unknown)."""
    pose, scale = sr.rigid(prim)
    geom, pose = _geometry(sr, prim, pose, scale)
    if geom is None:
        sr.report.add(ReportKind.DROPPED, str(prim.GetPath()), f'{prim.GetTypeName()} prim has '
                      'no SDFormat geometry (or no points)', sr.file)
        return None
    if prim.HasAPI(UsdPhysics.CollisionAPI):
        extra = _friction(prim)
        return Collision(name, RawPose(pose), geom, [extra] if extra else [])
    extra = _color(prim)
    return Visual(name, RawPose(pose), geom, [extra] if extra else [])
