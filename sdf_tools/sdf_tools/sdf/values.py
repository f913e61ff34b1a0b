"""Typed values from element text, with libsdformat's parsing rules.

A value that cannot be parsed is an ELEMENT_INVALID error at its line (the
code libsdformat reports when it gives up reading the element), and the
spec default is used so that reading can go on and report the rest.
"""
from __future__ import annotations

import math
from typing import Any

from lxml import etree

from sdf_tools.errors import ErrorCode
from sdf_tools.model.common import Loc, RawPose
from sdf_tools.sdf.context import ReadContext
from sdf_tools.transform import IDENTITY, Transform

_TRUE = {'true', '1'}
_FALSE = {'false', '0'}


Parent = etree._Element | dict[str, etree._Element]


# A child as ``kids`` gives it: an element, or a comment or processing instruction, whose
# ``tag`` is a function and not the str lxml-stubs declare. Typed Any so that the compiled
# reader (sdf_tools/_native.py: mypyc checks declared types at run time) reads any ``tag``.
Node = Any


def kids(el: etree._Element) -> list[Node]:
    """Return the children of ``el``, comments included (their tag is not a str).

    ``el[:]`` copies them in C; ``iterchildren()`` and ``find()`` cost two to
    three times as much per call, which a 10,000-link world notices.
    """
    return el[:]  # type: ignore[index,return-value]  # lxml-stubs do not declare slicing


def index(el: etree._Element) -> dict[str, etree._Element]:
    """Map each child tag to its first element: one pass instead of one per lookup.

    Getters below accept this map in place of the element; the reader uses it
    for elements it queries many times (links, inertials, joints), which keeps
    a 10,000-link world fast.
    """
    out: dict[str, etree._Element] = {}
    for c in kids(el):  # comments too: their tag is not a str
        tag = c.tag
        if type(tag) is str and tag not in out:
            out[tag] = c
    return out


def child(el: Parent, tag: str) -> etree._Element | None:
    """Return the first child element named ``tag``."""
    if type(el) is dict:
        return el.get(tag)
    # iterchildren(tag) filters in C; find() goes through lxml's ElementPath
    # in Python and costs 2-3 times as much (a reader hot path).
    for c in el.iterchildren(tag):  # type: ignore[union-attr]
        return c
    return None


def children(el: etree._Element, tag: str) -> list[etree._Element]:
    """Return every child element named ``tag``, in document order."""
    return list(el.iterchildren(tag))


def parse_floats(ctx: ReadContext, el: etree._Element, count: int | None) -> list[float] | None:
    """Parse whitespace-separated finite doubles; None (and an error) if bad."""
    text = el.text or ''
    toks = text.split()
    if count is None or len(toks) == count:
        try:
            values = [float(tok) for tok in toks]
        except ValueError:
            values = None
        # A sum of finite numbers minus itself is 0 unless it overflowed;
        # inf or nan anywhere gives nan. One check instead of one per number.
        if values is not None:
            total = sum(values)
            if total - total == 0.0:
                return values
    return _bad_floats(ctx, el, text, count)


def _bad_floats(ctx: ReadContext, el: etree._Element, text: str,
                count: int | None) -> list[float] | None:
    """The slow path of ``parse_floats``: say exactly what is wrong."""
    try:
        values = [float(tok) for tok in text.split()]
    except ValueError:
        ctx.error(ErrorCode.ELEMENT_INVALID, f'<{el.tag}> value [{text.strip()}] is not a number', el)
        return None
    if not all(map(math.isfinite, values)):
        ctx.error(ErrorCode.ELEMENT_INVALID, f'<{el.tag}> value [{text.strip()}] must be finite', el)
        return None
    if count is not None and len(values) != count:
        ctx.error(ErrorCode.ELEMENT_INVALID,
                  f'<{el.tag}> needs {count} numbers, found {len(values)} in [{text.strip()}]', el)
        return None
    return values  # finite, but their sum overflowed


