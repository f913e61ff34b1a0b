"""``<experimental:params>``: change an included model before it is read.

libsdformat (12 and later, ``src/ParamPassing.cc``) lets an ``<include>`` alter the model
it includes. Each child of ``<experimental:params>`` names an element of the included model
by its tag and ``element_id`` (its scoped name inside the model, ``link::visual``) and an
``action``: ``add`` (a new child, named by ``name``), ``modify`` (attributes and values),
``remove`` or ``replace``; without an ``action`` on it, each of its children carries one.
The changes are made to the included file's XML, which is then read like any file, so
what they produce is checked as everything else. Mistakes in the instructions are
libsdformat's codes, at the line of the instruction; the instruction is skipped.

Example::

    <include>
      <uri>model://arm</uri>
      <experimental:params>
        <visual element_id="base::body" action="modify">
          <geometry><box><size>1 1 1</size></box></geometry>
        </visual>
        <link element_id="base" action="remove"/>  <!-- or: whole elements -->
      </experimental:params>
    </include>
"""
from __future__ import annotations

import copy
import functools
from collections.abc import Callable

from lxml import etree

from sdf_tools.errors import ErrorCode
from sdf_tools.sdf.context import ReadContext
from sdf_tools.sdf.spec import ElementSpec, spec_for

ACTIONS = ('add', 'modify', 'remove', 'replace')
_SPEC_VERSION = '1.9'  # libsdformat 12 applies the changes to the tree converted to 1.9


def _show(el: etree._Element) -> str:
    return etree.tostring(el, encoding='unicode', with_tail=False).strip()


@functools.cache
def _spec_by_tag() -> dict[str, ElementSpec]:
    """The first description of each element name, as ``initFile(<name>.sdf)`` finds it."""
    out: dict[str, ElementSpec] = {}
    todo = [spec_for(_SPEC_VERSION)]
    seen: set[int] = set()
    while todo:
        spec = todo.pop(0)
        if id(spec) in seen:
            continue
        seen.add(id(spec))
        out.setdefault(spec.name, spec)
        todo.extend(spec.children.values())
    return out


def _elements(el: etree._Element) -> list[etree._Element]:
    return [c for c in el if isinstance(c.tag, str)]


def find_by_id(model: etree._Element, tag: str, elem_id: str, *, parent: bool = False
               ) -> etree._Element | None:
    """Return the element of ``model`` with scoped name ``elem_id`` (and ``tag``, unless
    looking for the parent of an element to add, which may be of any tag).

    libsdformat's ``getElementById``, quirks kept: each level takes the child whose name
    is the longest prefix of what is left of the identifier, and a match must end past
    the identifier's first character (a one-letter name at the start is never found).
    """
    kids = _elements(model)
    start = longest = 0
    match: etree._Element | None = None
    i = 0
    while i < len(kids):
        c = kids[i]
        name = c.get('name')
        if name is not None:
            if parent and elem_id == name:
                return c
            stop = start + len(name) - 1 if elem_id[start:start + len(name)] == name else -1
            if stop > longest:
                match = c
                if elem_id[start:] == name and (parent or c.tag == tag):
                    return c
                longest = stop
        i += 1
        if i == len(kids) and match is not None:
            kids, i, match = _elements(match), 0, None
            start = longest
            found = elem_id.find('::', start)
            if found != -1 and found - start == 1:
                start += 3
    return None


def _by_name(parent: etree._Element, xml: etree._Element, *, modify: bool = False
             ) -> etree._Element | None:
    """libsdformat's ``getElementByName``: the child of the same tag (and name, if given)."""
    same = [c for c in _elements(parent) if c.tag == xml.tag]
    if not same:
        return None
    name = xml.get('name')
    if name is None:
        return same[0]
    for c in same:
        if c.get('name') == name:
            return c
    return same[0] if modify else None


def _clean(xml: etree._Element) -> etree._Element:
    """A copy of an instruction as an element: without ``element_id`` and ``action``."""
    out = copy.deepcopy(xml)
    out.tail = None
    for attr in ('element_id', 'action'):
        if attr in out.attrib:
            del out.attrib[attr]
    return out


def _modify_attributes(ctx: ReadContext, xml: etree._Element, el: etree._Element) -> None:
    spec = _spec_by_tag().get(str(el.tag))
    declared = spec.attributes if spec is not None else {}
    for key, value in xml.attrib.items():
        attr = str(key)
        if attr in ('element_id', 'action'):
            continue
        if attr not in el.attrib and attr not in declared and ':' not in attr:
            ctx.error(ErrorCode.ATTRIBUTE_INVALID,
                      f'Attribute [{attr}] is invalid. Skipping attribute modification in:\n'
                      f'{_show(xml)}', xml)
            continue
        try:
            el.set(attr, value)
        except ValueError:  # an undeclared prefix (``custom:x``): lxml cannot hold it
            ctx.warn(ErrorCode.ATTRIBUTE_PREFIX_UNDECLARED,
                     f'custom attribute [{attr}] is not copied into <{el.tag}> (its namespace '
                     'prefix is not declared)', xml)


