"""Read the ``<gazebo>`` extension blocks of a URDF the way libsdformat does.

A block without ``reference`` is about the model; with one, about the link
or joint of that name. Inside a block, libsdformat understands a fixed set
of tags (friction ``mu1``/``mu2``, contact ``kp``/``kd``, ``turnGravityOff``,
``selfCollide``, joint ``stopCfm``/``stopErp``, the lumping switches...);
every other child is a *blob* copied as it is into the element the block
is about (a ``<sensor>`` into the link, a ``<plugin>`` into the model).
``<visual>`` and ``<collision>`` children hold blobs for every visual or
collision of the link.

Values are read as libsdformat reads them: the ``value`` attribute if
there is one, else the text; numbers with ``std::stod`` (a valid prefix
is enough); booleans true for ``true``/``yes``/``1``. Within one block
the last occurrence of a tag wins.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from lxml import etree

from sdf_tools.model import Extra
from sdf_tools.model.common import Loc
from sdf_tools.transform import IDENTITY, Transform
from sdf_tools.urdf.conversion import LUMPING_SWITCHES
from sdf_tools.xmlsafe import line_of, parse_kept

#: Tags libsdformat reads for links (and their visuals/collisions).
LINK_TAGS = ('material', 'collision', 'visual', 'turnGravityOff', 'dampingFactor', 'maxVel',
             'minDepth', 'mu1', 'mu2', 'fdir1', 'kp', 'kd', 'selfCollide', 'maxContacts',
             'laserRetro')
#: Tags libsdformat reads for joints.
JOINT_TAGS = ('springReference', 'springStiffness', 'stopCfm', 'stopErp', 'fudgeFactor',
              'provideFeedback', 'implicitSpringDamper', 'cfmDamping', *LUMPING_SWITCHES)
#: Tags libsdformat reads for the model (blocks without reference).
MODEL_TAGS = ('static',)
#: Read and then ignored by libsdformat.
IGNORED_TAGS = ('canonicalBody',)
PARSED_TAGS = frozenset(LINK_TAGS + JOINT_TAGS + MODEL_TAGS + IGNORED_TAGS)

_NUMBER = re.compile(r'\s*([+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan))',
                     re.IGNORECASE)
_INTEGER = re.compile(r'\s*([+-]?\d+)')
_BOOL_TAGS = ('selfCollide', 'provideFeedback', 'implicitSpringDamper', 'cfmDamping', 'static',
              *LUMPING_SWITCHES)
_STRING_TAGS = ('material', 'fdir1')


@dataclass
class TagValue:
    """One parsed tag: its value and where it was written."""

    tag: str
    value: float | bool | str
    line: int | None


@dataclass
class GazeboBlock:
    """One ``<gazebo>`` element, split as libsdformat splits it.

    ``old_link`` is the reference as written (libsdformat's
    ``oldLinkName``): after the block moves to the link a lumped link was
    merged into, it still names the lumped link, which decides which
    visuals and collisions its blobs go to. ``reduction`` is the pose of
    the lumped link in the link the block now belongs to.
    """

    reference: str
    loc: Loc | None
    values: dict[str, TagValue] = field(default_factory=dict)
    blobs: list[etree._Element] = field(default_factory=list)
    visual_blobs: list[etree._Element] = field(default_factory=list)
    collision_blobs: list[etree._Element] = field(default_factory=list)
    problems: list[TagValue] = field(default_factory=list)  # unreadable values
    reduction: Transform = IDENTITY

    @property
    def old_link(self) -> str:
        return self.reference

    def line_of(self, el: etree._Element) -> int | None:
        """Return the line of ``el`` (parsed from this block's text) in the source file."""
        base = self.loc.line if self.loc is not None else None
        line = line_of(el)
        if base is None or line is None:
            return base
        return base + line - 1

    def has(self, tag: str) -> bool:
        return tag in self.values

    def get(self, tag: str) -> float | bool | str | None:
        v = self.values.get(tag)
        return None if v is None else v.value


def key_value(el: etree._Element) -> str:
    """Return ``value=`` or the text of ``el``, trimmed (libsdformat's GetKeyValueAsString)."""
    value = el.get('value')
    if value is None:
        value = el.text or ''
    return value.strip()


def parse_number(text: str, integer: bool = False) -> float | None:
    """Read a number as ``std::stod`` (or ``std::stoi``) does; None when it throws."""
    m = (_INTEGER if integer else _NUMBER).match(text)
    if m is None:
        return None
    try:
        value = float(m.group(1))
    except ValueError:
        return None
    return float(int(value)) if integer and math.isfinite(value) else value


def _parse_value(tag: str, text: str) -> float | bool | str | None:
    if tag in _BOOL_TAGS:
        return text.lower() in ('true', 'yes') or text == '1'
    if tag == 'turnGravityOff':
        # The link's gravity: off unless the value says false.
        return text.lower() in ('false', 'no') or text == '0'
    if tag in _STRING_TAGS or tag in IGNORED_TAGS:
        return text
    return parse_number(text, integer=tag == 'maxContacts')


def parse_block(extra: Extra) -> GazeboBlock | None:
    """Split one ``<gazebo>`` element; None when its text is not XML (never expected)."""
    try:
        el = parse_kept(extra.xml)
    except etree.XMLSyntaxError:
        return None
    block = GazeboBlock(el.get('reference', ''), extra.loc)
    for c in el.iterchildren(etree.Element):
        tag = str(c.tag)
        if tag in ('collision', 'visual'):
            target = block.collision_blobs if tag == 'collision' else block.visual_blobs
            target.extend(x for x in c.iterchildren(etree.Element))
            continue
        if tag not in PARSED_TAGS:
            block.blobs.append(c)
            continue
        value = _parse_value(tag, key_value(c))
        item = TagValue(tag, value if value is not None else key_value(c), block.line_of(c))
        key = 'implicitSpringDamper' if tag == 'cfmDamping' else tag  # one setting, two names
        if value is None:
            block.problems.append(item)
        elif not (key in LUMPING_SWITCHES and block.get(key) is True):
            block.values[key] = item  # a switch once on stays on, as in libsdformat
    return block


def parse_blocks(extras: list[Extra]) -> list[GazeboBlock]:
    """Return the model's ``<gazebo>`` blocks in document order."""
    blocks = [parse_block(e) for e in extras if e.tag == 'gazebo']
    return [b for b in blocks if b is not None]
