"""Whether a text parses as a value of an SDFormat spec type, as libsdformat 12 decides.

libsdformat reads each value with the C++ routine its type maps to, and those differ
in what they accept (``Param.cc``):

* ``int``, ``unsigned int``, ``double``, ``float`` (``std::stoi``/``stoul``/``stod``/
  ``stof``): a number prefix is enough, so ``2kg`` reads as 2; ``inf`` and ``nan`` are
  doubles; ``true``/``false`` read as 1/0; an ``unsigned int`` may be negative (it wraps);
  out of range fails.
* ``vector2d``, ``vector3``, ``quaternion`` (three Euler angles), ``vector2i``, ``time``
  (two integers), ``angle``: C++ stream extraction of each number in turn, which refuses
  ``inf``/``nan`` and a missing number but ignores what follows the last one.
* ``bool``: ``true``/``false``/``1``/``0``, any case.
* ``color``: 3 or 4 ``stof`` numbers, each in [0, 1].
* ``pose``: 6 finite ``stod`` numbers (7 with ``rotation_format="quat_xyzw"``).
* ``string``/``char``: anything.

An empty (or all-blank) text is the default value, unless the element's value is
required; min/max bounds apply to scalars.
"""
from __future__ import annotations

import math
import re
import struct
from collections.abc import Callable

# The patterns are compiled on first use (re's cache keeps them): the spec check reads most
# values through its own batches and verdicts (spec/check.py), so a file rarely reaches these,
# and compiling the three at import was ~4 M instructions of `check`'s start-up
# (bench/PROFILE.md, session 10).
_STRTOD = (r'[ \t\n\v\f\r]*([+-]?(?:inf(?:inity)?|nan(?:\([0-9a-z_]*\))?'
           r'|0x(?:[0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+)(?:p[+-]?\d+)?'
           r'|(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?))')
_STREAM_DOUBLE = r'[ \t\n\v\f\r]*([+-]?(?:\d+\.?\d*|\.\d+)(?:([eE])([+-]?\d*))?)'
_STREAM_INT = r'[ \t\n\v\f\r]*([+-]?\d+)'
_DBL_MIN = 2.2250738585072014e-308
_FLT_MAX = 3.4028234663852886e38
_INT32 = (-2**31, 2**31 - 1)
_ULONG_MAX = 2**64 - 1


def strtod(text: str) -> float | None:
    """``std::stod``: the number at the start of ``text`` (None: none, or out of range)."""
    m = re.match(_STRTOD, text, re.IGNORECASE)
    if m is None:
        return None
    tok = m.group(1)
    low = tok.lower()
    if 'x' in low:
        sign = -1.0 if low.startswith('-') else 1.0
        body = low.lstrip('+-')
        v = sign * float.fromhex(body if 'p' in body else body + 'p0')
    elif 'nan' in low:
        v = math.nan
    else:
        v = float(tok)
    if math.isinf(v) and 'inf' not in low:
        return None  # ERANGE: overflow
    if v != 0.0 and abs(v) < _DBL_MIN:
        return None  # ERANGE: underflow to a subnormal
    if v == 0.0 and re.search(r'[1-9]', tok.split('e')[0].split('E')[0].split('p')[0]) and 'x' not in low:
        return None  # ERANGE: underflow to zero
    return v


def _stof(text: str) -> float | None:
    v = strtod(text)
    if v is None or (math.isfinite(v) and abs(v) > _FLT_MAX):
        return None
    if math.isfinite(v):
        v = struct.unpack('f', struct.pack('f', v))[0]
    return v


def _stoi(text: str) -> int | None:
    """``std::stoi`` (base 16 after a ``0x`` prefix); None when it throws."""
    if text[:2].lower() == '0x':
        m = re.match(r'0x([0-9a-f]+)', text, re.IGNORECASE)
        v = int(m.group(1), 16) if m else 0
    else:
        m = re.match(r'[ \t\n\v\f\r]*([+-]?\d+)', text)
        if m is None:
            return None
        v = int(m.group(1))
    return v


def _int(text: str) -> int | float | None:
    v = _stoi(text)
    return v if v is not None and _INT32[0] <= v <= _INT32[1] else None


def _unsigned(text: str) -> int | float | None:
    """``std::stoul`` then a cast to 32 bits: a leading minus wraps around."""
    v = _stoi(text)
    if v is None or abs(v) > _ULONG_MAX:
        return None
    return (v % 2**64) % 2**32


def _double(text: str) -> int | float | None:
    return strtod(text)


def _stream(text: str, kinds: str) -> bool:
    """C++ ``>>`` of one number per letter of ``kinds`` (``d`` double, ``i`` int32)."""
    pos = 0
    for kind in kinds:
        if kind == 'd':
            m = re.compile(_STREAM_DOUBLE).match(text, pos)
            if m is None or (m.group(2) and not re.fullmatch(r'[+-]?\d+', m.group(3))):
                return False
            if math.isinf(float(m.group(1).rstrip('eE+-') or '0')):
                return False
        else:
            m = re.compile(_STREAM_INT).match(text, pos)
            if m is None or not _INT32[0] <= int(m.group(1)) <= _INT32[1]:
                return False
        pos = m.end()
    return True


def _color(text: str) -> bool:
    count = 0
    for tok in text.split():
        c = _stof(tok)
        if c is None or c < 0.0 or c > 1.0:
            return False
        count += 1
    return count in (3, 4)


def pose_ok(text: str, rotation_format: str, degrees: bool) -> bool:
    """A pose's text: 6 (or 7 for ``quat_xyzw``) finite numbers, or nothing."""
    if rotation_format not in ('euler_rpy', 'quat_xyzw'):
        return False
    if rotation_format == 'quat_xyzw' and degrees:
        return False
    toks = text.split()
    if not toks:
        return True
    for tok in toks:
        v = strtod(tok)
        if v is None or not math.isfinite(v):
            return False
    return len(toks) == (7 if rotation_format == 'quat_xyzw' else 6)


# Scalar parsers return the value (for min/max) or None when the text is refused.
SCALARS: dict[str, Callable[[str], int | float | None]] = {
    'int': _int,
    'unsigned int': _unsigned,
    'double': _double,
    'float': _stof,
}
_STREAMED = {'vector3': 'ddd', 'vector2d': 'dd', 'quaternion': 'ddd', 'vector2i': 'ii',
             'time': 'ii', 'angle': 'd'}
_BOOLS = {'true': 1, '1': 1, 'false': 0, '0': 0}


def scalar(type_name: str, text: str) -> int | float | None:
    """Parse a trimmed, non-empty scalar text of ``type_name`` (None: refused)."""
    low = text.lower()
    if type_name == 'bool':
        return _BOOLS.get(low)
    if low in ('true', 'false'):
        text = '1' if low == 'true' else '0'
    return SCALARS[type_name](text)


def value_ok(type_name: str, text: str) -> bool:
    """Whether a trimmed, non-empty text is a value of a non-scalar ``type_name``.

    Poses are checked with their attributes by :func:`pose_ok`.
    """
    kinds = _STREAMED.get(type_name)
    if kinds is not None:
        return _stream(text, kinds)
    if type_name == 'color':
        return _color(text)
    return type_name in ('string', 'char', 'std::string')
