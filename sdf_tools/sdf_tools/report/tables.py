"""The tables of the page: links, joints and frames, each with its world pose.

Poses are printed as ``x y z | roll pitch yaw`` (metres, radians, fixed
axes); joint axes in the parent link's frame at zero joint positions, as a
URDF or SDFormat author writes them.
"""
from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from sdf_tools.report.kinematics import from_json
from sdf_tools.transform import Transform

if TYPE_CHECKING:
    from sdf_tools.report.build import Report

Json = dict[str, Any]


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


def _checks_cell(row: Json) -> str:
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
    for i, (e, row) in enumerate(zip(report.links, report.checks.links, strict=True)):
        d = e.data
        com = from_json(d['inertial_pose'])
        inertia = ' '.join(num(v) for v in d['inertia'])
        given = '' if e.link.inertial is not None else ' <span class="muted">(default)</span>'
        com_text = '' if com is None else ' '.join(num(v) for v in com.p)
        rows.append(f'<tr data-link="{i}"><td>{escape(e.name)}</td>'
                    f'<td>{pose_text(from_json(d["pose"]))}</td>'
                    f'<td>{num(d["mass"])}{given}</td><td>{com_text}</td>'
                    f'<td>{inertia}</td><td>{_checks_cell(row)}</td></tr>')
    return _table('Links', ['link', 'world pose (x y z | r p y)', 'mass (kg)', 'centre of mass (world)',
                            'inertia ixx ixy ixz iyy iyz izz (kg m²)', 'checks'], rows)


def _axis_in_parent(axis: list[float] | None, parent: Transform | None) -> str:
    if axis is None:
        return ''
    v = parent.inverse().rotate((axis[0], axis[1], axis[2])) if parent is not None else tuple(axis)
    return ' '.join(num(c + 0.0) for c in v)


def joints_table(report: Report, worlds: dict[str, Transform | None]) -> str:
    """Joints: type, parent, child, axis in the parent frame, limits, dynamics, world pose."""
    index = {e.name: i for i, e in enumerate(report.links)}
    rows = []
    for j in report.joints:
        d = j.data
        lim, dyn = d['limit'] or {}, d['dynamics'] or {}
        parent = worlds.get(d['parent'])
        axes = _axis_in_parent(d['axis'], parent)
        if d['axis2'] is not None:
            axes += ' / ' + _axis_in_parent(d['axis2'], parent)
        child = index.get(d['child'])
        rows.append(f'<tr{"" if child is None else f" data-link={chr(34)}{child}{chr(34)}"}>'
                    f'<td>{escape(j.name)}</td><td>{escape(d["type"])}</td>'
                    f'<td>{escape(d["parent"] or "")}</td>'
                    f'<td>{escape(d["child"] or "")}</td><td>{axes}</td>'
                    f'<td>{_limit(lim.get("lower"))}</td><td>{_limit(lim.get("upper"))}</td>'
                    f'<td>{_unlimited(lim, "effort")}</td><td>{_unlimited(lim, "velocity")}</td>'
                    f'<td>{num(dyn.get("damping"))}</td><td>{pose_text(from_json(d["pose"]))}</td></tr>')
    return _table('Joints', ['joint', 'type', 'parent', 'child', 'axis (parent frame)', 'lower', 'upper',
                             'effort', 'velocity', 'damping', 'world pose (x y z | r p y)'], rows)


def _limit(v: float | None) -> str:
    return 'none' if v is not None and abs(v) >= 1e16 else num(v)


def _unlimited(lim: Json, key: str) -> str:
    return '' if not lim else ('unlimited' if lim.get(key) is None else num(lim[key]))


def frames_table(report: Report, worlds: dict[str, Transform | None]) -> str:
    """Frames: what each is attached to, its pose there and in the world."""
    index = {e.name: i for i, e in enumerate(report.links)}
    rows = []
    for f in report.data['frames']:
        fw, att = from_json(f['pose']), f['attached_to'] or ''
        base = worlds.get(att)
        local = base.inverse() * fw if base is not None and fw is not None else None
        link = index.get(att)
        rows.append(f'<tr{"" if link is None else f" data-link={chr(34)}{link}{chr(34)}"}>'
                    f'<td>{escape(f["name"])}</td><td>{escape(att)}</td>'
                    f'<td>{pose_text(local) if local is not None else ""}</td><td>{pose_text(fw)}</td></tr>')
    return _table('Frames', ['frame', 'attached_to', 'pose in attached_to',
                             'world pose (x y z | r p y)'], rows)
