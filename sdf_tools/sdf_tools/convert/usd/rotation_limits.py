"""Rotation limits of a ball joint: a D6 joint's three limited rotations, there and back.

A UsdPhysics ``Joint`` (D6) locked in translation and free to turn about all
three axes of its frame is a ball joint in SDFormat, which has no limits for
one (Gazebo's ball joint turns freely). When the D6 joint limits those
rotations (Newton's humanoid.usda, from MuJoCo: a body's three hinges), the
limits are kept on the ball joint as a custom element that libsdformat
copies without a word::

    <sdf_tools:rotation_limits xmlns:sdf_tools="urn:sdf_tools"
        x="-0.5 0.5" y="-1 1" z="-inf inf"/>

in radians about the X, Y and Z of the joint frame (the joint's ``<pose>``,
whose rotation is kept for that). The USD writer gives such a ball joint back
as the D6 joint (``LimitAPI`` per rotation, in degrees, and the radians as
``sdf_tools:rotationLimits``), so USD -> SDFormat -> USD keeps what an engine
simulates. Nothing else reads the element (reported).
"""
from __future__ import annotations

import math

from lxml import etree
from pxr import Usd

from sdf_tools.convert.usd.exact import get, put
from sdf_tools.model import Extra, Joint
from sdf_tools.sdf.joint import SDF_TOOLS_NS
from sdf_tools.xmlsafe import parse_kept

__all__ = ['TAG', 'get_copy', 'kept_limits', 'limits_extra', 'put_copy']

TAG = f'{{{SDF_TOOLS_NS}}}rotation_limits'
Range = tuple[float, float]
_AXES = ('x', 'y', 'z')


def _num(v: float) -> str:
    return repr(v) if math.isfinite(v) else ('inf' if v > 0 else '-inf')


def limits_extra(limits: list[Range]) -> Extra:
    """Return the custom element holding X, Y and Z rotation limits (radians)."""
    attrs = ' '.join(f'{a}="{_num(lo)} {_num(hi)}"' for a, (lo, hi) in zip(_AXES, limits,
                                                                          strict=True))
    return Extra(TAG, f'<sdf_tools:rotation_limits xmlns:sdf_tools="{SDF_TOOLS_NS}" {attrs}/>')


def kept_limits(joint: Joint) -> list[Range] | None:
    """Return a ball joint's kept rotation limits (None: none kept, or not readable)."""
    if joint.type != 'ball':
        return None
    extra = next((e for e in joint.extras if e.tag == TAG), None)
    if extra is None:
        return None
    try:
        el = parse_kept(extra.xml)
        out: list[Range] = []
        for a in _AXES:
            lo, hi = (float(v) for v in str(el.get(a, '-inf inf')).split())
            out.append((lo, hi))
    except (etree.XMLSyntaxError, ValueError):
        return None
    return out if all(not (math.isnan(lo) or math.isnan(hi)) for lo, hi in out) else None


def put_copy(prim: Usd.Prim, limits: list[Range]) -> None:
    """Keep the radians next to the float LimitAPI degrees (exact.py's rule)."""
    put(prim, 'rotationLimits', [v for lim in limits for v in lim])


def get_copy(prim: Usd.Prim) -> list[Range] | None:
    """Return the radians :func:`put_copy` kept."""
    v = get(prim, 'rotationLimits', 6)
    return None if v is None else [(v[0], v[1]), (v[2], v[3]), (v[4], v[5])]
