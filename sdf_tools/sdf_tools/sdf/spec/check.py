"""Check a document against the spec the way libsdformat 12's ``readXml`` does.

For every element met (``parser.cc``):

* each attribute is parsed by its spec type; one that does not parse is
  ``ATTRIBUTE_INVALID`` and the element fails; a required one that is missing is
  ``ATTRIBUTE_MISSING`` and the element fails; one the spec does not know is a warning
  (``ATTRIBUTE_INCORRECT_TYPE``, as libsdformat words it) and kept;
* the element's own value is parsed by its type (``spec/values.py``); a value that does
  not parse makes the element fail;
* a child the spec does not know is a warning (``ELEMENT_INCORRECT_TYPE``) and kept
  verbatim; ``ns:``-prefixed elements and attributes are custom and kept silently;
  children of a ``copy_data`` element (``<plugin>``) are not checked;
* a required child (``1``/``+``) that is missing is added with its defaults
  (``DEFAULT_ASSUMED`` here; libsdformat says nothing), except in a non-ball joint,
  where libsdformat refuses it (``joint.py`` reports that ``ELEMENT_MISSING``), and
  except the ``<limit>`` of a joint whose motion it bounds (``joint.py`` says what
  libsdformat assumes there, in the one line about it).

An element that fails is ``ELEMENT_INVALID`` "Error reading element <tag>", and so is
every ancestor up to the root, and then the file fails to load (``FILE_READ``).
libsdformat stops at the first failure; we go on and report every one, each
ancestor once.
"""
from __future__ import annotations

import re

from lxml import etree

from sdf_tools import gazebo
from sdf_tools.errors import Diagnostic, ErrorCode, Severity
from sdf_tools.sdf.context import ReadContext
from sdf_tools.sdf.joint import LIMITED_TYPES
from sdf_tools.sdf.spec import SPEC_VERSIONS, ElementSpec, spec_for, spec_read_as
from sdf_tools.sdf.spec.values import pose_ok, scalar, strtod, value_ok
from sdf_tools.sdf.values import kids as child_nodes
from sdf_tools.xmlsafe import line_of

_Element = etree._Element
_REQUIRED = ('1', '+')
_SCALAR_TYPES = frozenset(('int', 'unsigned int', 'double', 'float', 'bool'))


def _plain_floats(text: str, count: int) -> bool:
    """Whether ``text`` is ``count`` finite numbers ``float()`` and ``std::stod`` agree on.

    The fast path: what ``float()`` accepts and is finite and non-zero (or an
    all-zero literal) and plain ASCII without ``_`` reads the same with ``stod``;
    anything else goes to the exact rules in ``spec/values.py``.
    """
    toks = text.split()
    if len(toks) != count or not text.isascii() or '_' in text:
        return False
    try:
        total = 0.0
        for tok in toks:
            v = float(tok)
            if v == 0.0 and tok.strip('+-0.') != '':
                return False  # maybe an underflow: ask strtod
            total += v
    except ValueError:
        return False
    return total - total == 0.0


_MAX_VERDICTS = 20_000

# Plain values judged in bulk (check()): how many numbers each holds.
_BATCHES = {'double': 1, 'vector3': 3, 'pose': 6, 'pose7': 7}
_NO_BATCHES: dict[str, str] = {}
_MISSING_TEXT: dict[tuple[int, tuple[str, ...]], str] = {}
# The one attribute a plain value may carry (a pose's frame: any name, nothing to parse).
_RELATIVE_TO = ['relative_to']
_NUMERIC = b'0123456789.+-eE \t\n\r\x00'
# Compiled on first use (re's cache keeps it): most files have no exponent (bench/PROFILE.md,
# session 10: compiling patterns at import is start-up time).
_BIG_EXPONENT = r'[eE][+-]?[0-9]{3}'


def _batch_ok(width: int, texts: list[str]) -> bool:
    """Whether every text is ``width`` plain finite numbers (C-level loops only).

    A token made of digits, point, sign and exponent that ``float()`` reads, at most
    30 characters long with an exponent of at most two digits, is read whole and
    finite by ``std::stod`` and by C++ stream extraction alike. False sends the
    texts to the exact rules, one at a time.
    """
    n = len(texts)
    joined = ' \x00 '.join(texts) + ' \x00'
    # Bytes: deleting the allowed characters is a table lookup per byte (3x str.translate).
    if not joined.isascii() or joined.encode().translate(None, _NUMERIC):
        return False
    if ('e' in joined or 'E' in joined) and re.search(_BIG_EXPONENT, joined):
        return False  # the regular expression only when an exponent may be there (memchr)
    toks = joined.split()
    if len(toks) != (width + 1) * n or toks[width::width + 1].count('\x00') != n:
        return False
    del toks[width::width + 1]
    if max(map(len, toks)) > 30:
        return False
    try:
        total = sum(map(float, toks))
    except ValueError:
        return False
    return total - total == 0.0


