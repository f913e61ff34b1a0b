"""Compare an output's snapshot with the source's: the worst deviation per measure, every miss.

Measures (tolerance 1e-9 unless the engine stores less, see
:attr:`Snapshot.tolerances`): ``body pose`` (max of position and rotation-matrix
entry differences), ``joint type``, ``joint anchor``, ``joint axis``, ``joint
limits`` (a joint's, and the ``ctrlrange`` of a position actuator), ``effort
limit`` (a joint's, an actuator's ``forcerange``, a motor's ``ctrlrange``),
``velocity limit`` (a joint's, a velocity actuator's ``ctrlrange``), ``mass``
(relative to max(1, mass)), ``centre of mass``, ``inertia`` (relative to the
largest entry of either side, at least 1e-12 kg m^2), ``sensor pose`` and
``sensor parameters`` (update rate, field of view, clipping, range, noise:
relative to max(1, |value|)). An object the
output lacks is a difference of its measure with no value; a measure its engine
cannot hold at all is not compared (:attr:`Snapshot.lacks`, a note says why).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from sdf_tools.transform import Transform
from sdf_tools.verify.snapshot import ActuatorState, JointState, MassProps, Snapshot, combine, rotation

TOL = 1e-9
INERTIA_FLOOR = 1e-12
T = TypeVar('T')
MEASURES = ('body pose', 'joint type', 'joint anchor', 'joint axis', 'joint limits',
            'effort limit', 'velocity limit', 'mass', 'centre of mass', 'inertia', 'sensor pose',
            'sensor parameters')
# Source kinds an engine writes as another kind (universal/revolute2: a hinge per axis in
# MJCF, a D6 joint in USD; screw: a hinge and a slide; gearbox: a hinge).
AGREE = {('universal', 'revolute'), ('revolute2', 'revolute'), ('universal', 'd6'),
         ('revolute2', 'd6'), ('planar', 'd6'), ('screw', 'revolute'), ('gearbox', 'revolute')}


@dataclass
class Measure:
    """One measure: how many objects were compared and the worst deviation."""

    name: str
    tolerance: float
    compared: int = 0
    worst: float = 0.0
    worst_object: str = ''


@dataclass(frozen=True)
class Difference:
    """An object over tolerance (``value`` None: the output lacks it)."""

    measure: str
    object: str
    value: float | None
    tolerance: float
    message: str

    def __str__(self) -> str:
        return f'{self.measure}: {self.object}: {self.message}'


@dataclass
class Verdict:
    """The outcome of a verification."""

    engine: str
    measures: dict[str, Measure]
    differences: list[Difference] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every compared object agrees within tolerance."""
        return not self.differences

    def joined(self, other: Verdict, label: str) -> Verdict:
        """Return this verdict and ``other`` (a second engine's), its measures named ``M (label)``."""
        def renamed(m: Measure) -> Measure:
            return Measure(f'{m.name} ({label})', m.tolerance, m.compared, m.worst,
                           m.worst_object)
        return Verdict(f'{self.engine} and {other.engine}',
                       {**self.measures, **{f'{k} ({label})': renamed(m)
                                            for k, m in other.measures.items()}},
                       self.differences + [Difference(f'{d.measure} ({label})', d.object, d.value,
                                                      d.tolerance, d.message)
                                           for d in other.differences],
                       self.notes + [f'{label}: {n}' for n in other.notes
                                     if n not in self.notes])

    def to_json(self) -> dict[str, Any]:
        """Return the ``--json`` object."""
        return {
            'ok': self.ok, 'engine': self.engine,
            'measures': {m.name: {'compared': m.compared, 'worst': _finite(m.worst),
                                  'object': m.worst_object or None, 'tolerance': m.tolerance}
                         for m in self.measures.values()},
            'differences': [{'measure': d.measure, 'object': d.object,
                             'value': None if d.value is None else _finite(d.value),
                             'tolerance': d.tolerance, 'message': d.message}
                            for d in self.differences],
            'notes': self.notes,
        }


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None  # strict JSON has no infinity


class _Judge:
    def __init__(self, obs: Snapshot) -> None:
        self.measures = {n: Measure(n, obs.tolerances.get(n, TOL)) for n in MEASURES}
        self.differences: list[Difference] = []
        self.lacks = obs.lacks
        self.optional = obs.optional
        self.unheld: dict[str, list[str]] = {}
        self.unlimited_beyond = obs.unlimited_beyond

    def value(self, measure: str, obj: str, value: float, what: str = '') -> None:
        if measure in self.lacks:
            return
        m = self.measures[measure]
        m.compared += 1
        if not m.worst_object or not value <= m.worst:
            m.worst, m.worst_object = value, obj
        if not value <= m.tolerance:  # NaN is over
            self.differences.append(Difference(measure, obj, value, m.tolerance,
                                               what or f'off by {value:.3g}'))

    def missing(self, measure: str, obj: str, message: str) -> None:
        if measure in self.lacks:
            return
        self.measures[measure].compared += 1
        self.differences.append(Difference(measure, obj, None,
                                           self.measures[measure].tolerance, message))


