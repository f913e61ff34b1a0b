"""The MJCF document: Menagerie's layout, numbers written to the last digit.

The skeleton every export fills (sections are dropped when empty)::

    <mujoco model="robot">
      <compiler angle="radian" autolimits="true" inertiafromgeom="false"/>
      <default>
        <mesh inertia="shell"/>   (see below)
        <default class="visual"><geom group="2" contype="0" conaffinity="0"/></default>
        <default class="collision"><geom group="3"/></default>
      </default>
      <asset>...</asset>          meshes, height fields and materials, in one place
      <worldbody>...</worldbody>  one body per link
      <contact>...</contact>      excluded pairs
      <equality>...</equality>    loop closures, mimic, gearbox and screw couplings
      <actuator>...</actuator>    drives from <transmission>/<ros2_control>
      <sensor>...</sensor>        MuJoCo's sensors for SDFormat's (mjcf/sensors.py)
      <custom>...</custom>        what MuJoCo has no element for (velocity limits)
    </mujoco>

``inertiafromgeom="false"``: a body's mass and inertia are exactly the
link's ``<inertial>``, never computed from its geoms. Numbers are written
with Python's ``repr`` (the shortest text that reads back to the same
double), so poses survive the trip to MuJoCo bit for bit. Meshes default to
``inertia="shell"``: their inertia is never used (the bodies' come from the
links), and MuJoCo computes a volume inertia of every mesh unless told
otherwise, refusing open or flat meshes (a cloth, a ground mesh) that Gazebo
draws and collides with happily.
"""
from __future__ import annotations

import math
from collections.abc import Iterable

from lxml import etree

from sdf_tools.transform import Transform

TINY = 1e-300  # written as 0
SECTIONS = ('option', 'default', 'asset', 'worldbody', 'contact', 'equality',
            'actuator', 'sensor', 'custom', 'keyframe')


def num(x: float) -> str:
    """Return the shortest text that reads back as ``x`` (``1`` for 1.0, ``0`` for -0.0)."""
    x = float(x)
    if not math.isfinite(x):
        raise ValueError(f'cannot write the non-finite number {x!r} to MJCF')
    if abs(x) < TINY:
        return '0'  # MuJoCo's parser refuses subnormal numbers ("number is too large")
    text = repr(x)
    return text[:-2] if text.endswith('.0') else text


def nums(xs: Iterable[float]) -> str:
    """Return numbers separated by spaces."""
    return ' '.join(num(x) for x in xs)


def sub(parent: etree._Element, tag: str, **attrs: str | None) -> etree._Element:
    """Append ``<tag>`` with the attributes that are not None (``class_`` for ``class``)."""
    el = etree.SubElement(parent, tag)
    for key, value in attrs.items():
        if value is not None:
            el.set(key.rstrip('_'), value)
    return el


def pose_attrs(t: Transform) -> dict[str, str | None]:
    """Return ``pos``/``quat`` attributes of a pose (left out when zero / identity)."""
    q = t.q if t.q[0] >= 0 else (-t.q[0], -t.q[1], -t.q[2], -t.q[3])
    pos = nums(t.p) if any(v != 0.0 for v in t.p) else None
    quat = nums(q) if (q[0] != 1.0 or any(v != 0.0 for v in q[1:])) else None
    return {'pos': pos, 'quat': quat}


class MjcfDocument:
    """An MJCF document under construction, its sections made on first use."""

    def __init__(self, model: str) -> None:
        self.root = etree.Element('mujoco', model=model)
        self._sections: dict[str, etree._Element] = {}
        self.compiler = etree.Element('compiler', angle='radian', autolimits='true',
                                      inertiafromgeom='false')
        default = self.section('default')
        sub(default, 'mesh', inertia='shell')
        sub(sub(default, 'default', class_='visual'), 'geom', group='2', contype='0',
            conaffinity='0')
        sub(sub(default, 'default', class_='collision'), 'geom', group='3')
        self.section('worldbody')

    def section(self, name: str) -> etree._Element:
        """Return the section element ``name`` (``asset``, ``equality``...), made on first use."""
        if name not in self._sections:
            self._sections[name] = etree.Element(name)
        return self._sections[name]

    def to_text(self, header: str) -> str:
        """Serialise, sections in Menagerie's order, empty ones left out, ``header`` on top."""
        root = self.root
        root.append(etree.Comment(header))
        root.append(self.compiler)
        for name in SECTIONS:
            el = self._sections.get(name)
            if el is not None and (len(el) or el.attrib or name == 'worldbody'):
                root.append(el)
        etree.indent(root, space='  ')
        return etree.tostring(root, encoding='unicode', pretty_print=True)