def _evaluate(spec: ElementSpec, text: str | None) -> bool:
    """Judge the text of a value of ``spec`` (no attributes involved) and remember it."""
    typ = spec.type
    assert typ is not None
    t = (text or '').strip()
    if not t:
        return not spec.value_required
    if typ == 'string' or typ == 'char':
        good = True
    elif typ == 'double' and _plain_floats(t, 1):
        good = _within(float(t), spec.bounds)
    elif typ == 'pose':
        good = _plain_floats(t, 6) or pose_ok(t, 'euler_rpy', False)
    elif typ == 'vector3' and _plain_floats(t, 3):
        good = True
    elif typ in _SCALAR_TYPES:
        v = scalar(typ, t)
        good = v is not None and _within(v, spec.bounds)
    else:
        good = value_ok(typ, t)
    if text is not None and len(spec.verdicts) < _MAX_VERDICTS:
        spec.verdicts[text] = good
    return good


# Verdicts on (type, text) pairs: pure, so shared by every file read in this process.
_CACHE: dict[tuple[str, str], bool] = {}


def check_root(ctx: ReadContext, root: _Element) -> bool:
    """Check a whole ``<sdf>`` document; on failure add libsdformat's last two errors.

    World models already checked while the file was parsed are in
    ``ctx.spec_checked`` and are not walked again.
    """
    ok = SpecChecker(ctx).check(root, spec_for_version(ctx.version))
    if not ok:
        ctx.error(ErrorCode.ELEMENT_INVALID, f'Error reading element <{root.tag}>', root)
        ctx.diagnostics.append(Diagnostic(ErrorCode.FILE_READ,
                                          f'Unable to read file: {ctx.file or "<string>"}', ctx.file))
    return ok


def check_world_model(ctx: ReadContext, el: _Element) -> None:
    """Check a model of a top-level world before the streaming reader drops its subtree."""
    spec = spec_for_version(ctx.version).children['world'].children['model']
    ok = SpecChecker(ctx).check(el, spec)
    if not ok:
        ctx.error(ErrorCode.ELEMENT_INVALID, f'Error reading element <{el.tag}>', el)
    ctx.spec_checked[el] = ok


def spec_for_version(version: str) -> ElementSpec:
    """The spec a file of ``version`` is checked against by the target's libsdformat.

    libsdformat converts every file to the newest version it knows and checks it against
    that version's description (``readDoc``), so Harmonic checks a 1.9 file against 1.11
    (a ``<cone>`` is known, a ``<plugin>`` needs no name, a ``<limit>`` is -inf..inf) and
    Fortress against 1.9 (spec/__init__.py :func:`spec_read_as`). A version we do not know
    is checked against the newest we do.
    """
    v = version.strip()
    target = gazebo.current()
    if v not in SPEC_VERSIONS:
        return spec_for(SPEC_VERSIONS[-1])
    return spec_read_as(v, target.spec, target.libsdformat)


