"""A USD stage as usd-core's ``UsdPhysics`` parser reads it, as a :class:`Snapshot`.

Bodies are the parser's rigid bodies (and a model's static links, Xforms with
no ``RigidBodyAPI`` beside them); world poses come from USD's own
``ComputeLocalToWorldTransform``; mass properties from ``MassAPI`` (centre of
mass and principal axes in the body frame); joints from the parsed joint
descriptions: the anchor is ``localPos1`` placed by body1, the axis the
``physics:axis`` token turned by ``localRot1``, limits from the parsed limit
(degrees for revolute joints), the effort limit from a drive's ``maxForce`` (a
joint without a drive has no place for one: noted, not a difference), the
velocity limit from PhysX's ``physxJoint:maxJointVelocity`` (degrees/s for a
revolute joint). The schema stores these as 32-bit floats, so they are compared
to ``FLOAT_TOL`` (relative); link and sensor poses are doubles (1e-9). Sensor
parameters come from the XML the sensor prim carries, a camera's field of view
and clipping from its ``UsdGeom.Camera`` (floats, so ``FLOAT_TOL``).
Names are the exporter's ``sdf_tools:name`` where written, else the prim name;
sensors are the Xforms holding ``sdf_tools:sensorName`` (convert/usd/sensors.py).
"""
from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
from lxml import etree
from pxr import Gf, Usd, UsdGeom, UsdPhysics

from sdf_tools.transform import Transform
from sdf_tools.verify.sensor_values import parameters
from sdf_tools.verify.snapshot import JointState, MassProps, Snapshot, rotation
from sdf_tools.xmlsafe import parse_kept

FLOAT_TOL = 1e-6
FLOAT_MEASURES = {'joint anchor': FLOAT_TOL, 'joint axis': FLOAT_TOL, 'joint limits': FLOAT_TOL,
                  'effort limit': FLOAT_TOL, 'velocity limit': FLOAT_TOL,
                  'mass': FLOAT_TOL, 'centre of mass': FLOAT_TOL, 'inertia': 10 * FLOAT_TOL,
                  'sensor parameters': FLOAT_TOL}
#: Where a USD joint holds an effort limit (the others are noted).
OPTIONAL = {'effort limit': "a joint without a drive: UsdPhysics' only effort limit is a "
            "drive's maxForce"}
_KINDS = {'RevoluteJoint': 'revolute', 'PrismaticJoint': 'prismatic', 'SphericalJoint': 'ball',
          'FixedJoint': 'fixed', 'D6Joint': 'd6', 'CustomJoint': 'other', 'DistanceJoint': 'other'}
_AXES = {'X': (1.0, 0.0, 0.0), 'Y': (0.0, 1.0, 0.0), 'Z': (0.0, 0.0, 1.0)}


def name_of(prim: Usd.Prim) -> str:
    """Return the scoped name the exporter recorded, else the prim's name."""
    attr = prim.GetAttribute('sdf_tools:name')
    return str(attr.Get()) if attr and attr.HasAuthoredValue() else str(prim.GetName())


def _world(prim: Usd.Prim) -> Gf.Matrix4d:
    return UsdGeom.Xformable(prim).ComputeLocalToWorldTransform(Usd.TimeCode.Default())


def _transform(m: Gf.Matrix4d) -> Transform:
    t = m.ExtractTranslation()
    q = m.ExtractRotationQuat()
    im = q.GetImaginary()
    return Transform((t[0], t[1], t[2]), (q.GetReal(), im[0], im[1], im[2]))


def _mass(prim: Usd.Prim, x_wb: Transform) -> MassProps | None:
    if not prim.HasAPI(UsdPhysics.MassAPI):
        return None
    api = UsdPhysics.MassAPI(prim)
    mass, com = api.GetMassAttr().Get(), api.GetCenterOfMassAttr().Get()
    diag, q = api.GetDiagonalInertiaAttr().Get(), api.GetPrincipalAxesAttr().Get()
    if mass is None or com is None or diag is None or q is None:
        return None
    pa = Transform((0.0, 0.0, 0.0), (q.GetReal(), *q.GetImaginary()))
    r = rotation(x_wb * pa)
    c = x_wb * Transform((float(com[0]), float(com[1]), float(com[2])))
    return MassProps(float(mass), np.asarray(c.p, dtype=float),
                     r @ np.diag(np.asarray(diag, dtype=float)) @ r.T)


class _Keys:
    """Keys of links and joints: scoped names, prefixed by their model's when there are several."""

    def __init__(self, models: set[str], model: str | None) -> None:
        self.many = len(models) > 1 and model is None
        self.model = model

    def key(self, model_prim: Usd.Prim, prim: Usd.Prim) -> str | None:
        model = name_of(model_prim)
        if self.model is not None and model != self.model:
            return None
        return f'{model}::{name_of(prim)}' if self.many else name_of(prim)


