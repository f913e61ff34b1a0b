"""Visual and collision shapes as USD geometry prims, with ``CollisionAPI`` on collisions.

==============  ==================================================================
SDFormat        USD
==============  ==================================================================
box             ``Cube`` of size 1, scaled to the box (scale on the shape only)
sphere          ``Sphere``
cylinder        ``Cylinder`` (axis Z)
capsule         ``Capsule`` (axis Z; ``height`` is the cylinder part, as SDFormat's
                ``length``)
cone            ``Cone`` (axis Z)
plane           ``Plane`` (axis Z, turned to the normal)
ellipsoid       ``Mesh`` of a scaled icosphere (UsdPhysics has no ellipsoid; reported),
                the radii kept as ``sdf_tools:radii``
mesh            ``Mesh`` read with trimesh (STL/OBJ/DAE/GLB, ``package://`` and
                ``model://`` resolved), scale applied to the points; collisions get
                ``MeshCollisionAPI`` with the ``mesh_collision`` approximation
heightmap,      dropped, reported
polyline, ...
==============  ==================================================================

Collision prims have purpose ``guide`` (drawn only on request, as Isaac Sim
writes them); visuals carry a display colour.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import trimesh
from pxr import Gf, Usd, UsdGeom, UsdPhysics, Vt

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.geometry_ops import load_mesh
from sdf_tools.convert.shape_params import param_float, param_vector, rotation_z_to
from sdf_tools.convert.usd.exact import get, put
from sdf_tools.convert.usd.xforms import set_pose
from sdf_tools.model import Geometry, Loc
from sdf_tools.transform import Transform

#: On an ellipsoid's Mesh: its radii (x y z), for the reader (:func:`ellipsoid_radii`).
RADII = 'radii'

#: mesh_collision option -> MeshCollisionAPI approximation.
APPROXIMATION = {'keep': 'none', 'convex': 'convexHull', 'box': 'boundingCube'}


@dataclass
class ShapeSite:
    """Where and how one shape is written."""

    stage: Usd.Stage
    path: str                 # the prim path to define
    pose: Transform           # in the link frame
    collision: bool
    label: str                # report label ('link[a]/collision[c]')
    loc: Loc | None
    report: ConversionReport
    base: Path | None
    approximation: str = 'none'




def _where(site: ShapeSite) -> tuple[str | None, int | None]:
    return (site.loc.file, site.loc.line) if site.loc else (None, None)



def _mesh_prim(site: ShapeSite, mesh: trimesh.Trimesh, pose: Transform) -> Usd.Prim:
    m = UsdGeom.Mesh.Define(site.stage, site.path)
    points = np.asarray(mesh.vertices, dtype=float)
    faces = np.asarray(mesh.faces, dtype=int)
    m.CreatePointsAttr(Vt.Vec3fArray.FromNumpy(points.astype(np.float32)))
    m.CreateFaceVertexCountsAttr(Vt.IntArray([3] * len(faces)))
    m.CreateFaceVertexIndicesAttr(Vt.IntArray.FromNumpy(faces.reshape(-1).astype(np.int32)))
    lo, hi = points.min(axis=0), points.max(axis=0)
    m.CreateExtentAttr(Vt.Vec3fArray([Gf.Vec3f(*lo.tolist()), Gf.Vec3f(*hi.tolist())]))
    m.CreateSubdivisionSchemeAttr('none')
    set_pose(m, pose)
    return m.GetPrim()


def _mesh(site: ShapeSite, g: Geometry) -> Usd.Prim | None:
    mesh = load_mesh(g, site.base)
    uri = g.params.get('uri')
    if mesh is None:
        site.report.add(ReportKind.DROPPED, site.label, f'mesh [{uri}] cannot be found or read '
                        'here: no shape written', *_where(site))
        return None
    if isinstance(g.params.get('submesh'), dict):
        site.report.add(ReportKind.APPROXIMATED, site.label, f'mesh [{uri}]: <submesh> not '
                        'applied, the whole file is written', *_where(site))
    prim = _mesh_prim(site, mesh, site.pose)
    if site.collision:
        UsdPhysics.MeshCollisionAPI.Apply(prim).CreateApproximationAttr(site.approximation)
    return prim


def _ellipsoid(site: ShapeSite, g: Geometry) -> Usd.Prim:
    radii = param_vector(g.params, 'radii', [1.0, 1.0, 1.0])
    mesh = trimesh.creation.icosphere(subdivisions=3)
    mesh.apply_scale(radii)
    site.report.add(ReportKind.APPROXIMATED, site.label, 'ellipsoid written as a Mesh of '
                    '642 vertices (USD and UsdPhysics have no ellipsoid; the radii kept as '
                    'sdf_tools:radii for the way back)', *_where(site))
    prim = _mesh_prim(site, mesh, site.pose)
    put(prim, RADII, radii)
    if site.collision:
        UsdPhysics.MeshCollisionAPI.Apply(prim).CreateApproximationAttr('convexHull')
    return prim


def _primitive(site: ShapeSite, g: Geometry) -> Usd.Prim | None:
    p, s = g.params, site.stage
    gprim: Any
    scale = None
    pose = site.pose
    if g.type == 'box':
        gprim = UsdGeom.Cube.Define(s, site.path)
        gprim.CreateSizeAttr(1.0)
        scale = param_vector(p, 'size', [1.0, 1.0, 1.0])
        gprim.CreateExtentAttr(Vt.Vec3fArray([Gf.Vec3f(-0.5), Gf.Vec3f(0.5)]))
    elif g.type == 'sphere':
        gprim = UsdGeom.Sphere.Define(s, site.path)
        r = param_float(p, 'radius', 1.0)
        gprim.CreateRadiusAttr(r)
        gprim.CreateExtentAttr(Vt.Vec3fArray([Gf.Vec3f(-r), Gf.Vec3f(r)]))
    elif g.type in ('cylinder', 'capsule', 'cone'):
        cls = {'cylinder': UsdGeom.Cylinder, 'capsule': UsdGeom.Capsule, 'cone': UsdGeom.Cone}
        gprim = cls[g.type].Define(s, site.path)
        r, h = param_float(p, 'radius', 1.0), param_float(p, 'length', 1.0)
        gprim.CreateRadiusAttr(r)
        gprim.CreateHeightAttr(h)
        gprim.CreateAxisAttr('Z')
        half = h / 2.0 + (r if g.type == 'capsule' else 0.0)
        gprim.CreateExtentAttr(Vt.Vec3fArray([Gf.Vec3f(-r, -r, -half), Gf.Vec3f(r, r, half)]))
    elif g.type == 'plane':
        gprim = UsdGeom.Plane.Define(s, site.path)
        w, length = param_vector(p, 'size', [1.0, 1.0])
        gprim.CreateWidthAttr(w)
        gprim.CreateLengthAttr(length)
        gprim.CreateAxisAttr('Z')
        pose = pose * rotation_z_to(param_vector(p, 'normal', [0.0, 0.0, 1.0]))
    else:
        return None
    set_pose(gprim, pose, scale)
    return gprim.GetPrim()


def write_shape(site: ShapeSite, g: Geometry | None) -> Usd.Prim | None:
    """Define the prim of one visual or collision; None (reported) when it has no USD form."""
    if g is None or g.type == 'empty':
        site.report.add(ReportKind.DROPPED, site.label, 'no geometry (libsdformat: an empty '
                        'one) has no USD form: not written', *_where(site))
        return None
    if g.type == 'mesh':
        prim = _mesh(site, g)
    elif g.type == 'ellipsoid':
        prim = _ellipsoid(site, g)
    else:
        prim = _primitive(site, g)
        if prim is None:
            site.report.add(ReportKind.DROPPED, site.label, f'<{g.type}> has no USD or '
                            'UsdPhysics shape: not written', *_where(site))
            return None
    if prim is None:
        return None
    if site.collision:
        UsdPhysics.CollisionAPI.Apply(prim)
        UsdGeom.Imageable(prim).CreatePurposeAttr(UsdGeom.Tokens.guide)
    return prim


def ellipsoid_radii(prim: Usd.Prim) -> list[float] | None:
    """Return the radii :func:`_ellipsoid` recorded, if the mesh still spans them (unedited)."""
    radii = get(prim, RADII, 3)
    points = UsdGeom.Mesh(prim).GetPointsAttr().Get() if radii is not None else None
    if radii is None or not points:
        return None
    span = np.abs(np.asarray(points, dtype=float)).max(axis=0)
    return radii if np.allclose(span, radii, rtol=1e-6, atol=0.0) else None
