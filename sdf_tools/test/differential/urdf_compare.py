"""Compare our report of a URDF with libsdformat 12's, which converts the robot first.

libsdformat does not read a URDF as written: ``src/parser_urdf.cc`` converts it to
SDFormat 1.7 text, and that reshapes the robot (``docs/libsdformat12-notes.md`` §11). Our
reader keeps the robot as written and warns where libsdformat differs, so the two
reports differ in shape by construction. :func:`plan_urdf` replays the structural rules
of the conversion on the URDF, and :func:`compare_urdf` compares what must still agree.

Structure (replayed by :func:`plan_urdf`):

* **Lumping** (``ReduceFixedJoints``): the child of a fixed joint disappears into the
  first ancestor reached through non-fixed joints (or whose parent is ``world``); its
  mass, visuals and collisions move there, its child joints are re-parented. Not for a
  joint named by ``<gazebo reference>`` with ``preserveFixedJoint`` (kept fixed) or
  ``disableFixedJointLumping`` (kept as a revolute joint with zero limits).
* **Dropping** (``CreateSDF``): a link other than ``world`` without ``<inertial>`` or
  with mass 0 (|m| <= 1e-6, after lumping) is not written, nor anything below it, nor its
  parent joint. The walk goes through lumped links too: a massless lumped link drops its
  non-fixed subtree.
* **Rejections** (libsdformat-only; our reader warns and stays valid): ``floating`` and
  ``planar`` joints are not written while their child link is (``POSE_RELATIVE_TO_INVALID``);
  no link written at all (``MODEL_WITHOUT_LINK``); lumping an ``<inertial>`` into a parent
  of running mass 0 gives a 0/0 centre of mass (``dMassAdd``) and so a non-finite
  ``<pose>`` once the parent is written (``ELEMENT_INVALID``; nothing is loaded).
* A written joint named by any ``<gazebo reference>`` gets an ``<axis>`` if it has none
  (``InsertSDFExtensionJoint``): ``0 0 1`` in the joint frame, default limits.

Children are visited in the order of their joints' names (urdfdom keeps joints in a
``std::map``); the NaN rule depends on it.

Numbers: every pose is written as text, so rotations pass through an Euler extraction:
ignition's ``Quaternion::Euler`` for joints and inertials (it clamps the pitch's sine at
1, so a pitch within ~1.5e-8 of ±pi/2 becomes ±pi/2, and which way a value that close
goes depends on the last bit of libsdformat's quaternion), and urdfdom's
``Rotation::getRPY`` for visuals, collisions and ``<robot><origin>`` (it snaps any pitch
whose sine is beyond ±0.99999, i.e. within 0.26° of ±pi/2, to ±pi/2). Every value is
compared directly first; a pose that differs is accepted only when libsdformat's value
is exactly that round trip (rebuilt here, from the origins as urdfdom reads them, at the
full tolerance) and ours is the origin as written (same tolerance).

Compared (absolute tolerance, never loosened): the verdict; for every model, link and
joint libsdformat reports, ours has the same name and world pose; joints the same world
axis, type (``continuous`` is written as ``revolute``), child, parent (after
re-parenting), limits (effort and velocity only for ``continuous``, which gets no
bounds) and dynamics; mass, inertia and inertial pose of links that absorbed no lumped
``<inertial>``; visuals and collisions by name for links that absorbed nothing, otherwise
as (pose, geometry) pairs since lumped ones are renamed, mesh URIs after libsdformat's
``package://`` → ``model://`` rewrite. Every link or joint only in ours must be lumped,
dropped, or a floating/planar joint.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from lxml import etree

__all__ = ['Rejection', 'UrdfPlan', 'compare_urdf', 'plan_urdf']

#: libsdformat's test for "massless" (``ignition::math::equal(mass, 0.0)``).
MASSLESS_EPS = 1e-6
_TRUE = ('true', 'yes', '1')
_XML_DECL = re.compile(rb'^\s*<\?xml[^>]*\?>')


# ---------------------------------------------------------------------------------------
# Pose arithmetic and libsdformat's text round trips. A pose is (xyz, quaternion xyzw).

Vec = tuple[float, float, float]
Quat = tuple[float, float, float, float]
Pose = tuple[Vec, Quat]


def _qmul(a: Quat, b: Quat) -> Quat:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz)


def _rotate(q: Quat, v: Sequence[float]) -> Vec:
    x, y, z, w = q
    tx, ty, tz = 2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])
    return (v[0] + w * tx + y * tz - z * ty, v[1] + w * ty + z * tx - x * tz,
            v[2] + w * tz + x * ty - y * tx)


def _mul(a: Pose, b: Pose) -> Pose:
    r = _rotate(a[1], b[0])
    return (a[0][0] + r[0], a[0][1] + r[1], a[0][2] + r[2]), _qmul(a[1], b[1])


def _inv(a: Pose) -> Pose:
    q = (-a[1][0], -a[1][1], -a[1][2], a[1][3])
    p = _rotate(q, a[0])
    return (-p[0], -p[1], -p[2]), q


def _pose(value: Any) -> Pose:
    x, y, z = (float(v) for v in value['xyz'])
    qx, qy, qz, qw = (float(v) for v in value['quat_xyzw'])
    return (x, y, z), (qx, qy, qz, qw)


def _json(p: Pose) -> dict[str, list[float]]:
    return {'xyz': list(p[0]), 'quat_xyzw': list(p[1])}


def _norm(q: Quat, *, w_first: bool) -> float:
    """|q| summed in ignition's order (w first) or urdfdom's (w last): the last bit counts."""
    x, y, z, w = q
    return math.sqrt(w * w + x * x + y * y + z * z if w_first else x * x + y * y + z * z + w * w)


def _quat_from_rpy(roll: float, pitch: float, yaw: float, *, ignition: bool) -> Quat:
    """ignition's ``Quaternion(r, p, y)``, or urdfdom's ``setFromRPY`` (same terms)."""
    cr, sr = math.cos(roll / 2), math.sin(roll / 2)
    cp, sp = math.cos(pitch / 2), math.sin(pitch / 2)
    cy, sy = math.cos(yaw / 2), math.sin(yaw / 2)
    q = (sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy,
         cr * cp * sy - sr * sp * cy, cr * cp * cy + sr * sp * sy)
    n = _norm(q, w_first=ignition)
    return (q[0] / n, q[1] / n, q[2] / n, q[3] / n)


def _ignition_rpy(q: Quat) -> Vec:
    """ignition ``Quaternion::Euler()``: normalises, clamps the pitch's sine at ±1."""
    n = _norm(q, w_first=True)
    x, y, z, w = (c / n for c in q)
    sarg = -2 * (x * z - w * y)
    pitch = -math.pi / 2 if sarg <= -1 else math.pi / 2 if sarg >= 1 else math.asin(sarg)
    if abs(sarg - 1) < 1e-15:
        return math.atan2(2 * (x * y - z * w), w * w - x * x + y * y - z * z), pitch, 0.0
    if abs(sarg + 1) < 1e-15:
        return math.atan2(-2 * (x * y - z * w), w * w - x * x + y * y - z * z), pitch, 0.0
    return (math.atan2(2 * (y * z + w * x), w * w - x * x - y * y + z * z), pitch,
            math.atan2(2 * (x * y + w * z), w * w + x * x - y * y - z * z))


