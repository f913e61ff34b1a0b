"""Fixtures of the browser tests: one headless Chromium per module, and where screenshots go."""
from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.chromium import Browser

from report.browser_checks import require_chromium


@pytest.fixture(scope='module')
def shots(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The screenshot directory: ``SDF_TOOLS_REPORT_SHOTS``, else a temporary one (printed)."""
    name = request.module.__name__.rsplit('.', 1)[-1]
    out = Path(os.environ.get('SDF_TOOLS_REPORT_SHOTS') or tmp_path_factory.mktemp(name))
    out.mkdir(parents=True, exist_ok=True)
    print(f'\n{name} screenshots: {out}')
    return out


@pytest.fixture(scope='module')
def browser() -> Iterator[Browser]:
    """Headless Chromium, 1400 x 1000 (skipped without it)."""
    require_chromium()
    with Browser(1400, 1000) as b:
        yield b