def pose_error(a: Transform, b: Transform) -> float:
    """Return max(position difference, rotation-matrix entry difference)."""
    dp = max(abs(x - y) for x, y in zip(a.p, b.p, strict=True))
    return max(dp, float(np.abs(rotation(a) - rotation(b)).max()))


def _find(d: dict[str, Any], key: str) -> Any:
    """Look ``key`` up as written, or with ``::`` as ``/`` (a flattened URDF name)."""
    got = d.get(key)
    return got if got is not None else d.get(key.replace('::', '/'))


def _each(j: _Judge, measure: str, kind: str, want: Mapping[str, T], got: dict[str, T],
          error: Callable[[T, T], float]) -> None:
    """Compare each named object of the source with the output's of the same name."""
    for name, w in want.items():
        g = _find(got, name)
        if g is None:
            j.missing(measure, f'{kind} [{name}]', 'not in the output')
        else:
            j.value(measure, f'{kind} [{name}]', error(w, g))


def _poses(j: _Judge, exp: Snapshot, obs: Snapshot, notes: list[str]) -> None:
    bodies = {k: v for k, v in exp.poses.items() if k in exp.link_masses}  # not a <frame>
    static = sorted(k for k in bodies if _find(obs.poses, k) is None and
                    (k in obs.static or k.replace('::', '/') in obs.static))
    if static:
        notes.append(f'body pose not compared for {len(static)} links the engine keeps as world '
                     f'geometry, not bodies: {", ".join(static)}')
    _each(j, 'body pose', 'link', {k: v for k, v in bodies.items() if k not in static},
          obs.poses, pose_error)


def _vec(a: Any, b: Any) -> float:
    return float(np.abs(np.asarray(a, dtype=float) - np.asarray(b, dtype=float)).max())


def _welded(exp_j: JointState, obs: Snapshot) -> bool:
    """Whether a source fixed joint the output has no joint for is a weld or a merge there."""
    child = obs.members.get(exp_j.child, obs.members.get(exp_j.child.replace('::', '/')))
    parent = obs.members.get(exp_j.parent, exp_j.parent)
    return child is not None and (child == parent or obs.welded.get(child) == parent)


def _joint(j: _Judge, name: str, want: JointState, got: JointState) -> None:
    obj = f'joint [{name}]'
    same = want.kind == got.kind or (want.kind, got.kind) in AGREE
    j.value('joint type', obj, 0.0 if same else 1.0,
            '' if same else f'{want.kind} in the source, {got.kind} in the output')
    if want.anchor is not None and got.anchor is not None and got.kind != 'free':
        j.value('joint anchor', obj, _vec(want.anchor, got.anchor))
    if want.axis is not None and got.axis is not None and want.kind != 'gearbox':
        n = math.sqrt(sum(v * v for v in want.axis)) or 1.0
        j.value('joint axis', obj, _vec([v / n for v in want.axis], got.axis))
    if want.kind in ('universal', 'revolute2', 'planar') or got.kind == 'd6':
        return
    _bound(j, 'joint limits', obj, want.limits, got.limits)
    if got.kind in ('revolute', 'prismatic'):
        _rate(j, 'effort limit', obj, want.effort, got.effort)
        _rate(j, 'velocity limit', obj, want.velocity, got.velocity)


def _bound(j: _Judge, measure: str, obj: str, want: tuple[float, float] | None,
           got: tuple[float, float] | None) -> None:
    """Compare two (lower, upper) ranges, None meaning unlimited, relative to max(1, bound).

    Relative, as the rates are: gz-sim's ``<lower>-1e+12</lower>`` written as a float
    (USD) is off by 2.5e4 degrees and right to 4e-10. A range the engine cannot tell from
    none (:attr:`Snapshot.unlimited_beyond`) agrees with none.
    """
    if want is not None and got is None and min(map(abs, want)) >= j.unlimited_beyond:
        want = None
    if want is None and got is None:
        return
    if want is None or got is None:
        j.value(measure, obj, math.inf, 'limited in the ' +
                ('output' if want is None else 'source') + ' only')
    else:
        j.value(measure, obj, max(abs(w - g) / max(1.0, abs(w)) for w, g in zip(want, got, strict=True)))