def _urdfdom_rpy(q: Quat) -> Vec:
    """urdfdom ``Rotation::getRPY``: snaps a pitch whose sine is beyond ±0.99999."""
    x, y, z, w = q
    sarg = -2 * (x * z - w * y)
    if sarg <= -0.99999:
        return 0.0, -0.5 * math.pi, 2 * math.atan2(x, -y)
    if sarg >= 0.99999:
        return 0.0, 0.5 * math.pi, 2 * math.atan2(-x, y)
    return (math.atan2(2 * (y * z + w * x), w * w - x * x - y * y + z * z), math.asin(sarg),
            math.atan2(2 * (x * y + w * z), w * w + x * x - y * y - z * z))


def _text(v: float) -> float:
    """A number through ``Values2str`` (16 significant digits) and back."""
    return float(f'{v:.16g}')


def _round_trip(p: Pose, to_rpy: Callable[[Quat], Vec]) -> Pose:
    """A pose written as ``x y z roll pitch yaw`` text and read back by libsdformat."""
    r, pi, y = (_text(a) for a in to_rpy(p[1]))
    return (_text(p[0][0]), _text(p[0][1]), _text(p[0][2])), _quat_from_rpy(r, pi, y, ignition=True)


@dataclass(frozen=True)
class Rejection:
    """A libsdformat-only rule by which the converted robot is invalid."""

    code: str
    subject: str  # the link or joint our diagnostics must name
    rule: str


