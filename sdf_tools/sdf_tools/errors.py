"""Diagnostics as data: one closed enum of codes, one record, one exception.

Codes carry libsdformat's names wherever the rule broken is the same, so a
user comparing our output with ``ign sdf -k`` sees the same words.
"""
from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from sdf_tools.records import fields_eq, fields_repr


class ErrorCode(enum.Enum):
    """The rule a diagnostic reports as broken."""

    # Codes shared with libsdformat (include/sdf/Error.hh).
    FILE_READ = 'FILE_READ'
    STRING_READ = 'STRING_READ'
    DUPLICATE_NAME = 'DUPLICATE_NAME'
    RESERVED_NAME = 'RESERVED_NAME'
    ATTRIBUTE_MISSING = 'ATTRIBUTE_MISSING'
    ATTRIBUTE_INVALID = 'ATTRIBUTE_INVALID'
    ATTRIBUTE_DEPRECATED = 'ATTRIBUTE_DEPRECATED'
    ATTRIBUTE_INCORRECT_TYPE = 'ATTRIBUTE_INCORRECT_TYPE'
    ELEMENT_MISSING = 'ELEMENT_MISSING'
    ELEMENT_INVALID = 'ELEMENT_INVALID'
    ELEMENT_DEPRECATED = 'ELEMENT_DEPRECATED'
    ELEMENT_INCORRECT_TYPE = 'ELEMENT_INCORRECT_TYPE'
    URI_INVALID = 'URI_INVALID'
    URI_LOOKUP = 'URI_LOOKUP'
    DIRECTORY_NONEXISTANT = 'DIRECTORY_NONEXISTANT'
    MODEL_CANONICAL_LINK_INVALID = 'MODEL_CANONICAL_LINK_INVALID'
    MODEL_WITHOUT_LINK = 'MODEL_WITHOUT_LINK'
    MODEL_PLACEMENT_FRAME_INVALID = 'MODEL_PLACEMENT_FRAME_INVALID'
    NESTED_MODELS_UNSUPPORTED = 'NESTED_MODELS_UNSUPPORTED'
    LINK_INERTIA_INVALID = 'LINK_INERTIA_INVALID'
    JOINT_CHILD_LINK_INVALID = 'JOINT_CHILD_LINK_INVALID'
    JOINT_PARENT_LINK_INVALID = 'JOINT_PARENT_LINK_INVALID'
    JOINT_PARENT_SAME_AS_CHILD = 'JOINT_PARENT_SAME_AS_CHILD'
    JOINT_AXIS_EXPRESSED_IN_INVALID = 'JOINT_AXIS_EXPRESSED_IN_INVALID'
    JOINT_AXIS_MIMIC_INVALID = 'JOINT_AXIS_MIMIC_INVALID'
    FRAME_ATTACHED_TO_INVALID = 'FRAME_ATTACHED_TO_INVALID'
    FRAME_ATTACHED_TO_CYCLE = 'FRAME_ATTACHED_TO_CYCLE'
    FRAME_ATTACHED_TO_GRAPH_ERROR = 'FRAME_ATTACHED_TO_GRAPH_ERROR'
    POSE_RELATIVE_TO_INVALID = 'POSE_RELATIVE_TO_INVALID'
    POSE_RELATIVE_TO_CYCLE = 'POSE_RELATIVE_TO_CYCLE'
    POSE_RELATIVE_TO_GRAPH_ERROR = 'POSE_RELATIVE_TO_GRAPH_ERROR'
    ROTATION_SNAP_CONFIG_ERROR = 'ROTATION_SNAP_CONFIG_ERROR'
    MERGE_INCLUDE_UNSUPPORTED = 'MERGE_INCLUDE_UNSUPPORTED'
    PARAMETER_ERROR = 'PARAMETER_ERROR'
    UNKNOWN_PARAMETER_TYPE = 'UNKNOWN_PARAMETER_TYPE'
    FATAL_ERROR = 'FATAL_ERROR'
    WARNING = 'WARNING'  # libsdformat's catch-all; never emitted here: each warning names its rule
    # Codes of our own, for rules libsdformat has no name for.
    XML_INVALID = 'XML_INVALID'
    XML_UNSAFE = 'XML_UNSAFE'
    INCLUDE_CYCLE = 'INCLUDE_CYCLE'
    VERSION_UNSUPPORTED = 'VERSION_UNSUPPORTED'
    XACRO_ERROR = 'XACRO_ERROR'
    URDF_INVALID = 'URDF_INVALID'
    DEFAULT_ASSUMED = 'DEFAULT_ASSUMED'
    ELEMENT_UNKNOWN = 'ELEMENT_UNKNOWN'
    XML_TEXT_OUTSIDE_ROOT = 'XML_TEXT_OUTSIDE_ROOT'
    XML_MALFORMED_TOLERATED = 'XML_MALFORMED_TOLERATED'
    XACRO_WARNING = 'XACRO_WARNING'
    ATTRIBUTE_PREFIX_UNDECLARED = 'ATTRIBUTE_PREFIX_UNDECLARED'
    URDF_SHAPE_SKIPPED = 'URDF_SHAPE_SKIPPED'
    URDF_GEOMETRY_UNSUPPORTED = 'URDF_GEOMETRY_UNSUPPORTED'
    URDF_JOINT_TYPE_UNSUPPORTED = 'URDF_JOINT_TYPE_UNSUPPORTED'
    URDF_WORLD_LINK_CONTENT = 'URDF_WORLD_LINK_CONTENT'
    MATERIAL_UNDEFINED = 'MATERIAL_UNDEFINED'
    COLOR_INVALID = 'COLOR_INVALID'
    # <inertial auto="true">: libsdformat says these with its catch-all WARNING.
    AUTO_INERTIAL_NOT_UNDERSTOOD = 'AUTO_INERTIAL_NOT_UNDERSTOOD'  # by the target Gazebo
    AUTO_INERTIAL_OVERWRITES = 'AUTO_INERTIAL_OVERWRITES'  # user <pose>/<inertia> ignored
    AUTO_INERTIAL_GEOMETRY_UNSUPPORTED = 'AUTO_INERTIAL_GEOMETRY_UNSUPPORTED'
    # Codes of the lint checks (sdf_tools.lint: the report and check --strict),
    # each named after the rule a model breaks for a physics engine.
    MASSLESS_LINK = 'MASSLESS_LINK'
    MASS_NOT_POSITIVE = 'MASS_NOT_POSITIVE'
    INERTIA_NOT_POSITIVE_DEFINITE = 'INERTIA_NOT_POSITIVE_DEFINITE'
    INERTIA_TRIANGLE_INEQUALITY = 'INERTIA_TRIANGLE_INEQUALITY'
    DEFAULT_INERTIA = 'DEFAULT_INERTIA'
    DENSITY_IMPLAUSIBLE = 'DENSITY_IMPLAUSIBLE'
    INERTIA_IMPLAUSIBLE = 'INERTIA_IMPLAUSIBLE'
    JOINT_NO_LIMITS = 'JOINT_NO_LIMITS'
    JOINT_LIMITS_REVERSED = 'JOINT_LIMITS_REVERSED'
    MESH_UNRESOLVED = 'MESH_UNRESOLVED'
    MESH_UNREADABLE = 'MESH_UNREADABLE'
    SHAPE_NOT_DRAWN = 'SHAPE_NOT_DRAWN'


