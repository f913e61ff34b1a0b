"""Small records shared by every element: source location, raw pose, extras."""
from __future__ import annotations

from dataclasses import dataclass

from sdf_tools.records import fields_eq, fields_repr
from sdf_tools.transform import IDENTITY, Transform


# Loc and RawPose are not ``frozen``: a frozen dataclass sets each field through
# object.__setattr__, which makes it three times slower to build, and the reader
# builds one per element (135,000 in a 10,000-link world). Treat them as
# immutable all the same (``dataclasses.replace`` to change one); their __hash__
# keeps them hashable as the frozen versions were. Their methods are written out
# (sdf_tools/records.py says why).
@dataclass(slots=True, init=False, repr=False, eq=False)
class Loc:
    """Where an element was written: file, line and an XPath-like path."""

    file: str | None = None
    line: int | None = None
    xml_path: str | None = None

    # Written out (dataclass keeps a class's own __init__), as in RawPose: the same in
    # Python, and compiled by mypyc (sdf_tools/_native.py) it is native code, 0.09 against
    # 0.14 us (RawPose: 0.11 against 0.20 us) with the generated one, which stays
    # interpreted there (bench/PROFILE.md).
    def __init__(self, file: str | None = None, line: int | None = None,
                 xml_path: str | None = None) -> None:
        self.file = file
        self.line = line
        self.xml_path = xml_path

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)

    def __hash__(self) -> int:
        return hash((self.file, self.line, self.xml_path))


@dataclass(slots=True, init=False, repr=False, eq=False)
class RawPose:
    """A ``<pose>`` as written, with its numbers already turned into a transform.

    ``relative_to`` is the name written in the file ('' when absent); which
    frame an empty name means depends on the element and is decided by the
    frame graph, as the spec says.
    """

    value: Transform = IDENTITY
    relative_to: str = ''
    text: str = ''
    rotation_format: str = 'euler_rpy'
    degrees: bool = False
    loc: Loc | None = None

    def __init__(self, value: Transform = IDENTITY, relative_to: str = '', text: str = '',
                 rotation_format: str = 'euler_rpy', degrees: bool = False,
                 loc: Loc | None = None) -> None:
        self.value = value
        self.relative_to = relative_to
        self.text = text
        self.rotation_format = rotation_format
        self.degrees = degrees
        self.loc = loc

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)

    def __hash__(self) -> int:
        return hash((self.value, self.relative_to, self.text, self.rotation_format,
                     self.degrees, self.loc))


@dataclass(frozen=True, init=False, repr=False, eq=False)
class Extra:
    """An element we do not model (plugin body, custom namespace, unknown tag).

    Kept verbatim as XML text, as libsdformat keeps unknown elements.
    """

    tag: str
    xml: str
    loc: Loc | None = None

    def __init__(self, tag: str, xml: str, loc: Loc | None = None) -> None:
        # As a frozen dataclass's generated __init__ sets them.
        object.__setattr__(self, 'tag', tag)
        object.__setattr__(self, 'xml', xml)
        object.__setattr__(self, 'loc', loc)

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)

    def __hash__(self) -> int:
        return hash((self.tag, self.xml, self.loc))

    def __reduce__(self) -> tuple[type[Extra], tuple[str, str, Loc | None]]:
        # copy, deepcopy and pickle rebuild it through the constructor: a frozen class
        # compiled by mypyc (sdf_tools/_native.py) refuses the attribute-by-attribute way.
        return (Extra, (self.tag, self.xml, self.loc))
