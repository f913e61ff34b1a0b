"""Read MJCF through MuJoCo's own model-spec API into the description model.

MuJoCo interprets the file (default classes, ``<compiler>`` angle and
Euler conventions, ``<include>``, ``fromto``, mesh directories):
``mujoco.MjSpec.from_file`` parses it and ``spec.compile()`` resolves it.
The compiled model at ``qpos0`` is then mapped:

=====================  ==========================================================
MJCF                   description model
=====================  ==========================================================
body                   link at its world pose (``mj_kinematics`` at qpos0)
no joint               fixed joint to the parent body (``world`` for top bodies)
freejoint (top body)   no joint: a free link, as SDFormat has it
hinge / slide / ball   revolute (continuous when unlimited) / prismatic / ball,
                       at the joint's anchor in the child link, axis likewise
several joints         a chain through massless links at the body's pose
inertial               mass, principal moments, ``ipos``/``iquat`` as the pose
geom                   collision when it collides (contype or conaffinity), visual
                       when it is drawn (group 0-2, or a non-colliding geom)
site                   ``<frame>`` attached to its body
equality joint         ``mimic`` (polycoef a0 + a1 x; higher terms reported)
sensors at a site,     sensors of the body's link (mjcf/read_sensors.py: imu, magnetometer,
cameras                force_torque, ray, contact, altimeter, camera)
custom numeric         ``velocity_limit:JOINT`` -> the joint's velocity limit
=====================  ==========================================================

Everything else (actuators, tendons, other equalities, other sensors,
lights, contact pairs/excludes, keyframes, plugins, hfield and SDF geoms)
is reported as not carried over, with the line of its element in the main
file where it has a name.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.mjcf.names import JOINT_TEXT, LINK_TEXT
from sdf_tools.convert.mjcf.read_contact import surface
from sdf_tools.model import (
    Collision,
    Extra,
    Frame,
    Geometry,
    Inertial,
    Joint,
    JointAxis,
    Link,
    Loc,
    Model,
    RawPose,
    Visual,
)
from sdf_tools.transform import Transform

_FREE, _BALL, _SLIDE, _HINGE = 0, 1, 2, 3
_GEOMS = {0: 'plane', 2: 'sphere', 3: 'capsule', 4: 'ellipsoid', 5: 'cylinder', 6: 'box',
          7: 'mesh'}


@dataclass
class MjcfSource:
    """A compiled MJCF file and what mapping it needs."""

    path: Path
    spec: Any            # mujoco.MjSpec
    model: Any           # mujoco.MjModel
    data: Any            # mujoco.MjData after mj_kinematics at qpos0
    lines: dict[tuple[str, str], int] = field(default_factory=dict)
    report: ConversionReport = field(default_factory=ConversionReport)
    texts: dict[str, str] = field(default_factory=dict)  # <custom><text> name -> data
    carried_textures: set[int] = field(default_factory=set)  # albedo maps of visuals

    def line(self, tag: str, name: str) -> int | None:
        """Return the line of element ``<tag name=...>`` (any tag of that name if none)."""
        return self.lines.get((tag, name)) or self.lines.get(('*', name))

    def loc(self, tag: str, name: str) -> Loc:
        return Loc(str(self.path), self.line(tag, name))

    def where(self, tag: str, name: str) -> tuple[str, int | None]:
        return str(self.path), self.line(tag, name)


def source_lines(path: Path) -> dict[tuple[str, str], int]:
    """Return (tag, name) -> line of every named element of the main file (``*``: any tag)."""
    try:
        root = etree.parse(str(path)).getroot()
    except (OSError, etree.XMLSyntaxError):
        return {}
    out: dict[tuple[str, str], int] = {}
    for el in root.iter():
        name, line = el.get('name'), el.sourceline
        if isinstance(el.tag, str) and isinstance(line, int):
            out.setdefault((el.tag, ''), line)  # the first element of a tag (<option>)
        if isinstance(el.tag, str) and name and isinstance(line, int):
            out.setdefault((el.tag, str(name)), line)
            out.setdefault(('*', str(name)), line)
    return out


def _t(pos: Any, quat: Any) -> Transform:
    w, x, y, z = (float(v) for v in quat)
    return Transform((float(pos[0]), float(pos[1]), float(pos[2])), (w, x, y, z))


def element_name(src: MjcfSource, kind: str, i: int, fallback: str) -> str:
    """Return an element's name, ``::`` (reserved in SDFormat names) written as ``__``."""
    got = str(getattr(src.model, kind)(i).name or '')
    if '::' in got:
        src.report.add(ReportKind.RENAMED, f'{kind}[{got}]', f'named [{got.replace("::", "__")}]: '
                       '"::" is reserved in SDFormat names', *src.where(kind, got))
        got = got.replace('::', '__')
    return got or fallback


