"""The spawn demo (tools/demo.py spawn, what `./dev demo` shows) runs end to end: stand-in, spawns, entity list."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from standin import StandInError, build_standin, private_network_problem
from support.tools import skip_or_fail

PACKAGE_DIR = Path(__file__).resolve().parents[2]
DEMO = PACKAGE_DIR.parent / 'tools' / 'demo.py'


def test_demo_spawns_the_rover_and_lists_the_world() -> None:
    problem = private_network_problem()
    try:
        build_standin()
    except StandInError as err:
        problem = problem or str(err)
    if problem is not None:
        skip_or_fail(problem)
    env = {**os.environ, 'PYTHONPATH': os.pathsep.join([str(PACKAGE_DIR), os.environ.get('PYTHONPATH', '')])}
    proc = subprocess.run([sys.executable, str(DEMO), 'spawn'], capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    for line in ('OK: spawned [rover] in world [demo]', 'OK: spawned [mast] in world [demo]',
                 'OK: spawned [rover_0] in world [demo]', 'RESOURCE_PARSE_ERROR',
                 'rover::arm::forearm [link]', 'Created entity [2] named [rover]'):
        assert line in out, out
