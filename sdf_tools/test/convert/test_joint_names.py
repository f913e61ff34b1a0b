"""A URDF joint named like a link (ANYmal's ``LF_HAA``): converted to every format, names kept
where the target keeps joints apart from links, renamed and reported where it does not."""
from __future__ import annotations

from pathlib import Path

import mujoco
import pytest
from pxr import Usd, UsdPhysics

from sdf_tools import gazebo
from sdf_tools.convert.api import convert_loaded, write_result
from sdf_tools.convert.conversion_report import ReportKind
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.errors import ErrorCode
from sdf_tools.load import load_file, load_string

CLASH = Path(__file__).resolve().parents[1] / 'data' / 'convert' / 'name_clash.urdf'
JOINTS = {'HAA', 'KFE', 'foot'}


def _convert(to: str) -> str:
    result = convert_loaded(load_file(CLASH), to=to, options=ConversionOptions())
    assert result.ok, [str(d) for d in result.report.errors]
    assert result.text is not None
    return result.text


@pytest.mark.parametrize('target', gazebo.TARGETS)
def test_check_keeps_libsdformats_verdict(target: str) -> None:
    with gazebo.using(target):
        loaded = load_file(CLASH)
    assert not loaded.valid
    assert {d.code for d in loaded.errors} == {ErrorCode.DUPLICATE_NAME}
    # HAA and KFE; the fixed joint [foot] is lumped away, and from libsdformat 13.1 leaves a
    # frame of its name (gazebosim/sdformat#1148), which clashes with the link too
    clashing = {'HAA', 'KFE'} | ({'foot'} if target != 'fortress' else set())
    assert {d.message.split('[')[1].split(']')[0] for d in loaded.errors} == clashing, \
        [str(d) for d in loaded.errors]


def test_urdf_output_keeps_every_joint_name_and_the_mimic() -> None:
    back = load_string(_convert('urdf'), 'back.urdf')
    model = back.document.model  # type: ignore[union-attr]
    assert model is not None
    assert {j.file_name or j.name for j in model.joints} == JOINTS
    kfe = next(j for j in model.joints if (j.file_name or j.name) == 'KFE')
    assert kfe.axis is not None and kfe.axis.mimic_joint == 'HAA_joint'  # as the reader renames


def test_mjcf_output_gives_joints_their_own_names() -> None:
    m = mujoco.MjModel.from_xml_string(_convert('mjcf'))
    joints = {m.joint(k).name for k in range(m.njnt)}
    bodies = {m.body(k).name for k in range(m.nbody)}
    assert {'HAA', 'KFE'} <= joints and {'HAA', 'KFE'} <= bodies
    eq = m.eq('KFE__mimic')
    assert (m.joint(int(m.eq_obj1id[eq.id])).name, m.joint(int(m.eq_obj2id[eq.id])).name) == \
        ('KFE', 'HAA')


def test_sdf_output_renames_the_joints_and_says_so() -> None:
    result = convert_loaded(load_file(CLASH), to='sdf', options=ConversionOptions())
    assert result.ok and result.text is not None
    renamed = {e.element: e.message for e in result.report.entries
               if e.kind is ReportKind.RENAMED and e.element.startswith('joint[')}
    assert set(renamed) == {'joint[HAA]', 'joint[KFE]', 'joint[foot]'}
    assert 'written as [HAA_joint]' in renamed['joint[HAA]']
    back = load_string(result.text, 'back.sdf')
    assert back.valid, [str(d) for d in back.errors]
    assert {j.name for j in back.document.model.joints} == {'HAA_joint', 'KFE_joint'}  # type: ignore[union-attr]


def test_usd_output_keeps_the_joint_names(tmp_path: Path) -> None:
    result = convert_loaded(load_file(CLASH), to='usd', options=ConversionOptions())
    assert result.ok
    out = tmp_path / 'clash.usda'
    write_result(out, result)
    stage = Usd.Stage.Open(str(out))
    joints = [p for p in stage.Traverse() if p.IsA(UsdPhysics.Joint)]
    names = {str(p.GetAttribute('sdf_tools:name').Get()) for p in joints}
    assert {'HAA', 'KFE'} <= names


@pytest.mark.parametrize('to', ['urdf', 'mjcf', 'usd', 'sdf'])
def test_the_clash_is_a_warning_in_the_report(to: str) -> None:
    result = convert_loaded(load_file(CLASH), to=to, options=ConversionOptions())
    assert result.ok
    clashes = [d for d in result.report.diagnostics if d.code is ErrorCode.DUPLICATE_NAME]
    assert clashes and not result.report.errors


@pytest.mark.parametrize('via', ['mjcf', 'usda'])
def test_round_trip_to_urdf_keeps_the_joint_names(via: str, tmp_path: Path) -> None:
    from sdf_tools.convert.api import convert_file
    mid, back = tmp_path / f'clash.{via}', tmp_path / 'back.urdf'
    assert convert_file(CLASH, to=None, output_path=mid, options=ConversionOptions()).ok
    assert convert_file(mid, to='urdf', output_path=back, options=ConversionOptions()).ok
    model = load_string(back.read_text(), str(back)).document.model  # type: ignore[union-attr]
    assert model is not None
    assert {j.file_name or j.name for j in model.joints} == JOINTS
    assert {lk.name for lk in model.links} == {'base', 'HAA', 'KFE', 'foot'}
