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

from sdf_tools.convert.conversion_report import ConversionReport
from sdf_tools.convert.flatten import FlatModel, flatten, pose_in_link
from sdf_tools.convert.joint_names import written_name
from sdf_tools.convert.mjcf.inertia import composite
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
    geoms: int = 0
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


def _link_pose(c: Checked, m: Any, d: Any, name: str, want: Transform) -> int:
    """Compare a link's world pose with its body's (or site's); return the body id (-1: none)."""
    b = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, name)
    if b >= 0:
        err = _pose_error(want, d.xpos[b], _rot(d.xquat[b]))
    else:
        s = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_SITE, name)
        if s < 0:
            c.problems.append(f'link [{name}]: no body or site of that name')
            return -1
        err = _pose_error(want, d.site_xpos[s], d.site_xmat[s].reshape(3, 3))
        b = int(m.site_bodyid[s])
    c.bodies += 1
    if err > TOL:
        c.problems.append(f'link [{name}]: world pose off by {err:.3g}')
    return b


def _joint(c: Checked, m: Any, d: Any, flat: FlatModel, j: Any, root: Transform,
           prefix: str) -> None:
    """Compare the world anchor and axis of each MJCF hinge/slide a source joint became.

    The joint itself carries axis (axis2 for a gearbox holding its link alone, as
    written); a universal or revolute2 joint's second hinge ``<name>__axis2`` carries axis2.
    """
    moving = (int(mujoco.mjtJoint.mjJNT_HINGE), int(mujoco.mjtJoint.mjJNT_SLIDE))
    pairs = [(written_name(j), 1 if j.joint.type == 'gearbox' else 0)]
    if j.joint.type in ('universal', 'revolute2'):
        pairs.append((f'{j.name}__axis2', 1))
    x_wj = root * flat.world_pose(j.vid)
    for name, k in pairs:
        jid = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, prefix + name)
        axis_j = j.axes[k] if k < len(j.axes) else None
        if jid < 0 or int(m.jnt_type[jid]) not in moving or axis_j is None:
            continue
        axis = np.asarray(x_wj.rotate(axis_j))
        axis /= np.linalg.norm(axis)
        err = max(float(np.abs(np.asarray(x_wj.p) - d.xanchor[jid]).max()),
                  float(np.abs(axis - d.xaxis[jid]).max()))
        c.joints += 1
        if err > TOL:
            c.problems.append(f'joint [{name}]: world anchor/axis off by {err:.3g}')


def _masses(c: Checked, m: Any, flat: FlatModel, groups: dict[int, list[Any]],
            prefix: str) -> None:
    """Compare each body's mass, centre of mass and inertia with its source links'.

    A body holds its link and the massless links folded into it as sites (URDF
    preparation lumps them as libsdformat does, inertia included), so the reference
    is the combination of those links' inertials, in the body frame. The body's own
    link counts only with mass: a massless link is written without ``<inertial>``.
    """
    for b, links in groups.items():
        name = m.body(b).name
        body_fl = flat.link(name[len(prefix):])
        parts = []
        for fl in links:
            i = fl.link.inertial
            if i is not None and (i.mass > 1e-6 or fl is not body_fl):
                parts.append((i, flat.rel(body_fl.vid, fl.vid) * pose_in_link(flat, fl, i.pose)))
        mass, want = composite(parts)
        if mass <= 1e-6:
            continue  # defaults and massless policies are checked against the report
        com = sum(i.mass * np.asarray(x.p) for i, x in parts) / mass
        r = _rot(m.body_iquat[b])
        got = r @ np.diag(m.body_inertia[b]) @ r.T
        scale = max(float(np.abs(want).max()), 1e-300)
        c.masses += 1
        if abs(m.body_mass[b] - mass) > TOL * max(1.0, mass):
            c.problems.append(f'body [{name}]: mass {m.body_mass[b]!r}, want {mass!r}')
        elif float(np.abs(got - want).max()) > INERTIA_RTOL * scale:
            c.problems.append(f'body [{name}]: inertia off by {float(np.abs(got - want).max()):.3g}')
        elif float(np.abs(m.body_ipos[b] - com).max()) > TOL:
            c.problems.append(f'body [{name}]: centre of mass off')


# SDFormat shape -> (MuJoCo geom type, its size from the shape's parameters).
_SIZES = {
    'box': ('box', lambda p: [v / 2 for v in p['size']]),
    'sphere': ('sphere', lambda p: [p['radius']]),
    'cylinder': ('cylinder', lambda p: [p['radius'], p['length'] / 2]),
    'capsule': ('capsule', lambda p: [p['radius'], p['length'] / 2]),
    'ellipsoid': ('ellipsoid', lambda p: list(p['radii'])),
    'mesh': ('mesh', lambda p: []),
}


def _geoms(c: Checked, m: Any, flat: FlatModel, fl: Any, name: str) -> None:
    """Compare each visual's and collision's pose in its link and size with its MuJoCo geom."""
    items = [*fl.link.visuals, *fl.link.collisions]
    for item in items:
        g = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, f'{name}/{item.name}')
        shape = _SIZES.get(item.geometry.type) if item.geometry is not None else None
        shared = {x.name for x in fl.link.visuals} & {x.name for x in fl.link.collisions}
        if g < 0 or shape is None or item.name in shared:
            continue  # dropped (reported), approximated with an offset, or a renamed geom
        want = pose_in_link(flat, fl, item.pose)
        # The compiled geom frame in its body (not geom_xmat: MuJoCo's kinematics snaps a
        # geom frame within its own tolerance of the body frame onto it, geom_sameframe).
        pos, mat = np.asarray(m.geom_pos[g]), _rot(m.geom_quat[g])
        if int(m.geom_type[g]) == int(mujoco.mjtGeom.mjGEOM_MESH):
            k = int(m.geom_dataid[g])  # MuJoCo moved the mesh to its centroid frame: undo it
            mat = mat @ _rot(m.mesh_quat[k]).T
            pos = pos - mat @ np.asarray(m.mesh_pos[k])
        c.geoms += 1
        err = _pose_error(want, pos, mat)
        size = shape[1](item.geometry.params)
        serr = float(np.abs(np.asarray(size) - m.geom_size[g][:len(size)]).max()) if size else 0.0
        if err > TOL or serr > TOL:
            c.problems.append(f'geom [{name}/{item.name}]: pose off by {err:.3g}, size by {serr:.3g}')


def check_export(text: str, loaded: LoadResult, *, root: Transform = IDENTITY,
                 model: str | None = None, balanced: frozenset[str] = frozenset()) -> Checked:
    """Compare MuJoCo's kinematics of ``text`` with the source's resolved frames."""
    m, d = compile_mjcf(text)
    c = Checked()
    flats = source_flats(loaded, model)
    for flat in flats:
        prefix = f'{flat.name}::' if len(flats) > 1 else ''
        groups: dict[int, list[Any]] = {}
        for fl in flat.links:
            b = _link_pose(c, m, d, prefix + fl.name, root * flat.world_pose(fl.vid))
            if b > 0:
                groups.setdefault(b, []).append(fl)
                if m.body(b).name == prefix + fl.name:
                    _geoms(c, m, flat, fl, prefix + fl.name)
        skip = {b for b, fls in groups.items() if any(fl.name in balanced for fl in fls)
                or flat.link(m.body(b).name[len(prefix):]) is None}
        _masses(c, m, flat, {b: g for b, g in groups.items() if b not in skip}, prefix)
        for j in flat.joints:
            _joint(c, m, d, flat, j, root, prefix)
    return c