class SpecChecker:
    """Walk elements with their spec; collect diagnostics in a read context."""

    def __init__(self, ctx: ReadContext) -> None:
        self.ctx = ctx
        self.cache = _CACHE
        # Elements read elsewhere (world models pre-read while parsing) and whether they failed.
        self.skip: dict[_Element, bool] = ctx.spec_checked
        # Why an element failed, added to the "Error reading element" of that element.
        self.reasons: dict[_Element, str] = {}
        # Texts of plain values waiting for their batch verdict (see check()).
        self.batches: dict[str, list[str]] | None = None

    def check(self, el: _Element, spec: ElementSpec) -> bool:
        """Check ``el`` and its subtree; False when it fails (the caller reports it).

        Plain values (doubles, poses, vectors) are judged in batches, one regular
        expression over all their texts; if any batch fails, the subtree is checked
        again one value at a time, which finds the culprits and reports them.
        """
        mark = len(self.ctx.diagnostics)
        self.batches = {kind: [] for kind in _BATCHES}
        try:
            ok = self.element(el, spec)
            batches = self.batches
        finally:
            self.batches = None
        if all(_batch_ok(_BATCHES[kind], texts) for kind, texts in batches.items() if texts):
            return ok
        del self.ctx.diagnostics[mark:]
        self.reasons.clear()
        return self.element(el, spec)

    def element(self, el: _Element, spec: ElementSpec) -> bool:
        """Check ``el`` and its subtree; False when it fails (the caller reports it)."""
        ok = True
        keys = el.keys()
        if keys:
            if spec.plain_attributes.issuperset(keys):
                for key in spec.required_attributes:  # present, and not empty
                    value = el.get(key)
                    if value is None or not value.strip():
                        ok = self._attributes(el, spec)
                        break
            else:
                ok = self._attributes(el, spec)
        elif spec.required_attributes:
            ok = self._attributes(el, spec)
        if spec.type is not None:
            text = el.text
            if spec.type == 'pose' and keys:
                good = self._pose(el, spec, text)
            else:
                hit = spec.verdicts.get(text) if text is not None else None
                good = _evaluate(spec, text) if hit is None else hit
            if not good:
                ok = self._bad_value(el, spec, text)
        if spec.copy_data or not len(el):
            return self._missing(el, spec, set()) and ok if spec.required_children else ok
        kids = spec.children
        batches = self.batches
        plain = spec.leaf_batches if batches is not None else _NO_BATCHES
        seen: set[str] | None = set() if spec.required_children else None
        for c in child_nodes(el):
            tag = c.tag
            kind = plain.get(tag)  # a comment's tag is a function: no match
            if kind is not None and not len(c) and (
                    not c.keys() or (kind == 'pose' and c.keys() == _RELATIVE_TO
                                     and 'relative_to' in kids[tag].attributes)):
                text = c.text
                if text is not None:
                    # The commonest case: a plain value, judged with its batch in check().
                    batches[kind].append(text)  # type: ignore[index]
                    if seen is not None and tag in spec.required_tags:
                        seen.add(tag)
                    continue
            if type(tag) is not str:
                continue  # comment or processing instruction
            cs = kids.get(tag)
            if cs is None:
                # ns:tag is custom and copied silently; lxml spells a declared prefix's
                # element {uri}tag, whose URI need not hold a colon (custom_ns_uri)
                if tag[0] != '{' and ':' not in tag and tag != 'include':
                    self._unknown(c, el)
                continue
            if seen is not None and cs.required in _REQUIRED:
                seen.add(tag)
            if cs.leaf and not c.keys() and not len(c):
                # The common case, inline: a value element without attributes.
                text = c.text
                if cs.batch is not None and batches is not None and text is not None:
                    batches[cs.batch].append(text)  # judged all at once in check()
                    continue
                hit = cs.verdicts.get(text) if text is not None else None
                good = _evaluate(cs, text) if hit is None else hit
                if not good:
                    self._bad_value(c, cs, text)
                    self._fail(c)
                    ok = False
                continue
            if cs.required == '-1':
                self.ctx.warn(ErrorCode.ELEMENT_DEPRECATED, f'SDF Element[{tag}] is deprecated', c)
            skipped = self.skip.get(c) if self.skip else None
            if skipped is not None:
                ok = ok and skipped
            elif not self.element(c, cs):
                self._fail(c)
                # libsdformat checks an <include> aside (validateIncludeElement): its
                # error is reported, and its parent goes on.
                ok = ok and tag == 'include'
        if seen is not None and len(seen) < len(spec.required_children):
            ok = self._missing(el, spec, seen) and ok
        return ok

    def _fail(self, c: _Element) -> None:
        why = self.reasons.pop(c, '')
        self.ctx.error(ErrorCode.ELEMENT_INVALID, f'Error reading element <{c.tag}>{why}', c)

    def _pose(self, el: _Element, spec: ElementSpec, text: str | None) -> bool:
        """A pose with attributes: ``rotation_format`` and ``degrees`` change what it holds."""
        fmt, degrees = 'euler_rpy', False
        if 'rotation_format' in spec.attributes or 'degrees' in spec.attributes:
            fmt = (el.get('rotation_format') or 'euler_rpy').strip()
            degrees = scalar('bool', (el.get('degrees') or 'false').strip().lower()) == 1
        batches = self.batches
        if batches is not None and text is not None and spec.batch is not None:
            # Plain numbers, judged in the batch of their count.
            if fmt == 'euler_rpy':
                batches['pose'].append(text)
                return True
            if fmt == 'quat_xyzw' and not degrees:
                batches['pose7'].append(text)
                return True
        t = (text or '').strip()
        if not t:
            return pose_ok('', fmt, degrees) and not spec.value_required
        key = (f'pose:{fmt}:{degrees}', t)
        hit = self.cache.get(key)
        if hit is None:
            count = 7 if fmt == 'quat_xyzw' else 6
            plain = fmt == 'euler_rpy' or (fmt == 'quat_xyzw' and not degrees)
            hit = (plain and _plain_floats(t, count)) or pose_ok(t, fmt, degrees)
            if len(self.cache) < _MAX_VERDICTS:
                self.cache[key] = hit
        return hit

    def _bad_value(self, el: _Element, spec: ElementSpec, text: str | None) -> bool:
        shown = (text or '').strip()
        self.reasons[el] = f': the value [{shown}] is not a valid {spec.type}{_bounds_text(spec)}'
        return False

    def _attributes(self, el: _Element, spec: ElementSpec) -> bool:
        ok = True
        known = spec.attributes
        items: list[tuple[str, str]] = el.items()  # type: ignore[assignment]  # str in practice
        for key, raw in items:
            if ':' in key or key[0] == '{':
                # a custom (namespaced) attribute: copied, not checked -- but libsdformat 12
                # adds it as required, so an empty one is refused (14.3+ not, #1407)
                if not raw.strip() and gazebo.current().libsdformat < 14:
                    shown = _custom_name(el, key)
                    self.ctx.error(ErrorCode.ATTRIBUTE_MISSING, f'Required attribute[{shown}] in '
                                   f'element[{el.tag}] is not specified in SDF.', el)
                    ok = False
                continue
            a = known.get(key)
            if a is None:
                self.ctx.warn(ErrorCode.ATTRIBUTE_INCORRECT_TYPE,
                              f'XML Attribute[{key}] in element[{el.tag}] not defined in SDF.', el)
                continue
            text = raw.strip()
            if (not text and a.required) or (text and not _attribute_ok(a.type, text)):
                self.ctx.error(ErrorCode.ATTRIBUTE_INVALID, f'Unable to read attribute[{key}]', el)
                ok = False
        for key in spec.required_attributes:
            if el.get(key) is None:
                self.ctx.error(ErrorCode.ATTRIBUTE_MISSING,
                               f'Required attribute[{key}] in element[{el.tag}] is not specified in SDF.',
                               el)
                ok = False
        return ok

    def _unknown(self, c: _Element, parent: _Element) -> None:
        self.ctx.warn(ErrorCode.ELEMENT_INCORRECT_TYPE,
                      f'XML Element[{c.tag}], child of element[{parent.tag}], not defined in SDF. '
                      f'Copying[{c.tag}] as children of [{parent.tag}].', c)

    def _missing(self, el: _Element, spec: ElementSpec, seen: set[str]) -> bool:
        """Required children that are absent: defaults, or a refusal in a non-ball joint."""
        missing = [cs for cs in spec.required_children if cs.name not in seen and cs.name != 'include'
                   and not (cs.name == 'limit' and _limit_said_by_joint(el, spec))]
        if not missing:
            return True
        if spec.name == 'joint':
            # joint.py reports libsdformat's ELEMENT_MISSING (or the ball joint's default).
            return (el.get('type') or '').strip() == 'ball'
        # The defaults are the table's, the target's newest (libsdformat 13+ says -inf/inf
        # for a <limit>'s bounds where a 1.9 table says -1e16/1e16: spec_for_version).
        key = (id(spec), tuple(cs.name for cs in missing))
        message = _MISSING_TEXT.get(key)
        if message is None:
            said = ', '.join(cs.name + (f' [{cs.default}]' if cs.default is not None else '')
                             for cs in missing)
            message = _MISSING_TEXT[key] = (
                f'XML Missing required element{"s" if len(missing) > 1 else ""} of '
                f'element[{el.tag}]: libsdformat adds {said} with the spec defaults')
        # Frequent (every <dynamics> without springs): no XML path, the line says where.
        self.ctx.diagnostics.append(Diagnostic(ErrorCode.DEFAULT_ASSUMED, message, self.ctx.file,
                                               line_of(el), None, Severity.WARNING))
        return True


