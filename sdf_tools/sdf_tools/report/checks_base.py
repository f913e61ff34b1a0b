"""The record every check of the report produces: one :class:`Problem`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Json = dict[str, Any]


@dataclass(frozen=True)
class Problem:
    """One finding of the report."""

    code: str
    severity: str  # 'error', 'warning' or 'info'
    kind: str  # 'link', 'joint', 'shape' or 'file'
    subject: str
    message: str
    file: str | None = None
    line: int | None = None

    def to_json(self) -> Json:
        return {'code': self.code, 'severity': self.severity, 'kind': self.kind,
                'subject': self.subject, 'message': self.message, 'file': self.file,
                'line': self.line}
