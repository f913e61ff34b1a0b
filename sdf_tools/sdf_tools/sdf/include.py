"""``<include>``: find the file, read it, apply the include's overrides.

Follows libsdformat 12: ``<name>``, ``<pose>`` (replacing the included
model's pose, attributes included), ``<static>``, ``<placement_frame>``
(which needs a ``<pose>``) and ``<plugin>`` children; an include cycle is
an error rather than a hang.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from lxml import etree

from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.model import Actor, Document, Light, Model
from sdf_tools.sdf.context import ReadContext
from sdf_tools.sdf.params import apply_params
from sdf_tools.sdf.plugin import parse_plugin
from sdf_tools.sdf.uris import model_file_in_dir, resolve_uri
from sdf_tools.sdf.values import child, children, get_bool, parse_pose_element
from sdf_tools.xmlsafe import parse_file

Included = Model | Actor | Light


def _fallback_dirs(ctx: ReadContext) -> list[Path]:
    """The including file's directory, then the top-level file's (when different)."""
    dirs = [Path(ctx.file).parent] if ctx.file else []
    if ctx.include_stack:
        top = Path(ctx.include_stack[0]).parent
        if not dirs or top.resolve() != dirs[0].resolve():
            dirs.append(top)
    return dirs


def _locate(ctx: ReadContext, inc: etree._Element) -> Path | None:
    uri_el = child(inc, 'uri')
    if uri_el is None or not (uri_el.text or '').strip():
        ctx.error(ErrorCode.ATTRIBUTE_MISSING, '<include> is missing a <uri> element', inc)
        return None
    uri = (uri_el.text or '').strip()
    # libsdformat's own places first (working directory, SDF_PATH and the resource
    # paths Gazebo adds); then the directories of the including file and of the
    # file at the top of the include chain (libsdformat's working directory when
    # run from there), said in a warning.
    path = resolve_uri(uri, None)
    for base in _fallback_dirs(ctx):
        if path is not None:
            break
        path = resolve_uri(uri, base)
        if path is not None:
            ctx.warn(ErrorCode.URI_LOOKUP,
                     f'uri[{uri}] found only relative to [{base}] ([{path}]); libsdformat '
                     'looks in the working directory and SDF_PATH, not there: run from that '
                     'directory or add it to SDF_PATH', uri_el)
    if path is None:
        ctx.error(ErrorCode.URI_LOOKUP, f'Unable to find uri[{uri}]', uri_el)
        return None
    if path.is_dir():
        found = model_file_in_dir(path, sdf_fallback=False, must_exist=False)
        if found is None:
            ctx.error(ErrorCode.URI_LOOKUP,
                      f'Unable to resolve uri[{uri}] to model path [{path}] since it does not '
                      'contain a model.config file (or manifest.xml) naming a model file.', uri_el)
            return None
        path = found
    return path


def _apply_overrides(ctx: ReadContext, inc: etree._Element, top: Included) -> Included | None:
    name_el = child(inc, 'name')
    if name_el is not None:
        top = replace(top, name=(name_el.text or '').strip())
    pose_el = child(inc, 'pose')
    if pose_el is not None:
        top = replace(top, pose=parse_pose_element(ctx, pose_el))
    if isinstance(top, Model):
        if child(inc, 'static') is not None:
            top = replace(top, static=get_bool(ctx, inc, 'static', False))
        pf = child(inc, 'placement_frame')
        if pf is not None:
            if pose_el is None:
                ctx.error(ErrorCode.MODEL_PLACEMENT_FRAME_INVALID,
                          '<pose> is required when specifying the placement_frame element', inc)
                return None
            value = (pf.text or '').strip()
            if value == '__root__':
                ctx.error(ErrorCode.RESERVED_NAME,
                          "'__root__' is reserved; it cannot be used as a value of element "
                          '[placement_frame]', pf)
            top = replace(top, placement_frame=value)
    if isinstance(top, (Model, Actor)):
        extra = [parse_plugin(ctx, p) for p in children(inc, 'plugin')]
        if extra:
            top = replace(top, plugins=[*top.plugins, *extra])
    return top


def _params_of(inc: etree._Element) -> etree._Element | None:
    """The ``<experimental:params>`` child, whether or not its prefix is declared.

    libsdformat's XML parser matches the name as written (prefix included);
    lxml names a declared prefix by its namespace.
    """
    for c in inc:
        tag = c.tag
        if tag == 'experimental:params' or (
                isinstance(tag, str) and c.prefix == 'experimental'
                and etree.QName(c).localname == 'params'):
            return c
    return None


def _read_with_params(ctx: ReadContext, path: Path, params: etree._Element,
                      stack: tuple[str, ...]) -> tuple[Document | None, list[Diagnostic]]:
    """Read an included file after applying ``<experimental:params>`` to its top element."""
    from sdf_tools.sdf.document import read_sdf_root  # see load_include

    root, bad = parse_file(path)
    if root is None:
        return None, [bad] if bad else []
    top = next((c for c in root if isinstance(c.tag, str)), None)
    if top is not None:
        dirs = [path.parent, *( [Path(stack[0]).parent] if stack else [])]
        apply_params(ctx, params, top, lambda inc: _included_name(inc, dirs))
    return read_sdf_root(root, str(path), stack)


def _included_name(inc: etree._Element, dirs: list[Path]) -> str | None:
    """The name a nested ``<include>`` gives its model: its ``<name>``, else the file's."""
    name_el = child(inc, 'name')
    if name_el is not None:
        return (name_el.text or '').strip()
    uri_el = child(inc, 'uri')
    uri = (uri_el.text or '').strip() if uri_el is not None else ''
    path = resolve_uri(uri, None) if uri else None
    for base in dirs:
        path = path or resolve_uri(uri, base)
    if path is not None and path.is_dir():
        path = model_file_in_dir(path, sdf_fallback=False)
    if path is None:
        return None
    root, _ = parse_file(path)
    top = next((c for c in root if isinstance(c.tag, str)), None) if root is not None else None
    return top.get('name') if top is not None else None


def load_include(ctx: ReadContext, inc: etree._Element) -> Included | None:
    """Read the model, actor or light an ``<include>`` names (None on error)."""
    # Imported here: reading an included file is reading a document, which
    # in turn parses models holding includes.
    from sdf_tools.sdf.document import read_sdf_file

    path = _locate(ctx, inc)
    if path is None:
        return None
    key = str(path.resolve())
    if key in ctx.include_stack:
        chain = ' -> '.join([*ctx.include_stack, key])
        ctx.error(ErrorCode.INCLUDE_CYCLE, f'include cycle: {chain}', inc)
        return None
    params = _params_of(inc)
    if params is None:
        doc, diags = read_sdf_file(path, include_stack=(*ctx.include_stack, key))
    else:
        doc, diags = _read_with_params(ctx, path, params, (*ctx.include_stack, key))
    ctx.diagnostics.extend(diags)
    if doc is None or doc.format != 'sdf':
        # At the <uri>, as libsdformat; a model.config naming a missing file lands here too.
        ctx.error(ErrorCode.FILE_READ, f'Unable to read file[{path}]', child(inc, 'uri'))
        return None
    tops: list[Included] = [t for t in (doc.model, doc.actor, doc.light) if t is not None]
    if not tops:
        ctx.error(ErrorCode.ELEMENT_MISSING,
                  'Failed to find top level <model> / <actor> / <light> for <include>', inc)
        return None
    top = tops[0]
    if isinstance(top, Model):
        top = replace(top, source_uri=(child(inc, 'uri').text or '').strip())  # type: ignore[union-attr]
    return _apply_overrides(ctx, inc, top)
