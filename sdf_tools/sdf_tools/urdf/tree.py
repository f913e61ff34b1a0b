"""The kinematic tree of a URDF: parents, the root link, and what breaks the tree.

URDF requires a tree: every joint joins two declared links, each link is
the child of at most one joint, exactly one link (the root) is no joint's
child, and there is no loop. Each broken rule is reported at the line of
the element that breaks it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from sdf_tools.errors import ErrorCode
from sdf_tools.model import Joint
from sdf_tools.sdf.context import ReadContext


@dataclass
class Tree:
    """The tree as far as it could be built.

    Attributes:
        parent_joint: each link's parent joint (the first usable one).
        roots: links that are no joint's child, in document order.
        usable: names of joints that join two different declared links.
        loop_breaks: links whose parent joint closes a loop; they are
            placed as if they had none, so that poses stay resolvable.
    """

    parent_joint: dict[str, str] = field(default_factory=dict)
    roots: list[str] = field(default_factory=list)
    usable: set[str] = field(default_factory=set)
    loop_breaks: set[str] = field(default_factory=set)


def _check_ends(ctx: ReadContext, joint: Joint, el: etree._Element,
                links: dict[str, etree._Element], robot: str) -> bool:
    ok = bool(joint.parent and joint.child)
    for role, link in (('parent', joint.parent), ('child', joint.child)):
        if link and link not in links:
            ctx.error(ErrorCode.URDF_INVALID,
                      f'{role} link [{link}] of joint [{joint.name}] is not a link of robot '
                      f'[{robot}]', el)
            ok = False
    if ok and joint.parent == joint.child:
        ctx.error(ErrorCode.URDF_INVALID,
                  f'joint [{joint.name}] joins link [{joint.child}] to itself', el)
        ok = False
    if ok and joint.child == 'world':
        ctx.error(ErrorCode.URDF_INVALID,
                  f'joint [{joint.name}] has link [world] as child: [world] is the fixed world '
                  'frame and can only be a parent', el)
        ok = False
    return ok


def _find_loops(ctx: ReadContext, tree: Tree, joints: dict[str, tuple[Joint, etree._Element]],
                order: dict[str, int]) -> None:
    """Report each loop of parent links once; break it at one of its links."""
    state: dict[str, int] = {}  # 1: on the current walk, 2: done
    for start in order:
        path: list[str] = []
        link: str | None = start
        while link is not None and link not in state:
            state[link] = 1
            path.append(link)
            jname = tree.parent_joint.get(link)
            link = joints[jname][0].parent if jname else None
        if link is not None and state[link] == 1:
            cycle = path[path.index(link):]  # child -> parent order
            loop_joints = [tree.parent_joint[c] for c in cycle]
            first = min(loop_joints, key=list(joints).index)  # first in the document
            down = list(reversed(cycle))  # parent -> child order
            start_at = min(range(len(down)), key=lambda i: order[down[i]])
            down = down[start_at:] + down[:start_at]
            chain = f'link [{down[0]}]' + ''.join(
                f' -> joint [{tree.parent_joint[c]}] -> link [{c}]' for c in [*down[1:], down[0]])
            ctx.error(ErrorCode.URDF_INVALID,
                      f'kinematic loop: {chain}; a URDF must be a tree', joints[first][1])
            tree.loop_breaks.add(joints[first][0].child)
        for p in path:
            state[p] = 2


def build_tree(ctx: ReadContext, robot: str, links: dict[str, etree._Element],
               joints: list[tuple[Joint, etree._Element]]) -> Tree:
    """Check the joints of ``robot`` against its links and return the tree."""
    tree = Tree()
    by_name = {j.name: (j, el) for j, el in joints}
    children: set[str] = set()
    for joint, el in joints:
        if joint.child in links:
            children.add(joint.child)
        if not _check_ends(ctx, joint, el, links, robot):
            continue
        tree.usable.add(joint.name)
        first = tree.parent_joint.get(joint.child)
        if first is not None:
            ctx.error(ErrorCode.URDF_INVALID,
                      f'link [{joint.child}] is the child of two joints, [{first}] and '
                      f'[{joint.name}]; a URDF must be a tree', el)
            # libsdformat's conversion writes the link once under each parent joint,
            # and then refuses the second copy.
            ctx.error(ErrorCode.DUPLICATE_NAME,
                      f'link with name[{joint.child}] already exists (libsdformat writes it '
                      f'under both joints [{first}] and [{joint.name}]).', el)
            continue
        tree.parent_joint[joint.child] = joint.name
    tree.roots = [name for name in links if name not in children]
    if len(tree.roots) > 1:
        names = ', '.join(f'[{r}]' for r in tree.roots)
        ctx.error(ErrorCode.URDF_INVALID,
                  f'robot [{robot}] has {len(tree.roots)} root links ({names}): exactly one '
                  "link may be no joint's child", links[tree.roots[1]])
    _find_loops(ctx, tree, by_name, {name: i for i, name in enumerate(links)})
    return tree
