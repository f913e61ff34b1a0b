"""Judge an MJCF export with MuJoCo itself: compile, ``mj_kinematics`` at qpos0, compare to our frames.

The reference values come from our reader's frame graphs of the *source*
file (not from the exporter): each link's world pose, each joint's world
anchor and axis, each link's mass and inertia tensor. MuJoCo's numbers come
from the compiled model: ``xpos``/``xquat`` of the body named after the link
(or the ``site`` of a link folded away as a massless frame), ``xanchor`` /
``xaxis`` of the joint of the same name, ``body_mass``, ``body_inertia``
rotated by ``body_iquat``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import mujoco
import numpy as np

from sdf_tools.convert.flatten import FlatModel, flatten, pose_in_link
from sdf_tools.convert.mjcf.inertia import in_link_frame
from sdf_tools.convert.report import ConversionReport
from sdf_tools.load import LoadResult
from sdf_tools.transform import IDENTITY, Transform

TOL = 1e-9
# MuJoCo diagonalises a full inertia tensor itself (an iterative eigen-solver): the
# rebuilt tensor agrees to ~1e-12 relative, not bit for bit.
INERTIA_RTOL = 1e-9


@dataclass
class Checked:
    """What was compared, and every mismatch found."""

    bodies: int = 0
    joints: int = 0
    masses: int = 0
    problems: list[str] = field(default_factory=list)


def source_flats(loaded: LoadResult, model: str | None = None) -> list[FlatModel]:
    """Flatten the models of the source exactly as read (no conversion applied)."""
    doc = loaded.document
    assert doc is not None
    report = ConversionReport()
    if doc.model is not None:
        assert loaded.model_graphs is not None
        return [flatten(doc.model, loaded.model_graphs, None, separator='::', frames=True,
                        report=report)]
    out = []
    for world, g in zip(doc.worlds, loaded.world_graphs, strict=True):
        for m in world.models:
            if model is None or m.name == model:
                out.append(flatten(m, g, world, separator='::', frames=True, report=report))
    return out


def compile_mjcf(text: str) -> tuple[Any, Any]:
    """Compile MJCF text and run ``mj_kinematics`` at qpos0."""
    m = mujoco.MjModel.from_xml_string(text)
    d = mujoco.MjData(m)
    mujoco.mj_kinematics(m, d)
    return m, d


def _rot(q: Any) -> np.ndarray:
    out = np.zeros(9)
    mujoco.mju_quat2Mat(out, np.asarray(q, dtype=float))
    return out.reshape(3, 3)


def _pose_error(t: Transform, pos: Any, mat: np.ndarray) -> float:
    return max(float(np.abs(np.asarray(t.p) - pos).max()),
               float(np.abs(_rot(t.q) - mat).max()))


def _link_pose(c: Checked, m: Any, d: Any, name: str, want: Transform) -> bool:
    b = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, name)
    if b >= 0:
        err = _pose_error(want, d.xpos[b], _rot(d.xquat[b]))
    else:
        s = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_SITE, name)
        if s < 0:
            c.problems.append(f'link [{name}]: no body or site of that name')
            return False
        err = _pose_error(want, d.site_xpos[s], d.site_xmat[s].reshape(3, 3))
    c.bodies += 1
    if err > TOL:
        c.problems.append(f'link [{name}]: world pose off by {err:.3g}')
    return b >= 0


def _joint(c: Checked, m: Any, d: Any, flat: FlatModel, j: Any, root: Transform,
           prefix: str) -> None:
    jid = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, prefix + j.name)
    if jid < 0 or m.jnt_type[jid] not in (mujoco.mjtJoint.mjJNT_HINGE,
                                          mujoco.mjtJoint.mjJNT_SLIDE) or j.axes[0] is None:
        return
    x_wj = root * flat.world_pose(j.vid)
    axis = np.asarray(x_wj.rotate(j.axes[0]))
    axis /= np.linalg.norm(axis)
    err = max(float(np.abs(np.asarray(x_wj.p) - d.xanchor[jid]).max()),
              float(np.abs(axis - d.xaxis[jid]).max()))
    c.joints += 1
    if err > TOL:
        c.problems.append(f'joint [{j.name}]: world anchor/axis off by {err:.3g}')


def _mass(c: Checked, m: Any, flat: FlatModel, fl: Any, name: str, urdf: bool) -> None:
    i = fl.link.inertial
    if i is None or i.mass <= 1e-6:
        return  # defaults and massless policies are checked against the report
    b = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, name)
    x_li = pose_in_link(flat, fl, i.pose)
    want = in_link_frame(i.inertia, x_li)
    r = _rot(m.body_iquat[b])
    got = r @ np.diag(m.body_inertia[b]) @ r.T
    scale = max(float(np.abs(want).max()), 1e-300)
    c.masses += 1
    if abs(m.body_mass[b] - i.mass) > TOL * max(1.0, i.mass):
        c.problems.append(f'link [{name}]: mass {m.body_mass[b]!r}, want {i.mass!r}')
    elif float(np.abs(got - want).max()) > INERTIA_RTOL * scale:
        c.problems.append(f'link [{name}]: inertia off by {float(np.abs(got - want).max()):.3g}')
    elif float(np.abs(m.body_ipos[b] - np.asarray(x_li.p)).max()) > TOL:
        c.problems.append(f'link [{name}]: centre of mass off')


def check_export(text: str, loaded: LoadResult, *, root: Transform = IDENTITY,
                 model: str | None = None, balanced: frozenset[str] = frozenset()) -> Checked:
    """Compare MuJoCo's kinematics of ``text`` with the source's resolved frames."""
    m, d = compile_mjcf(text)
    c = Checked()
    flats = source_flats(loaded, model)
    urdf = loaded.document is not None and loaded.document.format == 'urdf'
    for flat in flats:
        prefix = f'{flat.name}::' if len(flats) > 1 else ''
        for fl in flat.links:
            is_body = _link_pose(c, m, d, prefix + fl.name, root * flat.world_pose(fl.vid))
            if is_body and fl.name not in balanced:
                _mass(c, m, flat, fl, prefix + fl.name, urdf)
        for j in flat.joints:
            _joint(c, m, d, flat, j, root, prefix)
    return c
