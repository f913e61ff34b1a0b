r"""Contact: SDFormat ``<surface>`` as geom friction and softness; self-collision as excluded pairs.

**Friction.** ``ode/mu`` -> the sliding coefficient (``friction[0]``);
``torsional/coefficient`` times ``patch_radius`` (1 when not given) -> the
torsional one (``friction[1]``, with ``condim="4"``). ``collide_bitmask`` ->
``contype`` = ``conaffinity`` (the same rule). MuJoCo has one sliding coefficient per geom, so ``mu2``
different from ``mu`` is approximated by ``mu`` (reported). Without a
``<surface>`` both engines use 1.

**Softness.** ODE's ``kp``/``kd`` are a contact spring and damper in N/m and
N·s/m; MuJoCo's direct form ``solref="-stiffness -damping"`` is the same law
per unit of the contact's effective mass. ``solref="-kp -kd"`` is written
and reported as approximated: it matches ODE for a unit effective mass.
``bounce``, ``slip``, ``soft_cfm``/``soft_erp`` and the other surface
parameters have no counterpart and are reported as dropped.

**Self-collision.** SDFormat links of one model do not collide with each
other unless ``self_collide`` is on (for the model, or for both links);
MuJoCo lets every pair collide except a body with its parent. A model whose
links all keep apart gets a contact bit of its own, as Menagerie filters
self-collision: its collision geoms have ``contype`` = that bit and
``conaffinity`` = every other bit, so (MuJoCo colliding two geoms when one's
contype meets the other's conaffinity) they never touch each other and touch
everything else, bit 0 (MuJoCo's default) included. Only a model that mixes
links with and without self-collision, or sets its own bits
(``collide_bitmask``), or comes after the 30 bits are taken, gets per-pair
``<contact><exclude>``\ s.
"""
from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import where
from sdf_tools.convert.mjcf.writer import MjcfDocument, num, nums, sub
from sdf_tools.model import Collision
from sdf_tools.xmlsafe import parse_kept

_KNOWN = {'friction/ode/mu', 'friction/ode/mu2', 'friction/torsional/coefficient',
          'friction/torsional/patch_radius', 'contact/ode/kp', 'contact/ode/kd',
          'contact/collide_bitmask'}
# Read with the values they qualify: Gazebo's torsional torque is coefficient x patch radius.
_FLAGS = {'friction/torsional/use_patch_radius'}



def _leaves(el: etree._Element, path: str = '') -> list[tuple[str, str]]:
    out = []
    for child in el.iterchildren(etree.Element):
        here = f'{path}/{child.tag}' if path else child.tag
        if len(child):
            out += _leaves(child, here)
        else:
            out.append((here, (child.text or '').strip()))
    return out


def surface_attrs(c: Collision, label: str, report: ConversionReport) -> dict[str, str | None]:
    """Return the geom attributes of a collision's ``<surface>``; losses reported."""
    surface = next((e for e in c.extras if e.tag == 'surface'), None)
    if surface is None:
        return {}
    values: dict[str, float] = {}
    lost = []
    for path, text in _leaves(parse_kept(surface.xml)):
        try:
            value = float(text)
        except ValueError:
            value = float('nan')
        if path in _KNOWN and value == value:
            values[path] = value
        elif text and path not in _FLAGS:
            lost.append(path)
    if lost:
        report.add(ReportKind.DROPPED, f'{label}/surface', f'no MuJoCo counterpart: '
                   f'{", ".join(sorted(set(lost)))}', *where(surface.loc))
    attrs: dict[str, str | None] = {}
    mu = values.get('friction/ode/mu')
    tors = values.get('friction/torsional/coefficient')
    if tors is not None:
        tors *= values.get('friction/torsional/patch_radius', 1.0)
    if mu is not None or tors is not None:
        first = mu if mu is not None else 1.0
        attrs['friction'] = nums((first, tors)) if tors is not None else num(first)
        if tors is not None:
            attrs['condim'] = '4'
    mu2 = values.get('friction/ode/mu2')
    if mu2 is not None and mu2 != (mu if mu is not None else 1.0):
        report.add(ReportKind.APPROXIMATED, f'{label}/surface', f'mu2={num(mu2)} differs from '
                   f'mu: MuJoCo has one sliding friction per geom, mu is used', *where(surface.loc))
    kp, kd = values.get('contact/ode/kp'), values.get('contact/ode/kd')
    if kp is not None or kd is not None:
        kp = kp if kp is not None else 1e12
        kd = kd if kd is not None else 1.0
        if kp > 0:
            attrs['solref'] = nums((-kp, -kd))
            report.add(ReportKind.APPROXIMATED, f'{label}/surface', f'kp={num(kp)}, kd={num(kd)} '
                       f'written as solref="{attrs["solref"]}" (MuJoCo: per unit effective mass)',
                       *where(surface.loc))
    mask = values.get('contact/collide_bitmask')
    if mask is not None and mask != 0xFFFF:
        # Gazebo collides two shapes whose masks share a bit: MuJoCo's rule with
        # contype = conaffinity = mask.
        attrs['contype'] = attrs['conaffinity'] = str(int(mask))
    return attrs