def _joint(stage: Usd.Stage, kind: str, d: Any) -> JointState:
    # usd-core puts the pose in the world when body1 is no rigid body (a static link).
    m1 = _world(stage.GetPrimAtPath(str(d.body1))) if str(d.body1) not in ('', '/') \
        else Gf.Matrix4d(1.0)
    anchor = m1.Transform(Gf.Vec3d(d.localPose1Position))
    axis = None
    token = str(getattr(d, 'axis', '')).split('.')[-1]
    if kind in ('revolute', 'prismatic') and token in _AXES:
        rot1 = Gf.Matrix4d().SetRotate(Gf.Quatd(d.localPose1Orientation))
        a = (rot1 * m1).TransformDir(Gf.Vec3d(*_AXES[token]))
        n = math.sqrt(a[0] ** 2 + a[1] ** 2 + a[2] ** 2) or 1.0
        axis = (a[0] / n, a[1] / n, a[2] / n)
    limits = None
    lim = getattr(d, 'limit', None)
    if kind in ('revolute', 'prismatic') and lim is not None and lim.enabled and \
            math.isfinite(lim.lower) and math.isfinite(lim.upper) and \
            not (abs(lim.lower) >= 1e16 and abs(lim.upper) >= 1e16):
        k = math.pi / 180 if kind == 'revolute' else 1.0
        limits = (lim.lower * k, lim.upper * k)
    effort, velocity = _rates(stage.GetPrimAtPath(str(d.primPath)), kind)
    return JointState(kind, (anchor[0], anchor[1], anchor[2]), axis, limits, effort=effort,
                      velocity=velocity)


def _finite(attr: Usd.Attribute | None) -> float | None:
    got = attr.Get() if attr and attr.HasAuthoredValue() else None
    return float(got) if got is not None and math.isfinite(got) and got < 1e30 else None


def _rates(prim: Usd.Prim, kind: str) -> tuple[float | None, float | None]:
    """The effort limit (a drive's maxForce) and velocity limit (PhysX's) of a joint prim."""
    if kind not in ('revolute', 'prismatic') or not prim:
        return None, None
    dof = 'angular' if kind == 'revolute' else 'linear'
    effort = _finite(UsdPhysics.DriveAPI(prim, dof).GetMaxForceAttr()) \
        if prim.HasAPI(UsdPhysics.DriveAPI, dof) else None
    velocity = _finite(prim.GetAttribute('physxJoint:maxJointVelocity'))
    if velocity is not None and kind == 'revolute':
        velocity = math.radians(velocity)
    return effort, velocity


def _parse(stage: Usd.Stage) -> dict[str, tuple[list[Any], list[Any]]]:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        parsed = UsdPhysics.LoadUsdPhysicsFromRange(stage, ['/'])
    return {str(k).split('.')[-1]: (list(p), list(d)) for k, (p, d) in parsed.items()}


def _named_xforms(prim: Usd.Prim) -> list[Usd.Prim]:
    return [c for c in prim.GetChildren()
            if c.GetTypeName() == 'Xform' and c.HasAttribute('sdf_tools:name')]


def _is_world(prim: Usd.Prim) -> bool:
    """A world's prim holds models (Xforms holding link Xforms), no rigid body of its own."""
    children = _named_xforms(prim)
    return not any(c.HasAPI(UsdPhysics.RigidBodyAPI) for c in children) and \
        any(_named_xforms(c) for c in children)


def _models(stage: Usd.Stage, bodies: list[Usd.Prim]) -> set[Usd.Prim]:
    """The model prims: each root prim, or each model of a root prim that is a world."""
    models = {b.GetParent() for b in bodies}
    for root in stage.GetPseudoRoot().GetChildren():
        if root.GetTypeName() != 'Xform':
            continue
        models |= set(_named_xforms(root)) if _is_world(root) else {root}
    return models


def _links(stage: Usd.Stage, bodies: list[Usd.Prim], model: str | None, snap: Snapshot
           ) -> _Keys:
    models = _models(stage, bodies)
    keys = _Keys({name_of(m) for m in models}, model)
    for m in models:
        for prim in m.GetChildren():
            if prim.GetTypeName() != 'Xform' or not (prim.HasAPI(UsdPhysics.RigidBodyAPI) or
                                                     prim.HasAttribute('sdf_tools:name')):
                continue
            key = keys.key(m, prim)
            if key is None:
                continue
            x = _transform(_world(prim))
            snap.poses[key] = x
            snap.members[key] = key
            snap.paths[str(prim.GetPath())] = key
            got = _mass(prim, x) if prim.HasAPI(UsdPhysics.RigidBodyAPI) else None
            if got is not None:
                snap.masses[key] = got
            if not prim.HasAPI(UsdPhysics.RigidBodyAPI):
                snap.static.add(key)
            _merged(m, prim, key, keys, snap)
    return keys


def _merged(m: Usd.Prim, link: Usd.Prim, key: str, keys: _Keys, snap: Snapshot) -> None:
    """The frames a link's Xform holds: a link merged into it (collapse_fixed_joints) is one."""
    for child in link.GetChildren():
        if child.GetTypeName() != 'Xform' or not child.HasAttribute('sdf_tools:name') \
                or child.HasAttribute('sdf_tools:sensorName'):
            continue
        ck = keys.key(m, child)
        if ck is not None and ck not in snap.poses:
            snap.poses[ck] = _transform(_world(child))
            snap.members[ck] = key