@dataclass
class UrdfPlan:
    """What libsdformat 12's URDF conversion does to one robot (names are unscoped)."""

    robot: str
    links: list[str] = field(default_factory=list)  # written links, in order
    parent_joint: dict[str, str] = field(default_factory=dict)  # written link -> its joint
    joint_types: dict[str, str] = field(default_factory=dict)  # written joint -> SDF type
    joint_parent: dict[str, str] = field(default_factory=dict)  # written joint -> parent
    absorbed_into: dict[str, str] = field(default_factory=dict)  # lumped -> absorber
    absorbers: set[str] = field(default_factory=set)  # links that absorbed anything
    mass_changed: set[str] = field(default_factory=set)  # ... that absorbed an <inertial>
    dropped: dict[str, str] = field(default_factory=dict)  # link -> massless link above it
    origins: dict[str, Pose] = field(default_factory=dict)  # written joint -> pose in parent
    inertial_origins: dict[str, Pose] = field(default_factory=dict)  # written link -> as read
    zero_limit_joints: set[str] = field(default_factory=set)  # disableFixedJointLumping
    gazebo_refs: set[str] = field(default_factory=set)  # names in <gazebo reference>
    # 13.1+ (#1148): lumped joint or link -> (the link it ends in, the origins down to it)
    frame_chains: dict[str, tuple[str, list[Pose]]] = field(default_factory=dict)
    rejections: list[Rejection] = field(default_factory=list)

    def absorber(self, link: str) -> str:
        """Return the link ``link`` ends up in (itself when it is not lumped)."""
        return self.absorbed_into.get(link, link)


@dataclass
class _Robot:
    name: str
    mass: dict[str, float | None]  # None: no <inertial>
    joints: dict[str, tuple[str, str, str]]  # name -> (type, parent, child)
    origins: dict[str, Pose]  # joint -> <origin> as urdfdom reads it
    inertial_origins: dict[str, Pose]
    preserve: set[str] = field(default_factory=set)
    disable: set[str] = field(default_factory=set)
    refs: set[str] = field(default_factory=set)
    static: bool = False  # a reference-less <gazebo><static>: no link is then no refusal


def _origin(parent: etree._Element) -> Pose:
    """Return ``<origin xyz rpy>`` as urdfdom reads it (``setFromRPY``)."""
    o = parent.find('origin')
    xyz, rpy = ([float(v) for v in ((o.get(k) if o is not None else None) or '0 0 0').split()]
                for k in ('xyz', 'rpy'))
    if len(xyz) != 3 or len(rpy) != 3:
        raise ValueError('origin needs 3 numbers')  # urdfdom refuses it
    return (xyz[0], xyz[1], xyz[2]), _quat_from_rpy(rpy[0], rpy[1], rpy[2], ignition=False)


def _read_robot(path: Path) -> _Robot | None:
    """Read names, masses, the joint tree and lumping options; None if unreadable."""
    # tinyxml2 ignores the declaration (some files say version="0.0", which lxml refuses).
    data = _XML_DECL.sub(b'', path.read_bytes(), count=1)
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return None
    if root.tag != 'robot':
        return None
    robot = _Robot(root.get('name', ''), {}, {}, {}, {})
    try:
        for link in root.iterchildren('link'):
            name, inertial = link.get('name', ''), link.find('inertial')
            value = None if inertial is None else inertial.find('mass')
            robot.mass[name] = None if value is None else float(value.get('value', ''))
            if inertial is not None:
                robot.inertial_origins[name] = _origin(inertial)
        for j in root.iterchildren('joint'):
            name, parent, child = j.get('name', ''), j.find('parent'), j.find('child')
            if parent is None or child is None:
                return None
            robot.joints[name] = (j.get('type', ''), parent.get('link', ''), child.get('link', ''))
            robot.origins[name] = _origin(j)
    except ValueError:
        return None
    for ext in root.iterchildren('gazebo'):
        if ext.get('reference') is not None:
            robot.refs.add(ext.get('reference', ''))
        elif ext.find('static') is not None:
            robot.static = (ext.findtext('static') or '').strip().lower() in _TRUE
        for option, target in (('preserveFixedJoint', robot.preserve),
                               ('disableFixedJointLumping', robot.disable)):
            for el in ext.iterchildren(option):
                if (el.get('value') or el.text or '').strip().lower() in _TRUE:
                    target.add(ext.get('reference', ''))
    robot.disable -= robot.preserve
    return robot


