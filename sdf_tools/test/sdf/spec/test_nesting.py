"""Elements the spec defines by ``ref`` (a ``<model>`` in a ``<model>``) nest to any depth.

The table links a ``ref`` child to a copy of its target; a copy taken before the target
was complete once left a model nested two deep without children, so its ``<pose>`` and
``<link>`` read as unknown elements.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from sdf_tools.errors import ErrorCode
from sdf_tools.load import load_file
from sdf_tools.sdf.spec import ElementSpec, spec_for


def _nested_model(version: str, depth: int) -> ElementSpec:
    spec = spec_for(version).children['model']
    for _ in range(depth):
        spec = spec.children['model']
    return spec


@pytest.mark.parametrize('version', ['1.5', '1.7', '1.9', '1.10', '1.11'])
@pytest.mark.parametrize('depth', [1, 2, 5])
def test_nested_model_knows_the_children_of_a_top_level_model(version: str, depth: int) -> None:
    top = spec_for(version).children['model']
    nested = _nested_model(version, depth)
    assert set(nested.children) == set(top.children)
    assert {c.name for c in nested.required_children} == {c.name for c in top.required_children}


def test_model_three_deep_is_read_without_unknown_elements(tmp_path: Path) -> None:
    path = tmp_path / 'deep.sdf'
    path.write_text("""<?xml version="1.0"?>
<sdf version="1.9">
  <model name="a">
    <link name="l"><inertial><mass>1</mass></inertial></link>
    <model name="b">
      <link name="l"><inertial><mass>1</mass></inertial></link>
      <model name="c">
        <pose>0.2 0 1 0 0 0</pose>
        <link name="l"><inertial><mass>1</mass></inertial></link>
        <model name="d"><link name="l"><pose>1 2 3 0 0 0</pose></link></model>
      </model>
    </model>
  </model>
</sdf>
""")
    result = load_file(str(path))
    codes = [d.code for d in result.diagnostics]
    assert ErrorCode.ELEMENT_INCORRECT_TYPE not in codes, result.diagnostics
    assert result.valid, result.errors
