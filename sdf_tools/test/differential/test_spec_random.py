"""Random documents with one spec rule broken (``spec_generators``), read by us and by
libsdformat 12: same verdict (the probe's), and our diagnostic for the rule on its line.

Each example runs the probe once (0.1-0.2 s); CI runs 60 examples, always the same ones
(``derandomize``). Raise the count locally with ``SDF_TOOLS_HYPOTHESIS_EXAMPLES``.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from support.libsdformat import probe_available, probe_unavailable_reason

pytest.importorskip('hypothesis')
from hypothesis import HealthCheck, given, note, settings  # noqa: E402

from differential.reference import differences, ours_report  # noqa: E402
from differential.spec_generators import SpecMutation, spec_mutated_documents  # noqa: E402

pytestmark = pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))

EXAMPLES = max(1, int(os.environ.get('SDF_TOOLS_HYPOTHESIS_EXAMPLES', '120')) // 2)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          print_blob=False, suppress_health_check=[HealthCheck.too_slow,
                                                   HealthCheck.data_too_large])
@given(doc=spec_mutated_documents())
def test_spec_mutation_is_judged_like_libsdformat(doc: SpecMutation) -> None:
    note(f'{doc.rule}: {doc.what}, expect {doc.code} on line {doc.line}')
    note(doc.xml)
    with tempfile.TemporaryDirectory(prefix='sdf_tools_spec_') as tmp:
        path = Path(tmp) / 'random.sdf'
        path.write_text(doc.xml)
        ours = ours_report(path)
        diffs = differences(path)
    assert not diffs, '\n'.join(diffs)
    found = [(d['code'], d['line']) for d in ours['errors'] + ours['warnings']]
    assert (doc.code, doc.line) in found, found
