"""Hypothesis strategies that write SDFormat documents, valid by construction or broken once.

:func:`valid_documents` draws a lone ``<model>`` or a ``<world>`` of SDFormat 1.4 to 1.11
that libsdformat 12 and our reader must both accept: nested models up to three deep,
links with inertials, visuals and collisions, joints of every type with ``<axis>`` and
``<axis2>``, ``<frame>`` with and without ``attached_to``, ``relative_to`` chains that
reach into nested scopes (``inner::frame``), ``degrees="true"``, unit and non-unit
``quat_xyzw``, ``placement_frame``, ``canonical_link`` (also ``a::b``) and static models.
Each feature appears only in the versions whose spec has it: 1.4 has neither frames nor
nested models, 1.5 and 1.6 write ``<pose frame=...>`` and ``<use_parent_model_frame>``
(and may reuse a name across element types, which libsdformat resolves by renaming,
as it does for a world frame named like a model in any version),
1.7 brings ``relative_to``, ``attached_to``, ``expressed_in``, ``canonical_link`` and
references into nested scopes (libsdformat 12 reads them in 1.7 files too), 1.8
``placement_frame``, nested canonical links and joints to frames or nested models,
1.9 ``degrees`` and ``rotation_format``; 1.10 and 1.11 add nothing written here.

Validity by construction: names are unique within a scope (but for those deliberate
clashes, which nothing references) and never reserved; the
entities of a scope are created one after another and every ``relative_to``,
``attached_to`` and joint ``<child>`` names an entity created *earlier* (a nested model
counts as one entity, references into it come after it), so both frame graphs are
acyclic whatever the document order, which is shuffled afterwards. A joint's parent is
drawn last, among frames attached to another body than its child.

:func:`mutated_documents` draws such a document and breaks exactly one rule (see
:data:`RULES`), recorded in the :class:`Document` with the error codes that name it and
the lines of the elements involved. Example::

    @given(doc=mutated_documents())
    def test_rejected(doc: Document) -> None:
        path.write_text(doc.xml)  # then expect one of doc.codes on one of doc.lines
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple, cast

from hypothesis import assume
from hypothesis import strategies as st
from lxml import etree

__all__ = [
    'RULES',
    'VERSIONS',
    'Document',
    'documents_for_version',
    'mutated_documents',
    'valid_documents',
]

#: 1.10 and 1.11 add nothing the generator writes; libsdformat 12 reads them as 1.9.
VERSIONS = ('1.4', '1.5', '1.6', '1.7', '1.8', '1.9', '1.10', '1.11')
#: Deepest nesting below the top-level model or a world model (3 levels of models).
MAX_DEPTH = 2
#: A name the generator never gives an entity, for dangling references.
MISSING = 'missing'
_NAMES = ('a', 'b', 'base', 'arm', 'link', 'frame', 'model', 'x_', '__lo', 'hi__', 'L1')

Version = tuple[int, int]
Draw = st.DrawFn


def _ver(version: str) -> Version:
    major, minor = version.split('.')
    return int(major), int(minor)


# ---------------------------------------------------------------------------------------
# The document tree: one dataclass per element, rendered to XML by _Renderer.


@dataclass
class Pose:
    """A ``<pose>``: numbers, or raw ``text`` when a mutation wrote junk."""

    values: tuple[float, ...] = (0.0,) * 6
    relative_to: str | None = None  # written as @frame before 1.7
    degrees: str | None = None
    rotation_format: str | None = None
    text: str | None = None
    style: str = ''  # how the numbers are written: '', exp, plus or spaced


@dataclass
class Inertial:
    mass: str = '1'
    pose: Pose | None = None
    inertia: tuple[str, ...] | None = None  # ixx ixy ixz iyy iyz izz


@dataclass
class Shape:
    """A ``<visual>`` or ``<collision>`` with a box, sphere or cylinder."""

    tag: str
    name: str
    pose: Pose | None
    geometry: str
    sizes: dict[str, str]


@dataclass
class Frame:
    name: str
    attached_to: str | None = None
    pose: Pose | None = None


@dataclass
class Link:
    name: str
    pose: Pose | None = None
    inertial: Inertial | None = None
    shapes: list[Shape] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)  # 1.5/1.6: ignored by libsdformat 12


@dataclass
class Axis:
    tag: str  # axis | axis2
    xyz: str = '0 0 1'
    expressed_in: str | None = None
    use_parent_model_frame: str | None = None
    limit: tuple[str, ...] | None = None  # lower upper effort velocity
    dynamics: tuple[str, ...] | None = None  # damping friction


@dataclass
class Joint:
    name: str
    type: str
    parent: str = ''
    child: str = ''
    pose: Pose | None = None
    axes: list[Axis] = field(default_factory=list)
    extra: dict[str, str] = field(default_factory=dict)


@dataclass
class Model:
    name: str
    pose: Pose | None = None
    static: str | None = None
    canonical_link: str | None = None
    placement_frame: str | None = None
    children: list[Entity] = field(default_factory=list)


@dataclass
class World:
    name: str
    children: list[Model | Frame] = field(default_factory=list)


Entity = Link | Frame | Joint | Model
Node = Link | Frame | Joint | Model | World | Pose | Inertial


@dataclass(frozen=True)
class Document:
    """One generated SDFormat file and, for a mutated one, the rule it breaks.

    Attributes:
        xml: The file's text.
        version: The ``<sdf version>`` written.
        rule: None for a valid document, else the name of the rule broken (see RULES).
        codes: Error codes any of which names ``rule``.
        lines: Lines of the elements involved in the broken rule (with descendants).
        unit_twin: When ``xml`` has a quaternion of norm other than 1, the same document
            with every quaternion normalised, else None. libsdformat 12 rotates vectors
            with a formula that holds for unit quaternions only (ignition-math's
            ``Quaternion * Vector3``, used by ``Pose3::Inverse``), so its poses for
            ``xml`` are off; the twin is what its numbers must agree with.
    """

    xml: str
    version: str
    rule: str | None = None
    codes: frozenset[str] = frozenset()
    lines: frozenset[int] = frozenset()
    unit_twin: str | None = None


# ---------------------------------------------------------------------------------------
# Numbers and poses.


def _fmt(x: float) -> str:
    text = repr(float(x))
    return text[:-2] if text.endswith('.0') else text


def _rounded(lo: float, hi: float, digits: int) -> st.SearchStrategy[float]:
    return st.floats(lo, hi).map(lambda x: round(x, digits))


_LENGTH = st.one_of(st.integers(-3, 3).map(float), _rounded(-10, 10, 3))
_RADIANS = st.one_of(
    st.sampled_from([0.0, math.pi / 2, -math.pi / 2, math.pi, 0.5, -1.0]),
    _rounded(-math.pi, math.pi, 4),
    _rounded(-8, 8, 2),
)
_DEGREES = st.one_of(st.sampled_from([0.0, 90.0, -90.0, 180.0, 45.0, 30.0]), _rounded(-360, 360, 1))
# Quaternions of norm >= 0.3 (libsdformat treats a tiny norm as identity).
_QUAT = st.tuples(*[_rounded(-1, 1, 3)] * 4).map(
    lambda q: q if sum(c * c for c in q) > 0.09 else (*q[:3], 1.0))


def _unit(q: tuple[float, ...]) -> tuple[float, ...]:
    norm = math.sqrt(sum(c * c for c in q))
    return tuple(c / norm for c in q)


def _draw_values(draw: Draw, v: Version) -> Pose:
    """Draw a pose's numbers in a rotation format the version allows, and a style."""
    fmt = draw(st.sampled_from(['rpy', 'rpy', 'deg', 'quat', 'unit_quat', 'explicit']))
    xyz = draw(st.tuples(_LENGTH, _LENGTH, _LENGTH))
    if v < (1, 9) or fmt in ('rpy', 'explicit'):
        pose = Pose(xyz + draw(st.tuples(_RADIANS, _RADIANS, _RADIANS)))
        if v >= (1, 9) and fmt == 'explicit':
            pose.rotation_format = 'euler_rpy'
            pose.degrees = draw(st.sampled_from([None, 'false']))
    elif fmt == 'deg':
        pose = Pose(xyz + draw(st.tuples(_DEGREES, _DEGREES, _DEGREES)), degrees='true')
    else:
        q = draw(_QUAT)
        if fmt == 'unit_quat':
            q = _unit(q)
        else:
            q = tuple(c * draw(st.sampled_from([1.0, 1.0, 2.0, 0.5])) for c in q)
        pose = Pose(xyz + q, rotation_format='quat_xyzw')
    pose.style = draw(st.sampled_from(['', '', '', 'exp', 'plus', 'spaced']))
    return pose


