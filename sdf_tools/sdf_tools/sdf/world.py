"""``<world>`` and ``<actor>``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree

from sdf_tools import gazebo
from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.model import Extra, Model, RawPose, World
from sdf_tools.sdf.context import ReadContext
from sdf_tools.sdf.joint import parse_frame, parse_joint
from sdf_tools.sdf.link import parse_light, parse_link
from sdf_tools.sdf.model import parse_model
from sdf_tools.sdf.names import read_name, rename_clashes, unique_by_name
from sdf_tools.sdf.plugin import parse_plugin
from sdf_tools.sdf.values import child, children, get_bool, get_float, get_pose, get_str
from sdf_tools.transform import IDENTITY
from sdf_tools.xmlsafe import to_xml

if TYPE_CHECKING:
    from sdf_tools.model.actor import Actor

_WORLD_HANDLED = {'model', 'frame', 'joint', 'actor', 'light', 'include', 'plugin'}


_DEFAULT_FILE = '__default__'


def parse_actor(ctx: ReadContext, el: etree._Element) -> Actor:
    """Read an ``<actor>``: skin, animations, script and trajectories."""
    from sdf_tools.model.actor import Actor, Animation, Trajectory, Waypoint  # see model/__init__.py

    actor = Actor(read_name(ctx, el, 'actor'), get_pose(ctx, el), loc=ctx.loc(el))
    # libsdformat's defaults: '__default__' (the spec's) for a missing <filename>, and
    # for a missing <skin> too (its Actor reads the skin element it creates).
    skin = child(el, 'skin')
    actor.skin_filename = _DEFAULT_FILE
    if skin is not None:
        actor.skin_filename = get_str(skin, 'filename', _DEFAULT_FILE)
        actor.skin_scale = get_float(ctx, skin, 'scale', 1.0)
    for a in children(el, 'animation'):
        actor.animations.append(Animation(a.get('name', ''), get_str(a, 'filename', _DEFAULT_FILE),
                                          get_float(ctx, a, 'scale', 1.0),
                                          get_bool(ctx, a, 'interpolate_x', False)))
    script = child(el, 'script')
    if script is not None:
        actor.loop = get_bool(ctx, script, 'loop', True)
        actor.delay_start = get_float(ctx, script, 'delay_start', 0.0)
        actor.auto_start = get_bool(ctx, script, 'auto_start', True)
        for t in children(script, 'trajectory'):
            traj = Trajectory(_int_attr(ctx, t, 'id'), t.get('type', ''), loc=ctx.loc(t))
            try:
                traj.tension = float(t.get('tension', '0'))
            except ValueError:
                ctx.error(ErrorCode.ATTRIBUTE_INVALID, 'trajectory tension is not a number', t)
            for w in children(t, 'waypoint'):
                pose = get_pose(ctx, w)
                traj.waypoints.append(Waypoint(get_float(ctx, w, 'time', 0.0),
                                               pose if pose is not None else _zero(ctx, w)))
            actor.trajectories.append(traj)
    actor.links = [parse_link(ctx, c) for c in children(el, 'link')]
    actor.joints = [parse_joint(ctx, c) for c in children(el, 'joint')]
    actor.plugins = [parse_plugin(ctx, c) for c in children(el, 'plugin')]
    return actor


def _int_attr(ctx: ReadContext, el: etree._Element, attr: str) -> int:
    text = (el.get(attr) or '0').strip()
    try:
        return int(text)
    except ValueError:
        ctx.error(ErrorCode.ATTRIBUTE_INVALID, f'{attr} [{text}] is not an integer', el)
        return 0


def _zero(ctx: ReadContext, el: etree._Element) -> RawPose:
    return RawPose(IDENTITY, loc=ctx.loc(el))


def parse_world(ctx: ReadContext, el: etree._Element) -> World:
    """Read a ``<world>``; physics, scene and the like are kept verbatim."""
    world = World(read_name(ctx, el, 'world'), loc=ctx.loc(el))
    for c in el.iterchildren(etree.Element):  # elements only, no comments
        tag = c.tag
        if tag == 'model':
            pre = ctx.preread.pop(c, None)
            if pre is None:
                world.models.append(parse_model(ctx, c))
            else:
                world.models.append(pre[0])
                ctx.diagnostics.extend(pre[1])
        elif tag == 'frame':
            world.frames.append(parse_frame(ctx, c))
        elif tag == 'joint' and ctx.read_as >= (1, 10):
            world.joints.append(parse_joint(ctx, c))
        elif tag == 'actor':
            world.actors.append(parse_actor(ctx, c))
        elif tag == 'light':
            world.lights.append(parse_light(ctx, c))
        elif tag == 'plugin':
            world.plugins.append(parse_plugin(ctx, c))
        elif tag == 'include':
            # On the first <include>, as in model.py's reader.
            from sdf_tools.model.actor import Actor
            from sdf_tools.model.verbatim import Light
            from sdf_tools.sdf.include import load_include
            from sdf_tools.sdf.merge import merge_into_world

            inc = load_include(ctx, c)
            merge = c.get('merge', 'false').strip().lower() in ('true', '1')
            if merge and isinstance(inc, Model) and ctx.read_as >= (1, 10):
                merge_into_world(ctx, world, c, inc)  # as libsdformat 13+ does
            elif merge and inc is not None:
                ctx.error(ErrorCode.MERGE_INCLUDE_UNSUPPORTED,
                          'Merge-include does not support parent element of type world', c)
            elif isinstance(inc, Model):
                world.models.append(inc)
            elif isinstance(inc, Actor):
                world.actors.append(inc)
            elif isinstance(inc, Light):
                world.lights.append(inc)
        else:
            world.extras.append(Extra(tag, to_xml(c), ctx.loc(c)))
    owner = f'world [{world.name}]'
    world.models = unique_by_name(ctx, 'Model', world.models, owner)
    world.frames = unique_by_name(ctx, 'Frame', world.frames, owner)
    # A world frame named like a model is renamed, as libsdformat 12 does for every
    # version (references to the name keep meaning the model); 14+ renames it only in
    # files before 1.7 and refuses it in newer ones (gazebosim/sdformat#1311).
    models = {m.name for m in world.models}
    if gazebo.current().libsdformat >= 14 and ctx.version_tuple >= (1, 7):
        for f in world.frames:
            if f.name in models:
                ctx.diagnostics.append(Diagnostic(
                    ErrorCode.DUPLICATE_NAME, f'Frame with name [{f.name}] in world with name '
                    f'[{world.name}] has a name collision. Please rename this frame.',
                    f.loc.file if f.loc else ctx.file, f.loc.line if f.loc else None))
        return world
    rename_clashes(ctx, 'frame', world.frames, '_frame', models, owner)
    return world
