"""The one export plan: every writer refuses, picks and flattens the same way."""
from __future__ import annotations

from pathlib import Path

import pytest

from sdf_tools.convert.api import convert_loaded
from sdf_tools.convert.conversion_report import ConversionReport, ConversionResult
from sdf_tools.convert.export_plan import pick_models, start_export
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.errors import ErrorCode
from sdf_tools.load import load_file

DATA = Path(__file__).resolve().parents[1] / 'data'
TWO_MODELS = DATA / 'sdf' / 'static_no_links.sdf'      # world [w]: models [marker], [wrap]
ONE_MODEL = DATA / 'convert' / 'joint_kinds.urdf'
NESTED = DATA / 'sdf_rules' / 'flattened_1_7.sdf'       # a world of models with nested ones


@pytest.mark.parametrize('to', ['urdf', 'mjcf', 'usd'])
@pytest.mark.parametrize('path', [TWO_MODELS, ONE_MODEL], ids=['world', 'model'])
def test_every_writer_refuses_a_model_option_naming_no_model_alike(to: str, path: Path) -> None:
    result = convert_loaded(load_file(path), to=to, options=ConversionOptions(model='nope'))
    assert not result.ok and result.text is None
    (error,) = result.report.errors
    assert error.code is ErrorCode.PARAMETER_ERROR and error.file == str(path)
    assert error.message.startswith('no model [nope]')
    names = ('[marker], [wrap]' if path == TWO_MODELS else '[joint_kinds]')
    assert names in error.message


def test_urdf_writer_needs_the_model_option_for_a_world_of_several() -> None:
    result = convert_loaded(load_file(TWO_MODELS), to='urdf', options=ConversionOptions())
    (error,) = result.report.errors
    assert error.code is ErrorCode.URDF_INVALID and '--model NAME' in error.message
    picked = convert_loaded(load_file(TWO_MODELS), to='urdf',
                            options=ConversionOptions(model='wrap'))
    assert picked.ok and picked.text is not None and '<robot name="wrap"' in picked.text


def test_plan_without_copy_reuses_the_loaded_graphs() -> None:
    loaded = load_file(NESTED)
    plan = start_export(loaded, ConversionOptions(), ConversionReport(), copy=False)
    assert plan is not None and plan.document is loaded.document
    assert pick_models(plan, None) == []
    assert {id(p.graphs) for p in plan.picked} == {id(g) for g in loaded.world_graphs}
    copied = start_export(loaded, ConversionOptions(), ConversionReport())
    assert copied is not None and copied.document is not loaded.document
    assert pick_models(copied, None) == []
    assert [p.model.name for p in copied.picked] == [p.model.name for p in plan.picked]
    assert not {id(p.graphs) for p in copied.picked} & {id(g) for g in loaded.world_graphs}


@pytest.mark.parametrize('to', ['mjcf', 'usd'])
def test_engine_writers_report_only_the_picked_model(to: str) -> None:
    loaded = load_file(NESTED)
    every = convert_loaded(loaded, to=to, options=ConversionOptions())
    one = convert_loaded(loaded, to=to, options=ConversionOptions(model='R'))
    assert every.ok and one.ok

    def renamed(result: ConversionResult) -> set[str]:
        return {e.element for e in result.report.entries if e.kind.value == 'renamed'}

    # [P]'s nested [M1] is flattened in the whole world, not when [R] alone is written.
    assert 'model[M1]' in renamed(every) and 'model[M1]' not in renamed(one)
    assert 'model[Q::K]' in renamed(one)


@pytest.mark.parametrize('to, text, code', [
    ('urdf', '<world name="w">\n<model name="a"><link name="l"/></model>\n'
             '<model name="b"><link name="l"/></model>\n</world>', ErrorCode.URDF_INVALID),
    ('urdf', '<world name="w">\n<gravity>0 0 -1</gravity>\n</world>', ErrorCode.URDF_INVALID),
    ('mjcf', '<world name="w">\n<gravity>0 0 -1</gravity>\n</world>', ErrorCode.MODEL_WITHOUT_LINK),
])
def test_a_world_the_writer_cannot_take_is_refused_at_its_line(tmp_path: Path, to: str, text: str,
                                                               code: ErrorCode) -> None:
    # gz-sim's worlds (double_pendulum.sdf: 3 models to URDF; triggered_publisher.sdf: none)
    from lxml import etree

    path = tmp_path / 'w.sdf'
    path.write_text(f'<?xml version="1.0"?>\n<sdf version="1.9">\n{text}\n</sdf>\n')
    loaded = load_file(path)
    assert loaded.valid
    result = convert_loaded(loaded, to=to, options=ConversionOptions())
    (err,) = result.report.errors
    world_line = next(etree.parse(str(path)).getroot().iter('world')).sourceline
    assert (err.code, err.file, err.line) == (code, str(path), world_line)
