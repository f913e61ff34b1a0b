"""Run gz-transport tests inside a private network namespace (never on the real network).

Tests that talk gz-transport live in ``*_scenarios.py`` modules (a plain
``pytest`` run does not collect them; they call :func:`require_private_network`
first). A ``test_*.py`` module runs each of them with
:func:`rerun_in_private_network`: pytest again, inside ``unshare -n``
(loopback only, multicast routed to it), failing with the inner output when
an inner test fails.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from standin import (
    StandInError,
    build_standin,
    in_private_network,
    private_network_argv,
    private_network_problem,
)
from support.tools import skip_or_fail

from sdf_tools.spawn.gz_cli import run_killable

INSIDE = in_private_network()
PACKAGE_DIR = Path(__file__).resolve().parents[2]  # sdf_tools/ (holds pyproject.toml)


def require_private_network() -> None:
    """Skip a whole scenario module outside a private network namespace (call at module level)."""
    if not INSIDE:
        pytest.skip('runs only inside a private network namespace: see netns.py',
                    allow_module_level=True)


def rerun_in_private_network(test_file: str, *, timeout: float = 240.0) -> None:
    """Run ``test_file``'s tests in a new network namespace; fail with their output if any fails."""
    problem = private_network_problem()
    if problem is not None:
        skip_or_fail(f'no private network namespace: {problem}')
    try:
        build_standin()
    except StandInError as err:
        skip_or_fail(str(err))
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join([str(PACKAGE_DIR), env.get('PYTHONPATH', '')])
    argv = private_network_argv([sys.executable, '-m', 'pytest', test_file, '-q', '-ra',
                                 '-p', 'no:cacheprovider', '-c', str(PACKAGE_DIR / 'pyproject.toml'),
                                 '--rootdir', str(PACKAGE_DIR)])
    out, err, status = run_killable(argv, timeout, env)
    assert status == 0, f'inner run of {test_file} (status {status}):\n{out[-12000:]}\n{err[-4000:]}'