def get_float(ctx: ReadContext, parent: Parent, tag: str, default: float) -> float:
    """Return the double in child ``tag`` or ``default`` when absent or bad."""
    el = child(parent, tag)
    if el is None:
        return default
    return float_value(ctx, el, default)


def float_value(ctx: ReadContext, el: etree._Element, default: float) -> float:
    """Return the double in ``el``'s text, ``default`` when empty or bad (reported)."""
    text = el.text
    if text is not None:
        try:  # the common case, without building a list
            v = float(text)
            if v - v == 0.0:  # finite
                return v
        except ValueError:
            pass
    if not (text or '').strip():
        return default
    vals = parse_floats(ctx, el, 1)
    return vals[0] if vals else default


def floats_by_tag(ctx: ReadContext, el: etree._Element, defaults: dict[str, float],
                  infinite: bool = False) -> dict[str, float]:
    """Read the number children of ``el`` named in ``defaults`` in one pass.

    Absent or empty children keep their default; the first child of a tag
    counts, as with ``get_float``. One pass over ``el`` instead of a lookup
    per tag matters for elements every link and joint has (``<inertia>``,
    ``<limit>``, ``<dynamics>``). ``infinite``: an infinity spelled out
    (``inf``, ``-Infinity``) is read as one (joint limits, see ``infinity``).
    """
    out = dict(defaults)
    seen: set[str] = set()
    for c in kids(el):
        tag = c.tag  # a comment's is not a str, and so not in defaults
        if tag in defaults and tag not in seen:
            seen.add(tag)
            if infinite:
                text = c.text
                value = infinity(text) if text and ('n' in text or 'N' in text) else None
                if value is not None:
                    out[tag] = value
                    continue
            out[tag] = float_value(ctx, c, defaults[tag])
    return out


_INFINITY = frozenset({'inf', '+inf', 'infinity', '+infinity'})


def infinity(text: str | None) -> float | None:
    """Return +-inf for an infinity spelled out (``inf``, ``-Infinity``), else None.

    Every libsdformat version reads these as doubles in a joint's limits; a number
    too large for a double (``1e400``) it refuses, and so do we.
    """
    t = (text or '').strip().lower()
    if t in _INFINITY:
        return math.inf
    if t[:1] == '-' and t[1:] in _INFINITY:
        return -math.inf
    return None


def parse_bool_text(text: str) -> bool | None:
    """Parse an SDFormat bool (``true``/``false``/``1``/``0``, any case)."""
    t = text.strip().lower()
    if t in _TRUE:
        return True
    if t in _FALSE:
        return False
    return None


def get_bool(ctx: ReadContext, parent: Parent, tag: str, default: bool) -> bool:
    el = child(parent, tag)
    if el is None or not (el.text or '').strip():
        return default
    b = parse_bool_text(el.text or '')
    if b is None:
        ctx.error(ErrorCode.ELEMENT_INVALID, f'<{tag}> value [{el.text}] is not a bool', el)
        return default
    return b


def get_str(parent: Parent, tag: str, default: str = '') -> str:
    el = child(parent, tag)
    if el is None:
        return default
    return (el.text or '').strip()


def get_vec(ctx: ReadContext, parent: Parent, tag: str,
            default: tuple[float, ...]) -> tuple[float, ...]:
    """Return a fixed-length vector child (``size``, ``xyz``, ``scale``...)."""
    el = child(parent, tag)
    if el is None:
        return default
    text = el.text
    if text is None or not text.strip():
        return default
    vals = parse_floats(ctx, el, len(default))
    return tuple(vals) if vals else default


def parse_pose_element(ctx: ReadContext, el: etree._Element) -> RawPose:
    """Read a ``<pose>`` with ``relative_to``, ``rotation_format``, ``degrees``."""
    text = el.text or ''
    loc = ctx.loc(el)
    if el.keys():
        return _pose_with_attributes(ctx, el, text, loc)
    # No attributes (most poses): radians, Euler angles, no relative_to.
    key = (text, 'euler_rpy', False)
    value = ctx.pose_cache.get(key)
    if value is None:
        value = _pose_value(ctx, el, text, 'euler_rpy', False)
        if value is None:
            return RawPose(IDENTITY, '', text, 'euler_rpy', False, loc)
        ctx.pose_cache[key] = value
    return RawPose(value, '', text, 'euler_rpy', False, loc)