def _limit_said_by_joint(el: _Element, spec: ElementSpec) -> bool:
    """Whether ``joint.py`` reports this axis's missing ``<limit>`` (one fact, one line)."""
    joint = el.getparent()
    return (spec.name in ('axis', 'axis2') and joint is not None
            and (joint.get('type') or '').strip() in LIMITED_TYPES)


def _custom_name(el: _Element, key: str) -> str:
    """A namespaced attribute as written (``foo:note``), not as lxml keys it."""
    if key[0] != '{':
        return key
    uri, local = key[1:].split('}', 1)
    prefix = next((p for p, u in el.nsmap.items() if u == uri and p), None)
    return f'{prefix}:{local}' if prefix else local


def _within(v: float, bounds: tuple[float | None, float | None] | None) -> bool:
    if bounds is None:
        return True
    lo, hi = bounds
    return not ((lo is not None and v < lo) or (hi is not None and v > hi))


def _bounds_text(spec: ElementSpec) -> str:
    if spec.bounds is None:
        return ''
    lo, hi = spec.bounds
    return f' in [{"-inf" if lo is None else lo}, {"inf" if hi is None else hi}]'


def _attribute_ok(type_name: str, text: str) -> bool:
    if type_name in ('string', 'char'):
        return True
    if type_name == 'double':
        return strtod(text) is not None
    if type_name in _SCALAR_TYPES:
        return scalar(type_name, text) is not None
    if type_name == 'pose':
        return pose_ok(text, 'euler_rpy', False)
    return value_ok(type_name, text)
