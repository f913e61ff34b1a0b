"""The sdf_tools package type-checks under mypy's strict mode (settings: ../pyproject.toml)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE_ROOT = Path(__file__).resolve().parents[1]


def test_mypy_reports_no_error_in_sdf_tools() -> None:
    if importlib.util.find_spec('mypy') is None:
        msg = 'mypy is not installed'
        if os.environ.get('SDF_TOOLS_REQUIRE_TOOLS'):
            pytest.fail(msg)
        pytest.skip(msg)
    result = subprocess.run(
        [sys.executable, '-m', 'mypy', 'sdf_tools'],
        cwd=PACKAGE_ROOT, capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, f'mypy found errors:\n{result.stdout}{result.stderr}'
