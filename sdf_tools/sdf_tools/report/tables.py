"""The tables of the page: links, joints and frames, each with its world pose.

Poses are printed as ``x y z | roll pitch yaw`` (metres, radians, fixed
axes); joint axes in the parent link's frame at zero joint positions, as a
URDF or SDFormat author writes them.
"""
from __future__ import annotations

import math
from html import escape
from typing import TYPE_CHECKING

from sdf_tools.lint.checks import Row
from sdf_tools.resolved import ResolvedAxis
from sdf_tools.transform import Transform, Vec3

if TYPE_CHECKING:
    from sdf_tools.report.build import Report


def num(v: float | None) -> str:
    """A number as the tables print it (blank for None)."""
    return '' if v is None else f'{v:.6g}'


def pose_text(t: Transform | None) -> str:
    """``x y z | r p y`` of a transform, or ``unresolved``."""
    if t is None:
        return '<span class="bad">unresolved</span>'
    r, p, y = t.rpy()
    return ' '.join(num(v) for v in t.p) + ' | ' + ' '.join(num(v) for v in (r, p, y))


def _mark(ok: bool | None, label: str) -> str:
    if ok is None:
        return ''
    return f'<span class="{"pass" if ok else "fail"}">{label} {"✓" if ok else "✗"}</span>'


def _checks_cell(row: Row) -> str:
    if row['static']:
        return '<span class="muted">static (mass unused)</span>'
    parts = [_mark(row['mass_positive'], 'm&gt;0'), _mark(row['positive_definite'], 'pos. def.'),
             _mark(row['triangle'], 'triangle')]
    if row['density'] is not None:
        parts.append(_mark(row['plausible'], f'ρ {row["density"]:.3g} kg/m³, '
                                             f'I/I<sub>geom</sub> {row["inertia_ratio"]:.2g}'))
    return ' '.join(p for p in parts if p) or '<span class="muted">no inertial</span>'


def _table(title: str, head: list[str], rows: list[str]) -> str:
    ths = ''.join(f'<th>{h}</th>' for h in head)
    body = ''.join(rows) or f'<tr><td colspan="{len(head)}" class="muted">none</td></tr>'
    return (f'<section class="table"><h2>{title} <small>{len(rows)}</small></h2><div class="scroll">'
            f'<table class="data" id="{title.lower()}-table"><thead><tr>{ths}</tr></thead>'
            f'<tbody>{body}</tbody></table></div></section>')


def links_table(report: Report) -> str:
    """Links: world pose, mass, centre of mass, inertia and the outcome of each check."""
    rows = []
    for i, (lk, row) in enumerate(zip(report.resolved.links, report.lint.links, strict=True)):
        inl = lk.inertial
        inertia = ' '.join(num(v) for v in inl.inertia)
        given = '' if inl.written else ' <span class="muted">(default)</span>'
        com_text = '' if inl.world is None else ' '.join(num(v) for v in inl.world.p)
        rows.append(f'<tr data-link="{i}"><td>{escape(lk.name)}</td>'
                    f'<td>{pose_text(lk.world)}</td>'
                    f'<td>{num(inl.mass)}{given}</td><td>{com_text}</td>'
                    f'<td>{inertia}</td><td>{_checks_cell(row)}</td></tr>')
    return _table('Links', ['link', 'world pose (x y z | r p y)', 'mass (kg)', 'centre of mass (world)',
                            'inertia ixx ixy ixz iyy iyz izz (kg m²)', 'checks'], rows)


def _axis_in_parent(axis: Vec3 | None, parent: Transform | None) -> str:
    if axis is None:
        return ''
    v = parent.inverse().rotate(axis) if parent is not None else axis
    return ' '.join(num(c + 0.0) for c in v)


def joints_table(report: Report) -> str:
    """Joints: type, parent, child, axis in the parent frame, limits, dynamics, world pose."""
    r = report.resolved
    index = {lk.name: i for i, lk in enumerate(r.links)}
    rows = []
    for j in r.joints:
        parent_link = r.links_by_name.get(j.parent)
        parent = parent_link.world if parent_link is not None else None
        a, a2 = j.axis, j.axis2
        axes = _axis_in_parent(a.xyz if a else None, parent)
        if a2 is not None:
            axes += ' / ' + _axis_in_parent(a2.xyz, parent)
        child = index.get(j.child)
        rows.append(f'<tr{"" if child is None else f" data-link={chr(34)}{child}{chr(34)}"}>'
                    f'<td>{escape(j.name)}</td><td>{escape(j.type)}</td>'
                    f'<td>{escape(j.parent)}</td><td>{escape(j.child)}</td><td>{axes}</td>'
                    f'<td>{_limit(a, "lower")}</td><td>{_limit(a, "upper")}</td>'
                    f'<td>{_unlimited(a, "effort")}</td><td>{_unlimited(a, "velocity")}</td>'
                    f'<td>{"" if a is None else num(a.damping)}</td><td>{pose_text(j.world)}</td></tr>')
    return _table('Joints', ['joint', 'type', 'parent', 'child', 'axis (parent frame)', 'lower', 'upper',
                             'effort', 'velocity', 'damping', 'world pose (x y z | r p y)'], rows)


def _limit(a: ResolvedAxis | None, key: str) -> str:
    if a is None:
        return ''
    v: float = getattr(a, key)
    return 'none' if not math.isfinite(v) or abs(v) >= 1e16 else num(v)


def _unlimited(a: ResolvedAxis | None, key: str) -> str:
    if a is None:
        return ''
    v: float = getattr(a, key)
    return 'unlimited' if not math.isfinite(v) else num(v)


def frames_table(report: Report) -> str:
    """Frames: what each is attached to, its pose there and in the world."""
    r = report.resolved
    index = {lk.name: i for i, lk in enumerate(r.links)}
    rows = []
    for f in r.frames:
        att = f.attached_to or ''
        body = r.links_by_name.get(att)
        base = body.world if body is not None else (r.models_by_name[att].world
                                                      if att in r.models_by_name else None)
        local = base.inverse() * f.world if base is not None and f.world is not None else None
        link = index.get(att)
        rows.append(f'<tr{"" if link is None else f" data-link={chr(34)}{link}{chr(34)}"}>'
                    f'<td>{escape(f.name)}</td><td>{escape(att)}</td>'
                    f'<td>{pose_text(local) if local is not None else ""}</td>'
                    f'<td>{pose_text(f.world)}</td></tr>')
    return _table('Frames', ['frame', 'attached_to', 'pose in attached_to',
                             'world pose (x y z | r p y)'], rows)