def _pose_with_attributes(ctx: ReadContext, el: etree._Element, text: str, loc: Loc) -> RawPose:
    rel = el.get('relative_to', '')
    if ctx.version_tuple < (1, 7) and not rel:
        # Before 1.7 the attribute was called 'frame' (1.6->1.7 renames it).
        rel = el.get('frame', '')
    fmt = el.get('rotation_format', 'euler_rpy')
    deg_text = el.get('degrees')
    degrees = False
    if deg_text is not None:
        parsed = parse_bool_text(deg_text)
        if parsed is None:
            ctx.error(ErrorCode.ATTRIBUTE_INVALID, f'//pose[@degrees] [{deg_text}] is not a bool', el)
            return RawPose(IDENTITY, rel, text, fmt, False, loc)
        degrees = parsed
    if fmt not in ('euler_rpy', 'quat_xyzw'):
        # libsdformat fails the pose's value (ELEMENT_INVALID), not the attribute.
        ctx.error(ErrorCode.ELEMENT_INVALID,
                  f"//pose[@rotation_format] [{fmt}] must be 'euler_rpy' or 'quat_xyzw'", el)
        return RawPose(IDENTITY, rel, text, fmt, degrees, loc)
    if fmt == 'quat_xyzw' and degrees:
        ctx.error(ErrorCode.ELEMENT_INVALID,
                  "//pose[@degrees='true'] does not apply to rotation_format 'quat_xyzw'", el)
        return RawPose(IDENTITY, rel, text, fmt, degrees, loc)
    key = (text, fmt, degrees)
    value = ctx.pose_cache.get(key)
    if value is None:
        value = _pose_value(ctx, el, text, fmt, degrees)
        if value is None:
            return RawPose(IDENTITY, rel, text, fmt, degrees, loc)
        ctx.pose_cache[key] = value
    return RawPose(value, rel, text, fmt, degrees, loc)


def _pose_value(ctx: ReadContext, el: etree._Element, text: str, fmt: str,
                degrees: bool) -> Transform | None:
    """The transform a pose's text stands for; None (reported) when it is bad."""
    if not text.strip():
        return IDENTITY
    vals = parse_floats(ctx, el, 7 if fmt == 'quat_xyzw' else 6)
    if vals is None:
        return None
    xyz = (vals[0], vals[1], vals[2])
    if fmt == 'quat_xyzw':
        q = (vals[3], vals[4], vals[5], vals[6])
        if q == (0.0, 0.0, 0.0, 0.0):
            ctx.error(ErrorCode.ELEMENT_INVALID, 'quaternion of a //pose must not be zero', el)
            return None
        return Transform.from_xyz_quat_xyzw(xyz, q)
    rpy = (vals[3], vals[4], vals[5])
    if rpy == (0.0, 0.0, 0.0) and '-' not in text:
        # No rotation (inertial, visual and joint offsets mostly): exactly the
        # unit quaternion euler2quat would compute. (A '-0' angle goes the long
        # way, which keeps the sign of a zero component as before.)
        return Transform(xyz, IDENTITY.q)
    if degrees:
        rpy = (rpy[0] * math.pi / 180.0, rpy[1] * math.pi / 180.0, rpy[2] * math.pi / 180.0)
    return Transform.from_xyz_rpy(xyz, rpy)


def get_pose(ctx: ReadContext, parent: Parent) -> RawPose | None:
    """Return the ``<pose>`` child of ``parent`` or None when it has none."""
    el = child(parent, 'pose')
    if el is None:
        return None
    return parse_pose_element(ctx, el)
