"""Protobuf text format as gz-transport's tools print and read it."""
from __future__ import annotations

import math

import pytest

from sdf_tools.spawn.textproto import Enum, TextFormatError, encode, first, parse


def test_encode_writes_nested_messages_enums_and_escaped_strings() -> None:
    text = encode({'name': 'a "b"\\ é\n', 'type': Enum('MODEL'), 'allow_renaming': True,
                   'pose': {'position': {'x': 1.5, 'y': -2.0}}, 'id': 7})
    assert text == ('name: "a \\"b\\"\\\\ \\303\\251\\n" type: MODEL allow_renaming: true '
                    'pose { position { x: 1.5 y: -2.0 } } id: 7')


@pytest.mark.parametrize('value', ['plain', 'quo"te', 'back\\slash', 'new\nline', 'ünïcödé <sdf/>', ''])
def test_strings_survive_a_round_trip(value: str) -> None:
    assert parse(encode({'sdf': value})) == {'sdf': [value]}


def test_parse_reads_what_ign_service_prints() -> None:
    reply = parse('''name: "default"
model {
  name: "box"
  id: 8
  is_static: true
  pose {
    position {
      x: 1e-05
      z: -3
    }
    orientation {
      w: 1
    }
  }
  link { id: 9 name: "base" }
  link { id: 10 name: "top" }
}
''')
    model = first(reply, 'model')
    assert first(reply, 'name') == 'default'
    assert (first(model, 'id'), first(model, 'is_static')) == (8, True)
    assert [first(link, 'name') for link in model['link']] == ['base', 'top']
    assert first(first(first(model, 'pose'), 'position'), 'x') == pytest.approx(1e-5)
    assert first(model, 'missing', 'default') == 'default'


def test_parse_reads_octal_and_hex_escapes_and_special_floats() -> None:
    msg = parse(r'a: "\303\251\x41" b: inf c: -inf d: nan e: MODEL')
    assert first(msg, 'a') == 'éA'
    assert first(msg, 'b') == math.inf and first(msg, 'c') == -math.inf
    assert math.isnan(first(msg, 'd')) and first(msg, 'e') == 'MODEL'


@pytest.mark.parametrize('text', ['a {', 'a: "unterminated', '{ b: 1 }', 'a: }'])
def test_parse_rejects_broken_text(text: str) -> None:
    with pytest.raises(TextFormatError):
        parse(text)
