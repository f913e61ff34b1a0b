"""Numbers in URDF attributes, read strictly, and ``<origin>`` as a raw pose.

urdfdom reads numbers with ``std::stod`` (which accepts a valid prefix such
as ``1.5abc``, and ``nan``/``inf``); we are stricter and report any token
that is not a whole finite decimal number as URDF_INVALID at its line.
"""
from __future__ import annotations

import math
import re

from lxml import etree

from sdf_tools.errors import ErrorCode
from sdf_tools.model import RawPose
from sdf_tools.sdf.context import ReadContext
from sdf_tools.transform import IDENTITY, Transform

_DECIMAL = re.compile(r'[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?')
_NON_FINITE = re.compile(r'[+-]?(?:inf|infinity|nan)', re.IGNORECASE)


def first_child(el: etree._Element, tag: str) -> etree._Element | None:
    """Return the first child element named ``tag`` (comments skipped)."""
    for c in el:
        if c.tag == tag:
            return c
    return None


def read_floats(ctx: ReadContext, el: etree._Element, attr: str, count: int, owner: str, *,
                default: tuple[float, ...] | None = None) -> tuple[float, ...] | None:
    """Read ``count`` numbers from attribute ``attr`` of ``el``.

    Returns ``default`` when the attribute is absent; when it is absent and
    ``default`` is None (a required attribute), or when it is malformed, an
    error is recorded at ``el`` and None returned.
    """
    text = el.get(attr)
    if text is None:
        if default is None:
            ctx.error(ErrorCode.URDF_INVALID,
                      f'<{el.tag}> of {owner} needs attribute [{attr}]', el)
        return default
    tokens = text.split()
    values: list[float] = []
    for tok in tokens:
        if _NON_FINITE.fullmatch(tok):
            ctx.error(ErrorCode.URDF_INVALID,
                      f'<{el.tag} {attr}="{text}"> of {owner}: [{tok}] must be a finite number', el)
            return None
        if not _DECIMAL.fullmatch(tok):
            ctx.error(ErrorCode.URDF_INVALID,
                      f'<{el.tag} {attr}="{text}"> of {owner}: [{tok}] is not a number', el)
            return None
        value = float(tok)
        if not math.isfinite(value):  # e.g. 1e999 overflows to inf
            ctx.error(ErrorCode.URDF_INVALID,
                      f'<{el.tag} {attr}="{text}"> of {owner}: [{tok}] is out of range', el)
            return None
        values.append(value)
    if len(values) != count:
        plural = 'number' if count == 1 else 'numbers'
        ctx.error(ErrorCode.URDF_INVALID,
                  f'<{el.tag} {attr}="{text}"> of {owner} needs {count} {plural}, '
                  f'found {len(values)}', el)
        return None
    return tuple(values)


def read_float(ctx: ReadContext, el: etree._Element, attr: str, owner: str, *,
               default: float | None = None) -> float | None:
    """Read one number; like :func:`read_floats` with ``count=1``."""
    vals = read_floats(ctx, el, attr, 1, owner,
                       default=None if default is None else (default,))
    return None if vals is None else vals[0]


def read_origin(ctx: ReadContext, parent: etree._Element, owner: str,
                relative_to: str) -> RawPose:
    """Return the ``<origin xyz rpy>`` child of ``parent`` as a raw pose.

    A missing ``<origin>`` (or a missing attribute) is the identity, as in
    URDF; a malformed one is reported and read as the identity so that
    reading goes on.
    """
    o = first_child(parent, 'origin')
    if o is None:
        return RawPose(IDENTITY, relative_to)
    xyz = read_floats(ctx, o, 'xyz', 3, owner, default=(0.0, 0.0, 0.0))
    rpy = read_floats(ctx, o, 'rpy', 3, owner, default=(0.0, 0.0, 0.0))
    text = ' '.join([*(o.get('xyz') or '0 0 0').split(), *(o.get('rpy') or '0 0 0').split()])
    if xyz is None or rpy is None:
        return RawPose(IDENTITY, relative_to, text, loc=ctx.loc(o))
    value = Transform.from_xyz_rpy((xyz[0], xyz[1], xyz[2]), (rpy[0], rpy[1], rpy[2]))
    return RawPose(value, relative_to, text, loc=ctx.loc(o))
