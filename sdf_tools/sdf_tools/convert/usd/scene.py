"""The stage's ``PhysicsScene``: a world's ``<gravity>`` there and back.

UsdPhysics holds gravity as a direction and a magnitude (32-bit floats) on
the scene; the writer puts the world's vector there (libsdformat's
``0 0 -9.8`` for a world without ``<gravity>``) with the double-precision
original as ``sdf_tools:gravity`` (:mod:`~sdf_tools.convert.usd.exact`), and
the reader gives the world a ``<gravity>`` when the scene's is not that
default. A model file has no gravity: its stage gets standard gravity
(9.80665 m/s^2, -Z). One scene serves every world of the stage, so a second
world's different gravity is reported lost.
"""
from __future__ import annotations

import math

from pxr import Gf, Usd, UsdGeom, UsdPhysics

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import where
from sdf_tools.convert.sdf.elements import nums
from sdf_tools.convert.usd.exact import get, put
from sdf_tools.convert.world_gravity import SDF_GRAVITY, world_gravity
from sdf_tools.model import Document, Extra
from sdf_tools.transform import Vec3

#: What a model file's stage gets (a model has no gravity; USD's "earth gravity").
STANDARD: Vec3 = (0.0, 0.0, -9.80665)
SCENE = '/physicsScene'
#: Agreement of the exact copy with the float schema values (float: 24 bits).
_FLOAT_REL = 1e-6


def _set(scene: UsdPhysics.Scene, g: Vec3) -> None:
    size = math.sqrt(sum(v * v for v in g))
    direction = tuple(v / size for v in g) if size > 0.0 else (0.0, 0.0, -1.0)
    scene.CreateGravityDirectionAttr().Set(Gf.Vec3f(*direction))
    scene.CreateGravityMagnitudeAttr().Set(size)
    put(scene.GetPrim(), 'gravity', g)


def write_scene(stage: Usd.Stage, doc: Document, report: ConversionReport) -> None:
    """Define the physics scene with the first world's gravity (standard gravity for a model)."""
    scene = UsdPhysics.Scene.Define(stage, SCENE)
    if not doc.worlds:
        _set(scene, STANDARD)
        return
    first, extra = world_gravity(doc.worlds[0], doc.version)
    _set(scene, first)
    label = f'world[{doc.worlds[0].name}]/gravity'
    if extra is None:
        report.add(ReportKind.ASSUMED, label, "no (valid) <gravity>: libsdformat's 0 0 -9.8 "
                   "written as the physics scene's gravity", *where(doc.worlds[0].loc))
    else:
        report.add(ReportKind.REWRITTEN, label, "written as the physics scene's "
                   'gravityDirection and gravityMagnitude', *where(extra.loc))
    for world in doc.worlds[1:]:
        g, extra = world_gravity(world, doc.version)
        if g != first:
            report.add(ReportKind.DROPPED, f'world[{world.name}]/gravity', f'{nums(g)}: the '
                       f"stage has one physics scene, with the first world's gravity",
                       *where(extra.loc if extra is not None else world.loc))


def _scene(stage: Usd.Stage) -> UsdPhysics.Scene | None:
    for prim in stage.Traverse():
        if prim.IsA(UsdPhysics.Scene):
            return UsdPhysics.Scene(prim)
    return None


def read_gravity(stage: Usd.Stage, report: ConversionReport, file: str) -> Vec3 | None:
    """Return the first physics scene's gravity in m/s^2 (None without a scene, or not finite)."""
    scene = _scene(stage)
    if scene is None:
        return None
    mpu = UsdGeom.GetStageMetersPerUnit(stage)
    d = scene.GetGravityDirectionAttr().Get()
    m = scene.GetGravityMagnitudeAttr().Get()
    # The schema's fallbacks: direction (0, 0, 0) is "down the up axis", magnitude -inf
    # "earth gravity" (9.81 m/s^2 in stage units).
    if d is None or Gf.Vec3f(d).GetLength() == 0.0:
        d = Gf.Vec3f(0.0, 0.0, -1.0) if UsdGeom.GetStageUpAxis(stage) == UsdGeom.Tokens.z \
            else Gf.Vec3f(0.0, -1.0, 0.0)
    size = 9.81 if m is None or not math.isfinite(m) else float(m) * mpu
    dn = Gf.Vec3d(d).GetNormalized()
    g: Vec3 = (dn[0] * size, dn[1] * size, dn[2] * size)
    if not all(math.isfinite(v) for v in g):
        report.add(ReportKind.DROPPED, str(scene.GetPath()), f'gravity {g} is not finite: not '
                   'read', file)
        return None
    exact = get(scene.GetPrim(), 'gravity', 3)
    if exact is not None and all(abs(a - b) <= _FLOAT_REL * max(1.0, size)
                                 for a, b in zip(exact, g, strict=True)):
        return (exact[0], exact[1], exact[2])
    return g


def gravity_extra(g: Vec3) -> Extra | None:
    """Return the ``<gravity>`` of a world read with gravity ``g`` (None for the default)."""
    if g == SDF_GRAVITY:
        return None
    return Extra('gravity', f'<gravity>{nums(g)}</gravity>')


def is_standard(g: Vec3) -> bool:
    """Whether ``g`` is the gravity a model file's stage gets (to float precision)."""
    return all(abs(a - b) <= _FLOAT_REL * 10.0 for a, b in zip(g, STANDARD, strict=True))