def _pose_text(values: tuple[float, ...], style: str) -> str:
    """Write numbers as a person or a tool might: 1.5, 1.50000000000000000e+00, +1.5."""
    if style == 'exp':
        parts = [f'{x:.17e}' for x in values]
    elif style == 'plus':
        parts = [('+' if x > 0 else '') + _fmt(x) for x in values]
    else:
        parts = [_fmt(x) for x in values]
    if style == 'spaced':
        return '\n  ' + '\n\t '.join(parts) + '  \n'
    return ' '.join(parts)


def _draw_pose(draw: Draw, v: Version, targets: list[str]) -> Pose | None:
    """Draw an optional pose, relative to one of ``targets`` where the version allows."""
    if draw(st.integers(0, 4)) == 0:
        return None
    pose = _draw_values(draw, v)
    if v >= (1, 5):
        pose.relative_to = draw(st.sampled_from([None, '', *targets]))
    return pose


def _draw_inertial(draw: Draw, v: Version) -> Inertial:
    """Draw a valid inertial: moments that satisfy the triangle inequality, rotated."""
    inertial = Inertial(mass=_fmt(draw(_rounded(0.1, 10, 3))))
    if draw(st.booleans()):
        inertial.pose = _draw_values(draw, v)
    if draw(st.integers(0, 9)) == 0:  # massless and without inertia: valid for libsdformat
        inertial.mass, inertial.inertia = '0', ('0',) * 6
        return inertial
    if draw(st.integers(0, 3)) == 0:
        return inertial
    a, b = draw(_rounded(0.1, 2, 3)), draw(_rounded(0.1, 2, 3))
    lo, hi = abs(a - b) + 0.05, a + b - 0.05
    c = min(max(draw(_rounded(lo, hi, 3)), lo), hi)
    x, y, z, w = _unit(draw(_QUAT))
    rot = [
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ]
    moment = [[sum(rot[i][k] * (a, b, c)[k] * rot[j][k] for k in range(3)) for j in range(3)]
              for i in range(3)]
    pairs = ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2))
    inertial.inertia = tuple(_fmt(moment[i][j]) for i, j in pairs)
    return inertial


# ---------------------------------------------------------------------------------------
# Valid trees.

_JOINT_TYPES = {
    (1, 4): ('revolute', 'gearbox', 'revolute2', 'prismatic', 'ball', 'universal'),
    (1, 5): ('revolute', 'gearbox', 'revolute2', 'prismatic', 'ball', 'screw', 'universal',
             'fixed'),
}
_ALL_JOINT_TYPES = (*_JOINT_TYPES[(1, 5)], 'continuous')
_TWO_AXES = ('revolute2', 'universal', 'gearbox')
_NO_AXIS = ('fixed', 'ball')


def _fresh(draw: Draw, used: set[str]) -> str:
    """Draw a name not in ``used`` (and never reserved), and claim it."""
    base = draw(st.sampled_from(_NAMES))
    name, i = base, 0
    while name in used or name == MISSING:
        i += 1
        name = f'{base}{i}'
    used.add(name)
    return name