def body_name(src: MjcfSource, b: int) -> str:
    """Return the link name of body ``b`` (``body<b>`` when unnamed)."""
    got = str(src.model.body(b).name or '')
    return got.replace('::', '__') if got else f'body{b}'


def _inertial(src: MjcfSource, b: int) -> Inertial:
    m = src.model
    i = m.body_inertia[b]
    return Inertial(float(m.body_mass[b]), (float(i[0]), 0.0, 0.0, float(i[1]), 0.0, float(i[2])),
                    RawPose(_t(m.body_ipos[b], m.body_iquat[b])))


def link_of_body(src: MjcfSource, b: int) -> Link:
    """Return the link of body ``b`` at its world pose at qpos0."""
    name = element_name(src, 'body', b, f'body{b}')
    world = _t(src.data.xpos[b], src.data.xquat[b])
    link = Link(name, RawPose(world), _inertial(src, b), loc=src.loc('body', name))
    if float(src.model.body_gravcomp[b]) == 1.0:
        link.gravity = False
    return link


def velocity_limits(src: MjcfSource) -> dict[str, float]:
    """Return joint -> velocity limit from ``velocity_limit:JOINT`` numerics."""
    m = src.model
    out = {}
    for k in range(m.nnumeric):
        name = str(m.numeric(k).name)
        if name.startswith('velocity_limit:') and m.numeric_size[k] >= 1:
            out[name[len('velocity_limit:'):].replace('::', '__')] = float(m.numeric_data[m.numeric_adr[k]])
    return out


def _axis(src: MjcfSource, j: int, velocity: dict[str, float]) -> JointAxis:
    m = src.model
    dof = m.jnt_dofadr[j]
    name = element_name(src, 'joint', j, f'joint{j}')
    a = JointAxis(tuple(float(v) for v in m.jnt_axis[j]))  # type: ignore[arg-type]
    if m.jnt_limited[j]:
        a.lower, a.upper = float(m.jnt_range[j][0]), float(m.jnt_range[j][1])
    a.damping = float(m.dof_damping[dof])
    if float(m.dof_armature[dof]):
        src.report.add(ReportKind.DROPPED, f'joint[{name}]/armature', f'armature '
                       f'{float(m.dof_armature[dof])!r}: the description model has no rotor '
                       'inertia', *src.where('joint', name))
    a.friction = float(m.dof_frictionloss[dof])
    a.spring_stiffness = float(m.jnt_stiffness[j])
    if a.spring_stiffness:
        a.spring_reference = float(m.qpos_spring[m.jnt_qposadr[j]])
    if m.jnt_actfrclimited[j]:
        lo, hi = (float(v) for v in m.jnt_actfrcrange[j])
        a.effort = max(-lo, hi)
        if lo != -hi:
            src.report.add(ReportKind.APPROXIMATED, f'joint[{name}]/actuatorfrcrange',
                           f'asymmetric range [{lo}, {hi}] written as effort {a.effort}',
                           *src.where('joint', name))
    a.velocity = velocity.get(name, -1.0)
    _ref(src, j, name, a)
    return a


def _ref(src: MjcfSource, j: int, name: str, a: JointAxis) -> None:
    """Shift limits and spring reference by the joint's ``ref``.

    The links are placed at qpos0, where the joint is at ``ref``: that is position 0 of
    the SDFormat joint, so MuJoCo's position q is SDFormat's q - ref.
    """
    ref = float(src.model.qpos0[src.model.jnt_qposadr[j]])
    if not ref:
        return
    if src.model.jnt_limited[j]:
        a.lower, a.upper = a.lower - ref, a.upper - ref
    if a.spring_stiffness:
        a.spring_reference -= ref
    src.report.add(ReportKind.REWRITTEN, f'joint[{name}]/ref', f'ref {ref!r}: the links are '
                   'placed at the joint position ref, which is position 0 of the SDFormat '
                   'joint; limits and spring reference shifted by -ref', *src.where('joint', name))


