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

from sdf_tools.errors import Severity
from sdf_tools.lint import Finding
from sdf_tools.model.material import Rgba
from sdf_tools.report.build import Report
from sdf_tools.report.colors import named_materials, visual_color
from sdf_tools.report.style import CSS
from sdf_tools.report.tables import frames_table, joints_table, links_table
from sdf_tools.report.threejs import threejs_source
from sdf_tools.report.tree import Edge, tree_svg
from sdf_tools.report.viewer_js import VIEWER_JS

LAYERS = (('grid', 'ground grid', True), ('visual', 'visual', True), ('collision', 'collision', False),
          ('triads', 'link frames', True), ('axes', 'joint axes', True),
          ('frames', '&lt;frame&gt;s', True), ('com', 'centres of mass', True),
          ('tree', 'kinematic tree', True), ('inertia', 'inertia boxes', False))
_SEVERITY_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.NOTE: 2}


def _where(p: Finding, base: Path) -> str:
    """``file:line``, the file relative to the input's directory when it is under it."""
    if p.file is None:
        return ''
    shown = p.file
    with contextlib.suppress(ValueError, OSError):  # not under the input's directory
        shown = str(Path(p.file).resolve().relative_to(base))
    text = f'{shown}:{p.line}' if p.line is not None else shown
    return f'<span title="{escape(p.file)}">{escape(text)}</span>'


def _grouped(probs: list[Finding]) -> list[tuple[Finding, list[Finding]]]:
    """Reader diagnostics with the same code and message as one row (a big world repeats them)."""
    out: list[tuple[Finding, list[Finding]]] = []
    first: dict[tuple[Severity, str, str], int] = {}
    for p in probs:
        key = (p.severity, p.code.value, p.message)
        if p.kind == 'file' and key in first:
            out[first[key]][1].append(p)
            continue
        if p.kind == 'file':
            first[key] = len(out)
        out.append((p, []))
    return out


def _more(more: list[Finding]) -> str:
    if not more:
        return ''
    lines = ', '.join(str(p.line) for p in more[:12] if p.line is not None)
    return (f'<br><span class="muted">and {len(more)} more'
            + (f' (lines {lines}{", ..." if len(more) > 12 else ""})' if lines else '') + '</span>')


def problems_html(report: Report, index: dict[str, int]) -> str:
    """The problem list: severity, code, subject (click: highlight), message, file:line."""
    probs = report.lint.findings
    counts = {sev: sum(p.severity is sev for p in probs) for sev in _SEVERITY_RANK}
    head = (f'<h2>Problems <small>{counts[Severity.ERROR]} errors, {counts[Severity.WARNING]} '
            f'warnings, {counts[Severity.NOTE]} notes</small></h2>')
    if not probs:
        return head + '<p class="ok">No problems found.</p>'
    rows = []
    base = Path(report.file).resolve()
    base = base if base.is_dir() else base.parent
    for p, more in _grouped(probs):
        i = index.get(p.subject)
        subject = (f'<a data-link="{i}">{escape(p.subject)}</a>' if i is not None
                   else escape(p.subject))
        sev = p.severity.value
        source = 'reader' if p.kind == 'file' else 'check'
        rows.append(f'<tr class="{sev}" data-source="{source}" data-count="{1 + len(more)}">'
                    f'<td>{sev}</td><td><code>{p.code.value}</code></td>'
                    f'<td>{subject}</td><td>{escape(p.message)}</td><td class="where">{_where(p, base)}'
                    f'{_more(more)}</td></tr>')
    return (head + '<div class="scroll"><table class="problems"><thead><tr><th></th><th>code</th>'
            '<th>subject</th><th>what</th><th>where</th></tr></thead><tbody>' + ''.join(rows)
            + '</tbody></table></div>')


def _worst(report: Report) -> dict[str, str]:
    out: dict[str, Severity] = {}
    for p in report.lint.ours:
        if p.subject not in out or _SEVERITY_RANK[p.severity] < _SEVERITY_RANK[out[p.subject]]:
            out[p.subject] = p.severity
    return {name: sev.value for name, sev in out.items()}


def _scene_notes(report: Report) -> str:
    scene = report.scene
    if scene is None:
        return ''
    notes = [f'{scene.faces:,} triangles in {len(report.lint.shapes.meshes)} distinct meshes']
    for d in scene.decimated:
        notes.append(f'{escape(Path(d.mesh).name)} decimated from {d.before:,} to {d.after:,} triangles')
    return '<p class="note">' + '; '.join(notes) + '.</p>'


