"""Newton imports our stages as we wrote them, and its own URDF importer agrees on URDF robots.

* ``ModelBuilder.add_usd`` on the exported stage, then Newton's forward kinematics at
  the reference configuration (``eval_fk`` on the imported ``joint_q``): every body
  where our frame graphs put the link, every mass ours.
* For URDF input, ``ModelBuilder.add_urdf`` on the original file: the same body poses.
  Where Newton's URDF importer and ours differ on the wider corpus, and why, is in
  ``docs/usd_newton.md`` (``tools/usd_newton_table.py``).

Newton holds poses and masses as 32-bit floats: :data:`NEWTON_TOL` (1e-5) for poses,
1e-6 relative for masses. Warp compiles Newton's CPU kernels once (about a minute on a
fresh machine) into its kernel cache; later runs load them.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from differential.corpus import RobotFile, corpus_id
from pxr import Usd

from convert.sdf.to_sdf_compare import environment
from convert.usd.corpus_sample import sample
from convert.usd.newton_judge import NEWTON_TOL, newton_urdf, newton_usd, rel_error
from convert.usd.usd_judge import expected, key_of, pose_error
from sdf_tools.convert.api import convert_loaded, write_result
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file
from sdf_tools.transform import Transform

DATA = Path(__file__).resolve().parents[2] / 'data'
OWN = [DATA / 'usd' / 'features.sdf', DATA / 'urdf' / 'arm.urdf', DATA / 'sdf' / 'joints_all.sdf',
       DATA / 'sdf' / 'v1_7_nested.sdf', DATA / 'convert_urdf' / 'world_two_models.sdf',
       DATA / 'convert_urdf' / 'cycle.sdf', DATA / 'convert' / 'joint_kinds.urdf']
REAL = sample(10)


def _mass(loaded_inertial: object, urdf: bool) -> float:
    mass = getattr(loaded_inertial, 'mass', None)
    if urdf and (mass is None or mass <= 0.0):
        return 1e-3  # massless_links: default_mass (a positive mass, b1's 1e-6 kg base, is kept)
    return 1.0 if mass is None else float(mass)


def _check_usd(src: Path, tmp_path: Path) -> None:
    loaded = load_file(src)
    result = convert_loaded(loaded, to='usd', options=ConversionOptions())
    assert result.ok, [str(d) for d in result.report.errors]
    out = tmp_path / 'robot.usda'
    write_result(out, result)
    keys, poses, masses = newton_usd(out)
    stage = Usd.Stage.Open(str(out))
    exp = expected(loaded)
    urdf = loaded.document is not None and loaded.document.format == 'urdf'
    moving = {k for k, (_, _, static) in exp.links.items() if not static}
    got = {key_of(stage.GetPrimAtPath(k)): (p, m) for k, p, m in zip(keys, poses, masses,
                                                                       strict=True)}
    assert set(got) == moving
    for name, (pose, mass) in got.items():
        want_pose, inertial, _ = exp.links[name]
        assert pose_error(pose, want_pose) <= NEWTON_TOL, name
        assert rel_error(mass, _mass(inertial, urdf)) <= 1e-6, name


@pytest.mark.parametrize('src', OWN, ids=lambda p: p.name)
def test_newton_imports_our_model_where_we_put_it(src: Path, tmp_path: Path) -> None:
    _check_usd(src, tmp_path)


@pytest.mark.parametrize('entry', REAL, ids=[corpus_id(e) for e in REAL])
def test_newton_imports_real_robots_where_we_put_them(entry: RobotFile, tmp_path: Path) -> None:
    with environment(entry.env):
        _check_usd(entry.path, tmp_path)


URDFS = [e for e in REAL if e.path.suffix == '.urdf']


@pytest.mark.parametrize('entry', URDFS, ids=[corpus_id(e) for e in URDFS])
def test_newton_urdf_importer_agrees_on_body_poses(entry: RobotFile) -> None:
    with environment(entry.env):
        loaded = load_file(entry.path)
        try:
            keys, poses, _ = newton_urdf(entry.path)
        except ValueError as err:  # Newton's importer refuses the file (see docs/usd_newton.md)
            pytest.skip(f"Newton's URDF importer refuses the file: {err}")
    exp = expected(loaded)
    assert loaded.document is not None and loaded.document.model is not None
    model = loaded.document.model.name
    # A URDF link named world is the world frame for libsdformat and us, a body for Newton
    # (docs/usd_newton.md): it is left out.
    # Newton labels a body '<robot>/<link>'; a link name may itself hold '/' (dart-doc's wam).
    names = [k[len(model) + 1:] if k.startswith(f'{model}/') else k.split('/')[-1] for k in keys]
    got = {(model, n): p for n, p in zip(names, poses, strict=True) if n != 'world'}
    assert set(got) == set(exp.links)
    # A model pose from <gazebo><pose> (libsdformat places the model with it) is a Gazebo
    # tag Newton's URDF importer does not read: its bodies are compared in the model frame.
    raw = loaded.document.model.pose
    x_wm = raw.value if raw is not None else Transform()
    for name, pose in got.items():
        assert pose_error(x_wm * pose, exp.links[name][0]) <= NEWTON_TOL, name


def test_a_zero_inertia_is_reported_as_newton_computes_one(write_sdf, tmp_path: Path) -> None:
    """Drake's Pendulum.urdf writes point masses (inertia 0): UsdPhysics takes a zero
    diagonalInertia as not authored, and Newton computes one from the shapes; the report says so."""
    from sdf_tools.convert.api import convert_file
    src = write_sdf('<model name="m"><link name="p"><inertial><mass>2</mass><inertia><ixx>0</ixx>'
                    '<iyy>0</iyy><izz>0</izz></inertia></inertial><collision name="c"><geometry>'
                    '<sphere><radius>0.1</radius></sphere></geometry></collision></link></model>')
    out = tmp_path / 'm.usda'
    result = convert_file(src, to='usd', output_path=out, options=ConversionOptions())
    assert any('all zero' in e.message for e in result.report.entries
               if e.element == 'link[p]/inertial')
    import warp as wp
    wp.config.quiet = True
    import newton
    b = newton.ModelBuilder()
    b.add_usd(str(out))
    assert float(abs(b.body_inertia[0][0][0])) > 0.0  # not the source's 0: computed