def _joint(src: MjcfSource, j: int, parent: str, child: str, velocity: dict[str, float]) -> Joint:
    m = src.model
    name = element_name(src, 'joint', j, f'joint{j}')
    jt = int(m.jnt_type[j])
    if jt == _BALL:
        kind = 'ball'
    elif jt == _SLIDE:
        kind = 'prismatic'
    else:
        kind = 'revolute' if m.jnt_limited[j] else 'continuous'
    pose = RawPose(Transform(tuple(float(v) for v in m.jnt_pos[j])), child)  # type: ignore[arg-type]
    axis = _axis(src, j, velocity) if jt != _BALL else None
    return Joint(name, kind, parent, child, pose, axis, loc=src.loc('joint', name))


def joints_of_body(src: MjcfSource, b: int, parent: str, links: list[Link],
                   velocity: dict[str, float]) -> list[Joint]:
    """Return the joints holding body ``b`` (a chain through massless links for several)."""
    m = src.model
    child = body_name(src, b)
    ids = [int(m.body_jntadr[b]) + k for k in range(int(m.body_jntnum[b]))]
    if any(int(m.jnt_type[j]) == _FREE for j in ids):
        return []
    if not ids:
        # The name our export recorded for the fixed joint (mjcf/names.py), else a made one.
        name = src.texts.get(f'{JOINT_TEXT}{child}', f'{child}__fixed')
        return [Joint(name, 'fixed', parent, child, RawPose(Transform(), child),
                      loc=src.loc('body', child))]
    out, upper = [], parent
    at = RawPose(_t(src.data.xpos[b], src.data.xquat[b]))
    for k, j in enumerate(ids):
        last = k == len(ids) - 1
        lower = child if last else f'{child}__dof{k + 1}'
        if not last:
            links.append(Link(lower, at, Inertial(0.0, (0.0,) * 6), loc=src.loc('body', child)))
        out.append(_joint(src, j, upper, lower, velocity))
        upper = lower
    if len(ids) > 1:
        src.report.add(ReportKind.REWRITTEN, f'body[{child}]', f'{len(ids)} joints in one body: '
                       "a chain of joints through massless links at the body's pose",
                       *src.where('body', child))
    return out


def geoms(src: MjcfSource, b: int, link: Link) -> None:
    """Add the geoms of body ``b`` to ``link`` as visuals and collisions."""
    m = src.model
    for g in range(m.ngeom):
        if int(m.geom_bodyid[g]) != b:
            continue
        name = element_name(src, 'geom', g, f'geom{g}')
        geometry = _geometry(src, g, name)
        if geometry is None:
            continue
        pose = RawPose(_pose_of_geom(src, g))
        collides = bool(m.geom_contype[g] or m.geom_conaffinity[g])
        if collides:
            extras = surface(src, g, name)
            link.collisions.append(Collision(name, pose, geometry, extras,
                                             src.loc('geom', name)))
        if not collides or int(m.geom_group[g]) < 3:
            mat = int(m.geom_matid[g])
            rgba = m.mat_rgba[mat] if mat >= 0 else m.geom_rgba[g]
            albedo = texture_file(src, mat) if mat >= 0 else None
            pbr = (f'<pbr><metal><albedo_map>{albedo}</albedo_map></metal></pbr>'
                   if albedo is not None else '')
            xml = (f'<material><diffuse>{" ".join(repr(float(c)) for c in rgba)}</diffuse>'
                   f'{pbr}</material>')
            link.visuals.append(Visual(name, pose, geometry, [Extra('material', xml)],
                                       src.loc('geom', name)))


def _pose_of_geom(src: MjcfSource, g: int) -> Transform:
    m = src.model
    t = _t(m.geom_pos[g], m.geom_quat[g])
    if int(m.geom_type[g]) == 7:  # the compiler moved the mesh to its centroid frame
        mesh = int(m.geom_dataid[g])
        t = t * _t(m.mesh_pos[mesh], m.mesh_quat[mesh]).inverse()
    return t