def _has_text(xml: etree._Element) -> bool:
    return xml.text is not None and bool(xml.text.strip())


def _modify(ctx: ReadContext, xml: etree._Element, el: etree._Element) -> None:
    _modify_attributes(ctx, xml, el)
    if _has_text(xml):
        el.text = xml.text
        return
    for xc in _elements(xml):
        target = _by_name(el, xc, modify=True)
        if target is None:
            ctx.error(ErrorCode.ELEMENT_MISSING,
                      f'Could not find element [{xc.tag}]. Skipping modification for:\n'
                      f'{_show(xml)}', xc)
            continue
        if _has_text(xc):
            target.text = xc.text
            _modify_attributes(ctx, xc, target)
        elif not _elements(xc):
            spec = _spec_by_tag().get(str(target.tag))
            if spec is not None and spec.type is not None:
                target.text = spec.default  # an empty modifier resets the value
                _modify_attributes(ctx, xc, target)
        else:
            _modify(ctx, xc, target)


def _remove(ctx: ReadContext, xml: etree._Element, el: etree._Element, where: str) -> None:
    kids = _elements(xml)
    if not kids:
        parent = el.getparent()
        if parent is not None:
            parent.remove(el)
        return
    for xc in kids:
        target = _by_name(el, xc)
        if target is None:
            ctx.error(ErrorCode.ELEMENT_MISSING,
                      f'Could not find element. Skipping child element removal from {where} '
                      f'with parent <{xml.tag}>:\n{_show(xc)}', xc)
            continue
        el.remove(target)


def _replace(old: etree._Element, new: etree._Element) -> None:
    parent = old.getparent()
    if parent is not None:
        new.tail = old.tail
        parent.replace(old, new)


def _child_actions(ctx: ReadContext, xml: etree._Element, el: etree._Element) -> None:
    """An instruction without ``action``: each of its children carries one."""
    spec = _spec_by_tag().get(str(xml.tag))
    where = f"<{xml.tag} element_id='{xml.get('element_id')}'>"
    if spec is None:
        ctx.error(ErrorCode.ELEMENT_INVALID,
                  f'Element [{xml.tag}] is not a defined SDF element. Skipping element '
                  f'alteration\n: {_show(xml)}', xml)
        return
    for xc in _elements(xml):
        action = xc.get('action')
        if action is None:
            ctx.error(ErrorCode.ATTRIBUTE_MISSING,
                      f'Missing an action attribute. Skipping child element modification with '
                      f'parent {where}:\n{_show(xc)}', xc)
            continue
        if action not in ACTIONS:
            ctx.error(ErrorCode.ATTRIBUTE_INVALID,
                      f'Action [{action}] is not a valid action. Skipping child element '
                      f'modification with parent {where}:\n{_show(xc)}', xc)
            continue
        if action in ('remove', 'modify'):
            target = _by_name(el, xc, modify=action == 'modify')
            if target is None:
                verb = 'removal' if action == 'remove' else 'modification'
                ctx.error(ErrorCode.ELEMENT_MISSING,
                          f'Could not find element. Skipping child element {verb} with '
                          f'parent {where}:\n{_show(xc)}', xc)
            elif action == 'remove':
                _remove(ctx, xc, target, where)
            else:
                _modify(ctx, xc, target)
            continue
        if xc.tag not in spec.children:
            ctx.error(ErrorCode.ELEMENT_INVALID,
                      f'Element [{xc.tag}] is not a defined SDF element or is an invalid child '
                      f'specification. Skipping child element modification with parent '
                      f'{where}:\n{_show(xc)}', xc)
            continue
        if action == 'add':
            el.append(_clean(xc))
            continue
        target = _by_name(el, xc)
        if target is None:
            ctx.error(ErrorCode.ELEMENT_MISSING,
                      f'Could not find element. Skipping child element replacement with '
                      f'parent {where}:\n{_show(xc)}', xc)
        elif target.get('name') is not None and xc.get('name') is None:
            ctx.error(ErrorCode.ATTRIBUTE_MISSING,
                      f"Replacement element is missing a 'name' attribute. Skipping element "
                      f'replacement {where}:\n{_show(xc)}', xc)
        else:
            _replace(target, _clean(xc))


def _add_parent(ctx: ReadContext, xml: etree._Element, model: etree._Element, elem_id: str
                ) -> etree._Element | bool:
    """The parent of an element to add; False when refused (and reported), True: not found."""
    name = xml.get('name')
    if name is None:
        ctx.error(ErrorCode.ATTRIBUTE_MISSING,
                  "Element to be added is missing a 'name' attribute. Skipping element "
                  f'addition:\n{_show(xml)}', xml)
        return False
    if not name:
        ctx.error(ErrorCode.ATTRIBUTE_INVALID,
                  f"The 'name' attribute can not be empty. Skipping element addition:\n"
                  f'{_show(xml)}', xml)
        return False
    existing = find_by_id(model, str(xml.tag), f'{elem_id}::{name}')
    if existing is not None and existing.tag != 'plugin':
        ctx.error(ErrorCode.DUPLICATE_NAME,
                  f"Could not add element <{xml.tag} element_id='{elem_id}'> because element "
                  f'already exists in included model. Skipping element addition:\n'
                  f'{_show(xml)}', xml)
        return False
    found = model if not elem_id else find_by_id(model, '', elem_id, parent=True)
    return True if found is None else found


