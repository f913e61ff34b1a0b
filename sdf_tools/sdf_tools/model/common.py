"""Small records shared by every element: source location, raw pose, extras."""
from __future__ import annotations

from dataclasses import dataclass

from sdf_tools.transform import IDENTITY, Transform


# Loc and RawPose are not ``frozen``: a frozen dataclass sets each field through
# object.__setattr__, which makes it three times slower to build, and the reader
# builds one per element (135,000 in a 10,000-link world). Treat them as
# immutable all the same (``dataclasses.replace`` to change one); unsafe_hash
# keeps them hashable as the frozen versions were.
@dataclass(slots=True, unsafe_hash=True)
class Loc:
    """Where an element was written: file, line and an XPath-like path."""

    file: str | None = None
    line: int | None = None
    xml_path: str | None = None


@dataclass(slots=True, unsafe_hash=True)
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


@dataclass(frozen=True)
class Extra:
    """An element we do not model (plugin body, custom namespace, unknown tag).

    Kept verbatim as XML text, as libsdformat keeps unknown elements.
    """

    tag: str
    xml: str
    loc: Loc | None = None