class Severity(enum.Enum):
    """Whether a diagnostic makes the input invalid (a note: worth knowing, nothing lost)."""

    ERROR = 'error'
    WARNING = 'warning'
    NOTE = 'note'


# Methods written out rather than generated at import (sdf_tools/records.py says why).
@dataclass(frozen=True, init=False, repr=False, eq=False)
class Diagnostic:
    """One problem (or assumption) found in an input file."""

    code: ErrorCode
    message: str
    file: str | None = None
    line: int | None = None
    xml_path: str | None = None
    severity: Severity = Severity.ERROR

    def __init__(self, code: ErrorCode, message: str, file: str | None = None,
                 line: int | None = None, xml_path: str | None = None,
                 severity: Severity = Severity.ERROR) -> None:
        # As a frozen dataclass's generated __init__ sets them.
        _set = object.__setattr__
        _set(self, 'code', code)
        _set(self, 'message', message)
        _set(self, 'file', file)
        _set(self, 'line', line)
        _set(self, 'xml_path', xml_path)
        _set(self, 'severity', severity)

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)

    def __hash__(self) -> int:
        return hash((self.code, self.message, self.file, self.line, self.xml_path,
                     self.severity))

    def to_json(self) -> dict[str, object]:
        """Return the ``{code, message, file, line}`` object of the CLI's JSON."""
        return {
            'code': self.code.value,
            'message': self.message,
            'file': self.file,
            'line': self.line,
        }

    def __str__(self) -> str:
        where = self.file or '<string>'
        if self.line is not None:
            where = f'{where}:{self.line}'
        return f'{where}: {self.severity.value}: [{self.code.value}] {self.message}'


class Findings:
    """What a result's diagnostics say: its errors, its warnings, libsdformat's verdict.

    A mixin for the load result and the resolved description, which both carry
    ``diagnostics``, ``usable`` (False: the input could not be read at all) and
    ``document``.
    """

    __slots__ = ()
    diagnostics: Sequence[Diagnostic]
    usable: bool
    document: object | None

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]

    @property
    def valid(self) -> bool:
        """libsdformat's verdict: a document was read, with no error."""
        return self.usable and self.document is not None and not self.errors


class SdfToolsError(Exception):
    """Raised at the edges (CLI, services) when an input cannot be used."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        super().__init__('\n'.join(str(d) for d in self.diagnostics))
