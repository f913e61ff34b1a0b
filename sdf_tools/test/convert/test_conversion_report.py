"""The conversion report: the header a written file starts with."""
from __future__ import annotations


def test_a_header_with_a_limit_lists_losses_first_and_counts_the_rest() -> None:
    from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
    report = ConversionReport()
    for k in range(20):
        report.add(ReportKind.KEPT, f'link[k{k}]', 'kept')
    report.add(ReportKind.DROPPED, 'link[d]/sensor[s]', 'dropped')
    lines = report.header_lines('Title.', 12)
    assert lines[0] == 'Title.' and '21' not in lines[1] and '20 kept' in lines[1]
    assert lines[2] == '  <input>: dropped: link[d]/sensor[s]: dropped'  # losses first
    assert len(lines) == 2 + 12 + 1 and lines[-1].startswith('  ... and 9 more')
    assert len(report.header_lines('Title.')) == 2 + 21  # no limit: every entry
