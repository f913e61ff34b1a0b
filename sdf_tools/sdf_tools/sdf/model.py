"""``<model>``: links, joints, frames, nested models and includes, in order."""
from __future__ import annotations

from lxml import etree

from sdf_tools.errors import ErrorCode
from sdf_tools.model import Extra, Model
from sdf_tools.sdf.context import ReadContext
from sdf_tools.sdf.joint import parse_frame, parse_joint
from sdf_tools.sdf.link import parse_link
from sdf_tools.sdf.names import read_name, rename_clashes, unique_by_name
from sdf_tools.sdf.plugin import parse_plugin
from sdf_tools.sdf.values import child, get_bool, get_pose, kids, parse_bool_text
from sdf_tools.xmlsafe import to_xml

MODEL_CHILDREN = {'pose', 'static', 'self_collide', 'allow_auto_disable', 'enable_wind',
                  'link', 'joint', 'frame', 'model', 'include', 'plugin', 'gripper'}


def _include(ctx: ReadContext, model: Model, el: etree._Element) -> None:
    # Imported on the first <include>: a file without one never needs the file lookup,
    # <experimental:params> or merging (``check`` starts faster, bench/bench_startup.py).
    from sdf_tools.sdf.include import load_include
    from sdf_tools.sdf.merge import merge_into_model

    inc = load_include(ctx, el)
    if inc is None:
        return
    if not isinstance(inc, Model):
        ctx.warn(ErrorCode.ELEMENT_INCORRECT_TYPE,
                 f'<include> of a {type(inc).__name__.lower()} inside a model is ignored', el)
        return
    merge = parse_bool_text(el.get('merge', 'false')) or False
    if merge:
        merge_into_model(ctx, model, el, inc)
    else:
        model.models.append(inc)


def parse_model(ctx: ReadContext, el: etree._Element, nested: bool = False) -> Model:
    """Read a ``<model>`` and everything below it, includes expanded.

    ``nested``: a ``<model>`` written inside another one (see ``_check_names``).
    """
    name = read_name(ctx, el, 'model')
    legacy_axes = ctx.version_tuple < (1, 5)
    model = Model(name, get_pose(ctx, el), version=ctx.version, loc=ctx.loc(el))
    model.canonical_link = el.get('canonical_link', '')
    model.placement_frame = el.get('placement_frame', '')
    for attr in ('canonical_link', 'placement_frame'):
        if el.get(attr) == '__root__':
            ctx.error(ErrorCode.ATTRIBUTE_INVALID,
                      f"'__root__' is reserved; it cannot be used as a value of attribute [{attr}]", el)
    model.static = get_bool(ctx, el, 'static', False)
    model.self_collide = get_bool(ctx, el, 'self_collide', False)
    model.allow_auto_disable = get_bool(ctx, el, 'allow_auto_disable', True)
    model.enable_wind = get_bool(ctx, el, 'enable_wind', False)
    for c in kids(el):
        tag = c.tag
        if type(tag) is not str:  # a comment
            continue
        if tag == 'link':
            model.links.append(parse_link(ctx, c))
        elif tag == 'joint':
            model.joints.append(parse_joint(ctx, c, legacy_axes=legacy_axes))
        elif tag == 'frame':
            model.frames.append(parse_frame(ctx, c))
        elif tag == 'model':
            model.models.append(parse_model(ctx, c, nested=True))
        elif tag == 'include':
            _include(ctx, model, c)
        elif tag == 'plugin':
            model.plugins.append(parse_plugin(ctx, c))
        elif tag not in MODEL_CHILDREN or tag == 'gripper':
            model.extras.append(Extra(tag, to_xml(c), ctx.loc(c)))
    _check_names(ctx, model, nested)
    if model.canonical_link:
        _check_canonical_link(ctx, model, el)
    if child(el, 'link') is None and not model.links and not model.models and not model.static:
        ctx.error(ErrorCode.MODEL_WITHOUT_LINK, 'A model must have at least one link.', el)
    return model


def _check_canonical_link(ctx: ReadContext, model: Model, el: etree._Element) -> None:
    """Warn when ``canonical_link`` names a frame, joint or model instead of a link.

    libsdformat accepts it (its frame graph attaches the model frame to whatever frame
    has that name); the spec wants a link, and ``ign sdf -k`` refuses it in a top-level
    or world model (``checkCanonicalLinkNames``). A name that matches nothing is the
    frame graph's ``MODEL_CANONICAL_LINK_INVALID``.
    """
    *path, last = model.canonical_link.split('::')
    scope: Model | None = model
    for name in path:
        scope = next((m for m in scope.models if m.name == name), None) if scope else None
    if scope is None or any(link.name == last for link in scope.links):
        return
    kinds = (('frame', scope.frames), ('joint', scope.joints), ('model', scope.models))
    kind = next((k for k, items in kinds if any(x.name == last for x in items)), None)
    if kind is not None:
        ctx.warn(ErrorCode.MODEL_CANONICAL_LINK_INVALID,
                 f'canonical_link [{model.canonical_link}] of model [{model.name}] names a {kind}, '
                 'not a link: libsdformat attaches the model frame to it; the spec wants a link, '
                 'and `ign sdf -k` refuses it in a top-level or world model', el)


def _check_names(ctx: ReadContext, model: Model, nested: bool = False) -> None:
    """Same-type duplicates are errors; pre-1.7 cross-type clashes are renamed.

    Cross-type clashes in 1.7+ files are reported by the frame graph, as
    libsdformat does, except in a nested ``<model>``: libsdformat (12 and newer)
    reads one through its spec ``ref``, which replaces the element's record of the
    file's version with none, so it takes the pre-1.7 path and renames the clash
    (``RANDOM_FINDINGS.md`` F4). We do the same, with the warning.
    """
    owner = f'model [{model.name}]'
    model.links = unique_by_name(ctx, 'Link', model.links, owner)
    model.joints = unique_by_name(ctx, 'Joint', model.joints, owner)
    model.frames = unique_by_name(ctx, 'Frame', model.frames, owner)
    model.models = unique_by_name(ctx, 'Model', model.models, owner)
    if ctx.version_tuple >= (1, 7) and not nested:
        return
    taken = {m.name for m in model.models}
    rename_clashes(ctx, 'link', model.links, '_link', taken, owner)
    rename_clashes(ctx, 'joint', model.joints, '_joint', taken, owner)
    rename_clashes(ctx, 'frame', model.frames, '_frame', taken, owner)
