"""The bundled examples load without a single warning, as users' first files should."""
from __future__ import annotations

from pathlib import Path

import pytest

from sdf_tools.load import load_file

EXAMPLES = Path(__file__).resolve().parents[1] / 'sdf_tools' / 'examples'
FILES = sorted(EXAMPLES.rglob('*.sdf'))


def test_there_are_examples() -> None:
    assert EXAMPLES / 'demo_world.sdf' in FILES


@pytest.mark.parametrize('path', FILES, ids=[str(p.relative_to(EXAMPLES)) for p in FILES])
def test_an_example_loads_without_warnings(path: Path, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # libsdformat's relative lookups start here: nothing to find
    loaded = load_file(path)
    assert loaded.valid
    assert [str(d) for d in loaded.diagnostics] == []
