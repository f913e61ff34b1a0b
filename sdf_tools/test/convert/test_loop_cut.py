"""The one loop cut: first parent joints in document order, cycles cut at the canonical link."""
from __future__ import annotations

from sdf_tools.convert.conversion_report import ConversionReport
from sdf_tools.convert.flatten import FlatModel, flatten
from sdf_tools.convert.loop_cut import first_parents, parent_cycles
from sdf_tools.load import load_string


def _flat(joints: str) -> FlatModel:
    links = ''.join(f'<link name="{n}"/>' for n in 'abc')
    loaded = load_string(f'<sdf version="1.9"><model name="m">{links}{joints}</model></sdf>', 'm.sdf')
    assert loaded.document is not None and loaded.document.model is not None
    assert loaded.model_graphs is not None
    return flatten(loaded.document.model, loaded.model_graphs, None, separator='/',
                   frames=False, report=ConversionReport())


def _joint(name: str, parent: str, child: str, kind: str = 'fixed') -> str:
    return f'<joint name="{name}" type="{kind}"><parent>{parent}</parent><child>{child}</child></joint>'


def test_a_second_parent_joint_is_later_and_a_gearbox_never_takes_a_link() -> None:
    flat = _flat(_joint('g', 'a', 'b', 'gearbox') + _joint('ab', 'a', 'b') + _joint('cb', 'c', 'b')
                 + _joint('bc', 'b', 'c'))
    parent_of, later = first_parents(flat.joints)
    assert {k: j.name for k, j in parent_of.items()} == {'b': 'ab', 'c': 'bc'}
    assert [j.name for j in later] == ['cb', 'g']


def test_a_chain_of_parents_that_comes_back_is_cut_at_the_canonical_link() -> None:
    flat = _flat(_joint('ab', 'a', 'b') + _joint('bc', 'b', 'c') + _joint('ca', 'c', 'a'))
    parent_of, later = first_parents(flat.joints)
    assert later == []
    assert list(parent_cycles(flat, parent_of)) == [(['a', 'c', 'b'], 'a')]
