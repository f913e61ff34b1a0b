"""MJCF sensors and cameras back to SDFormat sensors: the mapping of :mod:`.sensors` read back.

Sensors are grouped by the site they read, under the sensor's name: a site
``<link>/<sensor>`` (or ``<link>/<sensor>:<suffix>``, the extra sites the export
writes) is the sensor ``<sensor>`` of its body's link, any other site a sensor
named like the site. Then:

====================================  ===========================================
MJCF at one site                      SDFormat sensor
====================================  ===========================================
accelerometer, gyro (framequat)       imu
magnetometer                          magnetometer
force, torque                         force_torque (frame: sensor)
rangefinder(s)                        ray (one per rangefinder site, along its +Z;
                                      a scan of several is reported as rays)
touch                                 contact on the body's first collision
framepos of a site                    altimeter
camera                                camera, horizontal_fov from fovy and the
                                      aspect of ``resolution``
====================================  ===========================================

The pose is the site ``<link>/<sensor>`` when it exists (the export writes it at
the sensor's pose), else the read site turned back. ``sensor_update_rate:`` and
``sensor_noise:`` ``<custom>`` data come back as ``<update_rate>`` and
``<noise>``. Each sensor read is reported (REWRITTEN) with its line.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from sdf_tools.convert.conversion_report import ReportKind
from sdf_tools.convert.mjcf.reader import MjcfSource, body_name, element_name
from sdf_tools.convert.mjcf.sensors import CAMERA_TURN, RAY_TURN
from sdf_tools.model import Model, RawPose, Sensor
from sdf_tools.transform import Transform

_KINDS = {'accelerometer': 'imu', 'gyro': 'imu', 'framequat': 'imu', 'magnetometer':
          'magnetometer', 'force': 'force_torque', 'torque': 'force_torque', 'rangefinder': 'ray',
          'touch': 'contact', 'framepos': 'altimeter'}


@dataclass
class _Group:
    body: int
    name: str
    kinds: list[str] = field(default_factory=list)
    sensors: list[int] = field(default_factory=list)
    sites: list[int] = field(default_factory=list)


def _t(pos: Any, quat: Any) -> Transform:
    return Transform(tuple(float(v) for v in pos), tuple(float(v) for v in quat))  # type: ignore[arg-type]


def _sensor_name(site: str) -> str:
    return site.rpartition('/')[2].split(':')[0] if '/' in site else site


def _groups(src: MjcfSource) -> dict[tuple[int, str], _Group]:
    import mujoco
    m = src.model
    site_type = int(mujoco.mjtObj.mjOBJ_SITE)
    out: dict[tuple[int, str], _Group] = {}
    for k in range(m.nsensor):
        kind = mujoco.mjtSensor(int(m.sensor_type[k])).name[len('mjSENS_'):].lower()
        if kind not in _KINDS or int(m.sensor_objtype[k]) != site_type:
            continue
        s = int(m.sensor_objid[k])
        site = element_name(src, 'site', s, f'site{s}')
        g = out.setdefault((int(m.site_bodyid[s]), _sensor_name(site)),
                           _Group(int(m.site_bodyid[s]), _sensor_name(site)))
        g.kinds.append(kind)
        g.sensors.append(k)
        if s not in g.sites:
            g.sites.append(s)
    return out


def _site_pose(src: MjcfSource, s: int) -> Transform:
    return _t(src.model.site_pos[s], src.model.site_quat[s])


def _pose(src: MjcfSource, g: _Group, kind: str) -> Transform:
    """The sensor's pose in its body: its own site (``<owner>/<sensor>``), else the read site."""
    own = element_name(src, 'site', g.sites[0], '').split(':')[0]
    for s in range(src.model.nsite):
        if own != element_name(src, 'site', g.sites[0], '') and \
                element_name(src, 'site', s, '') == own:
            return _site_pose(src, s)
    first = _site_pose(src, g.sites[0])
    return first * RAY_TURN.inverse() if kind == 'ray' else first


def _element(name: str, kind: str, pose: Transform, site: str, src: MjcfSource) -> etree._Element:
    el = etree.Element('sensor', name=name, type=kind)
    r, p, y = pose.rpy()
    etree.SubElement(el, 'pose').text = ' '.join(repr(float(v)) for v in (*pose.p, r, p, y))
    rate = _numeric(src, f'sensor_update_rate:{site}')
    if rate is not None:
        etree.SubElement(el, 'update_rate').text = repr(rate)
    for key, data in src.texts.items():
        if key.startswith(f'sensor_noise:{site}:'):
            holder = el
            for tag in key[len(f'sensor_noise:{site}:'):].split('/'):
                found = holder.find(tag)
                holder = found if found is not None else etree.SubElement(holder, tag)
            noise = etree.SubElement(holder, 'noise')
            for item in data.split():
                field_name, _, value = item.partition('=')
                if field_name == 'type':
                    noise.set('type', value)
                else:
                    etree.SubElement(noise, field_name).text = value
    return el


