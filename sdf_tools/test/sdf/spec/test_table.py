"""The committed spec tables (``sdf/spec/data``) are what ``tools/gen_sdf_spec.py`` makes.

1.0-1.9 are regenerated from Debian's ``sdformat-sdf`` (installed by ``./dev``) and
compared record by record. Debian lacks ``navsat.sdf`` (1.7-1.9), which the committed
tables take from libsdformat's sources: those records are compared only for being
there. 1.10 and 1.11 are not installed anywhere in CI; they are regenerated only when
``SDFORMAT_GIT_DIR`` names a libsdformat git directory, and otherwise checked for
being whole (every child and ``ref`` resolves). 1.12 comes from libsdformat 16's sources.
"""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

import pytest

from sdf_tools.sdf.spec import SPEC_VERSIONS, ElementSpec, _spec, spec_for, table

REPO = Path(__file__).resolve().parents[4]
DEBIAN = Path('/usr/share/sdformat12')
OLD = ('1.0', '1.2', '1.3', '1.4', '1.5', '1.6', '1.7', '1.8', '1.9')
NEW = ('1.10', '1.11', '1.12')


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location('gen_sdf_spec', REPO / 'tools' / 'gen_sdf_spec.py')
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _without(children: list[str], missing: set[str]) -> list[str]:
    return [c for c in children if c not in missing]


@pytest.mark.parametrize('version', OLD)
def test_table_is_current_with_sdformat_sdf(version: str) -> None:
    if not (DEBIAN / version).is_dir():
        pytest.fail(f'{DEBIAN / version} is missing: ./dev installs sdformat-sdf')
    gen = _generator()
    regenerated, lacking = gen.build_version(gen.directory_reader(DEBIAN / version))
    committed = table(version)['elements']
    fresh = regenerated['elements']
    assert isinstance(committed, dict)
    only_committed = set(committed) - set(fresh)
    # Debian lacks navsat.sdf only; what the committed table has beyond it comes from there.
    assert set(lacking) <= {'navsat.sdf'}
    assert all(k == 'navsat' or k.startswith('navsat/') for k in only_committed), only_committed
    assert not set(fresh) - set(committed)
    for key, record in fresh.items():
        mine = list(committed[key])
        mine[9] = _without(mine[9], only_committed)
        assert mine == record, key


@pytest.mark.parametrize('version', NEW)
def test_newer_table_is_whole_and_current_when_sources_are_given(version: str) -> None:
    data = table(version)
    elements = data['elements']
    assert isinstance(elements, dict)
    for key, record in elements.items():
        assert all(child in elements for child in record[9]), key
        assert record[7] is None or record[7] in elements, key
    git_dir = os.environ.get('SDFORMAT_GIT_DIR')
    if git_dir:  # e.g. what `fetch github:gazebosim/sdformat` brings
        gen = _generator()
        fresh, lacking = gen.build_version(gen.git_reader(git_dir, gen.rev_for(version), version))
        assert not lacking and fresh['elements'] == elements


@pytest.mark.parametrize('version', SPEC_VERSIONS)
def test_every_version_links_into_a_spec_with_the_usual_top_elements(version: str) -> None:
    root = spec_for(version)
    assert {'world', 'model'} <= set(root.children)
    link = root.children['model'].children['link']
    assert link.attributes['name'].required and 'inertial' in link.children


def test_newer_versions_add_what_their_spec_adds() -> None:
    def joint_axis(version: str) -> set[str]:
        return set(spec_for(version).children['model'].children['joint'].children['axis'].children)
    assert 'mimic' not in joint_axis('1.9') and 'mimic' in joint_axis('1.11')
    assert 'navsat' in spec_for('1.9').children['model'].children['link'].children['sensor'].children


def _fresh(version: str) -> ElementSpec:
    """The spec of ``version`` built anew (not the process's cached one)."""
    return _spec.__wrapped__(version, None, None)


def _fields(root: ElementSpec, order: str) -> list[str]:
    """Every element reachable from ``root``, visited depth or breadth first, as a sorted
    list of its fields, its children by name, requirement and type."""
    seen: dict[int, ElementSpec] = {}
    todo = [root]
    while todo:
        spec = todo.pop() if order == 'depth' else todo.pop(0)
        if id(spec) not in seen:
            seen[id(spec)] = spec
            todo.extend(spec.children.values())
    return sorted(repr((s.name, s.required, s.type, s.default, s.bounds, s.leaf, s.batch,
                        tuple(sorted(s.attributes)), s.required_attributes,
                        tuple((k, c.name, c.required, c.type) for k, c in s.children.items()),
                        tuple(c.name for c in s.required_children),
                        tuple(sorted(s.leaf_batches.items())),
                        tuple(sorted(s.required_tags)))) for s in seen.values())


def test_elements_are_made_when_their_parent_is_first_read() -> None:
    root = _fresh('1.9')
    made = root.source.made if root.source is not None else {}
    assert len(made) == 1
    link = root.children['model'].children['link']
    assert 'inertial' in link.children and 'pose' in link.leaf_batches
    # what a one-link model reaches: <sdf>, <model>, <link> and their children
    assert len(made) < len(table('1.9')['elements']) // 4  # type: ignore[arg-type]
    # A linked spec is a plain ElementSpec: no __getattr__ on the checker's every read.
    assert type(link) is ElementSpec and not hasattr(ElementSpec, '__getattr__')
    assert type(link.children['inertial']) is not ElementSpec  # not linked yet


@pytest.mark.parametrize('version', ['1.0', '1.9', '1.12'])
def test_linking_on_first_use_does_not_depend_on_the_order(version: str) -> None:
    assert _fields(_fresh(version), 'depth') == _fields(_fresh(version), 'breadth')
    assert _fields(_fresh(version), 'depth') == _fields(spec_for(version), 'depth')


def test_a_ref_copy_shares_its_targets_children() -> None:
    model = _fresh('1.9').children['model']
    nested = model.children['model']
    assert nested is not model and nested.children is model.children
    assert nested.required_tags == model.required_tags