@dataclass
class _Scope:
    """What has been created so far in one model scope."""

    v: Version
    where: str  # top | world | nested
    used: set[str] = field(default_factory=set)
    targets: list[str] = field(default_factory=list)  # names usable in references
    links: list[str] = field(default_factory=list)  # own and nested links
    entities: list[Entity] = field(default_factory=list)  # in creation order
    joint_children: dict[str, list[str]] = field(default_factory=dict)

    @property
    def model_frame(self) -> list[str]:
        return ['__model__'] if self.v >= (1, 7) else []


def _exported(model: Model) -> tuple[list[str], list[str]]:
    """Return the scoped frame names and link names of ``model`` seen from its parent."""
    names, links = [model.name, f'{model.name}::__model__'], []
    for child in model.children:
        if isinstance(child, Model):
            sub_names, sub_links = _exported(child)
            names += [f'{model.name}::{n}' for n in sub_names]
            links += [f'{model.name}::{n}' for n in sub_links]
        else:
            names.append(f'{model.name}::{child.name}')
            if isinstance(child, Link):
                links.append(f'{model.name}::{child.name}')
    return names, links


def _add_link(draw: Draw, scope: _Scope) -> Link:
    link = Link(_fresh(draw, scope.used),
                pose=_draw_pose(draw, scope.v, scope.model_frame + scope.targets))
    if draw(st.booleans()):
        link.inertial = _draw_inertial(draw, scope.v)
    for tag in draw(st.lists(st.sampled_from(['visual', 'collision']), max_size=3)):
        kind = draw(st.sampled_from(['box', 'sphere', 'cylinder']))
        sizes = {
            'box': {'size': ' '.join(_fmt(draw(_rounded(0.1, 2, 2))) for _ in range(3))},
            'sphere': {'radius': '0.5'},
            'cylinder': {'radius': '0.25', 'length': '1.5'},
        }[kind]
        pose = _draw_pose(draw, scope.v, scope.model_frame + scope.targets if scope.v >= (1, 7) else [])
        link.shapes.append(Shape(tag, f'{tag}_{len(link.shapes)}', pose, kind, sizes))
    if (1, 5) <= scope.v < (1, 7) and draw(st.integers(0, 5)) == 0:
        link.frames.append(Frame(_fresh(draw, scope.used), pose=_draw_pose(draw, scope.v, [])))
    scope.targets.append(link.name)
    scope.links.append(link.name)
    return link


def _add_frame(draw: Draw, scope: _Scope) -> Frame:
    frame = Frame(_fresh(draw, scope.used))
    if scope.v >= (1, 7):
        frame.attached_to = draw(st.sampled_from([None, '', '__model__', *scope.targets]))
    frame.pose = _draw_pose(draw, scope.v, scope.model_frame + scope.targets)
    scope.targets.append(frame.name)
    return frame


def _add_joint(draw: Draw, scope: _Scope) -> Joint | None:
    """Add a joint; its child and parent are drawn by _finish_joints once bodies are known.

    A joint needs two links to tell apart (one, and the world, outside nested models),
    so that a parent attached to another body than the child always exists.
    """
    links = [n for n in scope.links if scope.v >= (1, 8) or '::' not in n]
    if len(links) < (2 if scope.where == 'nested' else 1):
        return None
    joint = Joint(_fresh(draw, scope.used),
                  draw(st.sampled_from(_JOINT_TYPES.get(scope.v, _ALL_JOINT_TYPES))))
    # Children: anything created before the joint (the edge joint -> child then never
    # closes a cycle); a frame, joint or nested model only from 1.8 on.
    pool = links if scope.v < (1, 8) else [t for t in scope.targets if '__model__' not in t]
    scope.joint_children[joint.name] = list(pool)
    joint.pose = _draw_pose(draw, scope.v, scope.model_frame + scope.targets)
    tags = [] if joint.type in _NO_AXIS and scope.v > (1, 4) else ['axis']
    tags += ['axis2'] if joint.type in _TWO_AXES else []
    if scope.v > (1, 4) and draw(st.integers(0, 5)) == 0:
        tags = []  # optional from 1.5 on, whatever the type
    joint.axes = [_draw_axis(draw, scope, tag) for tag in tags]
    if joint.type == 'screw':
        joint.extra['thread_pitch'] = _fmt(draw(st.sampled_from([0.5, 2.0, -1.0])))
    if joint.type == 'gearbox':
        joint.extra['gearbox_ratio'] = _fmt(draw(st.sampled_from([1.0, -2.5])))
    scope.targets.append(joint.name)
    return joint


def _draw_axis(draw: Draw, scope: _Scope, tag: str) -> Axis:
    xyz = draw(st.one_of(
        st.sampled_from(['1 0 0', '0 1 0', '0 0 1', '0 0 -1', '1 1 0']),
        st.tuples(_LENGTH, _LENGTH, _LENGTH).map(
            lambda t: ' '.join(_fmt(c) for c in (t if sum(c * c for c in t) > 0.01 else (*t[:2], 1.0)))),
    ))
    axis = Axis(tag, xyz)
    if scope.v >= (1, 7):
        axis.expressed_in = draw(st.sampled_from([None, '', '__model__', *scope.targets]))
    elif scope.v >= (1, 5):
        axis.use_parent_model_frame = draw(
            st.sampled_from([None, 'true', 'false', '1', '0', 'True', 'TRUE']))
    if scope.v < (1, 7) or draw(st.booleans()):
        lower = draw(st.sampled_from([-1.5, -0.5, 0.0]))
        axis.limit = (_fmt(lower), _fmt(lower + 2), _fmt(draw(st.sampled_from([-1.0, 10.0]))),
                      _fmt(draw(st.sampled_from([-1.0, 2.5]))))
    if draw(st.booleans()):
        axis.dynamics = (_fmt(draw(st.sampled_from([0.0, 0.1]))),
                         _fmt(draw(st.sampled_from([0.0, 0.3]))))
    return axis


