"""Walk one flattened model into MJCF bodies: a body per link, placed by the resolved frames.

A top body's ``pos``/``quat`` is its link's pose in the world; a child's is
its link's pose in the parent link's frame, composed through their nearest
common ancestor in the pose graph (:meth:`FlatModel.rel`). Joints go into
the child body (:mod:`~sdf_tools.convert.mjcf.joints`), ``<inertial>`` and
geoms next to them, ``<frame>``\\ s become ``<site>``\\ s in the body they
are attached to. A link no joint holds gets a ``<freejoint/>`` unless its
model is static. A joint cut to break a kinematic loop is written on an
extra body of ``default_mass`` under its parent, at its child's pose, and
``<equality><weld>``\\ ed to the child.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import WORLD, FlatJoint, FlatLink, FlatModel, pose_in_link, where
from sdf_tools.convert.massless import default_inertial
from sdf_tools.convert.mjcf.contact import CollisionBody, surface_attrs
from sdf_tools.convert.mjcf.geometry import Assets, GeomContext, write_geoms
from sdf_tools.convert.mjcf.inertia import (
    MUJOCO_MINVAL,
    authored_inertial,
    composite,
    degenerate,
    fix_degenerate,
    write_inertial,
)
from sdf_tools.convert.mjcf.joints import MOVING, JointContext, write_couplings, write_joint
from sdf_tools.convert.mjcf.sensors import (
    SensorContext,
    report_unwritten,
    write_joint_sensors,
    write_link_sensors,
)
from sdf_tools.convert.mjcf.tree import BodyTree
from sdf_tools.convert.mjcf.writer import num, pose_attrs, sub
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.model import Inertial, Link
from sdf_tools.transform import Transform

Weld = tuple[str, str]  # (MJCF name of the moving body at or above, that body's parent weld)


@dataclass
class ModelExport:
    """The export of one model into the shared document."""

    flat: FlatModel
    tree: BodyTree
    joints: JointContext
    assets: Assets
    options: ConversionOptions
    urdf: bool
    elements: dict[str, etree._Element] = field(default_factory=dict)
    collision_bodies: list[CollisionBody] = field(default_factory=list)
    errors: list[Diagnostic] = field(default_factory=list)
    balance: bool = False
    sensors: SensorContext | None = None
    # Frames of fixed joints whose folded link's site says it all (mjcf/names.py).
    skip_sites: set[str] = field(default_factory=set)

    @property
    def report(self) -> ConversionReport:
        return self.joints.report

    @property
    def prefix(self) -> str:
        return self.joints.prefix


def _moves(ex: ModelExport, name: str) -> bool:
    """Return whether the body of link ``name`` has a joint (free, or one MJCF knows)."""
    pj = ex.tree.parent_joint.get(name)
    if pj is None:
        fl = ex.flat.link(name)
        return fl is not None and not fl.static
    return pj.joint.type in MOVING


def _welded(ex: ModelExport, name: str) -> list[str]:
    """Return ``name`` and the links welded to it (below it, through no moving joint)."""
    out, todo = [], [name]
    while todo:
        link = todo.pop()
        out.append(link)
        todo += [c for c in ex.tree.children.get(link, []) if not _moves(ex, c)]
    return out


def _settle_inertials(ex: ModelExport) -> dict[str, Inertial | None]:
    """Return the inertial of every link, with MuJoCo's rule for moving bodies applied."""
    out = {fl.name: authored_inertial(fl, ex.urdf, ex.report) for fl in ex.flat.links}
    for fl in ex.flat.links:
        if not _moves(ex, fl.name):
            continue
        parts = []
        for member in _welded(ex, fl.name):
            got, mfl = out[member], ex.flat.link(member)
            if got is not None and mfl is not None:
                x = ex.flat.rel(fl.vid, mfl.vid) * pose_in_link(ex.flat, mfl, got.pose)
                parts.append((got, x))
        mass, tensor = composite(parts)
        if not degenerate(mass, tensor):
            continue
        fixed = fix_degenerate(fl, out[fl.name], mass <= MUJOCO_MINVAL, ex.options.massless_links,
                               ex.options.default_mass, ex.report)
        if isinstance(fixed, str):
            ex.errors.append(Diagnostic(ErrorCode.URDF_INVALID, fixed, *where(fl.link.loc)))
        else:
            out[fl.name] = fixed
    return out


def _link_losses(ex: ModelExport, fl: FlatLink, body: etree._Element) -> None:
    link: Link = fl.link
    label = f'link[{fl.scoped}]'
    lost = [('light', x.name, x.type, x.loc) for x in link.lights]
    for what, name, kind, loc in lost:
        ex.report.add(ReportKind.DROPPED, f'{label}/{what}[{name}]',
                      f'{what} of type [{kind}]: not exported to MJCF', *where(loc))
    for x in link.extras:  # custom or unknown children: nothing in MJCF reads them
        ex.report.add(ReportKind.DROPPED, f'{label}/{x.tag}', 'not exported to MJCF',
                      *where(x.loc or link.loc))
    if not link.gravity:
        body.set('gravcomp', '1')
        ex.report.add(ReportKind.REWRITTEN, label, 'gravity off: gravcomp="1" (MuJoCo cancels '
                      'gravity on the body)', *where(link.loc))
    if link.kinematic:
        ex.report.add(ReportKind.DROPPED, label, 'kinematic link: MuJoCo has no kinematic '
                      'bodies; it is simulated dynamically', *where(link.loc))


