"""The canonical link of a model, found from structure alone (no graphs)."""
from __future__ import annotations

from sdf_tools.model.elements import Model


def canonical_link_relative_name(model: Model) -> str:
    """Return the canonical link's name relative to ``model`` ('' if none).

    The ``canonical_link`` attribute wins; otherwise the first link; otherwise
    the first nested model's canonical link, scoped with ``::``.
    """
    if model.canonical_link:
        return model.canonical_link
    if model.links:
        return model.links[0].name
    if model.models:
        inner = canonical_link_relative_name(model.models[0])
        return f'{model.models[0].name}::{inner}' if inner else ''
    return ''
