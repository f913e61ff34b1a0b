"""The conversion report: every default assumed, element renamed or lost."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from sdf_tools.errors import Diagnostic, Severity


class ReportKind(enum.Enum):
    """What happened to a piece of the input."""

    ASSUMED = 'assumed'      # a default filled in (e.g. 1 kg for a link without inertial)
    RENAMED = 'renamed'      # kept under another name (lumped visuals, scoped links)
    MERGED = 'merged'        # folded into another element (fixed-joint lumping)
    REWRITTEN = 'rewritten'  # kept with a changed value or form (URIs, poses, joint types)
    APPROXIMATED = 'approximated'  # replaced by something close (capsule -> cylinder...)
    DROPPED = 'dropped'      # not representable in the output: lost
    KEPT = 'kept'            # carried through verbatim where the consumer can find it


@dataclass(frozen=True)
class ReportEntry:
    """One thing the conversion did to the input, with where it came from."""

    kind: ReportKind
    element: str          # e.g. "link[base]/visual[v]" or "gazebo[reference=arm]/mu1"
    message: str
    file: str | None = None
    line: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {'kind': self.kind.value, 'element': self.element, 'message': self.message,
                'file': self.file, 'line': self.line}

    def __str__(self) -> str:
        where = self.file or '<input>'
        if self.line is not None:
            where = f'{where}:{self.line}'
        return f'{where}: {self.kind.value}: {self.element}: {self.message}'


@dataclass
class ConversionReport:
    """Everything a conversion assumed, changed or lost, plus input diagnostics."""

    entries: list[ReportEntry] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def add(self, kind: ReportKind, element: str, message: str,
            file: str | None = None, line: int | None = None) -> None:
        self.entries.append(ReportEntry(kind, element, message, file, line))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    def to_json(self) -> dict[str, Any]:
        return {
            'entries': [e.to_json() for e in self.entries],
            'errors': [d.to_json() for d in self.errors],
            'warnings': [d.to_json() for d in self.diagnostics if d.severity is Severity.WARNING],
        }

    def header_lines(self, title: str, limit: int | None = None) -> list[str]:
        """Return the lines a written file (URDF, MJCF, USD) starts with: ``title``, then each entry.

        With ``limit``, only that many entries are listed, losses and approximations first,
        and a last line says how many more the full report (``--report FILE.json``) holds.
        """
        lines = [title]
        if not self.entries:
            return [*lines, 'Nothing was assumed, changed or lost.']
        lines.append(f'What the conversion assumed, changed or lost ({self.summary()}):')
        first = self.entries
        if limit is not None and len(first) > limit:
            order = {ReportKind.DROPPED: 0, ReportKind.APPROXIMATED: 1}
            first = sorted(first, key=lambda e: order.get(e.kind, 2))[:limit]
        lines += [f'  {e}' for e in first]
        if len(first) < len(self.entries):
            lines.append(f'  ... and {len(self.entries) - len(first)} more: every entry is in '
                         "the JSON report (convert's report option)")
        return lines

    def summary(self) -> str:
        """One line per kind with its count, for the CLI."""
        counts: dict[str, int] = {}
        for e in self.entries:
            counts[e.kind.value] = counts.get(e.kind.value, 0) + 1
        parts = [f'{n} {k}' for k, n in sorted(counts.items())]
        return ', '.join(parts) if parts else 'nothing assumed, changed or lost'


@dataclass
class ConversionResult:
    """The output text (None on failure) and the report.

    ``usable`` is False when the input could not be read at all (missing, not
    XML, unknown root); ``write_failed`` when the output or the report could not
    be written (:func:`sdf_tools.convert.api.convert_file`). The CLI exits 2 for
    either.
    """

    text: str | None
    format: str                      # 'sdf', 'urdf', 'mjcf' or 'usd'
    report: ConversionReport = field(default_factory=ConversionReport)
    usable: bool = True
    write_failed: bool = False

    @property
    def ok(self) -> bool:
        return self.text is not None and not self.report.errors
