"""``<include merge="true">``: the included model's elements become the including model's or world's.

The included model's frame becomes a frame ``_merged__<name>__model__`` of the
including model (or world, SDFormat 1.10+, libsdformat 13 and later) attached to
its canonical link and placed by the include's pose (relative to the including
model's frame, or ``world``, unless said otherwise); its links, nested models,
joints and frames become the includer's, with references to ``__model__`` (and
the empty ones that meant it) redirected to that proxy frame. A world holds no
links: each link of a model merged into one is ``MERGE_INCLUDE_UNSUPPORTED``, as
libsdformat's ``insertIncludedElement`` says.
"""
from __future__ import annotations

import math
from dataclasses import replace

from lxml import etree

from sdf_tools import gazebo
from sdf_tools.errors import ErrorCode
from sdf_tools.model import Frame, Joint, Model, RawPose, World
from sdf_tools.model.canonical import canonical_link_relative_name
from sdf_tools.sdf.context import ReadContext
from sdf_tools.transform import Transform


def _ign_text(v: float) -> float:
    """One number as libsdformat 12 writes it into a pose: ``math::precision(v, 6)``
    (rounded half away from zero to 6 decimals), then a stream's 6 significant digits."""
    rounded = math.copysign(math.floor(abs(v) * 1e6 + 0.5) / 1e6, v)
    return float(f'{rounded:g}')


def pose_through_text_12(pose: Transform) -> Transform:
    """A pose as libsdformat 12's ``Param::Set`` stores it: printed (xyz, roll pitch yaw)
    and read back. libsdformat 12 sets a merged model's proxy frame pose that way; newer
    versions print every digit."""
    x, y, z = pose.p
    r, p, yw = pose.rpy()
    return Transform.from_xyz_rpy((_ign_text(x), _ign_text(y), _ign_text(z)),
                                  (_ign_text(r), _ign_text(p), _ign_text(yw)))


def proxy_frame_name(model_name: str) -> str:
    """Return the name libsdformat gives a merged model's proxy frame."""
    return f'_merged__{model_name}__model__'


def _redirect(p: RawPose | None, proxy: str, if_empty: bool) -> RawPose | None:
    if p is None:
        return RawPose(relative_to=proxy) if if_empty else None
    if p.relative_to == '__model__' or (if_empty and not p.relative_to):
        return replace(p, relative_to=proxy)
    return p


def _placed(m: Model) -> RawPose:
    """The include's pose of ``m``, its placement frame resolved."""
    pose = m.pose or RawPose()
    if m.placement_frame:
        from sdf_tools.frames.placement import resolve_placed_model_pose  # frames need model only
        pose = replace(pose, value=resolve_placed_model_pose(m))
    return pose


def _joint(joint: Joint, proxy: str, ends: bool) -> Joint:
    """A merged joint: its pose, axes and (``ends``) a ``__model__`` parent or child on the proxy."""
    j = replace(joint, pose=_redirect(joint.pose, proxy, False))
    if ends:
        if j.parent == '__model__':
            j = replace(j, parent=proxy)
        if j.child == '__model__':
            j = replace(j, child=proxy)
    for attr in ('axis', 'axis2'):
        ax = getattr(j, attr)
        if ax is not None and ax.expressed_in == '__model__':
            setattr(j, attr, replace(ax, expressed_in=proxy))
    return j


def _frame(frame: Frame, proxy: str) -> Frame:
    attached = proxy if frame.attached_to in ('', '__model__') else frame.attached_to
    return replace(frame, attached_to=attached, pose=_redirect(frame.pose, proxy, False))


def merge_into_model(ctx: ReadContext, parent: Model, inc_el: etree._Element, m: Model) -> None:
    """Merge the included model ``m``'s children into ``parent``."""
    proxy = proxy_frame_name(m.name)
    pose = _placed(m)
    # libsdformat 12 prints the pose (6 digits) and reads it back; 13+ keep every digit
    # (libsdformat 14.9.0 on its test/integration/merge_include_model.sdf, a 1.9 file).
    newer = gazebo.current().libsdformat >= 13
    if ctx.read_as < (1, 10):
        pose = replace(pose, value=pose_through_text_12(pose.value))
    rel = pose.relative_to or '__model__'
    parent.frames.append(Frame(proxy, canonical_link_relative_name(m), replace(pose, relative_to=rel),
                               ctx.loc(inc_el)))
    for link in m.links:
        parent.links.append(replace(link, pose=_redirect(link.pose, proxy, True)))
    for nested in m.models:
        parent.models.append(replace(nested, pose=_redirect(nested.pose, proxy, True)))
    # From libsdformat 13 a joint's parent/child __model__ is the included model's frame,
    # i.e. the proxy (14.9.0 on its test/integration/merge_include_model.sdf); 12.3 keeps
    # the name and refuses it (its probe: JOINT_CHILD_LINK_INVALID).
    parent.joints += [_joint(joint, proxy, newer) for joint in m.joints]
    parent.frames += [_frame(frame, proxy) for frame in m.frames]
    parent.plugins.extend(m.plugins)


def merge_into_world(ctx: ReadContext, world: World, inc_el: etree._Element, m: Model) -> None:
    """Merge the included model ``m`` into ``world``."""
    for _link in m.links:
        ctx.error(ErrorCode.MERGE_INCLUDE_UNSUPPORTED,
                  'Merge-include for <world> does not support element of type link in '
                  f'included model [{m.name}]', inc_el)
    proxy = proxy_frame_name(m.name)
    pose = _placed(m)
    canonical = canonical_link_relative_name(m)
    world.frames.append(Frame(proxy, canonical,
                              replace(pose, relative_to=pose.relative_to or 'world'),
                              ctx.loc(inc_el)))
    for nested in m.models:
        world.models.append(replace(nested, pose=_redirect(nested.pose, proxy, True)))
    world.joints += [_joint(joint, proxy, True) for joint in m.joints]
    world.frames += [_frame(frame, proxy) for frame in m.frames]
    world.plugins.extend(m.plugins)