def _rate(j: _Judge, measure: str, obj: str, want: float | None, got: float | None) -> None:
    """Compare a symmetric limit (effort, velocity; None: unlimited), relative to max(1, limit)."""
    if got is None and want is not None and measure in j.optional:
        j.unheld.setdefault(measure, []).append(obj)  # the output has no place for it here
    elif want is None or got is None:
        _bound(j, measure, obj, None if want is None else (-want, want),
               None if got is None else (-got, got))
    else:
        j.value(measure, obj, abs(want - got) / max(1.0, abs(want)))


def _joints(j: _Judge, exp: Snapshot, obs: Snapshot, notes: list[str]) -> None:
    by_alias = {v: k for k, v in exp.joint_aliases.items()}
    # A joint whose child the engine keeps as world geometry (a static model's) joins nothing
    # that moves: Newton imports none (usd-core parses them, on the world at both ends).
    unheld = sorted(k for k, w in exp.joints.items() if _find(obs.joints, k) is None
                    and k not in by_alias and (w.child in obs.static
                                               or w.child.replace('::', '/') in obs.static))
    if unheld:
        notes.append(f'joint not compared for {len(unheld)} joints between links the engine '
                     f'keeps as world geometry: {", ".join(unheld)}')
    for name, want in exp.joints.items():
        if name in unheld:
            continue
        got = _find(obs.joints, name)
        if got is None and name in by_alias:
            got = obs.joints.get(by_alias[name])
        if got is not None:
            _joint(j, name, want, got)
        elif (want.kind == 'fixed' and _welded(want, obs)) or \
                (want.kind == 'free' and _find(obs.members, want.child) in obs.free):
            j.value('joint type', f'joint [{name}]', 0.0)
        elif want.kind == 'gearbox' and obs.couplings is not None and name in exp.gearboxes:
            _gearbox(j, name, exp.gearboxes[name], obs.couplings)
        else:
            j.missing('joint type', f'joint [{name}]', 'not in the output')


#: Agreement asked of a coupling's multiplier: the USD schemas store it as a float.
COUPLING_REL = 1e-6


def _gearbox(j: _Judge, name: str, want: tuple[str, str, float],
             couplings: Mapping[str, tuple[str, float]]) -> None:
    """A gearbox the engine holds as a coupling of the two joints it gears."""
    follower, leader, multiplier = want
    got = couplings.get(follower)
    if got is None or got[0] != leader:
        j.missing('joint type', f'joint [{name}]', f'not in the output: no coupling of '
                  f'[{follower}] to [{leader}]')
        return
    err = abs(got[1] - multiplier) / max(1.0, abs(multiplier))
    j.value('joint type', f'joint [{name}]', 0.0 if err <= COUPLING_REL else err,
            f'coupling multiplier {got[1]:g}, the gearbox gives {multiplier:g}')


def _masses(j: _Judge, exp: Snapshot, obs: Snapshot, notes: list[str]) -> None:
    groups: dict[str, list[str]] = {}
    for link in exp.link_masses:
        body = _find(obs.members, link)
        if body is not None:
            groups.setdefault(body, []).append(link)
    skipped, balanced, still = [], [], []
    for body, links in groups.items():
        got = obs.masses.get(body)
        parts = [exp.link_masses[x] for x in links if x not in exp.massless]
        if got is None:
            if parts and body in obs.static:
                still.append(body)
            continue
        if not parts:
            skipped.append(body)
            continue
        parts += [exp.link_masses[x] for x in links if x in exp.zero_mass]
        want = combine(parts)
        if obs.balances_inertia and (even := _balanced(want)) is not None:
            want = even
            balanced.append(body)
        _mass(j, f'body [{body}]', want, got)
    if skipped:
        notes.append(f'mass not compared for {len(skipped)} bodies whose links have no mass in '
                     f'the source (the converter chose theirs): {", ".join(sorted(skipped))}')
    if still:
        notes.append(f'mass not compared for {len(still)} links the engine keeps as world '
                     f'geometry (no mass there): {", ".join(sorted(still))}')
    if balanced:
        notes.append(f'inertia of {len(balanced)} bodies compared as MuJoCo balances it (their '
                     'principal moments, a negative one as 0, break A + B >= C in the source; '
                     f'balanceinertia gives each moment their mean): {", ".join(sorted(balanced))}')


def _balanced(want: MassProps) -> MassProps | None:
    """The tensor MuJoCo's balanceinertia makes of ``want``, None when it keeps it.

    The MJCF exporter writes a negative principal moment (a tensor that is not positive
    semi-definite) as 0, as MuJoCo takes no negative one. Moments that break the triangle
    inequality by round-off only (a rod's 0 + I = I) are kept: the slack is 1e-9 of the
    trace, the tolerance of the inertia measure.
    """
    a, b, c = (max(m, 0.0) for m in np.linalg.eigvalsh(want.inertia))  # ascending
    if a + b >= c - 1e-9 * max(a + b + c, INERTIA_FLOOR):
        return None
    return MassProps(want.mass, want.com, np.eye(3) * ((a + b + c) / 3.0))