def _geometry(src: MjcfSource, g: int, name: str) -> Geometry | None:
    m = src.model
    t = int(m.geom_type[g])
    s = [float(v) for v in m.geom_size[g]]
    kind = _GEOMS.get(t)
    loc = src.loc('geom', name)
    if kind is None:
        src.report.add(ReportKind.DROPPED, f'geom[{name}]', 'height field or SDF geom: not '
                       'carried over', *src.where('geom', name))
        return None
    if kind == 'plane':
        size = [2 * s[0] or 100.0, 2 * s[1] or 100.0]
        return Geometry('plane', {'normal': [0.0, 0.0, 1.0], 'size': size}, loc)
    if kind == 'sphere':
        return Geometry('sphere', {'radius': s[0]}, loc)
    if kind in ('capsule', 'cylinder'):
        return Geometry(kind, {'radius': s[0], 'length': 2 * s[1]}, loc)
    if kind == 'ellipsoid':
        return Geometry('ellipsoid', {'radii': s}, loc)
    if kind == 'box':
        return Geometry('box', {'size': [2 * v for v in s]}, loc)
    return _mesh_geometry(src, int(m.geom_dataid[g]), loc)


def texture_file(src: MjcfSource, mat: int) -> str | None:
    """Return the image file of material ``mat``'s colour texture (2D, from a file), if any.

    It is the visual's PBR ``albedo_map``; the texture is then carried (see
    :func:`~sdf_tools.convert.mjcf.read_contact.texture_losses`).
    """
    m = src.model
    tex = int(m.mat_texid[mat][1]) if m.mat_texid.ndim == 2 else int(m.mat_texid[mat])
    if tex < 0 or int(m.tex_type[tex]) != 0:  # mjTEXTURE_2D
        return None
    file = Path(str(src.spec.textures[tex].file or ''))
    if not str(file) or str(file) == '.':
        return None  # generated by MuJoCo (builtin checker, gradient...)
    folder = getattr(src.spec, 'texturedir', '') or ''
    path = file if file.is_absolute() else src.path.parent / folder / file
    if not path.is_file():
        return None
    src.carried_textures.add(tex)
    return str(path.resolve())


def _mesh_geometry(src: MjcfSource, mesh: int, loc: Loc) -> Geometry:
    spec_mesh = src.spec.meshes[mesh]
    meshdir = getattr(src.spec, 'meshdir', '') or ''
    file = Path(str(spec_mesh.file))
    path = file if file.is_absolute() else src.path.parent / meshdir / file
    scale = [float(v) for v in spec_mesh.scale]
    return Geometry('mesh', {'uri': str(path.resolve()), 'scale': scale}, loc)


def custom_texts(m: Any) -> dict[str, str]:
    """Return the model's ``<custom><text>`` elements, name -> data."""
    import mujoco
    data = bytes(m.text_data)
    out = {}
    for k in range(int(m.ntext)):
        name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_TEXT, k) or ''
        adr, size = int(m.text_adr[k]), int(m.text_size[k])
        out[name] = data[adr:adr + size].rstrip(b'\0').decode('utf-8', 'replace')
    return out


def sites(src: MjcfSource, model: Model) -> None:
    """Add each site as a ``<frame>`` attached to its body.

    A site our export recorded as a folded link without mass (mjcf/names.py) is that
    link again, held by its fixed joint, so a URDF round trip keeps both names.
    """
    m = src.model
    for s in range(m.nsite):
        name = element_name(src, 'site', s, f'site{s}')
        b = int(m.site_bodyid[s])
        attached = '' if b == 0 else body_name(src, b)
        pose = RawPose(_t(m.site_pos[s], m.site_quat[s]), attached)
        joint = src.texts.get(f'{LINK_TEXT}{name}')
        if joint is None or not attached:
            model.frames.append(Frame(name, attached, pose, src.loc('site', name)))
            continue
        world = src.data.site_xpos[s], src.data.site_xmat[s]
        at = Transform(tuple(float(v) for v in world[0]),  # type: ignore[arg-type]
                       _mat_quat(world[1]))
        model.links.append(Link(name, RawPose(at), Inertial(0.0, (0.0,) * 6),
                                loc=src.loc('site', name)))
        model.joints.append(Joint(joint, 'fixed', attached, name, RawPose(Transform(), name),
                                  loc=src.loc('site', name)))


def _mat_quat(mat: Any) -> tuple[float, float, float, float]:
    import mujoco
    import numpy as np
    q = np.zeros(4)
    mujoco.mju_mat2Quat(q, np.asarray(mat, dtype=float))
    w, x, y, z = (float(v) for v in q)
    return (w, x, y, z)
