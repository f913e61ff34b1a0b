"""The kinematic tree's rows: depth-first, every link once, loops and orphans still shown."""
from __future__ import annotations

from sdf_tools.report.tree import Edge, tree_rows, tree_svg


def _j(name: str, parent: str, child: str) -> Edge:
    return Edge(name, 'revolute', parent, child)


def test_rows_are_depth_first_with_depths() -> None:
    links = ['base', 'b', 'a', 'a1', 'loose']
    joints = [_j('ja', 'base', 'a'), _j('jb', 'base', 'b'), _j('ja1', 'a', 'a1'), _j('w', 'world', 'base')]
    rows = [(links[i], d, v.name if v else None) for i, d, v in tree_rows(links, joints)]
    assert rows == [('base', 0, None), ('a', 1, 'ja'), ('a1', 2, 'ja1'), ('b', 1, 'jb'), ('loose', 0, None)]


def test_a_loop_shows_every_link_once() -> None:
    links = ['a', 'b', 'c']
    joints = [_j('ab', 'a', 'b'), _j('bc', 'b', 'c'), _j('ca', 'c', 'a')]
    rows = tree_rows(links, joints)
    assert sorted(i for i, _, _ in rows) == [0, 1, 2]


def test_svg_marks_the_worst_problem_and_is_clickable() -> None:
    svg = tree_svg(['a', 'b'], [_j('ab', 'a', 'b')], {'b': 'error'})
    assert svg.count('class="node"') == 2 and 'data-link="1"' in svg
    assert svg.count('#c62828') == 1  # b's circle only
