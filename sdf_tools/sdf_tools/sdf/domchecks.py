"""Checks libsdformat's DOM makes when it loads a ``<material>`` or a ``<sensor>``.

These are not spec rules: ``sdf::Material::Load`` and ``sdf::Sensor::Load`` (and the
camera and force/torque loaders below it) refuse values the spec lets through. The
codes are the ones libsdformat gives; libsdformat 12 attaches no line to them, we
point at the element.
"""
from __future__ import annotations

from lxml import etree

from sdf_tools.errors import ErrorCode
from sdf_tools.sdf.context import ReadContext

# Sensor types sdf::Sensor::Load knows (libsdformat 12; newer versions add some).
SENSOR_TYPES = frozenset({
    'air_pressure', 'altimeter', 'camera', 'contact', 'custom', 'depth', 'depth_camera',
    'rgbd', 'rgbd_camera', 'thermal', 'thermal_camera', 'segmentation',
    'segmentation_camera', 'boundingbox', 'boundingbox_camera', 'wideanglecamera',
    'wide_angle_camera', 'force_torque', 'navsat', 'gps', 'gpu_ray', 'gpu_lidar', 'imu',
    'logical_camera', 'magnetometer', 'multicamera', 'ray', 'lidar', 'rfid', 'rfidtag',
    'sonar', 'wireless_receiver', 'wireless_transmitter',
})
# Known from libsdformat 13 on (the one that reads 1.10+ files).
_NEWER_SENSOR_TYPES = frozenset({'air_speed'})
# Types whose <camera> child sdf::Camera::Load reads.
_CAMERA_TYPES = frozenset({
    'camera', 'depth', 'depth_camera', 'rgbd', 'rgbd_camera', 'thermal', 'thermal_camera',
    'segmentation', 'segmentation_camera', 'boundingbox', 'boundingbox_camera',
    'wideanglecamera', 'wide_angle_camera',
})
# sdf::PixelFormatType names and the older spellings Camera::ConvertPixelFormat maps.
PIXEL_FORMATS = frozenset({
    'L_INT8', 'L_INT16', 'RGB_INT8', 'RGBA_INT8', 'BGRA_INT8', 'RGB_INT16', 'RGB_INT32',
    'BGR_INT8', 'BGR_INT16', 'BGR_INT32', 'R_FLOAT16', 'RGB_FLOAT16', 'R_FLOAT32',
    'RGB_FLOAT32', 'BAYER_RGGB8', 'BAYER_BGGR8', 'BAYER_GBRG8', 'BAYER_GRBG8',
    'R8G8B8', 'L8', 'L16', 'B8G8R8',
})
_SHADERS = frozenset({'pixel', 'vertex', 'normal_map_objectspace', 'normal_map_object_space',
                      'normal_map_tangentspace', 'normal_map_tangent_space'})
_NORMAL_MAP_SHADERS = _SHADERS - {'pixel', 'vertex'}
_NOISE_TYPES = frozenset({'none', 'gaussian', 'gaussian_quantized'})


def _text(el: etree._Element | None) -> str:
    """Return an element's text as libsdformat's ``Get<std::string>`` sees it."""
    if el is None:
        return ''
    text = (el.text or '').strip()
    return '' if text == '__default__' else text


def check_material(ctx: ReadContext, el: etree._Element) -> None:
    """Check a visual's ``<material>`` as ``sdf::Material::Load`` does."""
    script = shader = None
    for c in el.iterchildren('script', 'shader'):  # one pass in C: most materials have neither
        if c.tag == 'script':
            script = c if script is None else script
        elif shader is None:
            shader = c
    if script is not None:
        if not _text(script.find('uri')):
            ctx.error(ErrorCode.ELEMENT_INVALID,
                      'A <script> element is missing a child <uri> element, or the <uri> '
                      'element is empty.', script)
        if not _text(script.find('name')):
            ctx.error(ErrorCode.ELEMENT_MISSING,
                      'A <script> element is missing a child <name> element, or the <name> '
                      'element is empty.', script)
    if shader is None:
        return
    kind = shader.get('type', 'pixel')
    if kind not in _SHADERS:
        ctx.error(ErrorCode.ELEMENT_INVALID,
                  f'The value[{kind}] for a <shader><type> element is not supported', shader)
    elif kind in _NORMAL_MAP_SHADERS and not _text(shader.find('normal_map')):
        ctx.error(ErrorCode.ELEMENT_MISSING,
                  'A normal map shader type has been specified, but a normal_map has not.',
                  shader)


def check_sensor(ctx: ReadContext, el: etree._Element, name: str) -> None:
    """Check a ``<sensor>`` as ``sdf::Sensor::Load`` does (type, camera, force/torque)."""
    kind = el.get('type')
    if kind is None:
        return  # a missing required attribute is the spec check's (ATTRIBUTE_MISSING)
    # air_speed (gazebosim/sdformat#1215, 13.3): known to libsdformat 13+ (Sensor::Load's
    # list), which reads every file as 1.10+
    newer_known = ctx.read_as >= (1, 10)
    if kind not in SENSOR_TYPES and not (kind in _NEWER_SENSOR_TYPES and newer_known):
        ctx.error(ErrorCode.ATTRIBUTE_INVALID,
                  f'Attempting to load a Sensor, but the provided sensor type is missing or '
                  f'invalid. (sensor [{name}], type [{kind}])', el)
    elif kind in _CAMERA_TYPES:
        camera = el.find('camera')
        if camera is not None:
            _check_camera(ctx, camera)
    elif kind == 'force_torque':
        ft = el.find('force_torque')
        if ft is not None:
            _check_force_torque(ctx, ft)


def _check_camera(ctx: ReadContext, camera: etree._Element) -> None:
    fmt_el = camera.find('image/format')
    if fmt_el is not None:
        fmt = (fmt_el.text or '').strip()
        if fmt not in PIXEL_FORMATS:
            ctx.error(ErrorCode.ELEMENT_INVALID,
                      f'Camera sensor <image><format> has invalid value of {fmt}', fmt_el)
    noise = camera.find('noise')
    if noise is not None:
        # A camera's <noise> has a <type> child, not noise.sdf's type attribute.
        type_el = noise.find('type')
        _check_noise(ctx, noise, _text(type_el) if type_el is not None else None)


def _check_force_torque(ctx: ReadContext, ft: etree._Element) -> None:
    for tag, allowed, what in (
        ('frame', ('parent', 'child', 'sensor'), 'frames'),
        ('measure_direction', ('parent_to_child', 'child_to_parent'), 'frames'),
    ):
        sub = ft.find(tag)
        if sub is None:
            continue
        value = (sub.text or '').strip()
        if value not in allowed:
            ctx.error(ErrorCode.ELEMENT_INVALID,
                      f"ForceTorque element '{tag}' is invalid with a value of [{value}]. "
                      f'Refer to the SDF documentation for the list of valid {what}', sub)
    for group in ('force', 'torque'):
        for axis in ('x', 'y', 'z'):
            noise = ft.find(f'{group}/{axis}/noise')
            if noise is not None:
                _check_noise(ctx, noise, noise.get('type'))


def _check_noise(ctx: ReadContext, noise: etree._Element, kind: str | None) -> None:
    """Check a ``<noise>`` type whose errors the loader keeps (camera, force/torque)."""
    kind = kind.strip() if kind is not None else None
    if kind is not None and kind.lower() not in _NOISE_TYPES:
        ctx.error(ErrorCode.ELEMENT_MISSING,
                  f"Noise 'type' attribute is invalid with a value of [{kind}]. "
                  "Using a value of 'none'.", noise)
