"""The models read from a stage, as a document: in the stage's order, in their worlds.

usd-core's parser lists bodies, shapes and joints grouped by kind (spheres
before boxes), so the links, joints and models are put back in the stage's
order (a model's first link is its canonical one), nested models are rebuilt
(:mod:`~sdf_tools.convert.usd.nesting`), and each model goes into the world
prim the writer made (a root ``Xform`` with ``sdf_tools:name``, kept even
when it holds no model), which also gets the physics scene's gravity
(:mod:`~sdf_tools.convert.usd.scene`). One model outside any world is a model
file.
"""
from __future__ import annotations

from pxr import Usd

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.sdf.elements import nums
from sdf_tools.convert.usd.names import NAME_ATTR, kind_of, original_name
from sdf_tools.convert.usd.nesting import nest
from sdf_tools.convert.usd.scene import SCENE, gravity_extra, is_standard, read_gravity
from sdf_tools.model import Document, Loc, Model, World


def worlds(stage: Usd.Stage) -> list[Usd.Prim]:
    """Return the root prims the writer marked as worlds."""
    return [p for p in stage.GetPseudoRoot().GetChildren() if kind_of(p) == 'world']


def _world_of(prim: Usd.Prim) -> str:
    """Return the world a model prim is in: its parent, a named root Xform as the writer lays a
    world out (else '': a model at the root, or a stage another tool wrote)."""
    parent = prim.GetParent()
    if not parent or parent.IsPseudoRoot() or not parent.GetParent().IsPseudoRoot() \
            or not parent.HasAttribute(NAME_ATTR):
        return ''
    return original_name(parent)


def _unique(models: list[Model], report: ConversionReport, path: str) -> None:
    """Rename models that share a name in one world (Newton's ant_multi.usda: one ``Robot`` per
    environment prim), as SDFormat wants them unique."""
    taken: set[str] = set()
    for m in models:
        name, i = m.name, 2
        while name in taken:
            name, i = f'{m.name}_{i}', i + 1
        taken.add(name)
        if name != m.name:
            where = m.loc.xml_path if m.loc is not None and m.loc.xml_path else m.name
            report.add(ReportKind.RENAMED, where, f'model [{m.name}] read as [{name}] (model '
                       'names are unique in a world)', path)
            m.name = name


def document(stage: Usd.Stage, models: list[tuple[Usd.Prim, Model]], report: ConversionReport,
             path: str) -> Document:
    """Return the document of the models read from ``stage`` (model prim, model)."""
    order = {str(p.GetPath()): i for i, p in enumerate(stage.Traverse())}

    def rank(loc: Loc | None) -> int:
        return order.get(loc.xml_path or '' if loc is not None else '', len(order))

    for prim, model in models:
        model.links.sort(key=lambda lk: rank(lk.loc))
        model.joints.sort(key=lambda j: rank(j.loc))
        nest(model, prim)
    found: dict[str, list[Model]] = {original_name(w): [] for w in worlds(stage)}
    for prim, model in sorted(models, key=lambda pm: rank(pm[1].loc)):
        found.setdefault(_world_of(prim), []).append(model)
    for ms in found.values():
        _unique(ms, report, path)
    g = read_gravity(stage, report, path)
    if list(found) == [''] and len(found['']) == 1:
        if g is not None and not is_standard(g):
            report.add(ReportKind.DROPPED, SCENE, f'gravity {nums(g)}: a model file holds no '
                       'gravity', path)
        return Document(path, 'sdf', '1.9', model=found[''][0])
    if '' in found:
        report.add(ReportKind.ASSUMED, 'world', f'{len(found[""])} model(s) outside a world '
                   'prim: read into a world named [default]', path)
    extra = gravity_extra(g) if g is not None else None
    return Document(path, 'sdf', '1.9', worlds=[
        World(name or 'default', models=ms, extras=[extra] if extra is not None else [])
        for name, ms in found.items()])
