"""The sdf_tools package and its tests pass ruff (settings: ../pyproject.toml)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from support.tools import skip_or_fail

PACKAGE_ROOT = Path(__file__).resolve().parents[1]


def test_ruff_reports_no_error_in_package_and_tests() -> None:
    if importlib.util.find_spec('ruff') is None:
        skip_or_fail('ruff is not installed')
    result = subprocess.run(
        [sys.executable, '-m', 'ruff', 'check', '--output-format', 'concise', '.'],
        cwd=PACKAGE_ROOT, capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, f'ruff found problems:\n{result.stdout}{result.stderr}'
