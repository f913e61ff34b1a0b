"""The two builds every benchmark here compares, made the way users get them.

* **source**: the package as ``pip install ./sdf_tools`` or a plain ``colcon build`` installs
  it: pure Python, run from this checkout's ``sdf_tools/`` (``PYTHONPATH``).
* **compiled**: ``SDF_TOOLS_COMPILE=1 pip install --no-build-isolation`` of a copy of the
  package into a scratch prefix: setup.py compiles the hot modules ``sdf_tools/_native.py``
  lists with mypyc (needs mypy in this interpreter; about a minute and a half on 2 cores).
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PKG_DIR = REPO / 'sdf_tools'  # holds setup.py and the `sdf_tools` package


def build_env(prefix: Path) -> dict[str, str]:
    """This process's environment with ``prefix`` first on ``PYTHONPATH``."""
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join(p for p in (str(prefix), env.get('PYTHONPATH', '')) if p)
    return env


def source_env() -> dict[str, str]:
    """The environment that imports the checkout's source (the default build)."""
    return build_env(PKG_DIR)


def build_compiled(scratch: Path) -> tuple[Path | None, str]:
    """``SDF_TOOLS_COMPILE=1 pip install`` a copy of the package into ``scratch/site``.

    Returns the prefix (None when it cannot be built here) and a line saying what happened.
    """
    if importlib.util.find_spec('mypyc') is None:
        return None, 'no compiled build: mypy (mypyc) is not installed in this interpreter'
    src = scratch / 'src'
    target = scratch / 'site'
    shutil.copytree(PKG_DIR, src, ignore=shutil.ignore_patterns(
        'test', 'build', '*.egg-info', '__pycache__', '.*_cache', '.hypothesis'))
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, '-m', 'pip', 'install', '-q', '--no-deps', '--no-build-isolation',
         '--no-index', '--target', str(target), str(src)],
        capture_output=True, text=True, check=False,
        env={**os.environ, 'SDF_TOOLS_COMPILE': '1', 'PIP_DISABLE_PIP_VERSION_CHECK': '1'})
    if proc.returncode != 0:
        return None, f'no compiled build: pip failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}'
    return target, (f'compiled build: SDF_TOOLS_COMPILE=1 pip install into {target} '
                    f'({time.perf_counter() - t0:.0f} s)')
