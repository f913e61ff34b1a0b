"""Links without mass, and what Gazebo does with each.

* SDFormat: a link without ``<inertial>`` gets libsdformat's default, 1 kg
  with a unit inertia at the link origin -- a silent kilogram; a mass of 0
  is no body a physics engine can move.
* URDF: libsdformat first lumps fixed joints, then leaves out every link
  whose (lumped) mass is 0 -- and with it its joint and its whole subtree,
  even the links there that have mass. A massless link lumped into a
  massive parent loses nothing (it becomes a frame): that is only noted.

Static models are skipped: Gazebo ignores their mass. An SDFormat link
without ``<inertial>`` is not massless (it gets a kilogram): the reader's
``DEFAULT_ASSUMED`` says so, once; this module says nothing more about it.
Each finding here is the one line about its link: the reader's own warning
about the same mass (which cannot know what lumping does) is restated by it.
"""
from __future__ import annotations

from sdf_tools import gazebo
from sdf_tools.errors import ErrorCode, Severity
from sdf_tools.lint.finding import Finding
from sdf_tools.model import Document, Model
from sdf_tools.model.massless import is_massless
from sdf_tools.resolved import Resolved, ResolvedLink
from sdf_tools.urdf.conversion import MASSLESS_ROOT, is_massless_root
from sdf_tools.urdf.lumping_walk import UrdfWalk
from sdf_tools.urdf.releases import rules


def _sdf(link: ResolvedLink) -> Finding | None:
    i = link.element.inertial
    if i is None or not is_massless(i):
        return None
    return Finding.at(ErrorCode.MASSLESS_LINK, Severity.WARNING, 'link', link.name,
                      f'mass {i.mass:g} kg: no physics engine can move a massless '
                      'body (Gazebo needs a positive mass on a moving link)', i.loc or link.element.loc)


def _urdf(model: Model, walk: UrdfWalk, links: dict[str, ResolvedLink]) -> list[Finding]:
    """``walk``: the load's, libsdformat's lumping groups and sums (urdf/lumping_walk.py)."""
    groups: dict[str, list[str]] = {}
    for lk in model.links:
        groups.setdefault(walk.absorber(lk.name), []).append(lk.name)
    kept_when_lumped = rules().lumped_massless_kept
    out: list[Finding] = []
    for root, members in groups.items():
        for name in members:
            link = links.get(name)
            if link is None or name == 'world' or not is_massless(link.element.inertial):
                continue
            loc = link.element.loc
            lost = [n for n in walk.below(name)[1:] if n not in members]
            if not walk.massless(root) and name != root:
                joint = walk.parent_joint[name].name
                if lost and not kept_when_lumped and walk.massless(name):
                    # libsdformat 12 still leaves it out, and its subtree (#1238 fixed it in 14),
                    # when it has no mass with its own lumped children in (CreateSDF's test)
                    out.append(Finding.at(
                        ErrorCode.MASSLESS_LINK, Severity.WARNING, 'link', link.name,
                        f'no mass: libsdformat 12 lumps it into [{root}] through fixed joint '
                        f'[{joint}] and yet drops what hangs below it: {len(lost)} link(s) '
                        f'[{", ".join(lost[:8])}{", ..." if len(lost) > 8 else ""}] '
                        '(libsdformat 14+ keeps them)', loc))
                    continue
                out.append(Finding.at(
                    ErrorCode.MASSLESS_LINK, Severity.NOTE, 'link', link.name,
                    f'no mass: libsdformat lumps it into [{root}] through fixed joint [{joint}]; '
                    'it stays as a frame, nothing is lost', loc))
                continue
            tail = (f' and its subtree: {len(lost)} more link(s) '
                    f'[{", ".join(lost[:8])}{", ..." if len(lost) > 8 else ""}]' if lost else '')
            why = 'no mass' if len(members) == 1 else 'no mass even with the links lumped into it'
            out.append(Finding.at(
                ErrorCode.MASSLESS_LINK, Severity.WARNING, 'link', link.name,
                f'{why}: libsdformat (and so Gazebo) silently drops this link'
                + (f' (with [{root}])' if name != root else '') + tail, loc))
    return out


def massless_findings(resolved: Resolved) -> list[Finding]:
    """One finding per massless link, saying what Gazebo does with it."""
    with gazebo.using(resolved.gazebo):  # "no mass" is the reading target's (model/massless.py)
        return _findings(resolved)


def _findings(resolved: Resolved) -> list[Finding]:
    doc: Document | None = resolved.document
    if doc is None:
        return []
    if doc.format == 'urdf' and doc.model is not None:
        walk = resolved.urdf_walk
        if walk is None:  # not from a load (every load of a URDF keeps its walk): nothing to judge
            return []
        # A massless root is the reader's MODEL_WITHOUT_LINK already (libsdformat refuses the
        # robot): that error is its one line.
        refused = {d.message[len(MASSLESS_ROOT):].split(']', 1)[0]
                   for d in resolved.diagnostics if is_massless_root(d)}
        found = _urdf(doc.model, walk, {lk.element.name: lk for lk in resolved.links})
        return [f for f in found if f.subject.rsplit('::', 1)[-1] not in refused]
    static = {m.name for m in resolved.models if m.static}
    return [f for lk in resolved.links if lk.model not in static and (f := _sdf(lk)) is not None]