class _Planner:
    def __init__(self, robot: _Robot, newer: bool = False) -> None:
        self.robot, self.newer = robot, newer
        self.plan = UrdfPlan(robot.name, gazebo_refs=set(robot.refs))
        self.mass = dict(robot.mass)
        self.nan: dict[str, str] = {}  # link with a NaN centre of mass -> zero-mass link lumped
        self.joint_of = {child: name for name, (_, _, child) in robot.joints.items()}
        self.children: dict[str, list[str]] = {}
        for name in sorted(robot.joints, key=str.encode):
            _, parent, child = robot.joints[name]
            self.children.setdefault(parent, []).append(child)

    def parent(self, link: str) -> str | None:
        joint = self.joint_of.get(link)
        return None if joint is None else self.robot.joints[joint][1]

    def reducible(self, link: str) -> bool:
        """Whether ``link``'s parent joint is lumped (``FixedJointShouldBeReduced``)."""
        joint = self.joint_of.get(link)
        if joint is None or self.parent(link) == 'world':
            return False
        return (self.robot.joints[joint][0] == 'fixed'
                and joint not in self.robot.preserve and joint not in self.robot.disable)

    def reduce(self, link: str) -> None:
        """``ReduceFixedJoints``: lump fixed children first, then this link, then go on."""
        kids = self.children.get(link, [])
        for kid in kids:
            if self.reducible(kid):
                self.reduce(kid)
        parent = self.parent(link)
        if parent is not None and self.reducible(link):
            self.lump(link, parent)
        for kid in kids:
            if not self.reducible(kid):
                self.reduce(kid)

    def lump(self, link: str, parent: str) -> None:
        absorber = parent
        while self.reducible(absorber):
            absorber = self.parent(absorber) or absorber
        self.plan.absorbed_into[link] = absorber
        origins, at = [], link
        while at != absorber:
            origins.insert(0, self.robot.origins[self.joint_of[at]])
            at = self.parent(at) or absorber
        self.plan.frame_chains[link] = self.plan.frame_chains[self.joint_of[link]] = (
            absorber, origins)
        self.plan.absorbers.add(parent)
        own = self.mass[link]
        if own is None:
            return
        total = (self.mass[parent] or 0.0) + own
        if total == 0.0:
            self.nan.setdefault(parent, link)
        elif link in self.nan:
            self.nan.setdefault(parent, self.nan[link])
        self.mass[parent] = total
        self.plan.mass_changed.add(parent)

    def fixed_reducible(self, link: str) -> bool:
        """``FixedJointShouldBeReduced`` of ``link``'s joint (a joint to ``world`` too)."""
        joint = self.joint_of.get(link)
        return joint is not None and self.robot.joints[joint][0] == 'fixed' and (
            joint not in self.robot.preserve and joint not in self.robot.disable)

    def create(self, link: str) -> None:
        """``CreateSDF``: write massive links (not lumped ones) and their joints.

        12.3 drops a link of mass |m| <= 1e-6 with its subtree; from 14.0 (#1238) a link of
        mass <= 0, unless its fixed joint is reducible (it is lumped, or fixed to world:
        then it is neither written nor dropped, and its children are visited).
        """
        mass = self.mass.get(link)
        zero = mass is None or (mass <= 0.0 if self.newer else abs(mass) <= MASSLESS_EPS)
        if link != 'world' and zero and not (self.newer and self.fixed_reducible(link)):
            self.drop_below(link, link)
            return
        if not self.reducible(link) and not (zero and link != 'world'):
            self.write(link)
        for kid in self.children.get(link, []):
            self.create(kid)

    def drop_below(self, link: str, cause: str) -> None:
        if link not in self.plan.absorbed_into:
            self.plan.dropped[link] = cause
        for kid in self.children.get(link, []):
            self.drop_below(kid, cause)

    def write(self, link: str) -> None:
        self.plan.links.append(link)
        if link in self.robot.inertial_origins and link not in self.plan.mass_changed:
            self.plan.inertial_origins[link] = self.robot.inertial_origins[link]
        if link in self.nan:
            self.plan.rejections.append(Rejection(
                'ELEMENT_INVALID', self.nan[link],
                f'lumping link [{self.nan[link]}] into a parent of running mass 0 gives '
                f'[{link}] a 0/0 centre of mass (dMassAdd): non-finite <pose>'))
        joint = self.joint_of.get(link)
        if joint is None:
            return
        jtype, parent, _ = self.robot.joints[joint]
        if jtype in ('floating', 'planar'):
            self.plan.rejections.append(Rejection(
                'POSE_RELATIVE_TO_INVALID', joint,
                f'{jtype} joint [{joint}] is not written, but its child [{link}] is placed '
                'relative to it'))
            return
        sdf_type = {'continuous': 'revolute'}.get(jtype, jtype)
        if jtype == 'fixed' and joint in self.robot.disable:
            sdf_type = 'revolute'
            self.plan.zero_limit_joints.add(joint)
        self.plan.parent_joint[link] = joint
        self.plan.joint_types[joint] = sdf_type
        self.plan.joint_parent[joint] = parent if parent == 'world' else self.plan.absorber(parent)
        # ReduceJointsToParent: the origin is composed up through the lumped links.
        origin = self.robot.origins[joint]
        while self.reducible(parent):
            origin = _mul(self.robot.origins[self.joint_of[parent]], origin)
            parent = self.parent(parent) or parent
        self.plan.origins[joint] = origin

    def run(self) -> UrdfPlan | None:
        roots = [lk for lk in self.robot.mass if lk not in self.joint_of]
        ends = {end for _, parent, child in self.robot.joints.values() for end in (parent, child)}
        if len(roots) != 1 or not ends <= self.robot.mass.keys():
            return None  # urdfdom refuses the robot (FILE_READ)
        root = roots[0]
        self.reduce(root)
        for start in (self.children.get('world', []) if root == 'world' else [root]):
            self.create(start)
        if not self.plan.links and not self.robot.static:
            for cause in sorted(set(self.plan.dropped.values())) or [root]:
                self.plan.rejections.append(Rejection(
                    'MODEL_WITHOUT_LINK', cause,
                    f'no link is written: massless link [{cause}] drops itself and its subtree'))
        return self.plan


