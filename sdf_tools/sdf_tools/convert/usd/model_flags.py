"""A model's and a link's switches through a stage, there and back.

===========================  =====================================================
SDFormat                     USD
===========================  =====================================================
link ``<gravity>`` false     PhysX's ``physxRigidBody:disableGravity`` (to_usd.py)
link ``<kinematic>`` true    ``RigidBodyAPI`` ``kinematicEnabled`` (to_usd.py)
model ``<self_collide>``     no ``collision_filter`` group filtering the model against
                             itself (to_usd.py writes one when it is false)
model ``<enable_wind>``,     no UsdPhysics form (Gazebo's wind and sleeping): kept as
``<allow_auto_disable>``     ``sdf_tools:enableWind``/``sdf_tools:allowAutoDisable``
                             for the way back, reported
===========================  =====================================================
"""
from __future__ import annotations

from pxr import Sdf, Usd, UsdPhysics

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import where
from sdf_tools.model import Link, Model

_WIND, _SLEEP = 'sdf_tools:enableWind', 'sdf_tools:allowAutoDisable'
#: The collision group to_usd.py writes to filter a model against itself.
FILTER = 'collision_filter'


def write_model_flags(prim: Usd.Prim, model: Model, report: ConversionReport) -> None:
    """Keep the model's Gazebo-only switches that differ from the defaults (reported)."""
    for attr, tag, value, default in ((_WIND, 'enable_wind', model.enable_wind, False),
                                      (_SLEEP, 'allow_auto_disable', model.allow_auto_disable,
                                       True)):
        if value == default:
            continue
        prim.CreateAttribute(attr, Sdf.ValueTypeNames.Bool, custom=True).Set(value)
        report.add(ReportKind.KEPT, f'model[{model.name}]/{tag}', f'{str(value).lower()}: no '
                   f"USD form (Gazebo's); kept as {attr} for the way back", *where(model.loc))


def _flag(prim: Usd.Prim, name: str) -> bool | None:
    attr = prim.GetAttribute(name)
    return bool(attr.Get()) if attr and attr.HasAuthoredValue() else None


def read_model_flags(prim: Usd.Prim, model: Model, bodies: int) -> None:
    """Read the switches back: self_collide from the absent filter (two bodies or more)."""
    wind, sleep = _flag(prim, _WIND), _flag(prim, _SLEEP)
    if wind is not None:
        model.enable_wind = wind
    if sleep is not None:
        model.allow_auto_disable = sleep
    group = prim.GetChild(FILTER)
    if bodies >= 2 and not (group and group.IsA(UsdPhysics.CollisionGroup)) and \
            _flag(prim, 'physxArticulation:enabledSelfCollisions') is not False:
        model.self_collide = True  # USD's default: the bodies of a model collide


def read_link_flags(prim: Usd.Prim, link: Link) -> None:
    """Read a body's gravity and kinematic switches."""
    if _flag(prim, 'physxRigidBody:disableGravity'):
        link.gravity = False
    if prim.HasAPI(UsdPhysics.RigidBodyAPI) and \
            UsdPhysics.RigidBodyAPI(prim).GetKinematicEnabledAttr().Get():
        link.kinematic = True
