"""What the MJCF sensor mapping reads from an SDFormat ``<sensor>``: typed values from its XML.

The description model keeps a sensor's body as XML (``Sensor.xml``); these
helpers read the few numbers the exporters map (field of view, image size,
ray counts, the force-torque frame), with the spec's defaults.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from lxml import etree

from sdf_tools.model import Sensor
from sdf_tools.xmlsafe import parse_kept

CAMERA_TYPES = ('camera', 'depth_camera', 'depth', 'rgbd_camera', 'rgbd', 'thermal_camera',
                'thermal', 'segmentation_camera', 'segmentation', 'boundingbox_camera',
                'boundingbox', 'wideanglecamera', 'multicamera')
RAY_TYPES = ('ray', 'gpu_ray', 'lidar', 'gpu_lidar', 'sonar')


def root(sensor: Sensor) -> etree._Element | None:
    """Return the sensor's element (None when its XML is missing or broken)."""
    if not sensor.xml:
        return None
    try:
        return parse_kept(sensor.xml)
    except etree.XMLSyntaxError:
        return None


def number(el: etree._Element | None, path: str, default: float) -> float:
    """Return the number at ``path`` under ``el``, else ``default``."""
    text = el.findtext(path) if el is not None else None
    try:
        return float(text) if text is not None and text.strip() else default
    except ValueError:
        return default


def text(el: etree._Element | None, path: str, default: str) -> str:
    """Return the stripped text at ``path`` under ``el``, else ``default``."""
    got = el.findtext(path) if el is not None else None
    return got.strip() if got is not None and got.strip() else default


@dataclass(frozen=True)
class CameraParams:
    """A camera's horizontal field of view (radians) and image size."""

    hfov: float
    width: int
    height: int

    @property
    def fovy_degrees(self) -> float:
        """The vertical field of view MuJoCo takes (``fovy``, degrees), square pixels."""
        return math.degrees(2.0 * math.atan(math.tan(self.hfov / 2.0) * self.height / self.width))


def camera(el: etree._Element | None) -> CameraParams:
    """Return the first ``<camera>``'s parameters (spec defaults: 1.047 rad, 320 x 240)."""
    cam = el.find('camera') if el is not None else None
    return CameraParams(number(cam, 'horizontal_fov', 1.047),
                        int(number(cam, 'image/width', 320)),
                        int(number(cam, 'image/height', 240)))


@dataclass(frozen=True)
class RayScan:
    """The rays of a ray/lidar/sonar sensor: (yaw, pitch) of each, and the range."""

    horizontal: tuple[int, float, float]   # samples, min_angle, max_angle
    vertical: tuple[int, float, float]
    range_min: float
    range_max: float

    @property
    def count(self) -> int:
        return max(self.horizontal[0], 1) * max(self.vertical[0], 1)

    def directions(self) -> list[tuple[float, float]]:
        """Return (yaw, pitch) of every ray, horizontal sweep inside each vertical step."""
        return [(_angle(self.horizontal, i), _angle(self.vertical, k))
                for k in range(max(self.vertical[0], 1)) for i in range(max(self.horizontal[0], 1))]


def _angle(sweep: tuple[int, float, float], i: int) -> float:
    samples, lo, hi = sweep
    return lo if samples <= 1 else lo + (hi - lo) * i / (samples - 1)


def ray_scan(el: etree._Element | None, kind: str) -> RayScan:
    """Return the scan of a ray/lidar sensor (a sonar is one ray along +X)."""
    if kind == 'sonar':
        sonar = el.find('sonar') if el is not None else None
        return RayScan((1, 0.0, 0.0), (1, 0.0, 0.0), number(sonar, 'min', 0.0),
                       number(sonar, 'max', 1.0))
    body = None
    if el is not None:
        body = el.find('lidar') if el.find('lidar') is not None else el.find('ray')
    scan = body.find('scan') if body is not None else None

    def sweep(axis: str) -> tuple[int, float, float]:
        s = scan.find(axis) if scan is not None else None
        return (int(number(s, 'samples', 640 if axis == 'horizontal' else 1)),
                number(s, 'min_angle', 0.0), number(s, 'max_angle', 0.0))
    return RayScan(sweep('horizontal'), sweep('vertical'), number(body, 'range/min', 0.0),
                   number(body, 'range/max', 0.0))