def plan_urdf(path: str | Path, *, newer: bool = False) -> UrdfPlan | None:
    """Replay libsdformat's URDF conversion rules; None when urdfdom would refuse it.

    ``newer``: libsdformat 14+'s (#1238: which massless links are dropped), else 12.3's.
    """
    robot = _read_robot(Path(path))
    if robot is None:
        return None
    return _Planner(robot, newer).run()


# ---------------------------------------------------------------------------------------
# Comparison.


def _codes(report: Mapping[str, Any]) -> set[str]:
    return {str(d.get('code')) for d in report.get('errors') or []}


def compare_urdf(
    ours: Mapping[str, Any], ref: Mapping[str, Any], *, plan: UrdfPlan | None = None,
    tol: float = 1e-9,
) -> list[str]:
    """Return every difference between our URDF report and libsdformat's, one line each.

    Args:
        ours: our ``inspect --json`` report of the URDF.
        ref: the libsdformat probe's report of the same file.
        plan: the replayed conversion; by default :func:`plan_urdf` of ``ours['file']`` for
            the libsdformat ``ours['gazebo']`` names.
        tol: absolute tolerance on every number.
    """
    if plan is None:
        target = ours.get('gazebo') or {}
        plan = plan_urdf(ours['file'], newer=int(target.get('libsdformat') or 12) >= 14)
    diffs: list[str] = []
    ours_codes, ref_codes = _codes(ours), _codes(ref)
    text = (f'(ours: {", ".join(sorted(ours_codes)) or "no errors"}; '
            f'libsdformat: {", ".join(sorted(ref_codes)) or "no errors"})')
    predicted = plan.rejections if plan else []
    explained = [r for r in predicted if r.code in ref_codes]
    aborted = any(r.code == 'ELEMENT_INVALID' for r in explained)
    for r in predicted:
        if r not in explained and not aborted:
            diffs.append(f'replay: predicts {r.code} ({r.rule}), which libsdformat does not report')
    if not ref['valid'] and not explained:
        if ours['valid']:
            diffs.append(f'verdict: ours valid, libsdformat rejects {text}')
        elif not ours_codes & ref_codes:
            diffs.append(f'errors: both reject, no shared error code {text}')
        return diffs
    if not ref['valid']:
        if ours['valid']:
            _check_rejections_reported(ours, explained, diffs)
        elif not ours_codes & ref_codes and not aborted:
            diffs.append(f'errors: both reject, no shared error code {text}')
        if aborted or not ours['valid']:
            return diffs  # libsdformat loaded nothing, or we refuse the robot as well
    elif not ours['valid']:
        diffs.append(f'verdict: ours invalid, libsdformat valid {text}')
        return diffs
    if plan is None:
        diffs.append('replay: libsdformat accepted a robot our replay of urdfdom refuses')
        return diffs
    _Comparison(ours, plan, tol, diffs).run(ref)
    return diffs


def _check_rejections_reported(
    ours: Mapping[str, Any], rejections: Sequence[Rejection], diffs: list[str],
) -> None:
    messages = [str(d.get('message')) for k in ('errors', 'warnings') for d in ours.get(k) or []]
    for r in rejections:
        if not any(f'[{r.subject}]' in m for m in messages):
            diffs.append(f'libsdformat rejects ({r.code}: {r.rule}); ours says nothing '
                         f'about [{r.subject}]')


def _by_name(items: Any, prefix: str = '') -> dict[str, Mapping[str, Any]]:
    return {str(i['name']).removeprefix(prefix): i for i in items or []}


