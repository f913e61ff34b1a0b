"""Nest the flattened ``a::b`` names of a world model, as libsdformat's 1.7 -> 1.8 step does.

Before SDFormat 1.8, a model nested by ``<include>`` was saved flattened: its links,
joints and frames became ``M1::L1`` in the parent model, and its own frame a frame named
``M1::__model__``. libsdformat 12 converts every older file to 1.9 before it reads it,
and the 1.7 -> 1.8 recipe (``sdf/1.8/1_7.convert``: ``<unflatten/>`` on each model of a
world) turns those names back into nested models (``Converter::Unflatten``). Our reader
does not convert documents, so this module applies that one step to the tree of a world
model before the spec check and the reader see it. What it does, in libsdformat's order:

* The children considered are ``frame``, ``joint``, ``link``, ``model`` and ``gripper``
  with a ``name``. The first whose name holds ``::`` starts a new model named by the text
  before it; every such child whose name *starts with* that text (a plain prefix test, as
  libsdformat's) moves into the new model with the prefix and the two colons cut off, and
  so do the ``relative_to`` of its pose, a joint's ``parent``/``child`` and axes'
  ``expressed_in``, the poses of a link's children (and of their ``<camera>``), of a
  joint's sensors, and a gripper's links. The new model is unflattened in turn (``a::b::c``)
  and appended to the parent; the scan restarts and stops at the first new model.
* The frame ``M1::__model__`` becomes the new model itself: its ``attached_to`` is the
  model's ``canonical_link`` and its pose the model's pose.
* A nested model whose name has no ``::`` is unflattened recursively, and then the scan of
  its parent stops (so later siblings are left as they are, as in libsdformat).

Where libsdformat asserts that a reference starts with the prefix (and throws if not),
the reference is left as written; the reader then reports it as any bad reference.
Only models directly in a ``<world>`` are converted (the recipe's scope); included models
are read from their own files, so they are never unflattened.
"""
from __future__ import annotations

from lxml import etree

__all__ = ['unflatten_world_model']

_FLATTENED = ('frame', 'joint', 'link', 'model', 'gripper')


def unflatten_world_model(version: tuple[int, int], el: etree._Element) -> None:
    """Unflatten ``el``, a model of a top-level world, when its file is older than 1.8."""
    if version < (1, 8):
        _unflatten(el)


def _elements(el: etree._Element) -> list[etree._Element]:
    return [c for c in el if isinstance(c.tag, str)]


def _unflatten(el: etree._Element) -> None:
    first_new: etree._Element | None = None
    children = _elements(el)
    i = 0
    while i < len(children):
        child = children[i]
        i += 1
        if child is first_new:
            break
        name = child.get('name')
        if child.tag not in _FLATTENED or name is None:
            continue
        found = name.find('::')
        if found < 0:
            if child.tag == 'model':
                _unflatten(child)
                break
            continue
        new = etree.Element('model', name=name[:found])
        if child.sourceline is not None:  # diagnostics about it point at its first member
            new.sourceline = child.sourceline
        if _move_members(el, new, found + 2):
            _unflatten(new)
            el.append(new)
            children, i = _elements(el), 0  # libsdformat goes back to the first child
            if first_new is None:
                first_new = new


def _strip(value: str | None, prefix: str, cut: int) -> str | None:
    """``value`` without the prefix, or None when it does not start with it."""
    if value is None:
        return None
    return value[cut:] if value.startswith(prefix) else None


def _strip_attr(el: etree._Element | None, attr: str, prefix: str, cut: int) -> None:
    if el is None:
        return
    new = _strip(el.get(attr), prefix, cut)
    if new is not None:
        el.set(attr, new)


def _strip_text(el: etree._Element | None, prefix: str, cut: int) -> None:
    if el is None:
        return
    new = _strip(el.text.strip() if el.text else None, prefix, cut)  # a value, read trimmed
    if new is not None:
        el.text = new


def _update_pose(el: etree._Element, prefix: str, cut: int) -> None:
    """A link child's or joint sensor's pose, and its camera's (``UpdatePose``)."""
    _strip_attr(el.find('pose'), 'relative_to', prefix, cut)
    camera = el.find('camera')
    if camera is not None:
        _update_pose(camera, prefix, cut)


def _move_members(parent: etree._Element, new: etree._Element, cut: int) -> bool:
    """Move the children of ``parent`` that belong to ``new``; whether any moved."""
    prefix = new.get('name', '')
    moved = False
    for el in _elements(parent):
        name = el.get('name') or ''
        if (not name or not name.startswith(prefix) or el.tag not in _FLATTENED) \
                and el.tag != 'gripper':
            continue
        child_name = name[cut:] if name.startswith(prefix) else None
        if child_name is not None:
            el.set('name', child_name)
        _strip_attr(el.find('pose'), 'relative_to', prefix, cut)
        if el.tag == 'frame':
            if _frame(parent, new, el, child_name, prefix, cut):
                moved = True
                continue
        elif el.tag == 'link':
            for c in _elements(el):
                _update_pose(c, prefix, cut)
        elif el.tag == 'joint':
            _joint(el, prefix, cut)
        elif el.tag == 'gripper' and not _gripper(el, prefix, cut):
            continue
        moved = True
        new.append(el)
    return moved


def _frame(parent: etree._Element, new: etree._Element, el: etree._Element,
           child_name: str | None, prefix: str, cut: int) -> bool:
    """Strip a frame's ``attached_to``; make ``__model__`` the new model's own frame.

    Returns whether the frame was consumed (it then is no element of its own).
    """
    attached = el.get('attached_to')
    if attached is None:
        return False
    stripped = _strip(attached, prefix, cut)
    if stripped is not None:
        el.set('attached_to', stripped)
    if child_name != '__model__':
        return False
    new.set('canonical_link', el.get('attached_to', ''))
    pose = el.find('pose')
    parent.remove(el)
    if pose is not None:
        new.append(pose)
    return True


def _joint(el: etree._Element, prefix: str, cut: int) -> None:
    _strip_text(el.find('parent'), prefix, cut)
    _strip_text(el.find('child'), prefix, cut)
    for tag in ('axis', 'axis2'):
        axis = el.find(tag)
        if axis is not None:
            _strip_attr(axis.find('xyz'), 'expressed_in', prefix, cut)
    for sensor in el.iterchildren('sensor'):
        _update_pose(sensor, prefix, cut)


def _gripper(el: etree._Element, prefix: str, cut: int) -> bool:
    """Strip a gripper's links; False (stays in the parent) if one lacks the prefix."""
    for link in el.iterchildren('gripper_link'):
        if link.text is None:
            continue
        stripped = _strip(link.text.strip(), prefix, cut)
        if stripped is None:
            return False
        link.text = stripped
    _strip_text(el.find('palm_link'), prefix, cut)
    return True
