"""Pair each link and joint of a document with its scoped name and its ``inspect`` entry.

The report needs both views of one element: the description model (where it
was written, what the file left out) and the ``inspect --json`` object (its
resolved world pose). Names are scoped exactly as ``inspect`` scopes them.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from sdf_tools.frames.graph import join, prefix
from sdf_tools.model import Document, Joint, Link, Model

Json = dict[str, Any]


class LinkEntry(NamedTuple):
    """A link: scoped name, element, owning model, its ``inspect`` object."""

    name: str
    link: Link
    model: Model
    data: Json


class JointEntry(NamedTuple):
    """A joint: scoped name, element, owning model, its ``inspect`` object."""

    name: str
    joint: Joint
    model: Model
    data: Json


def _models(model: Model, scope: str, out: list[tuple[str, Model]]) -> None:
    here = join(scope, model.name)
    out.append((here, model))
    for m in model.models:
        _models(m, here, out)


def scoped_models(doc: Document) -> list[tuple[str, Model]]:
    """Every model of the document (nested ones too) with its scope."""
    out: list[tuple[str, Model]] = []
    if doc.model is not None:
        _models(doc.model, '', out)
    for world in doc.worlds:
        for m in world.models:
            _models(m, '', out)
    return out


def entries(doc: Document | None, data: Json) -> tuple[list[LinkEntry], list[JointEntry]]:
    """Return the links and joints of ``doc`` in ``inspect`` order, with their objects."""
    if doc is None:
        return [], []
    links_json = {d['name']: d for d in data['links']}
    joints_json = {d['name']: d for d in data['joints']}
    links: list[LinkEntry] = []
    joints: list[JointEntry] = []
    for scope, model in scoped_models(doc):
        pre = prefix(scope)
        links += [LinkEntry(pre + lk.name, lk, model, links_json[pre + lk.name])
                  for lk in model.links if pre + lk.name in links_json]
        joints += [JointEntry(pre + j.name, j, model, joints_json[pre + j.name])
                   for j in model.joints if pre + j.name in joints_json]
    return links, joints
