"""What the reader carries while it walks one file: source, version, errors."""
from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from sdf_tools import gazebo
from sdf_tools.errors import Diagnostic, ErrorCode, Severity
from sdf_tools.model import Model
from sdf_tools.model.common import Loc
from sdf_tools.records import fields_eq, fields_repr
from sdf_tools.transform import Transform
from sdf_tools.xmlsafe import line_of

SUPPORTED_VERSIONS = ('1.0', '1.2', '1.3', '1.4', '1.5', '1.6', '1.7', '1.8', '1.9', '1.10', '1.11',
                      '1.12')


def version_tuple(version: str) -> tuple[int, int]:
    """Turn ``'1.6'`` into ``(1, 6)``; unparsable text gives ``(0, 0)``."""
    try:
        major, minor = version.strip().split('.')[:2]
        return int(major), int(minor)
    except ValueError:
        return (0, 0)


def read_as(version: str) -> tuple[int, int]:
    """The version the target's libsdformat reads a file of ``version`` as.

    libsdformat converts a 1.3+ file to the newest version it knows before reading it
    (``readDoc``), so what a newer version added is read in an older file too: Harmonic
    reads a 1.9 file's world joints, nameless plugins and ``<inertial auto>`` as 1.11
    does. What libsdformat keys on the file's own version (``OriginalVersion``: names
    with ``::`` from 1.8, name clashes before 1.7) stays on ``version_tuple``.
    """
    own = version_tuple(version)
    if own < (1, 3):
        return own
    return max(own, version_tuple(gazebo.current().spec))


# ReadContext.__init__'s parameters of the same names hide the two functions there.
_version_tuple = version_tuple
_read_as = read_as


def top_world_model_version(el: etree._Element) -> str | None:
    """The version of the file when ``el`` is a model of a top-level world (else None).

    Only those are read while parsing, and only in a file whose version we know
    (``read_sdf_root`` reports any other).
    """
    world = el.getparent()
    if world is None or world.tag != 'world':
        return None
    root = world.getparent()
    if root is None or root.tag != 'sdf' or root.getparent() is not None:
        return None
    version = root.get('version')
    if version is None or version.strip() not in SUPPORTED_VERSIONS:
        return None
    return version.strip()


@dataclass(init=False, repr=False, eq=False)  # methods written out: sdf_tools/records.py
class ReadContext:
    """State of one file being read (an ``<include>`` gets its own)."""

    file: str | None
    version: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # Files being read, outermost first: an include of one of them is a cycle.
    include_stack: tuple[str, ...] = ()

    # Filled in __post_init__: read for every pose and name, so parse it once.
    version_tuple: tuple[int, int] = (0, 0)
    # The version the target's libsdformat reads it as, after converting it (read_as()).
    read_as: tuple[int, int] = (0, 0)
    # Poses by (text, rotation_format, degrees): real files repeat a few texts
    # ("0 0 0 0 0 0", inertial and visual offsets) thousands of times.
    pose_cache: dict[tuple[str, str, bool], Transform] = field(default_factory=dict)
    # World models read while the file was parsed, with their diagnostics
    # (sdf/stream.py); parse_world takes them from here in document order.
    preread: dict[etree._Element, tuple[Model, list[Diagnostic]]] = field(default_factory=dict)
    # World models checked against the spec while the file was parsed, and whether
    # they passed (sdf/spec/check.py): the whole-document check skips them.
    spec_checked: dict[etree._Element, bool] = field(default_factory=dict)

    def __init__(self, file: str | None, version: str,
                 diagnostics: list[Diagnostic] | None = None,
                 include_stack: tuple[str, ...] = (), version_tuple: tuple[int, int] = (0, 0),
                 read_as: tuple[int, int] = (0, 0),
                 pose_cache: dict[tuple[str, str, bool], Transform] | None = None,
                 preread: dict[etree._Element, tuple[Model, list[Diagnostic]]] | None = None,
                 spec_checked: dict[etree._Element, bool] | None = None) -> None:
        self.file = file
        self.version = version
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.include_stack = include_stack
        self.pose_cache = {} if pose_cache is None else pose_cache
        self.preread = {} if preread is None else preread
        self.spec_checked = {} if spec_checked is None else spec_checked
        # What the generated __init__'s __post_init__ did: the two always follow `version`.
        self.version_tuple = _version_tuple(version)
        self.read_as = _read_as(version)

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)

    def loc(self, el: etree._Element) -> Loc:
        """Return the location of ``el`` in this file."""
        # The XML path is only worth its cost on a diagnostic (see error()).
        return Loc(self.file, el.sourceline)  # type: ignore[arg-type]  # int or None in practice

    def error(self, code: ErrorCode, message: str, el: etree._Element | None) -> None:
        """Record an error at ``el`` (or at the file when ``el`` is None)."""
        line = line_of(el) if el is not None else None
        self.diagnostics.append(Diagnostic(code, message, self.file, line,
                                           _xml_path(el) if el is not None else None))

    def warn(self, code: ErrorCode, message: str, el: etree._Element | None) -> None:
        """Record a warning: an assumption made or something kept as is."""
        line = line_of(el) if el is not None else None
        self.diagnostics.append(Diagnostic(code, message, self.file, line,
                                           _xml_path(el) if el is not None else None,
                                           Severity.WARNING))


def _xml_path(el: etree._Element) -> str:
    parts: list[str] = []
    node: etree._Element | None = el
    while node is not None:
        tag = node.tag if isinstance(node.tag, str) else '?'
        name = node.get('name')
        parts.append(f'{tag}[@name="{name}"]' if name else tag)
        node = node.getparent()
    return '/' + '/'.join(reversed(parts))
