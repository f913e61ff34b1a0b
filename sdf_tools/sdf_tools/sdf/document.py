"""Read an SDFormat file or string into a :class:`~sdf_tools.model.Document`."""
from __future__ import annotations

from pathlib import Path

from lxml import etree

from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.model import Document
from sdf_tools.sdf.context import SUPPORTED_VERSIONS, ReadContext
from sdf_tools.sdf.link import parse_light
from sdf_tools.sdf.model import parse_model
from sdf_tools.sdf.world import parse_actor, parse_world
from sdf_tools.xmlsafe import line_of, parse_file


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
    if version.strip() not in SUPPORTED_VERSIONS:
        return None, [Diagnostic(ErrorCode.VERSION_UNSUPPORTED,
                                 f'SDFormat version [{version}] is not supported '
                                 f'(supported: {", ".join(SUPPORTED_VERSIONS[3:])})',
                                 file, line_of(root))]
    if ctx is None:
        ctx = ReadContext(file, version.strip(), include_stack=include_stack)
    doc = Document(file, 'sdf', version, loc=ctx.loc(root))
    models = [c for c in root if c.tag == 'model']
    lights = [c for c in root if c.tag == 'light']
    actors = [c for c in root if c.tag == 'actor']
    for w in (c for c in root if c.tag == 'world'):
        world = parse_world(ctx, w)
        if any(x.name == world.name for x in doc.worlds):
            ctx.error(ErrorCode.DUPLICATE_NAME, f'World with name[{world.name}] already exists.', w)
            continue
        doc.worlds.append(world)
    for kind, els in (('model', models), ('light', lights), ('actor', actors)):
        if len(els) > 1:
            ctx.error(ErrorCode.ELEMENT_INCORRECT_TYPE,
                      f'Root object can only contain one {kind}. Using the first one found', els[1])
    if models:
        doc.model = parse_model(ctx, models[0])
        pose_el = models[0].find('pose')
        if pose_el is not None and pose_el.get('relative_to'):
            # Nothing is outside a top-level model for its pose to refer to.
            ctx.error(ErrorCode.ATTRIBUTE_INVALID,
                      'the pose of a top-level model must not have a relative_to attribute', pose_el)
    if lights:
        if doc.model is not None:
            ctx.error(ErrorCode.ELEMENT_INCORRECT_TYPE,
                      'Root object can only contain one of model, light or actor', lights[0])
        else:
            doc.light = parse_light(ctx, lights[0])
    if actors:
        if doc.model is not None or doc.light is not None:
            ctx.error(ErrorCode.ELEMENT_INCORRECT_TYPE,
                      'Root object can only contain one of model, light or actor', actors[0])
        else:
            doc.actor = parse_actor(ctx, actors[0])
    return doc, ctx.diagnostics


def read_sdf_file(path: str | Path, include_stack: tuple[str, ...] = ()
                  ) -> tuple[Document | None, list[Diagnostic]]:
    """Read an SDFormat file; never raises for bad input."""
    root, bad = parse_file(path)
    if root is None:
        return None, [bad] if bad else []
    key = str(Path(path).resolve())
    return read_sdf_root(root, str(path), include_stack or (key,))
