"""Sensors back from a stage: the Xforms :mod:`~sdf_tools.convert.usd.sensors` wrote.

Each holds its ``<sensor>`` as written (``sdf_tools:sensorXml``); it comes back
as a sensor of the link it sits under, its ``<pose>`` the Xform's pose in that
link (so a sensor written relative to another frame keeps where it is); a
joint's sensor goes back to its joint (:func:`joint_sensors`), its pose relative
to the child link it was written under. A camera
prim the exporter did not write is reported by the importer as before.
"""
from __future__ import annotations

from lxml import etree
from pxr import Usd

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.usd.sensors import NAME, XML
from sdf_tools.model import Loc, Model, RawPose, Sensor
from sdf_tools.transform import Transform
from sdf_tools.xmlsafe import parse_kept


def _pose_text(t: Transform) -> str:
    r, p, y = t.rpy()
    return ' '.join(repr(float(v)) for v in (*t.p, r, p, y))


def read_sensor(prim: Usd.Prim, pose: Transform, link: str, report: ConversionReport,
                file: str) -> Sensor | None:
    """Return the sensor an exporter Xform holds, placed at ``pose`` in its link."""
    path = str(prim.GetPath())
    try:
        # parse_kept: a sensor libsdformat read with an undeclared prefix (gz-sim's odometer,
        # <sensor type="custom" gz:type="odometer">) is kept with it, as the reader keeps it.
        el = parse_kept(str(prim.GetAttribute(XML).Get()))
    except etree.XMLSyntaxError as err:
        report.add(ReportKind.DROPPED, path, f'sdf_tools:sensorXml is not XML: {err}', file)
        return None
    for old in el.findall('pose'):
        el.remove(old)
    pose_el = etree.Element('pose')
    pose_el.text = _pose_text(pose)
    el.insert(0, pose_el)
    name, kind = el.get('name') or prim.GetName(), el.get('type') or ''
    return Sensor(name, kind, RawPose(pose, ''), etree.tostring(el, encoding='unicode'),
                  Loc(file, None, path))


def _owner(stage: Usd.Stage, sensor: Sensor) -> str:
    """Return what the writer said holds a sensor: the scoped name before its own."""
    prim = stage.GetPrimAtPath(sensor.loc.xml_path) if sensor.loc and sensor.loc.xml_path \
        else None
    attr = prim.GetAttribute(NAME) if prim else None
    return str(attr.Get() or '').rpartition('::')[0] if attr and attr.HasAuthoredValue() else ''


def joint_sensors(stage: Usd.Stage, model: Model, report: ConversionReport, file: str) -> None:
    """Move each sensor the writer took from a joint back to that joint (gz-sim's force_torque
    sensors), posed relative to the child link it sat under; one whose joint is not read is
    left on the link, reported."""
    joints = {j.name: j for j in model.joints}
    for link in model.links:
        kept: list[Sensor] = []
        for sensor in link.sensors:
            owner = _owner(stage, sensor)
            joint = joints.get(owner)
            if not owner or owner == link.name or owner.split('::')[-1] == link.name:
                kept.append(sensor)
            elif joint is None or joint.child != link.name:
                report.add(ReportKind.REWRITTEN, (sensor.loc.xml_path if sensor.loc else None) or link.name,
                           f'sensor of [{owner}] (a joint) comes back as a sensor of link '
                           f'[{link.name}] at the same pose', file)
                kept.append(sensor)
            else:
                el = parse_kept(sensor.xml)
                pose_el = el.find('pose')
                if pose_el is not None:
                    pose_el.set('relative_to', link.name)
                value = sensor.pose.value if sensor.pose is not None else Transform()
                joint.sensors.append(Sensor(sensor.name, sensor.type, RawPose(value, link.name),
                                            etree.tostring(el, encoding='unicode'), sensor.loc))
        link.sensors = kept
