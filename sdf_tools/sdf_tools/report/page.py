"""Assemble the one self-contained HTML page of a report.

Everything is inline: the style, three.js (from trimesh, ``threejs.py``), our
viewer script, the data it reads (JSON) and the scene (base64 GLB). Problems
come first, then the 3D view beside the kinematic tree and the joint
sliders, then the tables of links, joints and frames with their world poses.
A file that could not be read still gets a page: its errors.
"""
from __future__ import annotations

import base64
import contextlib
import json
import math
from html import escape
from pathlib import Path
from typing import Any

from sdf_tools.report.build import Report
from sdf_tools.report.checks_base import Problem
from sdf_tools.report.kinematics import from_json
from sdf_tools.report.style import CSS
from sdf_tools.report.tables import frames_table, joints_table, links_table
from sdf_tools.report.threejs import threejs_source
from sdf_tools.report.tree import tree_svg
from sdf_tools.report.viewer_js import VIEWER_JS

Json = dict[str, Any]
LAYERS = (('visual', 'visual', True), ('collision', 'collision', False),
          ('triads', 'link frames', True), ('axes', 'joint axes', True),
          ('frames', '&lt;frame&gt;s', True), ('com', 'centres of mass', True),
          ('inertia', 'inertia boxes', False))
_SEVERITY_RANK = {'error': 0, 'warning': 1, 'info': 2}


def _where(p: Problem, base: Path) -> str:
    """``file:line``, the file relative to the input's directory when it is under it."""
    if p.file is None:
        return ''
    shown = p.file
    with contextlib.suppress(ValueError, OSError):  # not under the input's directory
        shown = str(Path(p.file).resolve().relative_to(base))
    text = f'{shown}:{p.line}' if p.line is not None else shown
    return f'<span title="{escape(p.file)}">{escape(text)}</span>'


def _grouped(probs: list[Problem]) -> list[tuple[Problem, list[Problem]]]:
    """Reader diagnostics with the same code and message as one row (a big world repeats them)."""
    out: list[tuple[Problem, list[Problem]]] = []
    first: dict[tuple[str, str, str], int] = {}
    for p in probs:
        key = (p.severity, p.code, p.message)
        if p.kind == 'file' and key in first:
            out[first[key]][1].append(p)
            continue
        if p.kind == 'file':
            first[key] = len(out)
        out.append((p, []))
    return out


def _more(more: list[Problem]) -> str:
    if not more:
        return ''
    lines = ', '.join(str(p.line) for p in more[:12] if p.line is not None)
    return (f'<br><span class="muted">and {len(more)} more'
            + (f' (lines {lines}{", ..." if len(more) > 12 else ""})' if lines else '') + '</span>')


def problems_html(report: Report, index: dict[str, int]) -> str:
    """The problem list: severity, code, subject (click: highlight), message, file:line."""
    probs = report.checks.problems
    counts = {s: sum(p.severity == s for p in probs) for s in _SEVERITY_RANK}
    head = (f'<h2>Problems <small>{counts["error"]} errors, {counts["warning"]} warnings, '
            f'{counts["info"]} notes</small></h2>')
    if not probs:
        return head + '<p class="ok">No problems found.</p>'
    rows = []
    base = Path(report.file).resolve()
    base = base if base.is_dir() else base.parent
    for p, more in _grouped(probs):
        i = index.get(p.subject)
        subject = (f'<a data-link="{i}">{escape(p.subject)}</a>' if i is not None
                   else escape(p.subject))
        rows.append(f'<tr class="{p.severity}"><td>{p.severity}</td><td><code>{p.code}</code></td>'
                    f'<td>{subject}</td><td>{escape(p.message)}</td><td class="where">{_where(p, base)}'
                    f'{_more(more)}</td></tr>')
    return (head + '<div class="scroll"><table class="problems"><thead><tr><th></th><th>code</th>'
            '<th>subject</th><th>what</th><th>where</th></tr></thead><tbody>' + ''.join(rows)
            + '</tbody></table></div>')


def _worst(report: Report) -> dict[str, str]:
    out: dict[str, str] = {}
    for p in report.checks.problems:
        if p.kind != 'file' and _SEVERITY_RANK[p.severity] < _SEVERITY_RANK.get(out.get(p.subject, ''), 9):
            out[p.subject] = p.severity
    return out


