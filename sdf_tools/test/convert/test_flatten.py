"""flatten with the document already resolved gives what it gives resolving the model itself."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from sdf_tools.convert.options import ConversionOptions
from sdf_tools.convert.urdf.to_urdf import convert_to_urdf
from sdf_tools.load import load_file
from sdf_tools.resolved import resolve

DATA = Path(__file__).resolve().parents[1] / 'data'
EXAMPLES = Path(__file__).resolve().parents[2] / 'sdf_tools' / 'examples'
CASES = [
    (EXAMPLES / 'demo_world.sdf', 'rover'),
    (DATA / 'ros' / 'two_robots_world.sdf', 'arm'),
    (DATA / 'ros' / 'two_robots_world.sdf', 'cart'),
    (DATA / 'ros' / 'nested_robot.sdf', ''),
    (DATA / 'sdf' / 'v1_7_nested.sdf', 'outer'),
    (DATA / 'sdf' / 'joints_all.sdf', 'joints'),
    (DATA / 'sdf' / 'includes.sdf', 'host'),
    (DATA / 'convert_urdf' / 'arm_offsets.sdf', ''),
    (DATA / 'convert_urdf' / 'loop.sdf', 'fourbar'),
    (DATA / 'convert_urdf' / 'world_two_models.sdf', 'two'),
    (DATA / 'urdf' / 'arm.urdf', ''),
    (DATA / 'urdf' / 'floating_planar.urdf', ''),
]


@pytest.mark.parametrize('frames', [True, False])
@pytest.mark.parametrize('path,model', CASES, ids=[f'{p.stem}-{m}' for p, m in CASES])
def test_a_shared_resolved_document_gives_the_same_urdf_byte_for_byte(
        path: Path, model: str, frames: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 19: the description publisher resolves once and its URDF conversion reads that."""
    monkeypatch.setenv('SDF_PATH', os.pathsep.join([str(DATA / 'sdf' / 'models')]))
    loaded = load_file(path)
    mapping: dict[str, object] = {'frames_as_links': frames, 'break_loops': True,
                                  'scope_separator': '/'}
    if model:
        mapping['model'] = model
    options, problems = ConversionOptions.from_mapping(mapping)
    assert not problems
    alone = convert_to_urdf(loaded, options)
    shared = convert_to_urdf(loaded, options, resolve(loaded))
    assert alone.text is not None, alone.report.errors
    assert shared.text == alone.text
    assert [str(e) for e in shared.report.entries] == [str(e) for e in alone.report.entries]
