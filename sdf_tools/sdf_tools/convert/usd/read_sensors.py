"""Sensors back from a stage: the Xforms :mod:`~sdf_tools.convert.usd.sensors` wrote.

Each holds its ``<sensor>`` as written (``sdf_tools:sensorXml``); it comes back
as a sensor of the link it sits under, its ``<pose>`` the Xform's pose in that
link (so a sensor written relative to another frame, or a joint's sensor, keeps
where it is; a joint's sensor becomes its child link's, reported). A camera
prim the exporter did not write is reported by the importer as before.
"""
from __future__ import annotations

from lxml import etree
from pxr import Usd

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.usd.sensors import NAME, XML
from sdf_tools.model import Loc, RawPose, Sensor
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
    scoped = str(prim.GetAttribute(NAME).Get() or '')
    owner = scoped.rpartition('::')[0]
    if owner and owner != link and owner.split('::')[-1] != link:
        report.add(ReportKind.REWRITTEN, path, f'sensor of [{owner}] (a joint) comes back as a '
                   f'sensor of link [{link}] at the same pose', file)
    name, kind = el.get('name') or prim.GetName(), el.get('type') or ''
    return Sensor(name, kind, RawPose(pose, ''), etree.tostring(el, encoding='unicode'),
                  Loc(file, None, path))
