"""The kinematic tree as an SVG: one row per link, indented under its parent joint.

An indented outline (rather than a layered drawing) keeps a 100-link robot
or a world of many models readable: it grows in one direction and scrolls.
Each node carries ``data-link`` so that a click highlights the link; its
colour says the worst problem found on it.
"""
from __future__ import annotations

from html import escape
from typing import NamedTuple

ROW, INDENT, CHAR = 18, 16, 7.2
COLOURS = {'error': '#c62828', 'warning': '#ef8f00', 'note': '#5c8ab8', None: '#7a8a99'}


class Edge(NamedTuple):
    """A joint as the tree draws it: its name and type, parent and child link names."""

    name: str
    type: str
    parent: str
    child: str


def tree_rows(links: list[str], joints: list[Edge]) -> list[tuple[int, int, Edge | None]]:
    """``(link index, depth, joint leading to it)`` in depth-first order; every link once."""
    index = {n: i for i, n in enumerate(links)}
    children: dict[int, list[Edge]] = {}
    has_parent: set[int] = set()
    for j in joints:
        c, p = index.get(j.child), index.get(j.parent)
        if c is None or p is None or c == p:
            continue
        children.setdefault(p, []).append(j)
        has_parent.add(c)
    rows: list[tuple[int, int, Edge | None]] = []
    seen: set[int] = set()

    def visit(i: int, depth: int, via: Edge | None) -> None:
        stack = [(i, depth, via)]
        while stack:
            n, d, v = stack.pop()
            if n in seen:
                continue
            seen.add(n)
            rows.append((n, d, v))
            stack.extend((index[j.child], d + 1, j) for j in reversed(children.get(n, [])))

    for i in range(len(links)):
        if i not in has_parent:
            visit(i, 0, None)
    for i in range(len(links)):  # links only reachable through a loop
        visit(i, 0, None)
    return rows


def tree_svg(links: list[str], joints: list[Edge], worst: dict[str, str]) -> str:
    """Return the SVG of the tree (``worst``: link name -> worst problem severity)."""
    rows = tree_rows(links, joints)
    width = max([40 + d * INDENT + len(links[i]) * CHAR for i, d, _ in rows] or [100])
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="tree" width="{width:.0f}" '
           f'height="{ROW * len(rows) + 8}" font-size="12" font-family="monospace">']
    last_at: dict[int, int] = {}
    for r, (i, depth, via) in enumerate(rows):
        x, y = 10 + depth * INDENT, 12 + r * ROW
        if depth > 0 and depth - 1 in last_at:
            py = 12 + last_at[depth - 1] * ROW
            px = 10 + (depth - 1) * INDENT
            out.append(f'<path d="M{px} {py + 4} V{y} H{x - 5}" fill="none" stroke="#b0bac4"/>')
        last_at[depth] = r
        for d in [k for k in last_at if k > depth]:
            del last_at[d]
        colour = COLOURS[worst.get(links[i])]
        title = f'{links[i]}' + (f' (joint {via.name}: {via.type})' if via else '')
        out.append(f'<g class="node" data-link="{i}"><title>{escape(title)}</title>'
                   f'<circle cx="{x}" cy="{y}" r="4.5" fill="{colour}"/>'
                   f'<text x="{x + 9}" y="{y + 4}">{escape(links[i])}</text></g>')
    out.append('</svg>')
    return ''.join(out)
