"""The sdf_tools package type-checks under mypy's strict mode (settings: ../pyproject.toml)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from support.tools import skip_or_fail

PACKAGE_ROOT = Path(__file__).resolve().parents[1]


def test_mypy_reports_no_error_in_sdf_tools() -> None:
    if importlib.util.find_spec('mypy') is None:
        skip_or_fail('mypy is not installed')
    result = subprocess.run(
        [sys.executable, '-m', 'mypy', 'sdf_tools'],
        cwd=PACKAGE_ROOT, capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, f'mypy found errors:\n{result.stdout}{result.stderr}'