def _add_nested(draw: Draw, scope: _Scope, depth: int) -> Model:
    model = _draw_model(draw, scope.v, _fresh(draw, scope.used), depth, where='nested')
    model.pose = _draw_pose(draw, scope.v, scope.model_frame + scope.targets)
    names, links = _exported(model)
    scope.targets.append(model.name)
    scope.links += links
    if scope.v >= (1, 7):
        scope.targets += names[1:]
    return model


def _add_old_clash(draw: Draw, scope: _Scope) -> None:
    """Add an unreferenced frame (or link) named like an entity of another kind.

    Before 1.7 that is no error: libsdformat renames the later kind (links clash with
    models, joints with both, frames with all three) to ``<name>_link``/``_frame``.
    """
    others = [e.name for e in scope.entities if not isinstance(e, Frame)]
    models = [e.name for e in scope.entities if isinstance(e, Model)]
    if bool(models) and draw(st.booleans()):
        scope.entities.append(Link(draw(st.sampled_from(models))))
    elif others:
        scope.entities.append(Frame(draw(st.sampled_from(others))))


def _draw_model(draw: Draw, v: Version, name: str, depth: int, *, where: str) -> Model:
    """Draw a valid model (its pose is left to the caller)."""
    scope = _Scope(v, where)
    model = Model(name, static=draw(st.sampled_from([None, None, None, 'false', 'true'])))
    kinds = ['link', 'link', 'joint']
    kinds += ['frame'] if v >= (1, 5) else []
    kinds += ['model'] if v >= (1, 5) and depth < MAX_DEPTH else []
    for kind in draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=5 - depth)):
        entity: Entity | None
        if kind == 'link':
            entity = _add_link(draw, scope)
        elif kind == 'frame':
            entity = _add_frame(draw, scope)
        elif kind == 'joint':
            entity = _add_joint(draw, scope)
        else:
            entity = _add_nested(draw, scope, depth + 1)
        if entity is not None:
            scope.entities.append(entity)
    if (1, 5) <= v < (1, 7) and draw(st.integers(0, 3)) == 0:
        _add_old_clash(draw, scope)
    has_link = any(isinstance(e, Link) for e in scope.entities)
    has_nested = any(isinstance(e, Model) for e in scope.entities)
    needs_link = model.static != 'true' and (v < (1, 8) or not has_nested)
    if not has_link and (needs_link or v == (1, 4)):
        scope.entities.append(_add_link(draw, scope))
    order = draw(st.permutations(range(len(scope.entities))))
    model.children = [scope.entities[i] for i in order]
    links = [n for n in scope.links if v >= (1, 8) or '::' not in n]
    if v >= (1, 7) and links and draw(st.integers(0, 2)) == 0:
        model.canonical_link = draw(st.sampled_from(links))
    if v >= (1, 8) and draw(st.integers(0, 2)) == 0:
        model.placement_frame = draw(st.sampled_from(['__model__', *scope.targets]))
    _finish_joints(draw, scope, model)
    return model


def _finish_joints(draw: Draw, scope: _Scope, model: Model) -> None:
    """Draw each joint's child, then a parent attached to another body (or the world)."""
    joints = [e for e in model.children if isinstance(e, Joint)]
    for joint in joints:
        joint.child = draw(st.sampled_from(scope.joint_children[joint.name]))
    # A nested model is no parent for libsdformat 12 (JOINT_PARENT_LINK_INVALID).
    models = set(_model_names(model))
    for joint in joints:
        if scope.v < (1, 8):
            parents = [n for n in scope.links if '::' not in n and n != joint.child]
        else:
            child_body = _body(model, joint.child)
            parents = [t for t in scope.targets if t != joint.name and t not in models
                       and '__model__' not in t and _body(model, t) != child_body]
        if scope.where != 'nested':
            parents.append('world')
        joint.parent = draw(st.sampled_from(parents))
        if joint.type == 'gearbox':
            joint.extra['gearbox_reference_body'] = joint.parent


def _model_names(model: Model) -> list[str]:
    """Return the scoped names of the models nested in ``model``, seen from it."""
    names = []
    for child in model.children:
        if isinstance(child, Model):
            names += [child.name] + [f'{child.name}::{n}' for n in _model_names(child)]
    return names


def _first_model(model: Model) -> Model:
    return next(c for c in model.children if isinstance(c, Model))


def _canonical(model: Model) -> str:
    """Return the canonical link by libsdformat's structural rule, or ''.

    ``canonical_link``, else the first link, else the first nested model's canonical
    link, scoped; whether a model is static does not matter here (notes §4.1).
    """
    if model.canonical_link:
        return model.canonical_link
    links = [c for c in model.children if isinstance(c, Link)]
    if links:
        return links[0].name
    if not any(isinstance(c, Model) for c in model.children):
        return ''
    first = _first_model(model)
    inner = _canonical(first)
    return f'{first.name}::{inner}' if inner else ''


def _body(model: Model, name: str) -> str:
    """Return the body a frame of ``model`` is attached to: a link, or a static model frame.

    Follows libsdformat's attached-to graph: frame -> attached_to, joint -> child, nested
    model -> its ``__model__``, ``__model__`` -> the canonical link (or, without one, the
    first nested model) unless the model is static.
    """
    if '::' in name:
        head, rest = name.split('::', 1)
        inner = next(c for c in model.children if isinstance(c, Model) and c.name == head)
        return f'{head}::{_body(inner, rest)}'
    if name == '__model__':
        if model.static == 'true':
            return name
        # The canonical link if there is one (even inside a static nested model), else
        # the first nested model (libsdformat12-notes.md §4.2).
        return _canonical(model) or _body(model, _first_model(model).name)
    entity = next(c for c in model.children if c.name == name)
    if isinstance(entity, Frame):
        return _body(model, entity.attached_to or '__model__')
    if isinstance(entity, Joint):
        return _body(model, entity.child)
    if isinstance(entity, Model):
        return f'{name}::{_body(entity, "__model__")}'
    return name


