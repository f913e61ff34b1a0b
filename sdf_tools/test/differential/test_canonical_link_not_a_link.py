"""``canonical_link`` naming a frame, a joint or a nested model, against libsdformat 12.

libsdformat's frame graph attaches the model frame to whatever frame of the model has
that name (``RANDOM_FINDINGS.md`` F3): the file loads (or fails on the cycle it makes),
and the model's canonical link is reported by that name. We do the same and warn that
the spec wants a link (``ign sdf -k`` refuses it in a top-level or world model). A name
that matches nothing stays ``MODEL_CANONICAL_LINK_INVALID``.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from support.libsdformat import probe_available, probe_unavailable_reason

from differential.reference import differences
from sdf_tools.load import load_file
from sdf_tools.resolved import inspect_json

pytestmark = pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))

# (document from line 2, valid, (code, line) we must report, canonical_link of model m)
CASES = {
    'a_joint': ('''<sdf version="1.9">
  <model name="m" canonical_link="j">
    <link name="l"/>
    <joint name="j" type="fixed"><parent>world</parent><child>l</child></joint>
  </model>
</sdf>''', True, ('MODEL_CANONICAL_LINK_INVALID', 3), 'm::j'),
    'a_frame_on_the_model_frame': ('''<sdf version="1.9">
  <model name="m" canonical_link="f">
    <link name="l"/>
    <frame name="f"/>
  </model>
</sdf>''', False, ('FRAME_ATTACHED_TO_CYCLE', 3), None),
    'a_frame_on_a_link_nested': ('''<sdf version="1.9">
  <model name="m">
    <link name="base"/>
    <model name="n" canonical_link="f">
      <pose>1 2 3 0 0 0.5</pose>
      <link name="l"><pose>0 0 1 0 0 0</pose></link>
      <frame name="f" attached_to="l"><pose>1 0 0 0 0 0</pose></frame>
    </model>
    <frame name="g" attached_to="n"/>
  </model>
</sdf>''', True, ('MODEL_CANONICAL_LINK_INVALID', 5), None),
    'a_nested_model_in_a_world': ('''<sdf version="1.9">
  <world name="w">
    <model name="m" canonical_link="k">
      <link name="l"/>
      <model name="k"><link name="x"/></model>
    </model>
  </world>
</sdf>''', True, ('MODEL_CANONICAL_LINK_INVALID', 4), 'm::k'),
    'nothing_by_that_name': ('''<sdf version="1.9">
  <model name="m" canonical_link="x">
    <link name="l"/>
  </model>
</sdf>''', False, ('MODEL_CANONICAL_LINK_INVALID', 3), None),
}


@pytest.mark.parametrize('name', sorted(CASES))
def test_canonical_link_not_a_link_as_libsdformat(name: str, tmp_path: Path) -> None:
    text, valid, (code, line), canonical = CASES[name]
    path = tmp_path / 'case.sdf'
    path.write_text(f'<?xml version="1.0"?>\n{text}\n', encoding='utf-8')
    result = load_file(path)
    assert result.valid is valid, [str(d) for d in result.diagnostics]
    found = [(d.code.value, d.line) for d in result.diagnostics]
    assert (code, line) in found, found
    if valid and canonical is not None:
        models = {m['name']: m for m in inspect_json(result)['models']}
        assert models['m']['canonical_link'] == canonical
    assert not differences(path)  # libsdformat's verdict, canonical links and poses