@dataclass(frozen=True)
class CollisionBody:
    """A body with collision geoms, as the self-collision rule needs it."""

    name: str        # MJCF body name
    weld: str        # MJCF name of the nearest body at or above it that moves ('' = world)
    weld_parent: str  # the weld of that body's parent
    self_collide: bool
    model: str
    geoms: tuple[etree._Element, ...] = ()


ALL_BITS = (1 << 31) - 1  # contype/conaffinity are 32-bit ints: bits 0-30
#: Contact bits given to models (bit 0 is MuJoCo's default, which everything else keeps).
MODEL_BITS = range(1, 31)


def _bits_apart(members: list[CollisionBody]) -> bool:
    """Return whether a model's self-collision can be said with one contact bit."""
    return not any(b.self_collide for b in members) and not any(
        g.get('contype') is not None or g.get('conaffinity') is not None
        for b in members for g in b.geoms)


def write_collision_filter(doc: MjcfDocument, bodies: list[CollisionBody],
                           report: ConversionReport) -> None:
    """Keep apart what SDFormat keeps apart: a contact bit per model, else excluded pairs."""
    models: dict[str, list[CollisionBody]] = {}
    for b in bodies:
        models.setdefault(b.model, []).append(b)
    free = iter(MODEL_BITS)
    paired: list[CollisionBody] = []
    for model, members in models.items():
        bit = next(free, None) if len(members) > 1 and _bits_apart(members) else None
        if bit is None:
            paired += members
            continue
        for b in members:
            for g in b.geoms:
                g.set('contype', str(1 << bit))
                g.set('conaffinity', str(ALL_BITS & ~(1 << bit)))
        report.add(ReportKind.REWRITTEN, f'model[{model}]/self_collide', f'off: its collision '
                   f'geoms have contact bit {bit} as contype and every other bit as '
                   'conaffinity, so they touch everything but each other')
    write_excludes(doc, paired, report)


def write_excludes(doc: MjcfDocument, bodies: list[CollisionBody],
                   report: ConversionReport) -> int:
    """Exclude the pairs SDFormat keeps apart and MuJoCo would test; return how many."""
    n = 0
    for i, a in enumerate(bodies):
        for b in bodies[i + 1:]:
            if a.model != b.model or (a.self_collide and b.self_collide) or a.weld == b.weld:
                continue
            if (a.weld and a.weld == b.weld_parent) or (b.weld and b.weld == a.weld_parent):
                continue  # MuJoCo's filterparent keeps a body from its (non-world) parent
            sub(doc.section('contact'), 'exclude', body1=a.name, body2=b.name)
            n += 1
    if n:
        report.add(ReportKind.REWRITTEN, 'contact', f'{n} <exclude> pair(s): links of one model '
                   'do not collide with each other unless self_collide is on')
    return n
