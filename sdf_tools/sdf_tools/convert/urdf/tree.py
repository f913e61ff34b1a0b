"""Choose the tree a URDF can hold: one root, one parent joint per link, no loop.

An SDFormat model is a graph of bodies; a URDF is a tree. This module
decides, from the flattened model:

* the **root**: ``world`` when some joint hangs from the world (or the model
  is static, or ``floating_base`` is off); otherwise the top of the
  canonical link's chain of parents;
* the **tree joints**: each link keeps its first parent joint in document
  order (:mod:`~sdf_tools.convert.loop_cut`, the rule MJCF's tree shares). A
  second parent joint closes a kinematic loop (or gives the link two
  parents): an error naming the loop, unless ``break_loops`` cuts the later
  joint (reported). A ``gearbox`` joint is a ratio constraint between two
  other joints, not a tree edge: when its child already has a parent it is
  dropped (reported), never a loop;
* the **welds**: links no joint reaches (free bodies in SDFormat) are held
  by a fixed joint at their SDFormat pose, to the world for static models
  and to the root otherwise (reported as approximations).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import WORLD, FlatJoint, FlatModel, diagnostic, where
from sdf_tools.convert.loop_cut import first_parents, parent_cycles
from sdf_tools.errors import Diagnostic


@dataclass
class Weld:
    """A fixed joint the URDF needs and the SDFormat model does not have."""

    parent: str
    child: str
    kind: ReportKind
    reason: str


@dataclass
class TreePlan:
    """The tree to write."""

    root: str
    joints: list[FlatJoint] = field(default_factory=list)
    welds: list[Weld] = field(default_factory=list)


@dataclass
class _State:
    flat: FlatModel
    break_loops: bool
    report: ConversionReport
    errors: list[Diagnostic] = field(default_factory=list)
    parent_of: dict[str, FlatJoint] = field(default_factory=dict)
    scoped: dict[str, str] = field(default_factory=dict)  # URDF name -> SDF name

    def label(self, link: str) -> str:
        return f'link [{self.scoped.get(link, link)}]'


def _usable(st: _State, j: FlatJoint) -> bool:
    where_ = j.joint.loc
    if j.child is None or j.parent is None:
        end = 'child' if j.child is None else 'parent'
        st.errors.append(diagnostic(
            f'the {end} of joint [{j.scoped}] is attached to no link of the model', where_))
        return False
    if j.child == WORLD:
        st.errors.append(diagnostic(
            f'the child of joint [{j.scoped}] is a static model, which never moves: a URDF '
            'joint needs a link as child', where_))
        return False
    return j.parent != j.child


def _ancestors(st: _State, link: str) -> list[str]:
    """Return ``link`` and its ancestors through tree joints, nearest first."""
    chain, seen = [link], {link}
    while link in st.parent_of:
        link = st.parent_of[link].parent or WORLD
        if link in seen:
            break
        chain.append(link)
        seen.add(link)
    return chain


def _down(st: _State, chain: list[str]) -> str:
    """Describe a parent-first chain of links with the joints between them."""
    text = st.label(chain[0]) if chain[0] != WORLD else 'world'
    for link in chain[1:]:
        text += f' -> joint [{st.parent_of[link].scoped}] -> {st.label(link)}'
    return text


def _second_parent(st: _State, j: FlatJoint) -> None:
    """Handle a joint whose child already has a parent joint."""
    assert j.child is not None and j.parent is not None
    first = st.parent_of[j.child]
    if j.joint.type == 'gearbox':
        st.report.add(ReportKind.DROPPED, f'joint[{j.scoped}]',
                      f'gearbox joint: a ratio constraint between link [{j.parent}] and '
                      f'{st.label(j.child)}, which already hangs from joint [{first.scoped}]; '
                      'URDF has no such constraint (a <mimic> on the driven joint is the '
                      'closest ROS equivalent)', *where(j.joint.loc))
        return
    up_child, up_parent = _ancestors(st, j.child), _ancestors(st, j.parent)
    common = next((a for a in up_parent if a in up_child), None)
    if common is None:
        problem = (f'{st.label(j.child)} is the child of two joints, [{first.scoped}] and '
                   f'[{j.scoped}]; a URDF link has exactly one parent joint')
    else:
        left = list(reversed(up_child[:up_child.index(common) + 1]))
        right = list(reversed(up_parent[:up_parent.index(common) + 1]))
        problem = (f'kinematic loop: {_down(st, left)} and {_down(st, right)} -> joint '
                   f'[{j.scoped}] -> {st.label(j.child)}; a URDF must be a tree')
    _loop(st, j, problem)


def _loop(st: _State, j: FlatJoint, problem: str) -> None:
    if st.break_loops:
        st.report.add(ReportKind.DROPPED, f'joint[{j.scoped}]',
                      f'cut to break the loop ({problem})', *where(j.joint.loc))
    else:
        st.errors.append(diagnostic(f'{problem} (use break_loops / --break-loops to cut '
                                    f'joint [{j.scoped}])', j.joint.loc))


def _directed_cycles(st: _State) -> None:
    """Find links whose chain of parents comes back to them; cut or report."""
    for cycle, cut in parent_cycles(st.flat, st.parent_of):
        joint = st.parent_of[cut]
        ring = list(reversed(cycle))
        start = ring.index(cut)
        ring = ring[start:] + ring[:start]
        _loop(st, joint, f'kinematic loop: {_down(st, [*ring, cut])}; a URDF must be a tree')
        del st.parent_of[cut]


def _top(st: _State, link: str) -> str:
    return _ancestors(st, link)[-1]


def _welds(st: _State, plan: TreePlan, fixed_base: bool, world_frames: bool) -> None:
    roots = [fl for fl in st.flat.links if fl.name not in st.parent_of]
    canonical = st.flat.canonical or (roots[0].name if roots else '')
    main = _top(st, canonical) if canonical else WORLD
    uses_world = (main == WORLD or fixed_base or world_frames or any(fl.static for fl in roots)
                  or any(j.parent == WORLD for j in st.parent_of.values()))
    plan.root = WORLD if uses_world else main
    for fl in roots:
        if fl.name == plan.root:
            continue
        if fl.static:
            plan.welds.append(Weld(WORLD, fl.name, ReportKind.REWRITTEN,
                                   'in a static model: fixed to the world'))
        elif fl.name == main and fixed_base:
            plan.welds.append(Weld(WORLD, fl.name, ReportKind.REWRITTEN,
                                   'the root link: fixed to the world (floating_base off)'))
        elif fl.name == main:
            plan.welds.append(Weld(WORLD, fl.name, ReportKind.APPROXIMATED,
                                   'a free body (no joint to the world): fixed to the world, '
                                   'which other joints of the model hang from'))
        else:
            plan.welds.append(Weld(plan.root, fl.name, ReportKind.APPROXIMATED,
                                   f'a free body (no joint reaches it): a URDF is one tree, so '
                                   f'a fixed joint holds it to [{plan.root}] at its SDFormat '
                                   'pose'))


def plan_tree(flat: FlatModel, *, break_loops: bool, fixed_base: bool, world_frames: bool,
              report: ConversionReport) -> tuple[TreePlan | None, list[Diagnostic]]:
    """Choose root, tree joints and welds; return the plan or the errors.

    Args:
        flat: the flattened model.
        break_loops: cut the joints that close loops instead of failing.
        fixed_base: fix the root to the world even when the model does not.
        world_frames: some frame is attached to the world (a static model), so the
            URDF needs a ``world`` root.
        report: receives an entry for each cut, dropped or added joint.
    """
    st = _State(flat, break_loops, report)
    st.scoped = {fl.name: fl.scoped for fl in flat.links}
    if not flat.links:
        return None, [diagnostic(f'model [{flat.name}] has no link; a URDF needs at least one',
                                 flat.model.loc)]
    st.parent_of, later = first_parents([j for j in flat.joints if _usable(st, j)])
    _directed_cycles(st)
    for j in later:
        _second_parent(st, j)
    if st.errors:
        return None, st.errors
    plan = TreePlan(WORLD)
    _welds(st, plan, fixed_base, world_frames)
    kept = set(map(id, st.parent_of.values()))
    plan.joints = [j for j in flat.joints if id(j) in kept]
    return plan, []
