"""The initial state in USD: PhysX's joint state, read by Newton's ``add_usd`` into ``joint_q``."""
from __future__ import annotations

import math
from pathlib import Path

import pytest
from pxr import Usd
from support.initial_positions import ARM, GIVEN, initial_positions

from sdf_tools.convert.api import convert_file
from sdf_tools.convert.options import ConversionOptions


@pytest.fixture(scope='module')
def stage_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp('state') / 'arm.usda'
    result = convert_file(ARM, to='usd', output_path=out,
                          options=ConversionOptions(joint_positions={'slide': 0.05}))
    assert result.ok, result.report.errors
    return out


def test_the_stage_holds_the_joint_state_in_degrees_and_metres(stage_path: Path) -> None:
    stage = Usd.Stage.Open(str(stage_path))
    shoulder = stage.GetPrimAtPath('/sensor_arm/joints/shoulder')
    # PhysX's schema is not registered with usd-core: read the list the prim authors.
    assert 'PhysicsJointStateAPI:angular' in shoulder.GetMetadata('apiSchemas').ApplyOperations([])
    got = shoulder.GetAttribute('state:angular:physics:position').Get()
    assert got == pytest.approx(math.degrees(0.4), rel=1e-7)  # a float in the schema
    slide = stage.GetPrimAtPath('/sensor_arm/joints/slide')
    assert slide.GetAttribute('state:linear:physics:position').Get() == pytest.approx(0.05)
    spin = stage.GetPrimAtPath('/sensor_arm/joints/spin')
    assert not spin.HasAttribute('state:angular:physics:position')


def test_newton_starts_the_joints_there(stage_path: Path) -> None:
    import warp as wp
    wp.config.quiet = True
    import newton
    from newton.usd import SchemaResolverNewton, SchemaResolverPhysx
    b = newton.ModelBuilder()
    b.add_usd(str(stage_path), schema_resolvers=[SchemaResolverNewton(), SchemaResolverPhysx()])
    labels = list(getattr(b, 'joint_label', None) or b.joint_key)
    q = {label.rsplit('/', 1)[-1]: b.joint_q[b.joint_q_start[i]] for i, label in enumerate(labels)}
    assert q['shoulder'] == pytest.approx(0.4, abs=1e-6)
    assert q['slide'] == pytest.approx(0.05, abs=1e-7)
    assert q['spin'] == 0.0




def _round_trip(tmp_path: Path, edit: object = None) -> dict[str, float]:
    stage_file = tmp_path / 'arm.usda'
    assert convert_file(ARM, to='usd', output_path=stage_file,
                        options=ConversionOptions(joint_positions=GIVEN)).ok
    if edit is not None:
        stage = Usd.Stage.Open(str(stage_file))
        edit(stage)  # type: ignore[operator]
        stage.GetRootLayer().Save()
    back = tmp_path / 'back.sdf'
    result = convert_file(stage_file, to='sdf', output_path=back, options=ConversionOptions())
    assert result.ok, result.report.errors
    return initial_positions(back)


def test_sdf_to_usd_to_sdf_keeps_every_initial_position_exactly(tmp_path: Path) -> None:
    got = _round_trip(tmp_path)
    want = {**initial_positions(ARM), **GIVEN}  # shoulder's 0.4 from the file (degrees in the schema)
    assert set(got) == set(want)
    for name, q in want.items():
        assert got[name] == pytest.approx(q, abs=1e-9), name


def _schema_only(stage: Usd.Stage) -> None:
    """A stage from another tool: the joint state alone, shoulder moved to 30 degrees."""
    for prim in stage.Traverse():
        if prim.HasAttribute('sdf_tools:initial'):
            prim.RemoveProperty('sdf_tools:initial')
    stage.GetPrimAtPath('/sensor_arm/joints/shoulder').GetAttribute(
        'state:angular:physics:position').Set(30.0)


def test_a_joint_state_without_the_exact_copy_is_read_in_degrees_and_metres(
        tmp_path: Path) -> None:
    got = _round_trip(tmp_path, _schema_only)
    assert got['shoulder'] == pytest.approx(math.radians(30.0), abs=1e-12)
    assert got['spin'] == pytest.approx(GIVEN['spin'], rel=1e-7)  # float degrees
    assert got['slide'] == pytest.approx(GIVEN['slide'], rel=1e-7)  # float metres
