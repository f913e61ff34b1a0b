"""Nested models through a stage: flattened there, rebuilt on the way back.

A stage has one ``Xform`` per top-level model with every link under it
(``sdf_tools:name`` ``inner::link``). So that the way back gives the same
models, the writer records on the model prim the nested models' scoped
names, their frames relative to the model's (7 doubles each: x y z, qw qx qy
qz), their ``canonical_link`` attributes and ``<static>`` flags; the reader
moves each link, joint and frame with a scoped name into its nested model,
placed where it was. Without that record (a stage from elsewhere) the nested
models are made at their parent's frame, which keeps every link's pose.

===========================  ===============================================
attribute                    value
===========================  ===============================================
``sdf_tools:models``         scoped names, parents first ('' the model itself)
``sdf_tools:modelPoses``     their frames in the model frame
``sdf_tools:modelCanonical`` their ``canonical_link`` attributes as written
``sdf_tools:modelStatic``    their ``<static>`` flags
===========================  ===============================================
"""
from __future__ import annotations

from lxml import etree
from pxr import Sdf, Usd, Vt

from sdf_tools.convert.flatten import FlatModel
from sdf_tools.convert.usd.exact import PREFIX, get, put
from sdf_tools.frames.graph import join
from sdf_tools.model import Frame, Joint, Link, Model, RawPose, Sensor
from sdf_tools.transform import IDENTITY, Transform
from sdf_tools.xmlsafe import parse_kept

_NAMES, _POSES = PREFIX + 'models', 'modelPoses'
_CANONICAL, _STATIC = PREFIX + 'modelCanonical', 'modelStatic'


def _walk(model: Model, scope: str) -> list[tuple[str, Model]]:
    out: list[tuple[str, Model]] = []
    for m in model.models:
        name = join(scope, m.name)
        out += [(name, m), *_walk(m, name)]
    return out


def write_nesting(prim: Usd.Prim, flat: FlatModel) -> None:
    """Record the model's nested models (and its own canonical link) on its prim."""
    nested = [('', flat.model), *_walk(flat.model, '')]
    if len(nested) == 1 and not flat.model.canonical_link:
        return
    poses: list[float] = []
    for name, _ in nested:
        x = flat.rel(flat.frame_vid, flat.graphs.ids[join(flat.scope, name) + '::__model__']) \
            if name else IDENTITY
        poses += [*x.p, *x.q]
    prim.CreateAttribute(_NAMES, Sdf.ValueTypeNames.StringArray, custom=True).Set(
        Vt.StringArray([n for n, _ in nested]))
    prim.CreateAttribute(_CANONICAL, Sdf.ValueTypeNames.StringArray, custom=True).Set(
        Vt.StringArray([m.canonical_link for _, m in nested]))
    put(prim, _POSES, poses)
    put(prim, _STATIC, [float(m.static) for _, m in nested])


def _strings(prim: Usd.Prim, name: str) -> list[str]:
    attr = prim.GetAttribute(name)
    return [str(v) for v in attr.Get()] if attr and attr.HasAuthoredValue() else []


class _Tree:
    """The nested models of one model, by scoped name, with their frames in the model's."""

    def __init__(self, top: Model, prim: Usd.Prim) -> None:
        self.top = top
        self.models: dict[str, Model] = {'': top}
        self.frames: dict[str, Transform] = {'': IDENTITY}
        names = _strings(prim, _NAMES)
        canonical = _strings(prim, _CANONICAL)
        poses = get(prim, _POSES, 7 * len(names)) or []
        static = get(prim, _STATIC, len(names)) or []
        for i, name in enumerate(names):
            v = poses[7 * i:7 * i + 7]
            x = Transform((v[0], v[1], v[2]), (v[3], v[4], v[5], v[6])) if v else IDENTITY
            m = self.model(name, x)
            if i < len(canonical):
                m.canonical_link = canonical[i]
            if i < len(static) and name:
                m.static = bool(static[i])

    def model(self, scoped: str, x: Transform | None = None) -> Model:
        """Return the nested model ``scoped`` (made, with its parents, if new)."""
        if scoped in self.models:
            return self.models[scoped]
        parent, _, own = scoped.rpartition('::')
        outer = self.model(parent)
        frame = x if x is not None else self.frames[parent]
        m = Model(own, loc=self.top.loc)
        m.pose = RawPose(self.frames[parent].inverse() * frame)
        outer.models.append(m)
        self.models[scoped], self.frames[scoped] = m, frame
        return m

    def owner(self, scoped: str) -> tuple[str, str]:
        """Return (nested model, own name) of a scoped name; the model must be known or made."""
        scope, _, own = scoped.rpartition('::')
        self.model(scope)
        return scope, own


def _inside(scope: str, name: str) -> str | None:
    """Return ``name`` relative to ``scope`` when it is in that scope's subtree."""
    if not scope:
        return name
    return name[len(scope) + 2:] if name.startswith(scope + '::') else None


def _move_link(tree: _Tree, link: Link) -> bool:
    scope, own = tree.owner(link.name)
    if not scope:
        return False
    m = tree.models[scope]
    x = link.pose.value if link.pose is not None else IDENTITY
    link.name, link.pose = own, RawPose(tree.frames[scope].inverse() * x)
    m.links.append(link)
    return True


def _move_joint(tree: _Tree, joint: Joint) -> bool:
    scope, own = joint.name.rpartition('::')[0], joint.name.rpartition('::')[2]
    if not scope:
        return False
    parent = 'world' if joint.parent == 'world' else _inside(scope, joint.parent)
    child = _inside(scope, joint.child)
    if parent is None or child is None:
        return False  # a joint of the outer model naming links inside: stays, scoped
    tree.model(scope).joints.append(joint)
    joint.name, joint.parent, joint.child = own, parent, child
    if joint.axis is not None and joint.axis.mimic_joint:  # named from the same scope
        joint.axis.mimic_joint = _inside(scope, joint.axis.mimic_joint) or joint.axis.mimic_joint
    joint.sensors = [_rescoped(scope, s) for s in joint.sensors]
    return True


def _rescoped(scope: str, sensor: Sensor) -> Sensor:
    """A joint sensor posed relative to its child link (read_sensors.py), moved with its joint
    into nested model ``scope``: the link's name from there."""
    if sensor.pose is None or not sensor.pose.relative_to:
        return sensor
    own = _inside(scope, sensor.pose.relative_to) or sensor.pose.relative_to
    el = parse_kept(sensor.xml)
    pose_el = el.find('pose')
    if pose_el is not None:
        pose_el.set('relative_to', own)
    return Sensor(sensor.name, sensor.type, RawPose(sensor.pose.value, own),
                  etree.tostring(el, encoding='unicode'), sensor.loc)


def _move_frame(tree: _Tree, frame: Frame) -> bool:
    scope, own = frame.name.rpartition('::')[0], frame.name.rpartition('::')[2]
    attached = _inside(scope, frame.attached_to) if scope else None
    if not scope or attached is None or frame.pose is None:
        return False
    tree.model(scope).frames.append(frame)
    frame.name, frame.attached_to = own, attached
    frame.pose = RawPose(frame.pose.value, attached)
    return True


def nest(model: Model, prim: Usd.Prim) -> None:
    """Move the links, joints and frames with scoped names into their nested models."""
    tree = _Tree(model, prim)
    model.links = [lk for lk in model.links if not _move_link(tree, lk)]
    model.joints = [j for j in model.joints if not _move_joint(tree, j)]
    model.frames = [f for f in model.frames if not _move_frame(tree, f)]
