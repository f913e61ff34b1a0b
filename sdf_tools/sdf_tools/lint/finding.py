"""The record every lint check produces: one :class:`Finding`, a diagnostic with a subject."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sdf_tools.errors import Diagnostic, ErrorCode, Severity
from sdf_tools.model.common import Loc

#: Which element a finding is about: a link, a joint, a shape of a link, or the file.
KINDS = ('link', 'joint', 'shape', 'file')


@dataclass(frozen=True)
class Finding:
    """One problem: its code (the rule broken), how bad, which element, why, where.

    ``subject`` is the scoped name of the link or joint (the link, for a shape);
    ``kind`` is ``'file'`` for a diagnostic of the reader, listed as found.
    """

    code: ErrorCode
    severity: Severity
    kind: str
    subject: str
    message: str
    file: str | None = None
    line: int | None = None

    @classmethod
    def at(cls, code: ErrorCode, severity: Severity, kind: str, subject: str, message: str,
           loc: Loc | None) -> Finding:
        """A finding at ``loc`` (an element's file and line, if known)."""
        return cls(code, severity, kind, subject, message,
                   loc.file if loc is not None else None, loc.line if loc is not None else None)

    @classmethod
    def of(cls, d: Diagnostic) -> Finding:
        """A diagnostic of the reader, as a finding about the file."""
        return cls(d.code, d.severity, 'file', '', d.message, d.file, d.line)

    def __str__(self) -> str:
        """``file:line: severity: [CODE] subject: message``, as ``check`` prints a diagnostic."""
        where = self.file or '<string>'
        if self.line is not None:
            where = f'{where}:{self.line}'
        about = f'{self.subject}: ' if self.subject else ''
        return f'{where}: {self.severity.value}: [{self.code.value}] {about}{self.message}'

    def to_json(self) -> dict[str, Any]:
        """The finding as the report's ``--json`` prints it."""
        return {'code': self.code.value, 'severity': self.severity.value, 'kind': self.kind,
                'subject': self.subject, 'message': self.message, 'file': self.file,
                'line': self.line}