NameOf = Callable[[etree._Element], 'str | None']


def _scope_of(inc: etree._Element, model: etree._Element, name_of: NameOf) -> str | None:
    """The scoped name an ``<include>`` inside ``model`` gives what it includes."""
    name = name_of(inc)
    if not name:
        return None
    parts = [name]
    node = inc.getparent()
    while node is not None and node is not model:
        owner = node.get('name')
        if owner is None:
            return None
        parts.append(owner)
        node = node.getparent()
    return '::'.join(reversed(parts))


def _forward(params: etree._Element, xml: etree._Element, model: etree._Element, elem_id: str,
             name_of: NameOf) -> bool:
    """Hand an instruction for an element of a nested ``<include>`` on to that include.

    libsdformat applies the instructions to the included tree with its own includes
    already expanded; we read each file on its own, so an instruction aimed inside a
    nested include travels with it (its ``element_id`` made relative to it).
    """
    for inc in model.iter('include'):
        scope = _scope_of(inc, model, name_of)
        if scope is None:
            continue
        if elem_id == scope and xml.get('action') == 'add':
            rest = ''
        elif elem_id.startswith(scope + '::'):
            rest = elem_id[len(scope) + 2:]
        else:
            continue
        target = next((c for c in inc if c.tag == params.tag), None)
        if target is None:
            target = copy.deepcopy(params)  # same (prefixed) tag; emptied below
            for c in list(target):
                target.remove(c)
            inc.append(target)
        fwd = copy.deepcopy(xml)
        fwd.set('element_id', rest)
        target.append(fwd)
        return True
    return False


def apply_params(ctx: ReadContext, params: etree._Element, model: etree._Element,
                 name_of: NameOf | None = None) -> None:
    """Apply each instruction of ``<experimental:params>`` to the included ``model``.

    ``name_of`` names what a nested ``<include>`` of ``model`` includes, so that
    instructions aimed inside it are handed on (see :func:`_forward`).
    """
    for xml in _elements(params):
        elem_id = xml.get('element_id')
        if elem_id is None:
            ctx.error(ErrorCode.ATTRIBUTE_MISSING,
                      'Element identifier requires an element_id attribute, but the element_id '
                      f'is not set. Skipping element alteration:\n{_show(xml)}', xml)
            continue
        if '::' in elem_id and not elem_id.rsplit('::', 1)[1]:
            ctx.error(ErrorCode.ATTRIBUTE_INVALID,
                      'Missing name after double colons in element identifier. Skipping '
                      f'element alteration:\n{_show(xml)}', xml)
            continue
        action = xml.get('action')
        if action is not None and action not in ACTIONS:
            ctx.error(ErrorCode.ATTRIBUTE_INVALID,
                      f'Action [{action}] is not a valid action. Skipping element alteration:'
                      f'\n{_show(xml)}', xml)
            continue
        found = (_add_parent(ctx, xml, model, elem_id) if action == 'add'
                 else find_by_id(model, str(xml.tag), elem_id))
        if found is False:
            continue
        if found is None or found is True:
            if name_of is not None and _forward(params, xml, model, elem_id, name_of):
                continue
            ctx.error(ErrorCode.ELEMENT_MISSING,
                      f"Could not find element <{xml.tag} element_id='{elem_id}'>. "
                      f'Skipping element modification:\n{_show(xml)}', xml)
            continue
        try:
            _apply(ctx, xml, found, action)
        except (ValueError, TypeError) as err:  # an element lxml cannot build
            ctx.error(ErrorCode.ELEMENT_INVALID,
                      f'Unable to apply the element alteration ({err}):\n{_show(xml)}', xml)


def _apply(ctx: ReadContext, xml: etree._Element, el: etree._Element, action: str | None) -> None:
    if action is None:
        _child_actions(ctx, xml, el)
    elif action == 'add':
        if xml.tag not in _spec_by_tag():
            ctx.error(ErrorCode.ELEMENT_INVALID,
                      f'Element [{xml.tag}] is not a defined SDF element. Skipping element '
                      f'alteration\n: {_show(xml)}', xml)
            return
        el.append(_clean(xml))
    elif action == 'modify':
        _modify(ctx, xml, el)
    elif action == 'remove':
        _remove(ctx, xml, el, f"<{xml.tag} element_id='{xml.get('element_id')}'>")
    elif xml.tag not in _spec_by_tag():
        ctx.error(ErrorCode.ELEMENT_INVALID,
                  f'Element [{xml.tag}] is not a defined SDF element. Skipping element '
                  f'alteration\n: {_show(xml)}', xml)
    else:
        _replace(el, _clean(xml))
