"""SDFormat sensors in USD: an Xform at each sensor's pose carrying its SDFormat, cameras as cameras.

UsdPhysics has no sensors. Each sensor of a link (a joint's: of the joint's
child link) becomes an ``Xform`` under its link at the sensor's pose, holding
``sdf_tools:sensorName`` (its scoped name), ``sdf_tools:sensorType`` and
``sdf_tools:sensorXml`` (the ``<sensor>`` element as written: every SDFormat
parameter, read back by the importer). A camera type also gets a
``UsdGeom.Camera`` child turned to look along the sensor's +X (a USD camera
looks along -Z with +Y up), its apertures and focal length from the horizontal
field of view and the image aspect (square pixels), its clipping range from
``<clip>``. Every sensor is reported.

A URDF's ``<gazebo reference="LINK"><sensor>`` (or a joint's reference: the
joint frame, which is its child link's in URDF) is written the same way,
named ``LINK::NAME`` as ``sdf_tools verify`` expects, at its ``<pose>`` in
the link (:func:`write_gazebo_sensors`).
"""
from __future__ import annotations

import math

from pxr import Gf, Sdf, Usd, UsdGeom

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import FlatJoint, FlatLink, FlatModel, pose_in_link, where
from sdf_tools.convert.mjcf import sensor_params as sp
from sdf_tools.convert.sdf.gazebo_apply import blob_sensor
from sdf_tools.convert.sdf.gazebo_tags import parse_blocks
from sdf_tools.convert.usd.names import Siblings
from sdf_tools.convert.usd.xforms import set_pose
from sdf_tools.model import Sensor
from sdf_tools.model.common import Loc
from sdf_tools.transform import IDENTITY, Transform

#: The horizontal aperture every camera gets (mm, USD's default); the focal length follows.
APERTURE = 20.955
# A USD camera looks along its -Z with +Y up; an SDFormat camera along +X with +Z up.
CAMERA_TURN = Transform((0.0, 0.0, 0.0), (0.5, 0.5, -0.5, -0.5))
NAME, TYPE, XML = 'sdf_tools:sensorName', 'sdf_tools:sensorType', 'sdf_tools:sensorXml'


def _camera(stage: Usd.Stage, path: Sdf.Path, s: Sensor) -> str:
    el = sp.root(s)
    cam = sp.camera(el)
    c = UsdGeom.Camera.Define(stage, path.AppendChild('camera'))
    set_pose(c, CAMERA_TURN)
    focal = APERTURE / (2.0 * math.tan(cam.hfov / 2.0))
    c.CreateFocalLengthAttr(focal)
    c.CreateHorizontalApertureAttr(APERTURE)
    c.CreateVerticalApertureAttr(APERTURE * cam.height / cam.width)
    near, far = sp.number(el, 'camera/clip/near', 0.1), sp.number(el, 'camera/clip/far', 10.0)
    c.CreateClippingRangeAttr(Gf.Vec2f(near, far))
    return (f"a UsdGeom.Camera looking along the sensor's +X, focal length {focal:.6g} over a "
            f'{APERTURE} x {APERTURE * cam.height / cam.width:.6g} aperture (horizontal_fov '
            f'{cam.hfov:g}, {cam.width}x{cam.height}), clipping {near:g}-{far:g} m')


def _sensor(stage: Usd.Stage, link_path: Sdf.Path, names: Siblings, pose: Transform,
            s: Sensor, scoped: str, label: str, report: ConversionReport) -> None:
    path = link_path.AppendChild(names.take(s.name))
    xf = UsdGeom.Xform.Define(stage, path)
    set_pose(xf, pose)
    prim = xf.GetPrim()
    prim.CreateAttribute(NAME, Sdf.ValueTypeNames.String, custom=True).Set(scoped)
    prim.CreateAttribute(TYPE, Sdf.ValueTypeNames.String, custom=True).Set(s.type)
    prim.CreateAttribute(XML, Sdf.ValueTypeNames.String, custom=True).Set(s.xml)
    said = _camera(stage, path, s) if s.type in sp.CAMERA_TYPES else ''
    report.add(ReportKind.REWRITTEN, label, f'{s.type} sensor: UsdPhysics has no sensors; an '
               f'Xform at its pose keeps its SDFormat (sdf_tools:sensorXml)'
               + (f', with {said}' if said else ''), *where(s.loc))


def write_sensors(stage: Usd.Stage, flat: FlatModel, bodies: dict[str, str],
                  children: dict[str, Siblings], report: ConversionReport) -> None:
    """Write every sensor of the model's links and joints under its link's Xform."""
    for fl in flat.links:
        for s in fl.link.sensors:
            _sensor(stage, Sdf.Path(bodies[fl.name]), children[fl.name],
                    pose_in_link(flat, fl, s.pose), s, f'{fl.scoped}::{s.name}',
                    f'link[{fl.scoped}]/sensor[{s.name}]', report)
    for j in flat.joints:
        child: FlatLink | None = flat.link(j.child) if j.child else None
        for s in j.joint.sensors:
            label = f'joint[{j.scoped}]/sensor[{s.name}]'
            if child is None or child.name not in bodies:
                report.add(ReportKind.DROPPED, label, f'{s.type} sensor: its joint moves no '
                           'exported link', *where(s.loc))
                continue
            _sensor(stage, Sdf.Path(bodies[child.name]), children[child.name],
                    _joint_pose(flat, j, child, s), s, f'{j.scoped}::{s.name}', label, report)


def _joint_pose(flat: FlatModel, j: FlatJoint, child: FlatLink, s: Sensor) -> Transform:
    """A joint sensor's pose in the child link (written relative to the joint by default)."""
    raw = s.pose
    ref = j.vid
    if raw is not None and raw.relative_to:
        found = flat.graphs.find(j.scope, raw.relative_to)
        ref = found if found is not None else j.vid
    return flat.rel(child.vid, ref) * (raw.value if raw is not None else IDENTITY)


def write_gazebo_sensors(stage: Usd.Stage, flat: FlatModel, bodies: dict[str, str],
                         children: dict[str, Siblings], report: ConversionReport) -> None:
    """Write the sensors of a URDF's ``<gazebo reference>`` blocks under their links' Xforms."""
    links = {fl.name: fl for fl in flat.links}
    child_of = {j.joint.name: j.child for j in flat.joints if j.child}
    for block in parse_blocks(flat.model.extras):
        for el in block.blobs:
            if el.tag != 'sensor':
                continue
            loc = Loc(block.loc.file if block.loc else None, block.line_of(el))
            s = blob_sensor(el, loc)
            label = f'gazebo[{block.reference}]/sensor[{s.name}]'
            fl = links.get(child_of.get(block.reference, block.reference))
            if not block.reference or fl is None or fl.name not in bodies:
                report.add(ReportKind.DROPPED, label, f'{s.type} sensor: its reference names no '
                           'exported link or joint', *where(loc))
                continue
            _sensor(stage, Sdf.Path(bodies[fl.name]), children[fl.name],
                    pose_in_link(flat, fl, s.pose), s, f'{block.reference}::{s.name}', label,
                    report)
