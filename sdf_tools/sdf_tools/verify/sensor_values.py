"""The sensor parameters ``verify`` compares, read from a ``<sensor>`` element.

==================  ======================================================
parameter           from
==================  ======================================================
``update_rate``     ``<update_rate>`` (Hz), where written
``horizontal_fov``  a camera's ``<horizontal_fov>`` (radians)
``clip_near/far``   a camera's ``<clip>`` (metres)
``range_min/max``   a ray, lidar or sonar sensor's range (metres)
``noise P F``       each numeric field ``F`` of a ``<noise>`` at path ``P``
                    under the sensor (``imu/angular_velocity/x``; ``sensor``
                    for the sensor's own), as the exporters name it
==================  ======================================================

Only what the file writes is compared (a spec default is nobody's choice):
the source's numbers come from its XML, an SDFormat or URDF output's from its
XML read back, a USD output's from the XML its sensor prim carries and its
``UsdGeom.Camera``, an MJCF output's from what MuJoCo compiled
(:mod:`~sdf_tools.verify.mujoco_side`).
"""
from __future__ import annotations

from lxml import etree

from sdf_tools.convert.mjcf import sensor_params as sp


def _number(el: etree._Element | None, path: str) -> float | None:
    text = el.findtext(path) if el is not None else None
    try:
        return float(text) if text is not None and text.strip() else None
    except ValueError:
        return None


def noise_path(noise: etree._Element, sensor: etree._Element) -> str:
    """Return where a ``<noise>`` sits under its sensor (``sensor`` when directly in it)."""
    tags = []
    for a in noise.iterancestors():
        if a is sensor:
            break  # a sensor inside a <gazebo> block has ancestors of its own
        if isinstance(a.tag, str):
            tags.append(a.tag)
    return '/'.join(reversed(tags)) or 'sensor'


def parameters(kind: str, el: etree._Element | None) -> dict[str, float]:
    """Return the written parameters of a sensor of type ``kind`` (its element ``el``)."""
    if el is None:
        return {}
    found: dict[str, float | None] = {'update_rate': _number(el, 'update_rate')}
    if kind in sp.CAMERA_TYPES:
        found['horizontal_fov'] = _number(el, 'camera/horizontal_fov')
        found['clip_near'] = _number(el, 'camera/clip/near')
        found['clip_far'] = _number(el, 'camera/clip/far')
    elif kind in sp.RAY_TYPES:
        body = el.find('sonar') if kind == 'sonar' else (
            el.find('lidar') if el.find('lidar') is not None else el.find('ray'))
        inner = '' if kind == 'sonar' else 'range/'
        found['range_min'] = _number(body, f'{inner}min')
        found['range_max'] = _number(body, f'{inner}max')
    for noise in el.iter('noise'):
        path = noise_path(noise, el)
        for field in noise:
            if isinstance(field.tag, str) and len(field) == 0:
                found[f'noise {path} {field.tag}'] = _number(noise, field.tag)
    return {k: v for k, v in found.items() if v is not None}


def noise_fields(text: str) -> dict[str, float]:
    """Parse the exporters' ``type=gaussian mean=0 stddev=0.1`` noise text (numbers only)."""
    out: dict[str, float] = {}
    for item in text.split():
        name, _, value = item.partition('=')
        try:
            out[name] = float(value)
        except ValueError:
            continue
    return out
