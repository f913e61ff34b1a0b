"""Hypothesis strategies that break a valid document against the SDFormat spec, once.

:func:`spec_mutated_documents` draws a valid document (``generators.documents_for_version``,
SDFormat 1.6-1.9, which libsdformat 12 reads with its own spec) and applies one
:data:`SPEC_RULES` mutation, chosen among the elements of that document with the
spec table (``sdf_tools.sdf.spec``):

* ``bad_value``: the text of a typed element replaced by one its type refuses in
  libsdformat (a letter for a number, two numbers for a vector, ``yes`` for a bool,
  five numbers for a pose); libsdformat then fails the file.
* ``missing_required``: a required child (``required="1"``) removed; libsdformat fills
  in its default, except in a non-ball joint, where it refuses the file.
* ``unknown_element`` / ``unknown_attribute``: something the spec does not know added;
  libsdformat copies it and reads the file.
* ``custom_element``: an element and an attribute with a namespace prefix never
  declared; libsdformat copies them and reads the file.

The :class:`SpecMutation` says where (the line, after the mutation) and what our
reader must report there. libsdformat's verdict is not assumed: the test asks the probe.
"""
from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st
from lxml import etree

from differential.generators import documents_for_version
from sdf_tools.sdf.spec import ElementSpec, spec_for

__all__ = ['SPEC_RULES', 'SpecMutation', 'spec_mutated_documents']

SPEC_RULES = ('bad_value', 'missing_required', 'unknown_element', 'unknown_attribute',
              'custom_element')
VERSIONS = ('1.6', '1.7', '1.8', '1.9')

# Texts each type refuses in libsdformat 12 and in our reader alike (none of them is a
# lenient prefix parse: ``2kg`` is read as 2 by libsdformat and refused by us on purpose).
_BAD = {
    'double': ('abc', '-', 'x1', '.', 'e5'),
    'float': ('abc', '-'),
    'int': ('abc', 'x'),
    'unsigned int': ('abc', 'x'),
    'bool': ('yes', '2', 'on', 'truth'),
    'vector3': ('1 2', 'a b c', '1 2 inf', '1,2,3'),
    'vector2d': ('1', 'a b'),
    'pose': ('1 2 3', '0 0 0 0 0', '0 0 0 0 0 nan', 'a b c d e f'),
    'color': ('1 0', '1 0 2', 'red'),
}


@dataclass(frozen=True)
class SpecMutation:
    """A generated document with one spec rule broken.

    Attributes:
        xml: the file's text.
        version: the ``<sdf version>``.
        rule: the rule broken (one of SPEC_RULES).
        code: the code of our diagnostic for it.
        line: the line it must be on.
        what: the tag (and text) mutated, for messages.
    """

    xml: str
    version: str
    rule: str
    code: str
    line: int
    what: str


def _walk(el: etree._Element, spec: ElementSpec,
          out: list[tuple[etree._Element, ElementSpec]]) -> None:
    out.append((el, spec))
    for c in el:
        cs = spec.children.get(c.tag) if isinstance(c.tag, str) else None
        if cs is not None and not cs.copy_data:
            _walk(c, cs, out)


def _elements(root: etree._Element, version: str) -> list[tuple[etree._Element, ElementSpec]]:
    out: list[tuple[etree._Element, ElementSpec]] = []
    _walk(root, spec_for(version), out)
    return out


def _joint_needs(el: etree._Element) -> bool:
    """Removing a required child of this element makes libsdformat refuse the file."""
    return el.tag == 'joint' and (el.get('type') or '') != 'ball'


@st.composite
def spec_mutated_documents(draw: st.DrawFn) -> SpecMutation:
    """Draw a valid document and break one spec rule in it (see the module doc)."""
    version = draw(st.sampled_from(VERSIONS))
    # Unit quaternions only: libsdformat 12 rotates by a non-unit one wrongly (see
    # generators.Document.unit_twin), which is not what these documents test.
    doc = draw(documents_for_version(version).filter(lambda d: d.unit_twin is None))
    root = etree.fromstring(doc.xml.encode())
    rule = draw(st.sampled_from(SPEC_RULES))
    items = _elements(root, version)
    if rule == 'bad_value':
        typed = [(el, s) for el, s in items if s.type in _BAD and not len(el)]
        if not typed:
            rule = 'unknown_element'
        else:
            el, s = draw(st.sampled_from(typed))
            assert s.type is not None
            el.text = draw(st.sampled_from(_BAD[s.type]))
            return _done(doc.xml, root, el, version, rule, 'ELEMENT_INVALID', f'<{el.tag}>{el.text}')
    if rule == 'missing_required':
        removable = [(el, c) for el, s in items for c in el
                     if isinstance(c.tag, str) and s.children.get(c.tag) is not None
                     and s.children[c.tag].required == '1'
                     and sum(1 for x in el if x.tag == c.tag) == 1]
        if removable:
            parent, c = draw(st.sampled_from(removable))
            parent.remove(c)
            code = 'ELEMENT_MISSING' if _joint_needs(parent) else 'DEFAULT_ASSUMED'
            return _done(doc.xml, root, parent, version, rule, code, f'<{parent.tag}> without <{c.tag}>')
        rule = 'unknown_element'
    el, _ = draw(st.sampled_from(items))
    if rule == 'unknown_attribute':
        el.set('zz_unknown', '1')
        return _done(doc.xml, root, el, version, rule, 'ATTRIBUTE_INCORRECT_TYPE', f'<{el.tag} zz_unknown>')
    if rule == 'custom_element':
        # An undeclared prefix cannot be built with lxml: a placeholder, renamed in the text.
        extra = etree.SubElement(el, 'zzcustomzz')
        extra.text = '1'
        extra.set('zzattrzz', '1')
        return _done(doc.xml, root, extra, version, rule, 'XML_MALFORMED_TOLERATED', f'<x:custom> in <{el.tag}>')
    extra = etree.SubElement(el, 'zz_unknown')
    extra.text = '1'
    return _done(doc.xml, root, extra, version, 'unknown_element', 'ELEMENT_INCORRECT_TYPE',
                 f'<zz_unknown> in <{el.tag}>')


def _done(original: str, root: etree._Element, el: etree._Element, version: str, rule: str,
          code: str, what: str) -> SpecMutation:
    """Serialise, and find the line of ``el`` in the text written."""
    path = root.getroottree().getpath(el)
    text = etree.tostring(root, encoding='unicode')
    text = text.replace('<zzcustomzz zzattrzz="1">', '<x:custom y:flag="1">').replace(
        '</zzcustomzz>', '</x:custom>')
    head = original[:original.index('<sdf')]
    xml = head + text + '\n'
    parsed = etree.fromstring(xml.replace('x:custom', 'zzcustomzz').replace('y:flag', 'zzattrzz')
                              .encode())
    found = parsed.getroottree().xpath(path)
    line = found[0].sourceline if found else 0  # type: ignore[index,union-attr]
    return SpecMutation(xml, version, rule, code, int(line or 0), what)