def _draw_world(draw: Draw, v: Version) -> World:
    world = World('w')
    used: set[str] = set()
    targets: list[str] = []
    kinds = ['model', 'model', 'frame'] if v >= (1, 7) else ['model']
    drawn = draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=4))
    for kind in ['model', *drawn[1:]]:
        if kind == 'model':
            model = _draw_model(draw, v, _fresh(draw, used), 0, where='world')
            model.pose = _draw_pose(draw, v, ['world', *targets] if v >= (1, 7) else [])
            world.children.append(model)
            targets.append(model.name)
            if v >= (1, 7):
                targets += _exported(model)[0][1:]
        else:
            frame = Frame(_fresh(draw, used))
            frame.attached_to = draw(st.sampled_from([None, '', 'world', *targets]))
            frame.pose = _draw_pose(draw, v, ['world', *targets])
            world.children.append(frame)
            targets.append(frame.name)
    models = [m.name for m in world.children if isinstance(m, Model)]
    if v >= (1, 7) and draw(st.integers(0, 4)) == 0:
        # Renamed <name>_frame with a warning, never an error (notes §10.4).
        world.children.append(Frame(draw(st.sampled_from(models))))
    order = draw(st.permutations(range(len(world.children))))
    world.children = [world.children[i] for i in order]
    return world


def _draw_root(draw: Draw, v: Version) -> Model | World:
    if draw(st.booleans()):
        return _draw_world(draw, v)
    model = _draw_model(draw, v, draw(st.sampled_from(_NAMES)), 0, where='top')
    if draw(st.integers(0, 3)):
        model.pose = _draw_values(draw, v)
    return model


# ---------------------------------------------------------------------------------------
# Rendering.


def _sub(parent: etree._Element, tag: str, text: str | None = None, **attrs: str | None) -> etree._Element:
    el = etree.SubElement(parent, tag)
    for key, value in attrs.items():
        if value is not None:
            el.set(key, value)
    if text is not None:
        el.text = text
    return el


class _Renderer:
    """Write a tree as XML and remember which element each node became."""

    def __init__(self, v: Version, *, unit_quaternions: bool = False) -> None:
        self.v = v
        self.unit_quaternions = unit_quaternions
        self.elements: dict[int, etree._Element] = {}
        self.non_unit = False  # whether a quaternion of norm other than 1 was written

    def node(self, parent: etree._Element, node: Entity | World) -> None:
        if isinstance(node, Model):
            el = self.model(parent, node)
        elif isinstance(node, Link):
            el = self.link(parent, node)
        elif isinstance(node, Frame):
            el = self.frame(parent, node)
        elif isinstance(node, Joint):
            el = self.joint(parent, node)
        else:
            el = _sub(parent, 'world', name=node.name)
            for child in node.children:
                self.node(el, child)
        self.elements[id(node)] = el

    def pose(self, parent: etree._Element, pose: Pose | None) -> None:
        if pose is None:
            return
        values = pose.values
        if pose.rotation_format == 'quat_xyzw' and len(values) == 7:
            self.non_unit |= abs(math.sqrt(sum(c * c for c in values[3:])) - 1) > 1e-12
            if self.unit_quaternions:
                values = values[:3] + _unit(values[3:])
        text = pose.text if pose.text is not None else _pose_text(values, pose.style)
        attr = 'relative_to' if self.v >= (1, 7) else 'frame'
        self.elements[id(pose)] = _sub(
            parent, 'pose', text, **{attr: pose.relative_to},
            rotation_format=pose.rotation_format, degrees=pose.degrees)

    def model(self, parent: etree._Element, m: Model) -> etree._Element:
        el = _sub(parent, 'model', name=m.name, canonical_link=m.canonical_link,
                  placement_frame=m.placement_frame)
        if m.static is not None:
            _sub(el, 'static', m.static)
        self.pose(el, m.pose)
        for child in m.children:
            self.node(el, child)
        return el

    def link(self, parent: etree._Element, link: Link) -> etree._Element:
        el = _sub(parent, 'link', name=link.name)
        self.pose(el, link.pose)
        if link.inertial is not None:
            self.elements[id(link.inertial)] = self.inertial(el, link.inertial)
        for shape in link.shapes:
            sel = _sub(el, shape.tag, name=shape.name)
            self.pose(sel, shape.pose)
            geometry = _sub(_sub(sel, 'geometry'), shape.geometry)
            for key, value in shape.sizes.items():
                _sub(geometry, key, value)
        for frame in link.frames:
            self.node(el, frame)
        return el

    def inertial(self, parent: etree._Element, inertial: Inertial) -> etree._Element:
        el = _sub(parent, 'inertial')
        _sub(el, 'mass', inertial.mass)
        self.pose(el, inertial.pose)
        if inertial.inertia is not None:
            iel = _sub(el, 'inertia')
            for key, value in zip(('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'), inertial.inertia,
                                  strict=True):
                _sub(iel, key, value)
        return el

    def frame(self, parent: etree._Element, frame: Frame) -> etree._Element:
        el = _sub(parent, 'frame', name=frame.name, attached_to=frame.attached_to)
        self.pose(el, frame.pose)
        return el

    def joint(self, parent: etree._Element, joint: Joint) -> etree._Element:
        el = _sub(parent, 'joint', name=joint.name, type=joint.type)
        _sub(el, 'parent', joint.parent)
        _sub(el, 'child', joint.child)
        self.pose(el, joint.pose)
        for key, value in joint.extra.items():
            _sub(el, key, value)
        for axis in joint.axes:
            ael = _sub(el, axis.tag)
            _sub(ael, 'xyz', axis.xyz, expressed_in=axis.expressed_in)
            if axis.use_parent_model_frame is not None:
                _sub(ael, 'use_parent_model_frame', axis.use_parent_model_frame)
            for tag, keys, values in (('limit', ('lower', 'upper', 'effort', 'velocity'), axis.limit),
                                      ('dynamics', ('damping', 'friction'), axis.dynamics)):
                if values is not None:
                    group = _sub(ael, tag)
                    for key, value in zip(keys, values, strict=True):
                        _sub(group, key, value)
        return el


