"""Shared fixtures: the test data directory and a helper writing SDF snippets."""
from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
DATA = HERE / 'data'
# Make `import sdf_tools` work from a source checkout without installing.
sys.path.insert(0, str(HERE.parent))
# And `import support.libsdformat` (the reference probe helpers).
sys.path.insert(0, str(HERE))
# And `import standin`: the Gazebo stand-in's driver lives beside its source, outside the package.
sys.path.insert(0, str(HERE.parents[1] / 'tools' / 'gazebo_standin'))


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def write_sdf(tmp_path: Path) -> Callable[..., Path]:
    """Write ``body`` wrapped in ``<sdf version=...>`` and return the path."""
    def write(body: str, version: str = '1.9', name: str = 'model.sdf') -> Path:
        p = tmp_path / name
        p.write_text(f'<?xml version="1.0"?>\n<sdf version="{version}">\n{body}\n</sdf>\n')
        return p
    return write