def _scene_notes(report: Report) -> str:
    scene = report.scene
    if scene is None:
        return ''
    notes = [f'{scene.faces:,} triangles in {len(report.shapes.meshes)} distinct meshes']
    for d in scene.decimated:
        notes.append(f'{escape(Path(d.mesh).name)} decimated from {d.before:,} to {d.after:,} triangles')
    return '<p class="note">' + '; '.join(notes) + '.</p>'


def viewer_html(report: Report) -> str:
    """The 3D view with its toggles, the kinematic tree and the joint sliders."""
    toggles = ''.join(f'<label><input type="checkbox" data-layer="{k}"{" checked" if on else ""}> '
                      f'{label}</label>' for k, label, on in LAYERS)
    names = [e.name for e in report.links]
    svg = tree_svg(names, report.data['joints'], _worst(report))
    return ('<section id="viewer"><div class="toolbar">' + toggles +
            '<button id="reset">reset pose and view</button>'
            '<input id="filter" type="search" placeholder="filter links and joints by name"></div>'
            '<div class="row"><div id="view"><div id="picked"></div></div><div class="side">'
            '<h3>Kinematic tree</h3><div class="tree-box">' + svg + '</div>'
            '<h3>Joints</h3><div id="sliders"></div></div></div>' + _scene_notes(report) +
            '<p class="note">Drag to rotate, right-drag to pan, wheel to zoom. Centres of mass are '
            'spheres sized by mass; inertia boxes are the uniform boxes with the same mass and '
            'principal moments.</p></section>')


def _data_json(report: Report) -> str:
    kin = dict(report.kin or {'links': [], 'joints': [], 'frames': [], 'order': []})
    nodes = report.scene.nodes if report.scene is not None else {}
    kin['shapes'] = [{'node': nodes[i], 'link': s.link, 'kind': s.kind, 'plane': s.geometry == 'plane',
                      'color': None if s.color is None else [round(c, 4) for c in s.color]}
                     for i, s in enumerate(report.shapes.shapes) if i in nodes]
    text = json.dumps(kin, separators=(',', ':'), allow_nan=False)
    return text.replace('<', '\\u003c')  # no "</script>" inside the element


def _summary(report: Report) -> str:
    d = report.data
    fmt = (d['format'] or 'unreadable') + (f' {d["version"]}' if d['version'] else '')
    status = 'valid' if d['valid'] else ('invalid' if report.result.usable else 'unusable')
    mass = sum(e.data['mass'] for e in report.links)
    parts = [fmt, f'<b class="{status}">{status}</b>', f'{len(d["models"])} models',
             f'{len(d["links"])} links', f'{len(d["joints"])} joints', f'{len(d["frames"])} frames',
             f'total mass {mass:.6g} kg' if math.isfinite(mass) else '']
    return '<p class="summary">' + ' · '.join(p for p in parts if p) + '</p>'


def render_page(report: Report) -> str:
    """Return the whole HTML page of ``report``."""
    title = escape(Path(report.file).name)
    index = {e.name: i for i, e in enumerate(report.links)}
    drawn = report.kin is not None
    glb = base64.b64encode(report.scene.glb).decode('ascii') if report.scene else ''
    body = [f'<header><h1>{title}</h1><p class="path">{escape(report.file)}</p>{_summary(report)}</header>',
            '<section id="problems">' + problems_html(report, index) + '</section>']
    if drawn:
        body.append(viewer_html(report))
    if report.links:
        worlds = {e.name: from_json(e.data['pose']) for e in report.links}
        body += [links_table(report), joints_table(report, worlds), frames_table(report, worlds)]
    scripts = [f'<script type="application/json" id="report-data">{_data_json(report)}</script>',
               f'<script type="application/octet-stream" id="report-glb">{glb}</script>']
    if drawn:
        scripts.append('<script>' + threejs_source() + '</script>')
    scripts.append('<script>' + VIEWER_JS + '</script>')
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<title>sdf_tools report: {title}</title><style>{CSS}</style></head><body>'
            + ''.join(body) + ''.join(scripts) + '</body></html>\n')
