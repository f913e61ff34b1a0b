"""Reading a world's models while the file is parsed gives what a whole-tree read gives."""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from sdf_tools.load import load_string
from sdf_tools.sdf.document import read_sdf_root
from sdf_tools.sdf.stream import WorldModelStreamer
from sdf_tools.xmlsafe import parse_bytes

DATA = Path(__file__).resolve().parents[1] / 'data'

# Errors inside models, between models and at world level, in document order;
# comments everywhere; a nested model; a 1.6 rule (name clash renaming).
MIXED = b'''<?xml version="1.0"?>
<sdf version="%(version)s">
  <world name="w">
    <frame name="f0" attached_to="nowhere"><pose>1 0 0 0 0 0</pose></frame>
    <!-- a comment between models -->
    <model name="a">
      <!-- a comment inside a model -->
      <link name="l"><pose>0 0 x 0 0 0</pose></link>
      <link name="l"/>
      <frame name="l"/>
      <model name="inner"><link name="k"><inertial><mass>-1</mass></inertial></link></model>
    </model>
    <joint name="wj" type="fixed"><parent>world</parent><child>a::l</child></joint>
    <model name="b">
      <link name="m"><visual name="v"><geometry><box><size>1 2</size></box></geometry></visual></link>
      <joint name="j" type="spinning"><parent>m</parent><child>m</child></joint>
    </model>
    <model name="a"><link name="dup"/></model>
    <frame name="b"/>
  </world>
</sdf>
'''


def _whole_tree(data: bytes, source: str) -> tuple[str, list[str]]:
    root = etree.fromstring(data)
    doc, diags = read_sdf_root(root, source, (source,))
    return repr(doc), [repr(d) for d in diags]


def _streamed(data: bytes, source: str) -> tuple[str, list[str]]:
    streamer = WorldModelStreamer(source, (source,))
    root, bad = parse_bytes(data, source, (streamer.tag, streamer))
    assert root is not None, bad
    doc, diags = read_sdf_root(root, source, (source,), streamer.context_for(root))
    return repr(doc), [repr(d) for d in diags]


@pytest.mark.parametrize('version', ['1.6', '1.9', '1.11'])
def test_streamed_read_equals_whole_tree_read_with_errors_in_order(version: str) -> None:
    data = MIXED % {b'version': version.encode()}
    doc, diags = _streamed(data, 'mixed.sdf')
    assert (doc, diags) == _whole_tree(data, 'mixed.sdf')
    # The document really is full of diagnostics, so their order was tested.
    assert len(diags) >= 6


@pytest.mark.parametrize('path', sorted((DATA / 'sdf').rglob('*.sdf')), ids=lambda p: p.name)
def test_streamed_read_equals_whole_tree_read_on_test_models(path: Path) -> None:
    data = path.read_bytes()
    assert _streamed(data, str(path)) == _whole_tree(data, str(path))


def test_world_models_leave_the_tree_once_read() -> None:
    data = MIXED % {b'version': b'1.9'}
    streamer = WorldModelStreamer('mixed.sdf', ('mixed.sdf',))
    root, _ = parse_bytes(data, 'mixed.sdf', (streamer.tag, streamer))
    assert root is not None and streamer.context_for(root) is not None
    models = root.findall('world/model')
    assert len(models) == 3
    assert all(len(m) == 0 for m in models)  # their subtrees were freed
    assert {m.name for m, _ in streamer.ctx.preread.values()} == {'a', 'b'}  # type: ignore[union-attr]


@pytest.mark.parametrize('data', [
    b'<sdf version="1.9"><world name="w"><model name="m">&foo;</model></world></sdf>',
    b'<sdf version="1.9"><world name="w"><model name="m"><link name="l"/></model>\n</world>',
    b'<sdf version="1.9"><world name="w"><model name="m"></world></sdf>',
])
def test_malformed_xml_is_reported_as_without_streaming(data: bytes) -> None:
    streamer = WorldModelStreamer('bad.sdf', ())
    streamed = parse_bytes(data, 'bad.sdf', (streamer.tag, streamer))
    assert streamed[0] is None
    assert streamed == parse_bytes(data, 'bad.sdf')
    result = load_string(data, 'bad.sdf')
    assert not result.usable and result.errors[0].line is not None


def test_doctype_document_is_read_whole_and_gives_the_same_result() -> None:
    body = (MIXED % {b'version': b'1.9'}).split(b'?>', 1)[1]
    data = b'<?xml version="1.0"?>\n<!DOCTYPE sdf>' + body
    streamer = WorldModelStreamer('d.sdf', ('d.sdf',))
    root, _ = parse_bytes(data, 'd.sdf', (streamer.tag, streamer))
    assert root is not None and streamer.context_for(root) is None  # not streamed
    assert _streamed(data, 'd.sdf') == _whole_tree(data, 'd.sdf')


def test_unknown_version_is_not_read_early() -> None:
    data = b'<sdf version="2.0"><world name="w"><model name="m"><link name="l"/></model></world></sdf>'
    streamer = WorldModelStreamer('v.sdf', ())
    root, _ = parse_bytes(data, 'v.sdf', (streamer.tag, streamer))
    assert root is not None and streamer.ctx is None
    result = load_string(data, 'v.sdf')  # read whole, with a warning
    assert result.valid and result.warnings[0].code.value == 'VERSION_UNSUPPORTED'
