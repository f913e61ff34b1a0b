"""Compare an output's snapshot with the source's: the worst deviation per measure, every miss.

Measures (tolerance 1e-9 unless the engine stores less, see
:attr:`Snapshot.tolerances`): ``body pose`` (max of position and rotation-matrix
entry differences), ``joint type``, ``joint anchor``, ``joint axis``, ``joint
limits``, ``mass`` (relative to max(1, mass)), ``centre of mass``, ``inertia``
(relative to the largest entry) and ``sensor pose``. An object the output lacks
is a difference of its measure with no value.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sdf_tools.transform import Transform
from sdf_tools.verify.snapshot import JointState, MassProps, Snapshot, combine, rotation

TOL = 1e-9
MEASURES = ('body pose', 'joint type', 'joint anchor', 'joint axis', 'joint limits', 'mass',
            'centre of mass', 'inertia', 'sensor pose')
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

    def value(self, measure: str, obj: str, value: float, what: str = '') -> None:
        m = self.measures[measure]
        m.compared += 1
        if not m.worst_object or not value <= m.worst:
            m.worst, m.worst_object = value, obj
        if not value <= m.tolerance:  # NaN is over
            self.differences.append(Difference(measure, obj, value, m.tolerance,
                                               what or f'off by {value:.3g}'))

    def missing(self, measure: str, obj: str, message: str) -> None:
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


def _poses(j: _Judge, exp: Snapshot, obs: Snapshot) -> None:
    for name, want in exp.poses.items():
        if name not in exp.link_masses:
            continue  # a <frame> of the source: not a body
        got = _find(obs.poses, name)
        if got is None:
            j.missing('body pose', f'link [{name}]', 'not in the output')
        else:
            j.value('body pose', f'link [{name}]', pose_error(want, got))


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
    if want.limits is None and got.limits is None:
        return
    if want.limits is None or got.limits is None:
        j.value('joint limits', obj, math.inf, 'limited in the ' +
                ('output' if want.limits is None else 'source') + ' only')
    else:
        j.value('joint limits', obj, _vec(want.limits, got.limits))


def _joints(j: _Judge, exp: Snapshot, obs: Snapshot) -> None:
    by_alias = {v: k for k, v in exp.joint_aliases.items()}
    for name, want in exp.joints.items():
        got = _find(obs.joints, name)
        if got is None and name in by_alias:
            got = obs.joints.get(by_alias[name])
        if got is not None:
            _joint(j, name, want, got)
        elif (want.kind == 'fixed' and _welded(want, obs)) or \
                (want.kind == 'free' and _find(obs.members, want.child) in obs.free):
            j.value('joint type', f'joint [{name}]', 0.0)
        else:
            j.missing('joint type', f'joint [{name}]', 'not in the output')


def _masses(j: _Judge, exp: Snapshot, obs: Snapshot, notes: list[str]) -> None:
    groups: dict[str, list[str]] = {}
    for link in exp.link_masses:
        body = _find(obs.members, link)
        if body is not None:
            groups.setdefault(body, []).append(link)
    skipped = []
    for body, links in groups.items():
        got = obs.masses.get(body)
        parts = [exp.link_masses[x] for x in links if x not in exp.massless]
        if got is None:
            continue
        if not parts:
            skipped.append(body)
            continue
        _mass(j, f'body [{body}]', combine(parts), got)
    if skipped:
        notes.append(f'mass not compared for {len(skipped)} bodies whose links have no mass in '
                     f'the source (the converter chose theirs): {", ".join(sorted(skipped))}')


def _mass(j: _Judge, obj: str, want: MassProps, got: MassProps) -> None:
    j.value('mass', obj, abs(want.mass - got.mass) / max(1.0, want.mass))
    j.value('centre of mass', obj, _vec(want.com, got.com))
    scale = max(float(np.abs(want.inertia).max()), 1e-300)
    j.value('inertia', obj, _vec(want.inertia, got.inertia) / scale)


def _sensors(j: _Judge, exp: Snapshot, obs: Snapshot) -> None:
    for name, want in exp.sensors.items():
        got = _find(obs.sensors, name)
        if got is None:
            j.missing('sensor pose', f'sensor [{name}]', 'not in the output')
        else:
            j.value('sensor pose', f'sensor [{name}]', pose_error(want, got))


def compare(exp: Snapshot, obs: Snapshot) -> Verdict:
    """Compare the output's snapshot ``obs`` with the source's ``exp``."""
    j = _Judge(obs)
    notes = list(exp.notes) + list(obs.notes)
    _poses(j, exp, obs)
    _joints(j, exp, obs)
    _masses(j, exp, obs, notes)
    _sensors(j, exp, obs)
    return Verdict(obs.engine, j.measures, j.differences, notes)
