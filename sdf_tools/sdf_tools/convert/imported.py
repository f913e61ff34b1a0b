"""What an importer gives the converters: a load result, and what reading the format changed.

MJCF and USD are read by their own engines (MuJoCo, usd-core) into a
description document (MJCF's passes through our SDFormat reader as text, for
the spec check, and is pointed back at the MJCF lines);
:func:`sdf_tools.load.load_document` turns it into the same
:class:`~sdf_tools.load.LoadResult` any SDFormat or URDF file gives. The
conversion that follows is the one every input goes through
(:func:`sdf_tools.convert.api.convert_loaded`); what the import dropped,
renamed or assumed is reported before what the conversion did.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sdf_tools.convert.conversion_report import ConversionReport, ConversionResult
from sdf_tools.load import LoadResult


@dataclass
class Imported:
    """An imported file: its load result (None: unusable) and the import's report."""

    loaded: LoadResult | None
    report: ConversionReport = field(default_factory=ConversionReport)
    # Finishes the report of a conversion of ``loaded`` (MJCF: names the imported file in
    # every entry, mjcf/import_lines.py).
    cite: Callable[[ConversionReport], None] | None = None

    def failed(self, to: str) -> ConversionResult:
        """Return the result of a conversion that could not start: the import's report."""
        return ConversionResult(None, to, self.report, usable=False)

    def prepend_to(self, result: ConversionResult) -> ConversionResult:
        """Put the import's entries before the conversion's, and add its diagnostics."""
        if self.cite is not None:
            self.cite(result.report)
        result.report.entries[:0] = self.report.entries
        result.report.diagnostics.extend(self.report.diagnostics)
        return result