def _serialise(
    version: str, root: Model | World, *, unit_quaternions: bool = False,
) -> tuple[_Renderer, etree._Element, bytes]:
    renderer = _Renderer(_ver(version), unit_quaternions=unit_quaternions)
    sdf = etree.Element('sdf', version=version)
    renderer.node(sdf, root)
    xml = etree.tostring(sdf, pretty_print=True, xml_declaration=True, encoding='UTF-8')
    return renderer, sdf, xml


def _render(version: str, root: Model | World, broken: _Broken | None = None) -> Document:
    """Serialise ``root`` and find the lines of the nodes involved in ``broken``."""
    renderer, sdf, xml = _serialise(version, root)
    twin = _serialise(version, root, unit_quaternions=True)[2] if renderer.non_unit else None
    # Hold both proxies of every pair: lxml keeps a proxy (and so its id) only while
    # it is referenced.
    pairs = list(zip(sdf.iter(), etree.fromstring(xml).iter(), strict=True))
    line_of = {id(a): cast(int, b.sourceline) for a, b in pairs}  # lxml-stubs say Ellipsis
    lines: set[int] = set()
    for node in broken.involved if broken else ():
        element = renderer.elements.get(id(node))
        if element is not None:
            lines.update(line_of[id(e)] for e in element.iter())
    return Document(
        xml.decode(), version,
        broken.rule if broken else None,
        frozenset(broken.codes) if broken else frozenset(),
        frozenset(lines),
        twin.decode() if twin is not None else None,
    )


@st.composite
def documents_for_version(draw: Draw, version: str) -> Document:
    """Draw a valid document of one SDFormat version."""
    return _render(version, _draw_root(draw, _ver(version)))


def valid_documents() -> st.SearchStrategy[Document]:
    """Return a strategy of valid documents of every version."""
    return st.sampled_from(VERSIONS).flatmap(documents_for_version)


# ---------------------------------------------------------------------------------------
# Mutations: each breaks exactly one rule of a valid tree.


class _Broken(NamedTuple):
    rule: str
    codes: set[str]
    involved: tuple[Node, ...]


@dataclass
class _Site:
    """A scope of the tree that a mutation can edit."""

    container: Model | World
    where: str  # top | world (a world's model) | nested | world-scope (the world itself)

    @property
    def children(self) -> list[Entity]:
        return list(self.container.children)


def _sites(root: Model | World) -> Iterator[_Site]:
    def walk(model: Model, where: str) -> Iterator[_Site]:
        yield _Site(model, where)
        for child in model.children:
            if isinstance(child, Model):
                yield from walk(child, 'nested')

    if isinstance(root, Model):
        yield from walk(root, 'top')
        return
    yield _Site(root, 'world-scope')
    for child in root.children:
        if isinstance(child, Model):
            yield from walk(child, 'world')


def _insert(draw: Draw, site: _Site, entity: Entity) -> None:
    """Insert ``entity`` among the scope's children at a drawn position."""
    index = draw(st.integers(0, len(site.children)))
    if isinstance(site.container, World):
        assert isinstance(entity, Model | Frame)
        site.container.children.insert(index, entity)
    else:
        site.container.children.insert(index, entity)


def _new(kind: str, name: str) -> Entity:
    """Return an entity that breaks no rule but by its name."""
    if kind == 'Link':
        return Link(name)
    if kind == 'Frame':
        return Frame(name)
    return Model(name, children=[Link('body')])


def _unique(site: _Site) -> list[Entity]:
    """Entities of a scope whose name no sibling has (see _add_old_clash)."""
    names = [c.name for c in site.children]
    return [c for c in site.children if names.count(c.name) == 1]


def _models(site: _Site) -> list[Model]:
    return [c for c in site.children if isinstance(c, Model)]


def _links(sites: list[_Site]) -> list[Link]:
    return [c for s in sites for c in s.children if isinstance(c, Link)]


def _with_links(sites: list[_Site], *wheres: str) -> list[_Site]:
    return [s for s in sites if s.where in wheres and any(isinstance(c, Link) for c in _unique(s))]


def _nonstatic(sites: list[_Site]) -> list[Model]:
    return [s.container for s in sites
            if isinstance(s.container, Model) and s.container.static != 'true']


def _frame_in(draw: Draw, site: _Site, index: int) -> Frame:
    """Pick the scope's ``index``-th frame, or add one (named uniquely)."""
    frames = [c for c in _unique(site) if isinstance(c, Frame)]
    if len(frames) > index:
        return frames[index]
    frame = Frame(_fresh(draw, {c.name for c in site.children}))
    _insert(draw, site, frame)
    return frame


def _joint_in(draw: Draw, site: _Site) -> Joint:
    """Pick a joint of the scope, or add a fixed joint between its links."""
    joints = [c for c in site.children if isinstance(c, Joint)]
    if bool(joints) and draw(st.booleans()):
        return draw(st.sampled_from(joints))
    links = [c.name for c in _unique(site) if isinstance(c, Link)]
    parent = draw(st.sampled_from(links + (['world'] if site.where != 'nested' else [])))
    joint = Joint(_fresh(draw, {c.name for c in site.children}), 'fixed', parent,
                  draw(st.sampled_from(links)))
    _insert(draw, site, joint)
    return joint


def _cross_type_clash_is_error(v: Version, site: _Site) -> bool:
    """Whether a link, joint, frame or nested model named like a sibling of another kind
    is DUPLICATE_NAME.

    From 1.7 on it is, but libsdformat 12 renames the later one instead (as for pre-1.7
    files) inside nested models, whose element loses its original version when copied
    from the spec (RANDOM_FINDINGS.md, F4); a world frame named like a model is renamed
    too (libsdformat12-notes.md §10.4).
    """
    return v >= (1, 7) and site.where in ('top', 'world')