def _mass(j: _Judge, obj: str, want: MassProps, got: MassProps) -> None:
    j.value('mass', obj, abs(want.mass - got.mass) / max(1.0, want.mass))
    j.value('centre of mass', obj, _vec(want.com, got.com))
    # Relative to the largest entry of either side, with a floor far below any real body's
    # (1e-12 kg m^2): a zero inertia combined with itself leaves ~1e-38 of rounding.
    scale = max(float(np.abs(want.inertia).max()), float(np.abs(got.inertia).max()), INERTIA_FLOOR)
    j.value('inertia', obj, _vec(want.inertia, got.inertia) / scale)


def _moved(name: str, obs: Snapshot) -> str:
    """The name of sensor ``LINK::S`` in the output: under the body LINK was merged into."""
    link, sep, sensor = name.rpartition('::')
    body = obs.members.get(link)
    if _find(obs.sensors, name) is None and sep and body and body != link:
        return f'{body}::{sensor}'
    return name


def _sensors(j: _Judge, exp: Snapshot, obs: Snapshot) -> None:
    got = dict(obs.sensors)
    got.update({k: v for k in exp.sensors
                if (v := _find(obs.sensors, _moved(k, obs))) is not None})
    _each(j, 'sensor pose', 'sensor', exp.sensors, got, pose_error)
    for name, want in exp.sensor_params.items():
        got = _find(obs.sensor_params, _moved(name, obs))
        if got is None:
            continue  # no such sensor: its pose says so
        held = {k: v for k, v in want.items() if k.split(' ')[0] not in obs.sensor_lacks}
        _each(j, 'sensor parameters', f'sensor [{name}]', held, got,
              lambda a, b: abs(a - b) / max(1.0, abs(a)))


def _actuator(j: _Judge, name: str, a: ActuatorState, want: JointState) -> None:
    """An actuator's ranges against its joint's limits in the source."""
    obj = f'actuator [{name}]'
    if a.forcerange is not None:
        _rate(j, 'effort limit', obj, want.effort, max(abs(v) for v in a.forcerange))
    if a.ctrlrange is None:
        return
    if a.kind == 'position':
        _bound(j, 'joint limits', obj, want.limits, a.ctrlrange)
    elif a.kind in ('motor', 'velocity'):
        measure = 'effort limit' if a.kind == 'motor' else 'velocity limit'
        limit = want.effort if a.kind == 'motor' else want.velocity
        _bound(j, measure, obj, None if limit is None else (-limit, limit),
               (a.ctrlrange[0] * a.gear, a.ctrlrange[1] * a.gear))


def _actuators(j: _Judge, exp: Snapshot, obs: Snapshot) -> None:
    by_alias = {v: k for k, v in exp.joint_aliases.items()}
    for name, a in obs.actuators.items():
        want = _find(exp.joints, a.joint) or exp.joints.get(by_alias.get(a.joint, ''))
        if want is not None:
            _actuator(j, name, a, want)


def _limits_notes(j: _Judge, exp: Snapshot, obs: Snapshot) -> list[str]:
    """Say what was not compared, where the source had something to compare."""
    notes = [f'{m} not compared: {why}' for m, why in obs.lacks.items()
             if not m.startswith('sensor') or exp.sensors]
    notes += [f'{m} not compared for {len(objs)} objects the output has no place for it on '
              f'({obs.optional[m]}): {", ".join(objs)}' for m, objs in j.unheld.items()]
    written = {k.split(' ')[0] for params in exp.sensor_params.values() for k in params}
    unheld = {k: why for k, why in obs.sensor_lacks.items() if k in written}
    if unheld:
        notes.append('sensor parameters not compared: ' + '; '.join(
            f'{k}: {why}' for k, why in unheld.items()))
    return notes


def compare(exp: Snapshot, obs: Snapshot) -> Verdict:
    """Compare the output's snapshot ``obs`` with the source's ``exp``."""
    j = _Judge(obs)
    notes = list(exp.notes) + list(obs.notes)
    _poses(j, exp, obs, notes)
    _joints(j, exp, obs, notes)
    _actuators(j, exp, obs)
    _masses(j, exp, obs, notes)
    _sensors(j, exp, obs)
    return Verdict(obs.engine, j.measures, j.differences, notes + _limits_notes(j, exp, obs))