class _Comparison:
    """Ours against libsdformat, allowing exactly libsdformat's own text round trips.

    Every value is compared directly first. A pose that differs is accepted only when
    both hold: libsdformat's value is what its round trip makes of the file's origin
    (rebuilt here, at the full tolerance), and our value is that origin (same tolerance).
    """

    def __init__(self, ours: Mapping[str, Any], plan: UrdfPlan, tol: float,
                 diffs: list[str]) -> None:
        self.plan, self.tol, self.diffs = plan, tol, diffs
        self.scope = f'{plan.robot}::'
        self.links = _by_name(ours.get('links'), self.scope)
        self.joints = _by_name(ours.get('joints'), self.scope)
        self.frames = _by_name(ours.get('frames'))
        models = list(ours.get('models') or [])
        self.model = models[0] if models else {'pose': _json(((0.0,) * 3, (0.0, 0.0, 0.0, 1.0)))}
        self.model_pose = _pose(self.model['pose'])
        # <robot><origin> is written through urdfdom's getRPY (InsertRobotOrigin).
        self.rebuilt: dict[str, Pose] = {'world': _round_trip(self.model_pose, _urdfdom_rpy)}

    def same(self, ours: Any, ref: Any) -> bool:
        probe: list[str] = []
        _value('', ours, ref, self.tol, probe)
        return not probe

    def same_rebuilt(self, rebuilt: Pose, ref: Any) -> bool:
        return self.same(_json(rebuilt), ref)

    def check(self, where: str, ours: Any, ref: Any, explained: Callable[[], bool] | None = None,
              ) -> None:
        """Report ``ours != ref`` unless ``explained()`` accounts for the difference."""
        found: list[str] = []
        _value(where, ours, ref, self.tol, found)
        if found and not (explained is not None and explained()):
            self.diffs.extend(found)

    def world(self, link: str) -> Pose:
        """Return libsdformat's world pose of a written link, rebuilt from the file."""
        if link not in self.rebuilt:
            joint = self.plan.parent_joint.get(link)
            if joint is None:
                self.rebuilt[link] = self.rebuilt['world']
            else:
                base = self.world(self.plan.joint_parent[joint])
                self.rebuilt[link] = _mul(base, _round_trip(self.plan.origins[joint], _ignition_rpy))
        return self.rebuilt[link]

    def ours_world(self, link: str) -> Pose | None:
        if link == 'world':
            return self.model_pose
        return _pose(self.links[link]['pose']) if link in self.links else None

    def placed_as_read(self, link: str, ours: Pose, ref_pose: Any) -> bool:
        """Whether libsdformat placed ``link`` (or its joint) by the round trip, we by the origin."""
        joint = self.plan.parent_joint.get(link)
        if not self.same(_json(self.world(link)), ref_pose):
            return False
        if joint is None:
            return self.same(_json(ours), _json(self.model_pose))
        base = self.ours_world(self.plan.joint_parent[joint])
        return base is not None and self.same(_json(_mul(_inv(base), ours)),
                                              _json(self.plan.origins[joint]))

    def run(self, ref: Mapping[str, Any]) -> None:
        for name, r in _by_name(ref.get('models')).items():
            if name != self.model.get('name'):
                self.diffs.append(f'models[{name!r}]: missing from ours')
                continue
            self.check(f'models[{name!r}].pose', self.model['pose'], r.get('pose'),
                       partial(self.same_rebuilt, self.rebuilt['world'], r.get('pose')))
            self.check(f'models[{name!r}].static', self.model.get('static'), r.get('static'))
            if self.plan.links:  # else MODEL_WITHOUT_LINK: libsdformat names no canonical link
                self.check(f'models[{name!r}].canonical_link', self.model.get('canonical_link'),
                           r.get('canonical_link'))
        ref_links = _by_name(ref.get('links'), self.scope)
        for name, r in ref_links.items():
            if name not in self.plan.links:
                self.diffs.append(f'replay: libsdformat writes link [{name}], the replay does not')
            elif name not in self.links:
                self.diffs.append(f'links[{self.scope + name!r}]: missing from ours')
            elif r.get('pose') is not None:  # else unplaceable (an explained rejection)
                self.link(name, self.links[name], r)
        for name in self.links.keys() - ref_links.keys():
            if name not in self.plan.absorbed_into and name not in self.plan.dropped:
                self.diffs.append(f'links[{self.scope + name!r}]: only in ours, and neither '
                                  'lumped nor dropped')
        ref_joints = _by_name(ref.get('joints'), self.scope)
        for name, r in ref_joints.items():
            if self.plan.joint_types.get(name) != r.get('type'):
                self.diffs.append(f'replay: libsdformat writes joint [{name}] as '
                                  f'{r.get("type")}, the replay as {self.plan.joint_types.get(name)}')
            elif name not in self.joints:
                self.diffs.append(f'joints[{self.scope + name!r}]: missing from ours')
            else:
                self.joint(name, self.joints[name], r)
        for name in self.joints.keys() - ref_joints.keys():
            child = str(self.joints[name].get('child', '')).removeprefix(self.scope)
            if (child not in self.plan.absorbed_into and child not in self.plan.dropped
                    and self.joints[name].get('type') not in ('floating', 'planar')):
                self.diffs.append(f'joints[{self.scope + name!r}]: only in ours, and its child '
                                  f'[{child}] is neither lumped nor dropped')
        ref_frames = _by_name(ref.get('frames'))
        for name in self.frames.keys() ^ ref_frames.keys():
            side = 'ours' if name in self.frames else 'libsdformat'
            self.diffs.append(f'frames[{name!r}]: only in {side}')
        for name in self.frames.keys() & ref_frames.keys():
            o, r = self.frames[name], ref_frames[name]
            self.check(f'frames[{name!r}].attached_to', o.get('attached_to'), r.get('attached_to'))
            self.check(f'frames[{name!r}].pose', o.get('pose'), r.get('pose'),
                       partial(self.frame_as_read, name.removeprefix(self.scope), o, r))

    def frame_as_read(self, name: str, o: Mapping[str, Any], r: Mapping[str, Any]) -> bool:
        """A lumped joint's or link's frame (13.1+) is written as text: each joint origin
        down from the link it ends in goes through ignition's Euler round trip."""
        chain = self.plan.frame_chains.get(name)
        base = self.ours_world(chain[0]) if chain else None
        if chain is None or base is None or o.get('pose') is None or r.get('pose') is None:
            return False
        rebuilt, exact = self.world(chain[0]), base
        for origin in chain[1]:
            rebuilt = _mul(rebuilt, _round_trip(origin, _ignition_rpy))
            exact = _mul(exact, origin)
        return self.same_rebuilt(rebuilt, r['pose']) and self.same(_json(exact), o['pose'])

    def link(self, name: str, o: Mapping[str, Any], r: Mapping[str, Any]) -> None:
        where = f'links[{self.scope + name!r}]'
        self.check(f'{where}.pose', o['pose'], r['pose'], lambda: self.placed_as_read(name, _pose(o['pose']), r['pose']))
        if name not in self.plan.mass_changed:
            self.check(f'{where}.mass', o.get('mass'), r.get('mass'))
            self.check(f'{where}.inertia', o.get('inertia'), r.get('inertia'))
            self.check(f'{where}.inertial_pose', o.get('inertial_pose'), r.get('inertial_pose'),
                       lambda: self.inertial_as_read(name, o, r))
        ours_pose = _pose(o['pose'])
        members = [o] + [self.links[lk] for lk, ab in self.plan.absorbed_into.items()
                         if ab == name and lk in self.links]
        for kind in ('visuals', 'collisions'):
            shapes = [(str(s['name']), _mul(_inv(ours_pose), _mul(_pose(m['pose']), _pose(s['pose']))),
                       _geometry(s.get('geometry'))) for m in members for s in m.get(kind) or []]
            ref_shapes = [(str(s['name']), s.get('pose'), _geometry(s.get('geometry')))
                          for s in r.get(kind) or []]
            self.shapes(f'{where}.{kind}', shapes, ref_shapes, by_name=name not in self.plan.absorbers)

    def inertial_as_read(self, name: str, o: Mapping[str, Any], r: Mapping[str, Any]) -> bool:
        origin = self.plan.inertial_origins.get(name)
        if origin is None or not self.placed_as_read(name, _pose(o['pose']), r['pose']):
            return False
        ours = _mul(_inv(_pose(o['pose'])), _pose(o['inertial_pose']))
        rebuilt = _mul(self.world(name), _round_trip(origin, _ignition_rpy))
        return self.same(_json(ours), _json(origin)) and self.same(_json(rebuilt), r['inertial_pose'])

    def shapes(self, where: str, ours: list[tuple[str, Pose, Any]],
               ref: list[tuple[str, Any, Any]], *, by_name: bool) -> None:
        """Compare shapes by name, or (lumped ones are renamed) as (pose, geometry) pairs.

        Poses are in the link frame; libsdformat writes them through urdfdom's getRPY.
        """
        left = list(ours)
        for name, pose, geometry in ref:
            found = None
            for i, (oname, opose, ogeometry) in enumerate(left):
                if by_name and oname != name:
                    continue
                if by_name or (self.same(ogeometry, geometry) and (
                        self.same(_json(opose), pose)
                        or self.same(_json(_round_trip(opose, _urdfdom_rpy)), pose))):
                    found = i
                    break
            if found is None:
                what = 'only in libsdformat' if by_name else (
                    f'no shape of ours (lumped ones included) has pose {pose} and geometry {geometry}')
                self.diffs.append(f'{where}[{name!r}]: {what}')
                continue
            _, opose, ogeometry = left.pop(found)
            self.check(f'{where}[{name!r}].pose', _json(opose), pose,
                       partial(self.same_rebuilt, _round_trip(opose, _urdfdom_rpy), pose))
            self.check(f'{where}[{name!r}].geometry', ogeometry, geometry)
        for oname, _, _ in left:
            self.diffs.append(f'{where}[{oname!r}]: only in ours (lumped shapes included)')

    def joint(self, name: str, o: Mapping[str, Any], r: Mapping[str, Any]) -> None:
        where = f'joints[{self.scope + name!r}]'
        child = str(o.get('child', '')).removeprefix(self.scope)
        if r.get('pose') is not None:
            self.check(f'{where}.pose', o['pose'], r['pose'],
                       lambda: self.placed_as_read(child, _pose(o['pose']), r['pose']))
        ours_type = {'continuous': 'revolute'}.get(str(o.get('type')), o.get('type'))
        if name in self.plan.zero_limit_joints:
            ours_type = 'revolute'  # disableFixedJointLumping
        self.check(f'{where}.type', ours_type, r.get('type'))
        parent = str(o.get('parent'))
        if parent != 'world':
            parent = self.scope + self.plan.absorber(parent.removeprefix(self.scope))
        self.check(f'{where}.parent', parent, r.get('parent'))
        self.check(f'{where}.child', o.get('child'), r.get('child'))
        axis, limit, dynamics = o.get('axis'), o.get('limit'), o.get('dynamics')
        if axis is None and (name in self.plan.gazebo_refs or name in self.plan.zero_limit_joints):
            # InsertSDFExtensionJoint / disableFixedJointLumping: an <axis> without <xyz>.
            axis = list(_rotate(_pose(o['pose'])[1], (0.0, 0.0, 1.0)))
            bound = 0.0 if name in self.plan.zero_limit_joints else 1e16
            limit = {'lower': -bound, 'upper': bound, 'effort': None, 'velocity': None}
            dynamics = {'damping': 0.0, 'friction': 0.0}
        self.check(f'{where}.axis', axis, r.get('axis'),
                   lambda: self.axis_as_read(child, o, axis, r))
        self.check(f'{where}.dynamics', dynamics, r.get('dynamics'))
        ref_limit = r.get('limit')
        if o.get('type') == 'continuous' and isinstance(limit, dict) and isinstance(ref_limit, dict):
            limit = {k: limit.get(k) for k in ('effort', 'velocity')}  # no bounds written
            ref_limit = {k: ref_limit.get(k) for k in ('effort', 'velocity')}
        self.check(f'{where}.limit', limit, ref_limit)

    def axis_as_read(self, child: str, o: Mapping[str, Any], axis: Any, r: Mapping[str, Any]) -> bool:
        """The axis is written in the joint frame (16 digits) and normalised on load."""
        if not isinstance(axis, list) or r.get('pose') is None:
            return False
        if not self.placed_as_read(child, _pose(o['pose']), r['pose']):
            return False
        local = [_text(c) for c in _rotate(_inv(_pose(o['pose']))[1], axis)]
        norm = math.sqrt(sum(c * c for c in local))
        rebuilt = _rotate(self.world(child)[1], [c / norm for c in local])
        return self.same(list(rebuilt), r.get('axis'))