def viewer_html(report: Report) -> str:
    """The 3D view with its toggles, the kinematic tree and the joint sliders."""
    toggles = ''.join(f'<label><input type="checkbox" data-layer="{k}"{" checked" if on else ""}> '
                      f'{label}</label>' for k, label, on in LAYERS)
    names = [lk.name for lk in report.resolved.links]
    edges = [Edge(j.name, j.type, j.parent, j.child) for j in report.resolved.joints]
    svg = tree_svg(names, edges, _worst(report))
    return ('<section id="viewer"><div class="toolbar">' + toggles +
            '<button id="reset">reset pose and view</button>'
            '<input id="filter" type="search" placeholder="filter links and joints by name"></div>'
            '<div class="row"><div id="view"><div id="picked"></div><div id="hover"></div>'
            '<div id="scale"></div></div><div class="side">'
            '<h3>Kinematic tree</h3><div class="tree-box">' + svg + '</div>'
            '<h3>Joints</h3><div id="sliders"></div></div></div>' + _scene_notes(report) +
            '<p class="note">Drag to rotate, right-drag to pan, wheel to zoom; hover a link to see '
            "its name. The grid lies in the world's z = 0 plane (under the model when it floats "
            'further from it than its own size), its cell size written beside '
            'the view; the world frame is drawn at the origin. Centres of mass are spheres sized '
            'by mass; inertia boxes are the uniform boxes with the same mass and principal '
            'moments.</p></section>')


def _colors(report: Report) -> list[Rgba | None]:
    """Each shape's display colour: a visual's ``<material>`` (None: the default grey)."""
    tables: dict[str, dict[str, Rgba]] = {}
    out: list[Rgba | None] = []
    for s in report.lint.shapes.shapes:
        if s.kind != 'visual' or s.source is None:
            out.append(None)
            continue
        scope = report.resolved.links[s.link].model
        if scope not in tables:
            model = report.resolved.models_by_name.get(scope)
            tables[scope] = named_materials(model.element) if model is not None else {}
        out.append(visual_color(s.source.element.extras, tables[scope]))
    return out


def _rounded(color: Rgba | None) -> list[float] | None:
    return None if color is None else [round(c, 4) for c in color]


def _data_json(report: Report) -> str:
    kin = dict(report.kin or {'links': [], 'joints': [], 'frames': [], 'order': []})
    nodes = report.scene.nodes if report.scene is not None else {}
    colors = _colors(report)
    kin['shapes'] = [{'node': nodes[i], 'link': s.link, 'kind': s.kind, 'plane': s.geometry == 'plane',
                      'color': _rounded(colors[i])}
                     for i, s in enumerate(report.lint.shapes.shapes) if i in nodes]
    text = json.dumps(kin, separators=(',', ':'), allow_nan=False)
    return text.replace('<', '\\u003c')  # no "</script>" inside the element


def _verdicts(report: Report) -> str:
    """libsdformat's verdict and our own checks', apart: "valid" never stands over our errors."""
    r = report.resolved
    if not r.usable or r.document is None:
        said = f'<b class="unusable">unreadable</b> ({len(r.errors)} errors)'
    elif r.valid:
        said = '<b class="valid">valid</b>'
    else:
        said = f'<b class="invalid">invalid</b>: {len(r.errors)} errors'
    ours = report.lint.ours
    n = {sev: sum(p.severity is sev for p in ours) for sev in _SEVERITY_RANK}
    cls = 'invalid' if n[Severity.ERROR] else ('warned' if n[Severity.WARNING] else 'valid')
    checks = (f'<b class="{cls}">{n[Severity.ERROR]} errors, {n[Severity.WARNING]} warnings</b>, '
              f'{n[Severity.NOTE]} notes')
    return (f'<p class="verdicts"><span id="verdict-libsdformat">libsdformat: {said}</span>'
            f'<span id="verdict-checks">sdf_tools checks: {checks}</span></p>')


def _summary(report: Report) -> str:
    r = report.resolved
    fmt = (r.format or 'unreadable') + (f' {r.version}' if r.version else '')
    mass = sum(lk.inertial.mass for lk in r.links)
    target = (f'read as Gazebo {r.gazebo.name.capitalize()} (libsdformat {r.gazebo.libsdformat})'
              if r.gazebo is not None else '')
    parts = [fmt, target, f'{len(r.models)} models', f'{len(r.links)} links', f'{len(r.joints)} joints',
             f'{len(r.frames)} frames', f'total mass {mass:.6g} kg' if math.isfinite(mass) else '']
    return _verdicts(report) + '<p class="summary">' + ' · '.join(p for p in parts if p) + '</p>'


def render_page(report: Report) -> str:
    """Return the whole HTML page of ``report``."""
    title = escape(Path(report.file).name)
    index = {lk.name: i for i, lk in enumerate(report.resolved.links)}
    drawn = report.kin is not None
    glb = base64.b64encode(report.scene.glb).decode('ascii') if report.scene else ''
    body = [f'<header><h1>{title}</h1><p class="path">{escape(report.file)}</p>{_summary(report)}</header>',
            '<section id="problems">' + problems_html(report, index) + '</section>']
    if drawn:
        body.append(viewer_html(report))
    if report.resolved.links:
        body += [links_table(report), joints_table(report), frames_table(report)]
    scripts = [f'<script type="application/json" id="report-data">{_data_json(report)}</script>',
               f'<script type="application/octet-stream" id="report-glb">{glb}</script>']
    if drawn:
        scripts.append('<script>' + threejs_source() + '</script>')
    scripts.append('<script>' + VIEWER_JS + '</script>')
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<title>sdf_tools report: {title}</title><style>{CSS}</style></head><body>'
            + ''.join(body) + ''.join(scripts) + '</body></html>\n')