def _is_world_joint(prim: Usd.Prim) -> bool:
    """A joint the exporter wrote from a world's ``<joint>`` (in the world prim's scope)."""
    attr = prim.GetAttribute('sdf_tools:kind')
    return bool(attr) and attr.HasAuthoredValue() and str(attr.Get()) == 'world_joint'


def _world_joint_key(prim: Usd.Prim, keys: _Keys) -> str | None:
    """A world's own joint is named alone, as the source names it when several models are
    compared (with one model compared, the source leaves world joints out)."""
    return name_of(prim) if keys.many else None


def _couplings(stage: Usd.Stage, names: dict[str, str]) -> dict[str, tuple[str, float]]:
    """Newton's ``NewtonMimicAPI`` couplings of the stage's joints (follower -> (leader,
    multiplier ``newton:mimicCoef1``)), as Newton's importer reads them."""
    out: dict[str, tuple[str, float]] = {}
    for path, key in names.items():
        prim = stage.GetPrimAtPath(path)
        # usd-core without Newton's schema plugin lists no NewtonMimicAPI among the applied
        # schemas: its authored relationship and coefficient are what Newton reads.
        rel = prim.GetRelationship('newton:mimicJoint') if prim else None
        targets = [str(t) for t in rel.GetTargets()] if rel else []
        coef = prim.GetAttribute('newton:mimicCoef1')
        value = coef.Get() if coef else None
        if targets and targets[0] in names and value is not None:
            out[key] = (names[targets[0]], float(value))
    return out


def usd_snapshot(path: str, model: str | None = None) -> Snapshot | str:
    """Open and parse the stage; return its snapshot, or why it cannot be read."""
    stage = Usd.Stage.Open(path)
    if stage is None:
        return f'usd-core cannot open [{path}]'
    parsed = _parse(stage)
    snap = Snapshot('usd-core UsdPhysics', tolerances=dict(FLOAT_MEASURES),
                    optional=dict(OPTIONAL))
    bodies = [stage.GetPrimAtPath(p) for p in parsed.get('RigidBody', ([], []))[0]]
    keys = _links(stage, bodies, model, snap)
    held: set[str] = set()
    for kind_key, (paths, descs) in parsed.items():
        kind = _KINDS.get(kind_key)
        if kind is None:
            continue
        for p, d in zip(paths, descs, strict=True):
            prim = stage.GetPrimAtPath(p)
            key = _world_joint_key(prim, keys) if _is_world_joint(prim) else \
                keys.key(prim.GetParent().GetParent(), prim)
            if key is not None and (str(d.body1) not in ('', '/') or
                                    snap.paths.get(str(d.rel1)) in snap.static):
                snap.joints[key] = _joint(stage, kind, d)
                snap.paths[str(p)] = key
                held.add(str(d.body1))
    snap.free = {keys.key(b.GetParent(), b) or '' for b in bodies if str(b.GetPath()) not in held}
    snap.couplings = _couplings(stage, snap.paths)
    _sensors(stage, keys, snap)
    return snap


def _sensors(stage: Usd.Stage, keys: _Keys, snap: Snapshot) -> None:
    """The Xforms the exporter writes at sensor poses (``sdf_tools:sensorName``)."""
    for prim in stage.Traverse():
        attr = prim.GetAttribute('sdf_tools:sensorName')
        if not attr or not attr.HasAuthoredValue():
            continue
        model = prim.GetParent().GetParent()
        if keys.model is not None and name_of(model) != keys.model:
            continue
        name = str(attr.Get())
        key = f'{name_of(model)}::{name}' if keys.many else name
        snap.sensors[key] = _transform(_world(prim))
        snap.sensor_params[key] = _sensor_params(prim)


def _sensor_params(prim: Usd.Prim) -> dict[str, float]:
    """The parameters in the sensor's XML, a camera's from its ``UsdGeom.Camera``."""
    kind, xml = prim.GetAttribute('sdf_tools:sensorType'), prim.GetAttribute('sdf_tools:sensorXml')
    try:
        el = parse_kept(str(xml.Get())) if xml and xml.HasAuthoredValue() else None
    except etree.XMLSyntaxError:
        el = None
    out = parameters(str(kind.Get()) if kind and kind.HasAuthoredValue() else '', el)
    cam = UsdGeom.Camera(prim.GetChild('camera'))
    if cam:
        focal, aperture = cam.GetFocalLengthAttr().Get(), cam.GetHorizontalApertureAttr().Get()
        if focal and aperture:
            out['horizontal_fov'] = 2.0 * math.atan(aperture / 2.0 / focal)
        clip = cam.GetClippingRangeAttr().Get()
        if clip is not None:
            out['clip_near'], out['clip_far'] = float(clip[0]), float(clip[1])
    return out
