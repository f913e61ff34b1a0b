"""What a test does when a tool it needs is missing: the one rule every test follows."""
from __future__ import annotations

import os
from typing import NoReturn

import pytest


def skip_or_fail(reason: str) -> NoReturn:
    """Skip the test, or fail it under ``SDF_TOOLS_REQUIRE_TOOLS`` (``./dev test`` and CI,
    which install every tool: there a missing one is a broken setup, not a reason to skip)."""
    if os.environ.get('SDF_TOOLS_REQUIRE_TOOLS'):
        pytest.fail(reason)
    pytest.skip(reason)
