"""Mimic joints, gearboxes and joint friction in USD, judged by Newton's ``add_usd``.

Newton reads ``NewtonMimicAPI`` (and, where that is absent, PhysX's
``PhysxMimicJointAPI``, as Isaac Sim does): both must give the source's
``follower = offset + multiplier * leader``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pxr import Sdf, Usd

from sdf_tools.convert.api import convert_file
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file
from sdf_tools.resolved import resolve

COUPLED = Path(__file__).resolve().parents[2] / 'data' / 'sim' / 'coupled.sdf'


@pytest.fixture(scope='module')
def stage_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp('coupled') / 'coupled.usda'
    result = convert_file(COUPLED, to='usd', output_path=out, options=ConversionOptions())
    assert result.ok, result.report.errors
    return out


def _newton(path: Path) -> Any:
    import warp as wp
    wp.config.quiet = True
    import newton
    b = newton.ModelBuilder()
    b.add_usd(str(path))
    return b


def _couplings(b: Any) -> dict[str, tuple[str, float, float]]:
    labels = [str(x).rsplit('/', 1)[-1] for x in (getattr(b, 'joint_label', None) or b.joint_key)]
    out = {}
    for i, leader in enumerate(b.joint_mimic_joint):
        if leader >= 0:
            c0, c1 = b.joint_mimic_coeffs[i]
            out[labels[i]] = (labels[leader], float(c0), float(c1))
    return out


def _want() -> dict[str, tuple[str, float, float]]:
    """The source's couplings: mimic as written, the gearbox with ODE's sign."""
    r = resolve(load_file(COUPLED))
    out = {}
    for j in r.joints:
        a = j.element.axis
        if a is not None and a.mimic_joint:
            out[j.name.split('::')[-1]] = (a.mimic_joint, a.mimic_offset, a.mimic_multiplier)
        if j.type == 'gearbox':
            out['drive_b'] = ('drive_a', 0.0, -(j.element.gearbox_ratio or 1.0))
    return out


def _close(got: dict[str, tuple[str, float, float]], want: dict[str, tuple[str, float, float]]
           ) -> None:
    assert set(got) == set(want)
    for name, (leader, c0, c1) in want.items():
        assert got[name][0] == leader, name
        assert got[name][1:] == pytest.approx((c0, c1), abs=1e-6), name  # float32 in the schema


def test_newton_reads_every_mimic_and_the_gearbox_from_newton_mimic_api(stage_path: Path) -> None:
    _close(_couplings(_newton(stage_path)), _want())


def test_physx_mimic_joint_api_alone_gives_the_same_couplings(stage_path: Path,
                                                             tmp_path: Path) -> None:
    stage = Usd.Stage.Open(str(stage_path))
    for prim in stage.Traverse():
        listop = prim.GetMetadata('apiSchemas')
        if listop and 'NewtonMimicAPI' in listop.ApplyOperations([]):
            items = [x for x in listop.ApplyOperations([]) if x != 'NewtonMimicAPI']
            prim.SetMetadata('apiSchemas', Sdf.TokenListOp.Create(prependedItems=items))
    physx_only = tmp_path / 'physx.usda'
    stage.GetRootLayer().Export(str(physx_only))
    _close(_couplings(_newton(physx_only)), _want())  # the prismatic [right] too


# omni.physx's parseMimicJoints probes only these instances, and wants the same tokens in
# referenceJointAxis, for revolute and prismatic joints alike (their one axis).
_PHYSX_TOKENS = {'rotX', 'rotY', 'rotZ'}


def test_physx_mimic_instances_use_the_tokens_physx_parses(stage_path: Path) -> None:
    stage = Usd.Stage.Open(str(stage_path))
    seen = {}
    for prim in stage.Traverse():
        listop = prim.GetMetadata('apiSchemas')
        applied = [x for x in (listop.ApplyOperations([]) if listop else [])
                   if x.startswith('PhysxMimicJointAPI:')]
        for api in applied:
            dof = api.split(':', 1)[1]
            assert dof in _PHYSX_TOKENS, api
            assert dof == f'rot{prim.GetAttribute("physics:axis").Get()}'
            ref = prim.GetAttribute(f'physxMimicJoint:{dof}:referenceJointAxis').Get()
            assert ref in _PHYSX_TOKENS
            seen[prim.GetName()] = (prim.GetTypeName(), prim.GetAttribute(
                f'physxMimicJoint:{dof}:offset').Get())
    assert seen['right'][0] == 'PhysicsPrismaticJoint'
    assert seen['right'][1] == pytest.approx(-0.001, abs=1e-9)  # metres, PhysX's sign


def test_joint_friction_and_masses_reach_newton(stage_path: Path) -> None:
    b = _newton(stage_path)
    labels = [str(x).rsplit('/', 1)[-1] for x in (getattr(b, 'joint_label', None) or b.joint_key)]
    i = labels.index('drive_a')
    assert b.joint_friction[b.joint_qd_start[i]] == pytest.approx(0.2, rel=1e-6)
    bodies = [str(x).rsplit('/', 1)[-1] for x in (getattr(b, 'body_label', None) or b.body_key)]
    r = resolve(load_file(COUPLED))
    for link in r.links:
        got = b.body_mass[bodies.index(link.name.split('::')[-1])]
        assert got == pytest.approx(link.inertial.mass, rel=1e-6)


def test_mimics_come_back_from_the_stage(tmp_path: Path) -> None:
    """Each NewtonMimicAPI comes back as the <mimic> it was written from (a gearbox's as the
    gearbox: test_gearbox.py), offsets and multipliers to 1e-6 (the schema stores floats)."""
    stage_path, out = tmp_path / 'coupled.usda', tmp_path / 'back.sdf'
    assert convert_file(COUPLED, to='usd', output_path=stage_path, options=ConversionOptions()).ok
    back = convert_file(stage_path, to='sdf', output_path=out, options=ConversionOptions())
    assert back.ok, back.report.errors
    got = {}
    for j in resolve(load_file(out)).joints:
        a = j.element.axis
        if a is not None and a.mimic_joint:
            got[j.name.split('::')[-1]] = (a.mimic_joint, a.mimic_offset, a.mimic_multiplier)
    want = {k: v for k, v in _want().items() if k != 'drive_b'}  # the gearbox's follower
    assert sorted(got) == sorted(want)
    for name, (leader, offset, multiplier) in want.items():
        assert got[name][0] == leader
        assert got[name][1:] == pytest.approx((offset, multiplier), rel=1e-6, abs=1e-7)
