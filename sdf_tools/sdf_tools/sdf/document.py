"""Read an SDFormat file or string into a :class:`~sdf_tools.model.Document`."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from lxml import etree

from sdf_tools import gazebo
from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.model import Document, Model
from sdf_tools.sdf.context import SUPPORTED_VERSIONS, ReadContext, version_tuple
from sdf_tools.sdf.link import parse_light
from sdf_tools.sdf.model import parse_model
from sdf_tools.sdf.spec import SPEC_VERSIONS
from sdf_tools.sdf.spec.check import check_root
from sdf_tools.sdf.stream import read_world_models
from sdf_tools.sdf.values import kids
from sdf_tools.xmlsafe import line_of, parse_file

if TYPE_CHECKING:
    from sdf_tools.model.actor import Actor  # made on first use: see model/__init__.py
    from sdf_tools.model.verbatim import Light


def read_sdf_root(root: etree._Element, file: str | None, include_stack: tuple[str, ...] = (),
                  ctx: ReadContext | None = None) -> tuple[Document | None, list[Diagnostic]]:
    """Turn a parsed ``<sdf>`` element into a document (plus diagnostics).

    ``ctx`` is the context of a ``WorldModelStreamer`` that already read the
    world's models while ``root`` was parsed (``sdf/stream.py``).
    """
    if root.tag != 'sdf':
        return None, [Diagnostic(ErrorCode.ELEMENT_INVALID,
                                 f'root element is <{root.tag}>, expected <sdf>', file, line_of(root))]
    version = root.get('version')
    if version is None:
        return None, [Diagnostic(ErrorCode.ATTRIBUTE_MISSING, 'SDF does not have a version.',
                                 file, line_of(root))]
    if ctx is None:
        ctx = ReadContext(file, version.strip(), include_stack=include_stack)
        read_world_models(ctx, root)
    if version.strip() not in SUPPORTED_VERSIONS:
        # libsdformat reads any version string (it only converts the ones it knows).
        ctx.warn(ErrorCode.VERSION_UNSUPPORTED,
                 f'SDFormat version [{version}] is not one we know '
                 f'({", ".join(SUPPORTED_VERSIONS)}); read with the {SPEC_VERSIONS[-1]} spec', root)
    else:
        target = gazebo.current()
        if version_tuple(version) > version_tuple(target.spec):
            ctx.warn(ErrorCode.VERSION_UNSUPPORTED,
                     f'SDFormat {version.strip()} is newer than Gazebo {target.name.capitalize()} '
                     f'reads (libsdformat {target.libsdformat}: SDFormat {target.spec}); what '
                     'the newer version added is read as that version means it', root)
    check_root(ctx, root)
    doc = Document(file, 'sdf', version, loc=ctx.loc(root))
    worlds = [c for c in kids(root) if c.tag == 'world']
    if worlds:
        # The world reader is imported for a file that has a world (a lone model needs
        # none of it: bench_startup.py).
        from sdf_tools.sdf.world import parse_world
    for w in worlds:
        world = parse_world(ctx, w)
        if any(x.name == world.name for x in doc.worlds):
            ctx.error(ErrorCode.DUPLICATE_NAME, f'World with name[{world.name}] already exists.', w)
            continue
        doc.worlds.append(world)
    _read_root_entity(ctx, root, doc)
    return doc, ctx.diagnostics


def _root_items(ctx: ReadContext, root: etree._Element
                ) -> dict[str, list[tuple[Model | Light | Actor, etree._Element]]]:
    """Read the root's models, lights and actors in document order, includes expanded.

    An ``<include>`` directly under ``<sdf>`` stands for what it includes, as
    libsdformat's parser expands it in place. Same-named items of one kind are
    DUPLICATE_NAME (libsdformat's ``loadUniqueRepeated``), the later one dropped.
    """
    items: dict[str, list[tuple[Model | Light | Actor, etree._Element]]] = {
        'model': [], 'light': [], 'actor': []}
    for c in kids(root):
        tag = c.tag
        item: Model | Light | Actor | None = None
        if tag == 'model':
            item = parse_model(ctx, c)
        elif tag == 'light':
            item = parse_light(ctx, c)
        elif tag == 'actor':
            from sdf_tools.sdf.world import parse_actor  # on the first <actor>, as worlds

            item = parse_actor(ctx, c)
        elif tag == 'include':
            from sdf_tools.sdf.include import load_include  # on the first <include>: see model.py

            item = load_include(ctx, c)
        if item is None:
            continue
        kind = type(item).__name__.lower()
        if any(x.name == item.name for x, _ in items[kind]):
            ctx.error(ErrorCode.DUPLICATE_NAME, f'{kind} with name[{item.name}] already exists.', c)
            continue
        items[kind].append((item, c))
    return items


def _read_root_entity(ctx: ReadContext, root: etree._Element, doc: Document) -> None:
    """Keep the one model, light or actor a root may hold, as ``sdf::Root::Load`` does."""
    items = _root_items(ctx, root)
    for kind, found in items.items():
        if len(found) > 1:
            ctx.error(ErrorCode.ELEMENT_INCORRECT_TYPE,
                      f'Root object can only contain one {kind}. Using the first one found',
                      found[1][1])
    if items['model']:
        model, el = items['model'][0]
        doc.model = model  # type: ignore[assignment]
        pose_el = el.find('pose') if el.tag == 'model' else None
        if pose_el is not None and pose_el.get('relative_to'):
            # Nothing is outside a top-level model for its pose to refer to.
            ctx.error(ErrorCode.ATTRIBUTE_INVALID,
                      'the pose of a top-level model must not have a relative_to attribute', pose_el)
    for kind in ('light', 'actor'):
        if not items[kind]:
            continue
        item, el = items[kind][0]
        if doc.model is not None or doc.light is not None:
            ctx.error(ErrorCode.ELEMENT_INCORRECT_TYPE,
                      'Root object can only contain one of model, light or actor', el)
        elif kind == 'light':
            doc.light = item  # type: ignore[assignment]
        else:
            doc.actor = item  # type: ignore[assignment]


def read_sdf_file(path: str | Path, include_stack: tuple[str, ...] = ()
                  ) -> tuple[Document | None, list[Diagnostic]]:
    """Read an SDFormat file; never raises for bad input."""
    root, bad = parse_file(path)
    if root is None:
        return None, [bad] if bad else []
    key = str(Path(path).resolve())
    return read_sdf_root(root, str(path), include_stack or (key,))
