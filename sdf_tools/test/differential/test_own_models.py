"""Our own models, one per feature, read by us and by libsdformat 12: no difference."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.libsdformat import probe_available, probe_unavailable_reason

from differential.reference import differences

HERE = Path(__file__).resolve().parents[1]
SDF_DIR = HERE / 'data' / 'sdf'
EXAMPLES = HERE.parent / 'sdf_tools' / 'examples'
FILES = sorted(SDF_DIR.glob('*.sdf')) + sorted(EXAMPLES.glob('*.sdf'))

pytestmark = pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))


@pytest.mark.parametrize('path', FILES, ids=[p.name for p in FILES])
def test_own_model_matches_libsdformat(path: Path) -> None:
    diffs = differences(path, env={'SDF_PATH': str(SDF_DIR / 'models')})
    assert not diffs, '\n'.join(diffs)