def _originals(v: Version, site: _Site) -> list[Entity]:
    """Entities a twin can be added for (a joint only by a twin of another kind)."""
    cross = _cross_type_clash_is_error(v, site)
    return [c for c in site.children if cross or not isinstance(c, Joint)]


def _dangling_relative_to(draw: Draw, v: Version, sites: list[_Site]) -> _Broken:
    site = draw(st.sampled_from([s for s in sites if _unique(s)]))
    entity = draw(st.sampled_from(_unique(site)))
    names = [MISSING]
    if site.where != 'world-scope' and v >= (1, 7):
        names.append('world')  # no frame of a model scope
    if v >= (1, 8) and _models(site):
        names.append(f'{draw(st.sampled_from(_models(site))).name}::{MISSING}')
    entity.pose = entity.pose or Pose()
    entity.pose.relative_to = draw(st.sampled_from(names))
    return _Broken('dangling relative_to', {'POSE_RELATIVE_TO_INVALID'}, (entity, entity.pose))


def _dangling_attached_to(draw: Draw, v: Version, sites: list[_Site]) -> _Broken:
    site = draw(st.sampled_from(sites))
    frame = _frame_in(draw, site, draw(st.integers(0, 2)))
    frame.attached_to = draw(st.sampled_from(
        [MISSING] + (['world'] if site.where != 'world-scope' else [])))
    return _Broken('dangling attached_to', {'FRAME_ATTACHED_TO_INVALID'}, (frame,))


def _relative_to_cycle(draw: Draw, v: Version, sites: list[_Site]) -> _Broken:
    site = draw(st.sampled_from([s for s in sites if _unique(s)]))
    members = draw(st.lists(st.sampled_from(_unique(site)), min_size=1, max_size=3, unique_by=id))
    poses = []
    for i, entity in enumerate(members):
        entity.pose = entity.pose or Pose()
        entity.pose.relative_to = members[(i + 1) % len(members)].name
        poses.append(entity.pose)
    codes = {'POSE_RELATIVE_TO_CYCLE', 'POSE_RELATIVE_TO_GRAPH_ERROR'}
    return _Broken('relative_to cycle', codes, (*members, *poses))


def _attached_to_cycle(draw: Draw, v: Version, sites: list[_Site]) -> _Broken:
    site = draw(st.sampled_from(sites))
    size = draw(st.integers(1, 3))
    members = [_frame_in(draw, site, i) for i in range(size)]
    for i, frame in enumerate(members):
        frame.attached_to = members[(i + 1) % size].name
    codes = {'FRAME_ATTACHED_TO_CYCLE', 'FRAME_ATTACHED_TO_GRAPH_ERROR'}
    return _Broken('attached_to cycle', codes, tuple(members))


def _duplicate_name(draw: Draw, v: Version, sites: list[_Site]) -> _Broken:
    site = draw(st.sampled_from([s for s in sites if _originals(v, s)]))
    original = draw(st.sampled_from(_originals(v, site)))
    kinds = {type(original).__name__}
    if _cross_type_clash_is_error(v, site):
        kinds |= {'Link', 'Frame'}
    kinds.discard('Joint')
    kind = draw(st.sampled_from(sorted(kinds)))
    twin = _new(kind, original.name)
    _insert(draw, site, twin)
    return _Broken('duplicate name', {'DUPLICATE_NAME'}, (original, twin))


def _reserved_name(draw: Draw, v: Version, sites: list[_Site]) -> _Broken:
    site = draw(st.sampled_from(sites))
    name = draw(st.sampled_from(['world', '__x__', '__root__'] + (['a::b'] if v >= (1, 8) else [])))
    if site.where == 'world-scope':
        kinds = ['Model', 'Frame'] if v >= (1, 7) else ['Model']
    else:
        kinds = ['Link', 'Frame'] if v >= (1, 5) else ['Link']
    entity = _new(draw(st.sampled_from(kinds)), name)
    _insert(draw, site, entity)
    return _Broken('reserved name', {'RESERVED_NAME'}, (entity,))


def _joint_child(draw: Draw, v: Version, sites: list[_Site]) -> _Broken:
    joint = _joint_in(draw, draw(st.sampled_from(_with_links(sites, 'top', 'world', 'nested'))))
    joint.child = draw(st.sampled_from([MISSING, 'world']))
    return _Broken('joint child missing', {'JOINT_CHILD_LINK_INVALID'}, (joint,))


def _joint_parent(draw: Draw, v: Version, sites: list[_Site]) -> _Broken:
    # libsdformat 12 checks the joint parents of top-level and world models only.
    joint = _joint_in(draw, draw(st.sampled_from(_with_links(sites, 'top', 'world'))))
    joint.parent = MISSING
    joint.extra.pop('gearbox_reference_body', None)
    return _Broken('joint parent missing', {'JOINT_PARENT_LINK_INVALID'}, (joint,))


def _joint_same(draw: Draw, v: Version, sites: list[_Site]) -> _Broken:
    joint = _joint_in(draw, draw(st.sampled_from(_with_links(sites, 'top', 'world', 'nested'))))
    joint.parent = joint.child
    return _Broken('joint parent same as child', {'JOINT_PARENT_SAME_AS_CHILD'}, (joint,))


def _bad_canonical(draw: Draw, v: Version, sites: list[_Site]) -> _Broken:
    model = draw(st.sampled_from(_nonstatic(sites)))
    # Never the name of a frame, joint or nested model: libsdformat 12 accepts those
    # when they lead to a link (RANDOM_FINDINGS.md, F3).
    names = [MISSING]
    if v >= (1, 8):
        names += [f'{m.name}::{MISSING}' for m in model.children if isinstance(m, Model)]
    model.canonical_link = draw(st.sampled_from(names))
    return _Broken('bad canonical link', {'MODEL_CANONICAL_LINK_INVALID'}, (model,))