def _numeric(src: MjcfSource, name: str) -> float | None:
    import mujoco
    k = mujoco.mj_name2id(src.model, mujoco.mjtObj.mjOBJ_NUMERIC, name)
    if k < 0:
        return None
    return float(src.model.numeric_data[src.model.numeric_adr[k]])


def _contact(src: MjcfSource, g: _Group, el: etree._Element, link: Model) -> None:
    """Name the first collision of the sensor's link (the touch site covers it)."""
    lk = next((x for x in link.links if x.name == body_name(src, g.body)), None)
    cols = lk.collisions if lk is not None else []
    contact = etree.SubElement(el, 'contact')
    if cols:
        etree.SubElement(contact, 'collision').text = cols[0].name
    etree.SubElement(contact, 'topic').text = '__default_topic__'  # the spec's default


def read_sensors(src: MjcfSource, model: Model) -> tuple[set[int], set[int]]:
    """Add the sensors of sites and the cameras to their links; return the ids carried."""
    done_sensors: set[int] = set()
    for g in _groups(src).values():
        kinds = {_KINDS[k] for k in g.kinds}
        kind = 'imu' if 'imu' in kinds else sorted(kinds)[0]
        link = next((x for x in model.links if x.name == body_name(src, g.body)), None)
        if link is None or g.body == 0:
            continue
        site = element_name(src, 'site', g.sites[0], '').split(':')[0]  # the sensor's own site
        pose = _pose(src, g, kind)
        el = _element(g.name, kind, pose, site, src)
        if kind == 'contact':
            _contact(src, g, el, model)
        if kind == 'ray' and len(g.sites) > 1:
            src.report.add(ReportKind.APPROXIMATED, f'sensor[{g.name}]', f'{len(g.sites)} '
                           'rangefinders read as one ray sensor at the pose of the first',
                           *src.where('site', site))
        link.sensors.append(Sensor(g.name, kind, RawPose(pose, ''),
                                   etree.tostring(el, encoding='unicode'),
                                   src.loc('site', site)))
        src.report.add(ReportKind.REWRITTEN, f'sensor[{g.name}]', f'{", ".join(g.kinds)} at '
                       f'site(s) of body [{link.name}] read as a sensor of type [{kind}]',
                       *src.where('site', site))
        done_sensors.update(g.sensors)
    return done_sensors, _cameras(src, model)


def _cameras(src: MjcfSource, model: Model) -> set[int]:
    m = src.model
    done = set()
    for c in range(m.ncam):
        b = int(m.cam_bodyid[c])
        link = next((x for x in model.links if x.name == body_name(src, b)), None) if b else None
        if link is None:
            continue
        full = element_name(src, 'camera', c, f'camera{c}')
        name = _sensor_name(full)
        pose = _t(m.cam_pos[c], m.cam_quat[c]) * CAMERA_TURN.inverse()
        w, h = (int(v) for v in m.cam_resolution[c])
        hfov = 2.0 * math.atan(math.tan(math.radians(float(m.cam_fovy[c])) / 2.0) * w / h)
        el = _element(name, 'camera', pose, full, src)
        cam = etree.SubElement(el, 'camera')
        etree.SubElement(cam, 'horizontal_fov').text = repr(hfov)
        image = etree.SubElement(cam, 'image')
        etree.SubElement(image, 'width').text = str(w)
        etree.SubElement(image, 'height').text = str(h)
        clip = etree.SubElement(cam, 'clip')  # SDFormat's defaults, said in the report
        etree.SubElement(clip, 'near').text, etree.SubElement(clip, 'far').text = '0.1', '100'
        link.sensors.append(Sensor(name, 'camera', RawPose(pose, ''),
                                   etree.tostring(el, encoding='unicode'), src.loc('camera', full)))
        src.report.add(ReportKind.REWRITTEN, f'camera[{full}]', f'read as camera sensor [{name}] '
                       f'of link [{link.name}], horizontal_fov {hfov:.6g} from fovy and the '
                       f"{w}x{h} resolution, clip 0.1-100 m (SDFormat's defaults: MuJoCo clips in <visual>)",
                       *src.where('camera', full))
        done.add(c)
    return done
