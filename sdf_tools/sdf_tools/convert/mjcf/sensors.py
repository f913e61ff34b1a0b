"""SDFormat sensors -> MJCF: a site at each sensor's pose, and MuJoCo's sensors where it has them.

Every sensor becomes a ``<site name="<link>/<sensor>">`` at its pose in its
link (a joint's sensor: in the joint's child body), which ``sdf_tools verify``
and the tests compare with the resolved sensor pose. Then, by type:

==========================  ============================================================
imu                         ``accelerometer``, ``gyro``, ``framequat`` at the site
magnetometer                ``magnetometer`` at the site
altimeter                   ``framepos`` at the site (its z is the altitude; approximated)
force_torque                ``force`` and ``torque`` at a site of the child body at the
                            sensor's position, turned to the frame ``<frame>`` names
camera types                ``<camera>`` turned to look along the sensor's +X (MuJoCo
                            looks along -Z), ``fovy`` from the horizontal field of view
                            and the image aspect, ``resolution`` the image size
contact                     ``touch`` on a site of each named collision's shape and pose
ray, lidar, sonar           ``rangefinder`` per ray on sites turned so +Z is the ray, up
                            to ``MAX_RAYS`` rays; beyond that only the site (reported)
==========================  ============================================================

The update rate is kept as ``<custom><numeric name="sensor_update_rate:<site>">``
and each ``<noise>`` as ``<custom><text name="sensor_noise:<site>:<path>">``;
every sensor gets one report entry saying what it became (file:line).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from lxml import etree

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import FlatJoint, FlatLink, FlatModel, pose_in_link, where
from sdf_tools.convert.mjcf import sensor_params as sp
from sdf_tools.convert.mjcf.writer import MjcfDocument, num, nums, pose_attrs, sub
from sdf_tools.model import Sensor
from sdf_tools.transform import IDENTITY, Transform

MAX_RAYS = 64  # rangefinders written for one ray sensor; a denser scan is reported
# MuJoCo's camera looks along its -Z with +Y up; an SDFormat camera along +X with +Z up.
CAMERA_TURN = Transform((0.0, 0.0, 0.0), (0.5, 0.5, -0.5, -0.5))
RAY_TURN = Transform.from_xyz_rpy((0.0, 0.0, 0.0), (0.0, math.pi / 2, 0.0))  # +Z -> +X
_SITE_SHAPES: dict[str, Callable[[dict[str, object]], list[float]]] = {
    'box': lambda p: [float(v) / 2 for v in p['size']],  # type: ignore[attr-defined]
    'sphere': lambda p: [float(p['radius'])],  # type: ignore[arg-type]
    'cylinder': lambda p: [float(p['radius']), float(p['length']) / 2],  # type: ignore[arg-type]
    'capsule': lambda p: [float(p['radius']), float(p['length']) / 2],  # type: ignore[arg-type]
    'ellipsoid': lambda p: [float(v) for v in p['radii']],  # type: ignore[attr-defined]
}


@dataclass
class SensorContext:
    """What writing the sensors of one model needs."""

    doc: MjcfDocument
    flat: FlatModel
    report: ConversionReport
    prefix: str = ''
    joints_done: set[str] = field(default_factory=set)


@dataclass
class _At:
    """One sensor being written: its site and where it came from."""

    ctx: SensorContext
    body: etree._Element
    site: str
    pose: Transform        # the sensor's pose in the body
    sensor: Sensor
    el: etree._Element | None
    label: str
    link: FlatLink

    def note(self, kind: ReportKind, message: str) -> None:
        self.ctx.report.add(kind, self.label, message, *where(self.sensor.loc))

    def mj(self, tag: str, suffix: str, **attrs: str | None) -> None:
        sub(self.ctx.doc.section('sensor'), tag, name=f'{self.site}:{suffix}', **attrs)

    def extra_site(self, suffix: str, pose: Transform, **attrs: str | None) -> str:
        name = f'{self.site}:{suffix}'
        sub(self.body, 'site', name=name, **pose_attrs(pose), **attrs)
        return name


def site_name(prefix: str, owner: str, sensor: str) -> str:
    """Return the MJCF site of a sensor of link or joint ``owner`` (``base/imu``)."""
    return f'{prefix}{owner}/{sensor}'


def write_link_sensors(ctx: SensorContext, fl: FlatLink, body: etree._Element) -> None:
    """Write the sensors of link ``fl`` into its ``body``."""
    for s in fl.link.sensors:
        _write(_At(ctx, body, site_name(ctx.prefix, fl.name, s.name),
                   pose_in_link(ctx.flat, fl, s.pose), s, sp.root(s),
                   f'link[{fl.scoped}]/sensor[{s.name}]', fl))


def write_joint_sensors(ctx: SensorContext, j: FlatJoint, child: FlatLink,
                        body: etree._Element) -> None:
    """Write the sensors of joint ``j`` into the body of its child link."""
    g = ctx.flat.graphs
    ctx.joints_done.add(j.name)
    for s in j.joint.sensors:
        raw = s.pose
        ref = j.vid
        if raw is not None and raw.relative_to:
            found = g.find(j.scope, raw.relative_to)
            ref = found if found is not None else j.vid
        pose = ctx.flat.rel(child.vid, ref) * (raw.value if raw is not None else IDENTITY)
        _write(_At(ctx, body, site_name(ctx.prefix, j.name, s.name), pose, s, sp.root(s),
                   f'joint[{j.scoped}]/sensor[{s.name}]', child), j)


def report_unwritten(ctx: SensorContext) -> None:
    """Report the sensors of joints no body holds (their child is not exported)."""
    for j in ctx.flat.joints:
        if j.name in ctx.joints_done:
            continue
        for s in j.joint.sensors:
            ctx.report.add(ReportKind.DROPPED, f'joint[{j.scoped}]/sensor[{s.name}]',
                           f'sensor of type [{s.type}]: its joint moves no exported body',
                           *where(s.loc))


def _write(at: _At, joint: FlatJoint | None = None) -> None:
    sub(at.body, 'site', name=at.site, **pose_attrs(at.pose))
    kind = at.sensor.type
    if kind == 'force_torque':
        said = _force_torque(at, joint)
    elif kind in sp.CAMERA_TYPES:
        said = _camera(at)
    elif kind in sp.RAY_TYPES:
        said = _rays(at)
    elif kind in _SIMPLE:
        said = _SIMPLE[kind](at)
    else:
        at.note(ReportKind.DROPPED, f'sensor of type [{kind}]: MuJoCo has no such sensor; only '
                f'its site [{at.site}] is written')
        _custom(at)
        return
    at.note(ReportKind.REWRITTEN, f'{kind} sensor: {said}{_custom(at)}')


def _imu(at: _At) -> str:
    at.mj('accelerometer', 'accelerometer', site=at.site)
    at.mj('gyro', 'gyro', site=at.site)
    at.mj('framequat', 'orientation', objtype='site', objname=at.site)
    return f'accelerometer, gyro and framequat at site [{at.site}]'


def _magnetometer(at: _At) -> str:
    at.mj('magnetometer', 'magnetometer', site=at.site)
    return f'magnetometer at site [{at.site}]'


def _altimeter(at: _At) -> str:
    at.mj('framepos', 'position', objtype='site', objname=at.site)
    return (f'framepos at site [{at.site}] (approximated: MuJoCo has no altimeter; the '
            'z of the position is the altitude, vertical velocity and reference dropped)')


_SIMPLE: dict[str, Callable[[_At], str]] = {
    'imu': _imu, 'magnetometer': _magnetometer, 'altimeter': _altimeter}


def _force_torque(at: _At, joint: FlatJoint | None) -> str:
    frame = sp.text(at.el, 'force_torque/frame', 'child')
    direction = sp.text(at.el, 'force_torque/measure_direction', 'child_to_parent')
    if joint is None:
        at.note(ReportKind.APPROXIMATED, 'a force_torque sensor of a link (not of a joint): '
                'measured between the link body and its parent body')
    site = at.site
    if frame in ('child', 'parent'):
        flat = at.ctx.flat
        turn = IDENTITY
        if frame == 'parent' and joint is not None and joint.parent is not None:
            turn = flat.rel(at.link.vid, flat.vid(joint.parent))
        site = at.extra_site(frame, Transform(at.pose.p, turn.q))
    at.mj('force', 'force', site=site)
    at.mj('torque', 'torque', site=site)
    sign = ('' if direction == 'parent_to_child' else
            '; MuJoCo measures what the parent exerts on the child, so the values are the '
            "negative of SDFormat's child_to_parent")
    return f'force and torque at site [{site}] (axes of the {frame} frame){sign}'


def _camera(at: _At) -> str:
    cam = sp.camera(at.el)
    x = at.pose * CAMERA_TURN
    sub(at.body, 'camera', name=at.site, **pose_attrs(x), fovy=num(cam.fovy_degrees),
        resolution=f'{cam.width} {cam.height}')
    near, far = sp.number(at.el, 'camera/clip/near', 0.1), sp.number(at.el, 'camera/clip/far', 10)
    return (f'<camera name="{at.site}"> fovy {cam.fovy_degrees:.6g} degrees from horizontal_fov '
            f'{cam.hfov:g} and {cam.width}x{cam.height} (clip {near:g}-{far:g} m has no per-'
            'camera MJCF place: MuJoCo clips with <visual><map znear zfar>)')


def _rays(at: _At) -> str:
    scan = sp.ray_scan(at.el, at.sensor.type)
    if scan.count > MAX_RAYS:
        return (f'{scan.count} rays, more than the {MAX_RAYS} rangefinders written per sensor: '
                f'only its site [{at.site}] is written')
    cutoff = num(scan.range_max) if scan.range_max > 0 else None
    for i, (yaw, pitch) in enumerate(scan.directions()):
        turn = Transform.from_xyz_rpy((0.0, 0.0, 0.0), (0.0, -pitch, yaw)) * RAY_TURN
        suffix = 'ray' if scan.count == 1 else f'ray{i}'
        site = at.extra_site(suffix, at.pose * turn)
        at.mj('rangefinder', suffix, site=site, cutoff=cutoff)
    return (f'{scan.count} rangefinder(s) along the rays (sites [{at.site}:ray...], +Z along '
            f'each ray), cutoff the range max {scan.range_max:g} m (range min dropped)')


def write_contact_sites(at: _At) -> str:
    """Write ``touch`` on a site over each collision a contact sensor names."""
    names = [c.text.strip() for c in (at.el.iterfind('contact/collision') if at.el is not None
                                       else []) if c.text and c.text.strip()]
    done = []
    for cname in names:
        col = next((c for c in at.link.link.collisions if c.name == cname), None)
        g = col.geometry if col is not None else None
        shape = _SITE_SHAPES.get(g.type) if g is not None else None
        if col is None or g is None or shape is None:
            at.note(ReportKind.DROPPED, f'contact on collision [{cname}]: no such collision '
                    'of a box, sphere, cylinder, capsule or ellipsoid shape: no touch sensor')
            continue
        site = at.extra_site(cname, pose_in_link(at.ctx.flat, at.link, col.pose),
                             type=g.type, size=nums(shape(g.params)), group='4')
        at.mj('touch', f'touch:{cname}', site=site)
        done.append(site)
    return f'touch on site(s) [{", ".join(done)}] over the collision(s)' if done else \
        'no touch sensor (no collision named)'


_SIMPLE['contact'] = write_contact_sites


def _custom(at: _At) -> str:
    """Keep the update rate and noise as ``<custom>``; return what the report says of it."""
    if at.el is None:
        return ''
    kept = []
    custom = at.ctx.doc.section('custom')
    rate = at.el.findtext('update_rate')
    if rate is not None and rate.strip():
        sub(custom, 'numeric', name=f'sensor_update_rate:{at.site}',
            data=num(sp.number(at.el, 'update_rate', 0.0)))
        kept.append('update rate')
    for noise in at.el.iter('noise'):
        path = '/'.join(a.tag for a in reversed(list(noise.iterancestors()))
                        if a is not at.el and isinstance(a.tag, str))
        fields = [f'type={noise.get("type", "none")}'] + [
            f'{c.tag}={(c.text or "").strip()}' for c in noise if isinstance(c.tag, str)
            and len(c) == 0]
        sub(custom, 'text', name=f'sensor_noise:{at.site}:{path or "sensor"}',
            data=' '.join(fields))
        kept.append(f'noise of {path or "the sensor"}')
    return f'; {", ".join(kept)} kept as <custom>' if kept else ''