def _bad_placement(draw: Draw, v: Version, sites: list[_Site]) -> _Broken:
    model = draw(st.sampled_from([s.container for s in sites if isinstance(s.container, Model)]))
    model.placement_frame = MISSING
    # libsdformat 12 says POSE_RELATIVE_TO_INVALID (libsdformat12-notes.md §5.2).
    codes = {'POSE_RELATIVE_TO_INVALID', 'MODEL_PLACEMENT_FRAME_INVALID'}
    return _Broken('bad placement frame', codes, (model,))


def _model_without_link(draw: Draw, v: Version, sites: list[_Site]) -> _Broken:
    site = draw(st.sampled_from([s for s in sites if v >= (1, 5) or s.where == 'world-scope']))
    empty = Model(_fresh(draw, {c.name for c in site.children}),
                  static=draw(st.sampled_from([None, 'false'])))
    if v >= (1, 5) and draw(st.booleans()):
        empty.children.append(Frame('f'))
    if draw(st.booleans()):
        empty.pose = _draw_values(draw, v)
    _insert(draw, site, empty)
    return _Broken('model without link', {'MODEL_WITHOUT_LINK'}, (empty,))


_BAD_INERTIA = (
    ('1', ('1', '0', '0', '1', '0', '3')),  # triangle inequality
    ('-1', ('1', '0', '0', '1', '0', '1')),  # negative mass
    ('1', ('-1', '0', '0', '1', '0', '1')),  # negative moment
    ('1', ('1', '2', '0', '1', '0', '1')),  # not positive definite
)


def _invalid_inertia(draw: Draw, v: Version, sites: list[_Site]) -> _Broken:
    link = draw(st.sampled_from(_links(sites)))
    mass, inertia = draw(st.sampled_from(_BAD_INERTIA))
    link.inertial = Inertial(mass, None, inertia)
    return _Broken('invalid inertia', {'LINK_INERTIA_INVALID'}, (link,))


_JUNK_POSES = ('abc', '1 2 3', '1 2 3 4 5 6 7', 'nan 0 0 0 0 0', '0 0 inf 0 0 0', '1 2 3 x 5 6')


def _malformed_number(draw: Draw, v: Version, sites: list[_Site]) -> _Broken:
    codes = {'ELEMENT_INVALID'}  # libsdformat: the "Error reading element" chain
    if draw(st.integers(0, 2)) == 0:
        link = draw(st.sampled_from(_links(sites)))
        link.inertial = Inertial(draw(st.sampled_from(['abc', 'one', '--1'])))
        return _Broken('malformed number', codes, (link,))
    entities: list[Entity] = [c for s in sites for c in s.children]
    entities += [s.container for s in sites if s.where == 'top' and isinstance(s.container, Model)]
    entity = draw(st.sampled_from(entities))
    pose = entity.pose = entity.pose or Pose()
    pose.rotation_format = pose.degrees = None
    choice = draw(st.sampled_from(
        _JUNK_POSES + (('quat6', 'degrees+quat', 'bad format') if v >= (1, 9) else ())))
    if choice == 'quat6':
        pose.text, pose.rotation_format = '0 0 0 0 0 0', 'quat_xyzw'
    elif choice == 'degrees+quat':
        pose.text, pose.rotation_format, pose.degrees = '0 0 0 0 0 0 1', 'quat_xyzw', 'true'
    elif choice == 'bad format':
        pose.text, pose.rotation_format = '0 0 0 0 0 0', 'euler_xyz'
    else:
        pose.text = choice
    return _Broken('malformed number', codes, (entity, pose))


Mutation = Callable[[Draw, Version, list[_Site]], _Broken]
Applicable = Callable[[Version, list[_Site]], bool]


def _always(v: Version, sites: list[_Site]) -> bool:
    return True


#: Each rule the mutation strategy can break: the oldest version it applies to, when it
#: applies to a tree, and how to break it.
RULES: dict[str, tuple[Version, Applicable, Mutation]] = {
    'dangling relative_to': ((1, 5), lambda v, s: any(_unique(x) for x in s), _dangling_relative_to),
    'dangling attached_to': ((1, 7), _always, _dangling_attached_to),
    'relative_to cycle': ((1, 5), lambda v, s: any(_unique(x) for x in s), _relative_to_cycle),
    'attached_to cycle': ((1, 7), _always, _attached_to_cycle),
    'duplicate name': ((1, 4), lambda v, s: any(_originals(v, x) for x in s), _duplicate_name),
    'reserved name': ((1, 4), _always, _reserved_name),
    'joint child missing': (
        (1, 4), lambda v, s: bool(_with_links(s, 'top', 'world', 'nested')), _joint_child),
    'joint parent missing': ((1, 4), lambda v, s: bool(_with_links(s, 'top', 'world')), _joint_parent),
    'joint parent same as child': (
        (1, 4), lambda v, s: bool(_with_links(s, 'top', 'world', 'nested')), _joint_same),
    'bad canonical link': ((1, 7), lambda v, s: bool(_nonstatic(s)), _bad_canonical),
    'bad placement frame': ((1, 8), _always, _bad_placement),
    'model without link': (
        (1, 4), lambda v, s: v >= (1, 5) or s[0].where == 'world-scope', _model_without_link),
    'invalid inertia': ((1, 4), lambda v, s: bool(_links(s)), _invalid_inertia),
    'malformed number': ((1, 4), lambda v, s: bool(_links(s)), _malformed_number),
}


@st.composite
def mutated_documents(draw: Draw, rules: tuple[str, ...] = tuple(RULES)) -> Document:
    """Draw a valid document and break exactly one of ``rules`` in it."""
    version = draw(st.sampled_from(VERSIONS))
    v = _ver(version)
    root = _draw_root(draw, v)
    sites = list(_sites(root))
    usable = [r for r in rules if v >= RULES[r][0] and RULES[r][1](v, sites)]
    assume(usable)
    broken = RULES[draw(st.sampled_from(usable))][2](draw, v, sites)
    return _render(version, root, broken)