def _geometry(g: Any) -> Any:
    """libsdformat rewrites ``package://`` mesh URIs of a URDF to ``model://``."""
    if isinstance(g, Mapping) and isinstance(g.get('uri'), str) and g['uri'].startswith('package://'):
        return {**g, 'uri': 'model://' + g['uri'][len('package://'):]}
    return g


def _value(where: str, ours: Any, ref: Any, tol: float, diffs: list[str]) -> None:
    """Compare two JSON values: numbers within ``tol``, quaternions up to sign."""
    if isinstance(ref, Mapping) and isinstance(ours, Mapping):
        if set(ref) == {'xyz', 'quat_xyzw'} and set(ours) == set(ref):
            _value(f'{where}.xyz', ours['xyz'], ref['xyz'], tol, diffs)
            probe: list[str] = []
            _value('', [-v for v in ours['quat_xyzw']], ref['quat_xyzw'], tol, probe)
            if probe:
                _value(f'{where}.quat_xyzw', ours['quat_xyzw'], ref['quat_xyzw'], tol, diffs)
            return
        for key in sorted(set(ours) | set(ref)):
            if key not in ours or key not in ref:
                diffs.append(f'{where}.{key}: missing from {"ours" if key not in ours else "libsdformat"}')
            else:
                _value(f'{where}.{key}', ours[key], ref[key], tol, diffs)
        return
    if isinstance(ref, list) and isinstance(ours, list) and len(ref) == len(ours):
        for i, (o, r) in enumerate(zip(ours, ref, strict=True)):
            _value(f'{where}[{i}]', o, r, tol, diffs)
        return
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (ours, ref)):
        if not (math.isclose(ours, ref, rel_tol=0.0, abs_tol=tol)
                or (math.isnan(ours) and math.isnan(ref))):
            diffs.append(f'{where}: ours {ours!r}, libsdformat {ref!r} '
                         f'(|diff| {abs(ours - ref):.3g} > {tol:g})')
        return
    if ours != ref:
        diffs.append(f'{where}: ours {ours!r}, libsdformat {ref!r}')
