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

Where libsdformat asserts that a reference starts with the prefix (and throws: nothing is
loaded), or dereferences an element that is not there (an axis without ``<xyz>``, a
``__model__`` frame without ``<pose>``: libsdformat 12 to 16 crash), the file is refused
with ``ELEMENT_INVALID`` at that element and the reference is left as written. Files older
than 1.7 reach this step after the earlier ones: an axis that 1.6 -> 1.7 puts in the model
frame (``use_parent_model_frame`` true, which 1.4 -> 1.5 adds to every axis of a world
model's joints) arrives with ``expressed_in="__model__"``, which that assertion refuses.
Only models directly in a ``<world>`` are converted (the recipe's scope); included models
are read from their own files, so they are never unflattened.
"""
from __future__ import annotations

from lxml import etree

from sdf_tools.errors import ErrorCode
from sdf_tools.sdf.context import ReadContext
from sdf_tools.sdf.values import kids

__all__ = ['unflatten_world_model']

_FLATTENED = ('frame', 'joint', 'link', 'model', 'gripper')
_THROWS = 'libsdformat stops with an assertion and loads nothing'
_CRASHES = 'libsdformat 12 (and 16) crashes on it'

Problems = list[tuple[etree._Element, str]]
# Values of <use_parent_model_frame> the 1.6 -> 1.7 step turns into expressed_in="__model__".
_PARENT_FRAME_TRUE = ('true', 'True', 'TRUE', '1')


class _Job:
    """One world model's conversion: the file's version and what cannot be converted.

    A plain class, not a dataclass: it is only used here, and a dataclass costs ~2 M
    instructions at every start of the CLI (bench/PROFILE.md, session 9).
    """

    __slots__ = ('problems', 'version')

    def __init__(self, version: tuple[int, int]) -> None:
        self.version = version
        self.problems: Problems = []


def unflatten_world_model(ctx: ReadContext, el: etree._Element, report: bool = True) -> None:
    """Unflatten ``el``, a model of a top-level world, when its file is older than 1.8.

    What libsdformat cannot convert is an error in ``ctx`` unless ``report`` is False:
    whoever makes the spec check of the model reports it, just before the check's own
    diagnostics (the reader, or the spec-check worker when there is one).
    """
    if ctx.version_tuple >= (1, 8):
        return
    job = _Job(ctx.version_tuple)
    _unflatten(el, job, top=True)
    for where, what in job.problems if report else ():
        ctx.error(ErrorCode.ELEMENT_INVALID,
                  f'SDFormat {ctx.version} -> 1.8 conversion of flattened names: {what}', where)


def _elements(el: etree._Element) -> list[etree._Element]:
    return [c for c in kids(el) if isinstance(c.tag, str)]


def _unflatten(el: etree._Element, job: _Job, top: bool) -> None:
    """``Converter::Unflatten`` on ``el``; ``top``: its members were children of the world model."""
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
                _unflatten(child, job, top=False)
                break
            continue
        new = etree.Element('model', name=name[:found])
        if child.sourceline is not None:  # diagnostics about it point at its first member
            new.sourceline = child.sourceline
        if _Mover(el, new, found + 2, job, top).run():
            _unflatten(new, job, top)
            el.append(new)
            children, i = _elements(el), 0  # libsdformat goes back to the first child
            if first_new is None:
                first_new = new


class _Mover:
    """Move the children of ``parent`` that belong to ``new`` (``FindNewModelElements``)."""

    def __init__(self, parent: etree._Element, new: etree._Element, cut: int,
                 job: _Job, top: bool) -> None:
        self.parent, self.new, self.cut = parent, new, cut
        self.problems, self.version, self.top = job.problems, job.version, top
        self.prefix = new.get('name', '')

    def strip(self, el: etree._Element | None, attr: str | None, what: str,
              asserted: bool = True) -> None:
        """Cut the prefix off an attribute (or the text when ``attr`` is None).

        ``asserted``: libsdformat asserts the value starts with the prefix.
        """
        if el is None:
            return
        value = el.get(attr) if attr else (el.text.strip() if el.text else None)
        if value is None:
            return
        if value.startswith(self.prefix):
            if attr:
                el.set(attr, value[self.cut:])
            else:
                el.text = value[self.cut:]
        elif asserted:
            self.problems.append((el, f'{what} [{value}] does not start with [{self.prefix}], '
                                      f'the model it is moved into; {_THROWS}'))

    def strip_pose(self, pose: etree._Element | None, what: str, asserted: bool = True) -> None:
        """Strip a pose's reference: ``relative_to``, or before 1.7 ``frame``.

        1.6 -> 1.7 renames ``//pose/@frame`` to ``relative_to`` before this step; our
        reader reads ``frame`` of such files itself (when there is no ``relative_to``).
        """
        if pose is None:
            return
        attr = 'relative_to'
        if self.version < (1, 7) and not pose.get('relative_to') and pose.get('frame') is not None:
            attr = 'frame'
        self.strip(pose, attr, what, asserted)

    def pose(self, el: etree._Element) -> None:
        """A link child's or joint sensor's pose, and its camera's (``UpdatePose``)."""
        self.strip_pose(el.find('pose'), f'the relative_to of <{el.tag}>')
        camera = el.find('camera')
        if camera is not None:
            self.pose(camera)

    def run(self) -> bool:
        """Move every member; whether any moved."""
        moved = False
        for el in _elements(self.parent):
            name = el.get('name') or ''
            member = bool(name) and name.startswith(self.prefix) and el.tag in _FLATTENED
            if not member and el.tag != 'gripper':
                continue
            child_name = name[self.cut:] if name.startswith(self.prefix) else None
            if child_name is not None:
                el.set('name', child_name)
            self.strip_pose(el.find('pose'), 'relative_to', asserted=False)
            if el.tag == 'frame' and self.frame(el, child_name):
                moved = True
                continue
            if el.tag == 'link':
                for c in _elements(el):
                    self.pose(c)
            elif el.tag == 'joint':
                self.joint(el)
            elif el.tag == 'gripper' and not self.gripper(el):
                continue
            moved = True
            self.new.append(el)
        return moved

    def frame(self, el: etree._Element, child_name: str | None) -> bool:
        """Strip ``attached_to``; make ``__model__`` the new model's own frame (consumed)."""
        if el.get('attached_to') is None:
            return False
        self.strip(el, 'attached_to', 'attached_to of a frame')
        if child_name != '__model__':
            return False
        self.new.set('canonical_link', el.get('attached_to', ''))
        pose = el.find('pose')
        if pose is None:
            self.problems.append((el, f'frame [{self.prefix}::__model__] has no <pose>; {_CRASHES}'))
            return False
        self.parent.remove(el)
        self.new.append(pose)
        return True

    def joint(self, el: etree._Element) -> None:
        self.strip(el.find('parent'), None, "the joint's <parent>")
        self.strip(el.find('child'), None, "the joint's <child>")
        for tag in ('axis', 'axis2'):
            axis = el.find(tag)
            if axis is None:
                continue
            xyz = axis.find('xyz')
            if self.in_model_frame(axis):
                # the earlier steps wrote expressed_in="__model__", which the assertion refuses
                if not '__model__'.startswith(self.prefix):
                    self.problems.append((axis, f'<{tag}> is expressed in the model frame '
                                                f'(SDFormat {self.version[0]}.{self.version[1]}), '
                                                f'outside [{self.prefix}]; {_THROWS}'))
            elif xyz is None:
                self.problems.append((axis, f'<{tag}> has no <xyz>; {_CRASHES}'))
            else:
                self.strip(xyz, 'expressed_in', 'the expressed_in of <xyz>')
        for sensor in el.iterchildren('sensor'):
            self.pose(sensor)

    def in_model_frame(self, axis: etree._Element) -> bool:
        """Whether the steps before 1.7 -> 1.8 gave ``axis`` ``expressed_in="__model__"``.

        1.4 -> 1.5 appends ``<use_parent_model_frame>true`` to the axes of a world model's
        joints; 1.6 -> 1.7 turns the first ``use_parent_model_frame`` that is true into
        ``xyz/@expressed_in="__model__"`` (creating ``<xyz>`` if needed).
        """
        if self.version >= (1, 7):
            return False
        flag = axis.find('use_parent_model_frame')
        if flag is None:
            return self.version < (1, 5) and self.top
        return (flag.text or '') in _PARENT_FRAME_TRUE

    def gripper(self, el: etree._Element) -> bool:
        """Strip a gripper's links; False (it stays in the parent) if one lacks the prefix."""
        for link in el.iterchildren('gripper_link'):
            text = link.text.strip() if link.text else None
            if text is None:
                continue
            if not text.startswith(self.prefix):
                return False
            link.text = text[self.cut:]
        self.strip(el.find('palm_link'), None, "the gripper's <palm_link>")
        return True
