"""Protobuf text format, the little of it gz-transport's tools read and print.

``gz service --req`` takes a request in text format and prints the reply in
it; the Python bindings can be fed and read the same way. Messages are plain
dicts here: a field name maps to a list of values (strings, numbers, bools,
enum names, or nested dicts); writing takes single values or lists.

    >>> encode({'name': 'box', 'pose': {'position': {'x': 1.0}}})
    'name: "box" pose { position { x: 1.0 } }'
    >>> encode({'type': Enum('MODEL')})
    'type: MODEL'
    >>> parse('data: true')
    {'data': [True]}
"""
from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

TextMessage = dict[str, list[Any]]

_TOKEN = re.compile(r'''
    \s+ | \#[^\n]*                                   # blanks and comments
  | (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<punct>[{}<>:\[\],;])
  | (?P<word>[-+.\w]+)
''', re.VERBOSE)
_ESCAPES = {'n': 10, 't': 9, 'r': 13, 'a': 7, 'b': 8, 'f': 12, 'v': 11,
            '\\': 92, "'": 39, '"': 34, '?': 63}


class Enum(str):
    """An enum value name, written bare (``type: MODEL``) rather than quoted."""


class TextFormatError(ValueError):
    """The text is not a protobuf text-format message."""


def _escape(value: str) -> str:
    out = []
    for byte in value.encode('utf-8'):
        ch = chr(byte)
        if ch in '"\\':
            out.append('\\' + ch)
        elif ch == '\n':
            out.append('\\n')
        elif 32 <= byte < 127:
            out.append(ch)
        else:
            out.append(f'\\{byte:03o}')
    return '"' + ''.join(out) + '"'


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, Enum):
        return str.__str__(value)
    if isinstance(value, str):
        return _escape(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return 'nan' if math.isnan(value) else ('inf' if value > 0 else '-inf')
        return repr(value)
    if isinstance(value, int):
        return str(value)
    raise TypeError(f'cannot write {type(value).__name__} in text format')


def encode(message: Mapping[str, Any]) -> str:
    """Write a message (dict of field -> value or list of values) on one line."""
    parts: list[str] = []
    for key, value in message.items():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, Mapping):
                parts.append(f'{key} {{ {encode(item)} }}'.replace('{  }', '{ }'))
            else:
                parts.append(f'{key}: {_scalar(item)}')
    return ' '.join(parts)


def _unescape(body: str) -> str:
    data = bytearray()
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != '\\':
            data.extend(ch.encode('utf-8'))
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in '01234567':
            digits = re.match(r'[0-7]{1,3}', body[i + 1:])
            assert digits is not None
            data.append(int(digits.group(0), 8) & 0xFF)
            i += 1 + len(digits.group(0))
        elif nxt == 'x':
            digits = re.match(r'[0-9a-fA-F]{1,2}', body[i + 2:])
            if digits is None:
                raise TextFormatError('bad \\x escape')
            data.append(int(digits.group(0), 16))
            i += 2 + len(digits.group(0))
        else:
            data.append(_ESCAPES.get(nxt, ord(nxt)))
            i += 2
    return data.decode('utf-8', errors='replace')


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise TextFormatError(f'unexpected character {text[pos]!r} at offset {pos}')
        pos = m.end()
        if m.lastgroup is not None:
            out.append((m.lastgroup, m.group(m.lastgroup)))
    return out


def _word_value(word: str) -> Any:
    low = word.lower()
    if low in ('true', 't'):
        return True
    if low in ('false', 'f'):
        return False
    if low in ('inf', 'infinity', '+inf', '-inf', '-infinity', 'nan', '-nan'):
        return float(low.replace('infinity', 'inf'))
    try:
        return int(word, 0)
    except ValueError:
        pass
    try:
        return float(word.rstrip('fF'))
    except ValueError:
        return word  # an enum value name


def _parse_fields(tokens: list[tuple[str, str]], i: int, closer: str | None) -> tuple[TextMessage, int]:
    message: TextMessage = {}
    while i < len(tokens):
        kind, text = tokens[i]
        if closer is not None and kind == 'punct' and text == closer:
            return message, i + 1
        if kind != 'word':
            raise TextFormatError(f'expected a field name, got {text!r}')
        i += 1
        if i < len(tokens) and tokens[i] == ('punct', ':'):
            i += 1
        if i >= len(tokens):
            raise TextFormatError(f'field {text!r} has no value')
        vkind, vtext = tokens[i]
        value: Any
        if vkind == 'punct' and vtext in '{<':
            value, i = _parse_fields(tokens, i + 1, '}' if vtext == '{' else '>')
        elif vkind == 'string':
            value = _unescape(vtext[1:-1])
            i += 1
            while i < len(tokens) and tokens[i][0] == 'string':  # adjacent strings concatenate
                value += _unescape(tokens[i][1][1:-1])
                i += 1
        elif vkind == 'word':
            value, i = _word_value(vtext), i + 1
        else:
            raise TextFormatError(f'unexpected {vtext!r} after field {text!r}')
        message.setdefault(text, []).append(value)
        if i < len(tokens) and tokens[i] in (('punct', ','), ('punct', ';')):
            i += 1
    if closer is not None:
        raise TextFormatError(f'missing {closer!r} at the end of the text')
    return message, i


def parse(text: str) -> TextMessage:
    """Read a text-format message into a dict of field -> list of values."""
    message, _ = _parse_fields(_tokens(text), 0, None)
    return message


def first(message: Mapping[str, list[Any]], key: str, default: Any = None) -> Any:
    """Return the first value of ``key`` (proto3 omits defaults: ``default`` then)."""
    values = message.get(key)
    return values[0] if values else default
