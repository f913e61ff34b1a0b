"""OpenUSD -> a load result, through usd-core's UsdPhysics parser.

::

    imported = load_usd('robot.usda')   # imported.loaded: a LoadResult, as load_file gives

What the stage says is read with ``UsdPhysics.LoadUsdPhysicsFromRange``
(usd-core's own parser: the bodies and joints an engine would simulate).
Each rigid body becomes a link, grouped into models by their articulation
root (else their parent prim); its pose, mass properties, visuals and
collisions (:mod:`~sdf_tools.convert.usd.read_shapes`) come back, and every
joint between bodies of one model (:mod:`~sdf_tools.convert.usd.read_joints`),
which may be the colliders of a static model. Models, links and joints keep
the stage's order, in the world prim the writer made (by its name).
Names come back from ``sdf_tools:name`` (else ``displayName``, else the
prim name). What has no SDFormat form is reported with the prim path.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

from pxr import Gf, Sdf, Tf, Usd, UsdGeom, UsdPhysics

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.imported import Imported
from sdf_tools.convert.usd.exact import get_inertial, same_inertial
from sdf_tools.convert.usd.mass import read_mass
from sdf_tools.convert.usd.model_flags import read_link_flags, read_model_flags
from sdf_tools.convert.usd.names import kind_of, original_name
from sdf_tools.convert.usd.read_gearbox import read_gearboxes
from sdf_tools.convert.usd.read_joints import read_joint, read_mimics
from sdf_tools.convert.usd.read_sensors import joint_sensors, read_sensor
from sdf_tools.convert.usd.read_shapes import ShapeReader, read_shape
from sdf_tools.convert.usd.read_world_joints import (
    PendingJoint,
    add_world_joints,
    read_world_joint,
)
from sdf_tools.convert.usd.read_worlds import document, worlds
from sdf_tools.convert.usd.sensors import XML as SENSOR_XML
from sdf_tools.convert.usd.world_joints import is_world_joint
from sdf_tools.convert.usd.xforms import world_transform
from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.load import load_document
from sdf_tools.model import Document, Frame, Inertial, Link, Loc, Model, RawPose
from sdf_tools.transform import Transform


@dataclass
class _Model:
    prim: Usd.Prim
    model: Model
    taken: set[str] = field(default_factory=set)
    links: dict[str, str] = field(default_factory=dict)   # body prim path -> link name

    def name(self, wanted: str, report: ConversionReport, where: str, file: str) -> str:
        # A scoped name (a nested model's link, joint or frame) is kept: nesting.nest moves
        # the element into that nested model.
        scoped = all(p and p not in ('world', '__model__') for p in wanted.split('::'))
        got = wanted if scoped else (wanted.replace('::', '__') or '_')
        base, i = got, 2
        while got in self.taken or got in ('world', '__model__'):
            got, i = f'{base}_{i}', i + 1
        self.taken.add(got)
        if got != wanted:
            report.add(ReportKind.RENAMED, where, f'[{wanted}] read as [{got}] (SDFormat names '
                       'are unique in a model, and not world or __model__)', file)
        return got


def _open(path: str, report: ConversionReport) -> Usd.Stage | None:
    try:
        stage = Usd.Stage.Open(path)
    except Tf.ErrorException as err:
        first = str(err).strip().splitlines()[-1] if str(err).strip() else 'unreadable'
        report.diagnostics.append(Diagnostic(ErrorCode.FILE_READ, f'cannot open the USD stage '
                                             f'[{path}]: {first}', path))
        return None
    if stage is None:
        report.diagnostics.append(Diagnostic(ErrorCode.FILE_READ,
                                             f'cannot open the USD stage [{path}]', path))
    return stage


def _model_prim(prim: Usd.Prim) -> Usd.Prim:
    p = prim.GetParent()
    while p and not p.IsPseudoRoot():
        if p.HasAPI(UsdPhysics.ArticulationRootAPI):
            return p
        p = p.GetParent()
    parent = prim.GetParent()
    return prim if parent.IsPseudoRoot() else parent


def _inertial(prim: Usd.Prim, kpu: float, mpu: float, report: ConversionReport,
              file: str) -> Inertial | None:
    schema = read_mass(prim)
    exact = get_inertial(prim)
    if schema is None:
        if prim.HasAPI(UsdPhysics.MassAPI) or exact is None:
            mass = UsdPhysics.MassAPI(prim).GetMassAttr().Get() \
                if prim.HasAPI(UsdPhysics.MassAPI) else None
            said = 'no mass authored' if not mass else f'mass {mass} is not positive'
            report.add(ReportKind.ASSUMED, str(prim.GetPath()), f'{said} (an engine computes it '
                       "from the shapes): written without <inertial> (libsdformat's 1 kg, unit "
                       'inertia)', file)
        return None
    if exact is not None and same_inertial(exact, schema):
        return exact
    if exact is not None:
        report.add(ReportKind.REWRITTEN, str(prim.GetPath()), 'the MassAPI values differ from '
                   "sdf_tools' double-precision copy: the MassAPI values are used", file)
    schema.mass *= kpu
    schema.inertia = tuple(v * kpu * mpu * mpu for v in schema.inertia)  # type: ignore[assignment]
    return schema


def _link(m: _Model, prim: Usd.Prim, stage_info: tuple[float, float], report: ConversionReport,
          file: str) -> None:
    mpu, kpu = stage_info
    name = m.name(original_name(prim), report, str(prim.GetPath()), file)
    x_wm = world_transform(UsdGeom.Xformable(m.prim)) if m.prim != prim else Transform()
    x_wl = world_transform(UsdGeom.Xformable(prim))
    pose = x_wm.inverse() * x_wl
    link = Link(name, RawPose(Transform(tuple(v * mpu for v in pose.p), pose.q)),  # type: ignore[arg-type]
                loc=Loc(file, None, str(prim.GetPath())))
    # A static link has no mass in UsdPhysics; the writer keeps its <inertial> as the copy.
    link.inertial = get_inertial(prim) if m.model.static else \
        _inertial(prim, kpu, mpu, report, file)
    read_link_flags(prim, link)
    m.links[str(prim.GetPath())] = name
    m.model.links.append(link)
    world = UsdGeom.Xformable(prim).ComputeLocalToWorldTransform(Usd.TimeCode.Default())
    sr = ShapeReader(world, report, file, mpu)
    seen: set[str] = set()
    it = iter(Usd.PrimRange(prim))
    next(it)
    for child in it:
        if child.HasAPI(UsdPhysics.RigidBodyAPI):
            it.PruneChildren()
            continue
        cname = original_name(child)
        if child.IsA(UsdGeom.Gprim):
            shape = read_shape(sr, child, cname)
            if shape is None:
                continue
            items = link.collisions if hasattr(shape, 'name') and \
                child.HasAPI(UsdPhysics.CollisionAPI) else link.visuals
            shape.name = _unique(cname, seen)
            items.append(shape)  # type: ignore[arg-type]
        elif child.HasAttribute(SENSOR_XML):
            it.PruneChildren()  # its camera belongs to it
            pose_s, _ = sr.rigid(child)
            sensor = read_sensor(child, pose_s, name, report, file)
            if sensor is not None:
                link.sensors.append(sensor)
        elif child.GetTypeName() == 'Xform' and child.HasAttribute('sdf_tools:name'):
            pose_f, _ = sr.rigid(child)
            fname = m.name(cname, report, str(child.GetPath()), file)
            m.model.frames.append(Frame(fname, name, RawPose(pose_f, name)))


def _unique(name: str, seen: set[str]) -> str:
    got, i = name, 2
    while got in seen:
        got, i = f'{name}_{i}', i + 1
    seen.add(got)
    return got


def _joint(models: dict[str, _Model], owner: dict[str, _Model], path: str, desc: object,
           mpu: float, report: ConversionReport, file: str) -> None:
    prim = models[next(iter(models))].prim.GetStage().GetPrimAtPath(path)
    b0, b1 = _end(desc, 0, owner), _end(desc, 1, owner)
    m = owner.get(b1)
    if m is None:
        report.add(ReportKind.DROPPED, path, 'its body1 is not a rigid body of the stage', file)
        return
    parent = 'world'
    if b0 and b0 in owner:
        if owner[b0] is not m:
            report.add(ReportKind.DROPPED, path, 'joins bodies of two models', file)
            return
        parent = m.links[b0]
    elif b0 and b0 != '/':
        report.add(ReportKind.REWRITTEN, path, f'body0 [{b0}] is no rigid body: joined to the '
                   'world', file)
    local1 = (desc.localPose1Position, desc.localPose1Orientation)  # type: ignore[attr-defined]
    if m.model.static:
        # usd-core gives the pose in the world when body1 is no rigid body; the authored one
        # is in the link's frame, as for a body.
        api = UsdPhysics.Joint(prim)
        local1 = (api.GetLocalPos1Attr().Get() or Gf.Vec3f(0.0),
                  api.GetLocalRot1Attr().Get() or Gf.Quatf(1.0))
    joint = read_joint(prim, local1, mpu, report, file)
    if joint is None:
        return
    own = original_name(prim)
    if own in m.links.values():
        # Named like a link (a URDF's ANYmal): named as libsdformat's URDF parser names such
        # a joint ('<name>_joint'); URDF, MJCF and USD output give the name back.
        joint.name = m.name(f'{own}_joint', report, path, file)
        joint.file_name = own
        report.add(ReportKind.RENAMED, path, f'[{own}] read as [{joint.name}]: a joint named '
                   "like a link, renamed as libsdformat's URDF parser renames one", file)
    else:
        joint.name = m.name(own, report, path, file)
    joint.parent, joint.child = parent, m.links[b1]
    joint.loc = Loc(file, None, path)
    m.model.joints.append(joint)


def _end(desc: object, side: int, owner: dict[str, _Model]) -> str:
    """Return the body of a joint's end: the parser's rigid body, else a static model's link.

    usd-core leaves ``body0``/``body1`` empty where the relationship names a collider without
    ``RigidBodyAPI`` (a static model's link, as the writer lays one out); ``rel0``/``rel1``
    still name it.
    """
    body = str(getattr(desc, f'body{side}', ''))
    if body not in ('', '/'):
        return body
    rel = str(getattr(desc, f'rel{side}', ''))
    return rel if rel in owner and owner[rel].model.static else body


def _parse(stage: Usd.Stage) -> dict[object, tuple[list[Sdf.Path], list[object]]]:
    with warnings.catch_warnings():
        # usd-core 26 names it deprecated in favour of a binding that does not work yet.
        warnings.simplefilter('ignore', DeprecationWarning)
        parsed = UsdPhysics.LoadUsdPhysicsFromRange(stage, ['/'])
    return dict(parsed)


_JOINT_TYPES = ('RevoluteJoint', 'PrismaticJoint', 'SphericalJoint', 'FixedJoint', 'D6Joint',
                'DistanceJoint', 'CustomJoint')


def _static_links(stage: Usd.Stage, parsed: dict[object, tuple[list[Sdf.Path], list[object]]],
                  models: dict[str, _Model], units: tuple[float, float],
                  report: ConversionReport, file: str) -> None:
    """Read colliders without a rigid body as links of static models (their parent prims).

    A shape's parent prim is the link, and the link's parent the model, as the writer lays
    out a static SDFormat model; the model is static.
    """
    done: set[str] = set()
    for kind, (paths, descs) in parsed.items():
        if not str(kind).endswith('Shape'):
            continue
        for spath, desc in zip(paths, descs, strict=True):
            if str(getattr(desc, 'rigidBody', '')) not in ('', '/'):
                continue
            link = stage.GetPrimAtPath(spath).GetParent()
            if not link or link.IsPseudoRoot() or str(link.GetPath()) in done:
                continue
            done.add(str(link.GetPath()))
            mp = link.GetParent()
            mp = link if mp.IsPseudoRoot() else mp
            key = str(mp.GetPath())
            if key in models and not models[key].model.static:
                report.add(ReportKind.DROPPED, str(link.GetPath()), 'static colliders inside a '
                           'model of rigid bodies are not read', file)
                continue
            if key not in models:
                models[key] = _Model(mp, Model(original_name(mp).replace('::', '__'), static=True,
                                               loc=Loc(file, None, key)))
                models[key].model.pose = RawPose(world_transform(UsdGeom.Xformable(mp))
                                                 if mp != link else Transform())
            _link(models[key], link, units, report, file)


def _read_links(models: dict[str, _Model]) -> set[str]:
    return {p for m in models.values() for p in m.links}


def _visual_links(stage: Usd.Stage, models: dict[str, _Model], units: tuple[float, float],
                  report: ConversionReport, file: str) -> None:
    """Read geometry that no link read so far holds: visuals of a static model without
    colliders (gz-sim's distributed_levels/primary.sdf: its level_vis_block models), laid out
    as :func:`_static_links` reads colliders; any other is reported, never lost unsaid.
    """
    read = _read_links(models)
    it = iter(Usd.PrimRange(stage.GetPseudoRoot()))
    next(it)
    for prim in it:
        if str(prim.GetPath()) in read or prim.HasAPI(UsdPhysics.RigidBodyAPI):
            it.PruneChildren()  # read, or a body the physics parse left out
            continue
        if not (prim.IsA(UsdGeom.Gprim) or prim.HasAttribute(SENSOR_XML)):
            continue  # a sensor alone holds a link too (gz-sim's sensor.sdf: default_topics)
        it.PruneChildren()
        link = prim.GetParent()
        if str(link.GetPath()) in read:
            continue  # a sibling of geometry read just before, with its link
        mp = link.GetParent() if not link.IsPseudoRoot() else link
        key = str(mp.GetPath())
        if link.IsPseudoRoot() or mp.IsPseudoRoot() or (key in models
                                                          and not models[key].model.static):
            report.add(ReportKind.DROPPED, str(prim.GetPath()), 'geometry or sensor outside the '
                       'links of a model (no rigid body or collider holds it) is not read', file)
            continue
        if key not in models:
            models[key] = _Model(mp, Model(original_name(mp).replace('::', '__'), static=True,
                                           loc=Loc(file, None, key)))
            models[key].model.pose = RawPose(world_transform(UsdGeom.Xformable(mp)))
        _link(models[key], link, units, report, file)
        read.add(str(link.GetPath()))


def _marked_links(stage: Usd.Stage, models: dict[str, _Model], units: tuple[float, float],
                  report: ConversionReport, file: str) -> None:
    """Read the links the writer marked that hold nothing read so far: a static model's link
    without geometry (gz-sim's performer_detector.sdf: detector1::body; a heightmap's)."""
    read = _read_links(models)
    for prim in stage.Traverse():
        if kind_of(prim) != 'link' or str(prim.GetPath()) in read:
            continue
        mp = prim.GetParent()
        key = str(mp.GetPath())
        if kind_of(mp) != 'model' or (key in models and not models[key].model.static):
            continue  # a moving model's links are bodies: read as such
        if key not in models:
            models[key] = _Model(mp, Model(original_name(mp).replace('::', '__'), static=True,
                                           loc=Loc(file, None, key)))
            models[key].model.pose = RawPose(world_transform(UsdGeom.Xformable(mp)))
        _link(models[key], prim, units, report, file)


def read_usd(path: str, report: ConversionReport) -> Document | None:
    """Read a USD file into a document (None, with an error in ``report``, when it cannot)."""
    stage = _open(path, report)
    if stage is None:
        return None
    mpu, kpu = UsdGeom.GetStageMetersPerUnit(stage), UsdPhysics.GetStageKilogramsPerUnit(stage)
    if not (math.isfinite(mpu) and mpu > 0.0 and math.isfinite(kpu) and kpu > 0.0):
        report.diagnostics.append(Diagnostic(ErrorCode.FILE_READ, f'the USD stage [{path}] has '
                                             f'metersPerUnit {mpu} and kilogramsPerUnit {kpu}: '
                                             'units must be positive', path))
        return None
    if mpu != 1.0 or kpu != 1.0:
        report.add(ReportKind.REWRITTEN, 'stage/metersPerUnit', f'the stage is in units of {mpu} m '
                   f'and {kpu} kg (an unauthored metersPerUnit means centimetres): lengths, '
                   'masses and inertias converted to metres and kilograms', path)
    if UsdGeom.GetStageUpAxis(stage) != UsdGeom.Tokens.z:
        report.add(ReportKind.KEPT, 'stage/upAxis', 'the stage is Y up: poses are read as '
                   'authored (SDFormat is Z up)', path)
    parsed = _parse(stage)
    models: dict[str, _Model] = {}
    owner: dict[str, _Model] = {}
    for bpath in parsed.get(UsdPhysics.ObjectType.RigidBody, ([], []))[0]:
        prim = stage.GetPrimAtPath(bpath)
        mp = _model_prim(prim)
        key = str(mp.GetPath())
        if key not in models:
            models[key] = _Model(mp, Model(original_name(mp).replace('::', '__'),
                                           loc=Loc(path, None, key)))
            models[key].model.pose = RawPose(world_transform(UsdGeom.Xformable(mp))
                                             if mp != prim else Transform())
        _link(models[key], prim, (mpu, kpu), report, path)
        owner[str(bpath)] = models[key]
    _static_links(stage, parsed, models, (mpu, kpu), report, path)
    _visual_links(stage, models, (mpu, kpu), report, path)
    _marked_links(stage, models, (mpu, kpu), report, path)
    for m in models.values():
        if m.model.static:
            owner.update(dict.fromkeys(m.links, m))
    if not models and not worlds(stage):
        report.diagnostics.append(Diagnostic(ErrorCode.FILE_READ, f'the USD stage [{path}] has '
                                             'no rigid body (UsdPhysics.RigidBodyAPI)', path))
        return None
    ends = {p: (m.model, m.links[p]) for m in models.values() for p in m.links}
    pending: list[PendingJoint] = []
    for kind, (paths, descs) in parsed.items():
        if str(kind).split('.')[-1] in _JOINT_TYPES:
            for jpath, desc in zip(paths, descs, strict=True):
                jprim = stage.GetPrimAtPath(jpath)
                if not is_world_joint(jprim):
                    _joint(models, owner, str(jpath), desc, mpu, report, path)
                elif (got := read_world_joint(jprim, desc, ends, mpu, report, path)) is not None:
                    pending.append(got)
    for m in models.values():
        read_model_flags(m.prim, m.model, sum(stage.GetPrimAtPath(p).HasAPI(
            UsdPhysics.RigidBodyAPI) for p in m.links))
        for joint in read_gearboxes(m.prim, m.links, report, path):
            joint.name = m.name(joint.name, report, joint.loc.xml_path or '' if joint.loc
                                else '', path)
            m.model.joints.append(joint)
        read_mimics(stage, m.model.joints, report, path)
        joint_sensors(stage, m.model, report, path)
    doc = document(stage, [(m.prim, m.model) for m in models.values()], report, path)
    if pending:  # in the stage's order (the parser groups joints by kind)
        order = {str(p.GetPath()): i for i, p in enumerate(stage.Traverse())}
        pending.sort(key=lambda p: order.get(p.joint.loc.xml_path or '' if p.joint.loc else '', 0))
        add_world_joints(doc, pending, report, path)
    return doc


def load_usd(path: str) -> Imported:
    """Read a USD file into a load result (None when it holds no rigid body or cannot be opened)."""
    report = ConversionReport()
    doc = read_usd(path, report)
    return Imported(None if doc is None else load_document(doc), report)
