"""Links without mass, and what Gazebo does with each.

* SDFormat: a link without ``<inertial>`` gets libsdformat's default, 1 kg
  with a unit inertia at the link origin -- a silent kilogram; a mass of 0
  is no body a physics engine can move.
* URDF: libsdformat first lumps fixed joints, then leaves out every link
  whose (lumped) mass is 0 -- and with it its joint and its whole subtree,
  even the links there that have mass. A massless link lumped into a
  massive parent loses nothing (it becomes a frame): that is only noted.

Static models are skipped: Gazebo ignores their mass.
"""
from __future__ import annotations

from sdf_tools.model import Document, Inertial, Model
from sdf_tools.report.checks_base import Problem
from sdf_tools.report.walk import LinkEntry
from sdf_tools.urdf.conversion import lumped_joints

#: libsdformat's test for "no mass" (``ignition::math::equal(mass, 0.0)``).
MASSLESS_EPS = 1e-6


def is_massless(inertial: Inertial | None) -> bool:
    """Whether libsdformat treats a link with this inertial as having no mass."""
    return inertial is None or abs(inertial.mass) <= MASSLESS_EPS


def _sdf(entry: LinkEntry) -> Problem | None:
    link = entry.link
    loc = link.loc
    file, line = (loc.file, loc.line) if loc else (None, None)
    if link.inertial is None:
        return Problem('MASSLESS_LINK', 'warning', 'link', entry.name,
                       "no <inertial>: Gazebo gives it libsdformat's default, 1 kg with a unit "
                       'inertia (1 kg m^2) at the link origin', file, line)
    if is_massless(link.inertial):
        loc = link.inertial.loc or loc
        return Problem('MASSLESS_LINK', 'warning', 'link', entry.name,
                       f'mass {link.inertial.mass:g} kg: no physics engine can move a massless '
                       'body (Gazebo needs a positive mass on a moving link)',
                       loc.file if loc else None, loc.line if loc else None)
    return None


def _subtree(name: str, children: dict[str, list[str]]) -> list[str]:
    out, stack = [], list(children.get(name, []))
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(children.get(n, []))
    return out


def _urdf(model: Model, entries: dict[str, LinkEntry]) -> list[Problem]:
    lumped = lumped_joints(model)
    parent_joint = {j.child: j for j in model.joints}
    children: dict[str, list[str]] = {}
    for j in model.joints:
        children.setdefault(j.parent, []).append(j.child)

    def group_root(name: str) -> str:
        seen = {name}
        while name in parent_joint and parent_joint[name].name in lumped:
            name = parent_joint[name].parent
            if name in seen:
                break
            seen.add(name)
        return name

    groups: dict[str, list[str]] = {}
    for link in model.links:
        groups.setdefault(group_root(link.name), []).append(link.name)
    masses = {lk.name: (lk.inertial.mass if lk.inertial else 0.0) for lk in model.links}
    out: list[Problem] = []
    for root, members in groups.items():
        total = sum(masses.get(m, 0.0) for m in members)
        for name in members:
            entry = entries.get(name)
            if entry is None or not is_massless(entry.link.inertial):
                continue
            loc = entry.link.loc
            where = (loc.file, loc.line) if loc else (None, None)
            if abs(total) > MASSLESS_EPS and name != root:
                joint = parent_joint[name].name
                out.append(Problem('MASSLESS_LINK', 'info', 'link', entry.name,
                                   f'no mass: libsdformat lumps it into [{root}] through fixed '
                                   f'joint [{joint}]; it stays as a frame, nothing is lost', *where))
                continue
            lost = [n for n in _subtree(name, children) if n not in members]
            tail = (f' and its subtree: {len(lost)} more link(s) '
                    f'[{", ".join(lost[:8])}{", ..." if len(lost) > 8 else ""}]' if lost else '')
            why = 'no mass' if len(members) == 1 else 'no mass even with the links lumped into it'
            out.append(Problem('MASSLESS_LINK', 'warning', 'link', entry.name,
                               f'{why}: libsdformat (and so Gazebo) silently drops this link'
                               + (f' (with [{root}])' if name != root else '') + tail, *where))
    return out


def massless_problems(doc: Document, links: list[LinkEntry]) -> list[Problem]:
    """One problem per massless link, saying what Gazebo does with it."""
    if doc.format == 'urdf' and doc.model is not None:
        return _urdf(doc.model, {e.link.name: e for e in links})
    return [p for e in links if not e.model.static and (p := _sdf(e)) is not None]