def _inertial(ex: ModelExport, fl: FlatLink, body: etree._Element, got: Inertial | None) -> None:
    if got is None:
        return
    x_li = pose_in_link(ex.flat, fl, got.pose)
    if write_inertial(body, got, x_li):
        ex.balance = True
        ex.report.add(ReportKind.APPROXIMATED, f'link[{fl.scoped}]/inertial', 'principal moments '
                      'break the triangle inequality A + B >= C (or meet it only to rounding): '
                      'MuJoCo balances them (balanceinertia)', *where(got.loc or fl.link.loc))


def _geoms(ex: ModelExport, fl: FlatLink, body: etree._Element, weld: Weld) -> None:
    ctx = GeomContext(ex.assets, ex.report, f'link[{fl.scoped}]',
                      lambda raw: pose_in_link(ex.flat, fl, raw), weld[0] == '',
                      f'{ex.prefix}{fl.name}/')
    for v in fl.link.visuals:
        write_geoms(body, v, 'visual', ctx, {})
    written = []
    for c in fl.link.collisions:
        written += write_geoms(body, c, 'collision', ctx,
                               surface_attrs(c, f'link[{fl.scoped}]/collision[{c.name}]', ex.report))
    if written:
        own = fl.link.self_collide
        collide = own if own is not None else ex.flat.model.self_collide
        ex.collision_bodies.append(CollisionBody(ex.prefix + fl.name, weld[0], weld[1], collide,
                                                 ex.flat.name, tuple(written)))


def _body(ex: ModelExport, parent_el: etree._Element, name: str, parent: str | None,
          weld: Weld, inertials: dict[str, Inertial | None]) -> None:
    fl = ex.flat.link(name)
    assert fl is not None
    pose = ex.flat.world_pose(fl.vid) if parent is None else ex.flat.rel(ex.flat.vid(parent),
                                                                          fl.vid)
    body = sub(parent_el, 'body', name=ex.prefix + fl.name, **pose_attrs(pose))
    ex.elements[name] = body
    pj = ex.tree.parent_joint.get(name)
    if pj is not None:
        write_joint(body, pj, fl.vid, ex.joints)
        moving = bool(ex.joints.written.get(pj.name))
    else:
        moving = not fl.static
        if moving:
            sub(body, 'freejoint', name=f'{ex.prefix}{fl.name}__free')
            if name != ex.flat.canonical:
                ex.report.add(ReportKind.KEPT, f'link[{fl.scoped}]', 'no joint holds it: a free '
                              'body (<freejoint/>), as in SDFormat', *where(fl.link.loc))
    here: Weld = (ex.prefix + fl.name, weld[0]) if moving else weld
    _inertial(ex, fl, body, inertials[name])
    _geoms(ex, fl, body, here)
    assert ex.sensors is not None
    write_link_sensors(ex.sensors, fl, body)
    if pj is not None:
        write_joint_sensors(ex.sensors, pj, fl, body)
    _link_losses(ex, fl, body)
    for child in ex.tree.children.get(name, []):
        _body(ex, body, child, name, here, inertials)


def _loop_body(ex: ModelExport, j: FlatJoint, worldbody: etree._Element) -> None:
    assert j.parent is not None and j.child is not None
    child = ex.flat.link(j.child)
    assert child is not None
    if j.parent == WORLD:
        holder, pose = worldbody, ex.flat.world_pose(child.vid)
    else:
        holder, pose = ex.elements[j.parent], ex.flat.rel(ex.flat.vid(j.parent), child.vid)
    name = ex.flat.namer.take(f'{j.name}__loop')
    body = sub(holder, 'body', name=ex.prefix + name, **pose_attrs(pose))
    write_joint(body, j, child.vid, ex.joints)
    assert ex.sensors is not None
    write_joint_sensors(ex.sensors, j, child, body)
    mass = ex.options.default_mass
    write_inertial(body, default_inertial(Link(name), mass), Transform())
    sub(ex.joints.doc.section('equality'), 'weld', name=f'{ex.prefix}{j.name}__closure',
        body1=ex.prefix + name, body2=ex.prefix + j.child)
    ex.report.add(ReportKind.REWRITTEN, f'joint[{j.scoped}]', f'loop closure: the joint moves '
                  f'body [{ex.prefix}{name}] ({num(mass)} kg, default_mass) at the pose of '
                  f'[{j.child}], welded to it by <equality><weld>', *where(j.joint.loc))


def _sites(ex: ModelExport, worldbody: etree._Element) -> None:
    for fr in ex.flat.frames:
        if fr.name in ex.skip_sites:
            continue
        if fr.body is None:
            ex.report.add(ReportKind.DROPPED, f'frame[{fr.scoped}]', 'attached to no link',
                          *where(fr.frame.loc))
            continue
        if fr.body == WORLD or fr.body not in ex.elements:
            holder, pose = worldbody, ex.flat.world_pose(fr.vid)
        else:
            holder, pose = ex.elements[fr.body], ex.flat.rel(ex.flat.vid(fr.body), fr.vid)
        sub(holder, 'site', name=ex.prefix + fr.name, **pose_attrs(pose))


def export_model(ex: ModelExport, worldbody: etree._Element) -> None:
    """Write the bodies, joints, sites and couplings of one model."""
    inertials = _settle_inertials(ex)
    ex.sensors = SensorContext(ex.joints.doc, ex.flat, ex.report, ex.prefix)
    for root in ex.tree.roots():
        _body(ex, worldbody, root, None, ('', ''), inertials)
    for j in ex.tree.cuts:
        _loop_body(ex, j, worldbody)
    _sites(ex, worldbody)
    report_unwritten(ex.sensors)
    write_couplings(ex.joints, ex.tree.couplings, ex.tree.parent_joint)
