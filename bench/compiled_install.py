"""The builds every benchmark here compares, made the way users get them.

* **default**: ``pip install`` of a copy of the package into a scratch prefix, as
  ``pip install ./sdf_tools`` (and, the same files, a plain ``colcon build``) installs it:
  pure Python, byte-compiled at install time, started through its console script.
* **compiled**: ``SDF_TOOLS_COMPILE=1 pip install --no-build-isolation`` of a copy of the
  package into a scratch prefix: setup.py compiles the hot modules ``sdf_tools/_native.py``
  lists with mypyc (needs mypy in this interpreter; about a minute and a half on 2 cores).
* **source**: the checkout's ``sdf_tools/`` on ``PYTHONPATH``, as ``./dev`` runs it. Not what
  a user gets: with ``PYTHONDONTWRITEBYTECODE`` set (as in ``./dev``'s shells here) every
  start compiles every module from source, ~20 ms more for ``sdf_tools check``.
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
    """The environment that imports the checkout's source (as ``./dev`` runs it)."""
    return build_env(PKG_DIR)


def console_script(prefix: Path) -> Path:
    """The ``sdf_tools`` command of an install made by :func:`build_default` or
    :func:`build_compiled` (pip writes it with this interpreter in its ``#!`` line)."""
    return prefix / 'bin' / 'sdf_tools'


def _pip_install(scratch: Path, compiled: bool) -> tuple[Path | None, str]:
    src = scratch / 'src'
    target = scratch / 'site'
    shutil.rmtree(src, ignore_errors=True)
    shutil.rmtree(target, ignore_errors=True)
    # pip builds in the source folder: the checkout must not be left holding a build/.
    shutil.copytree(PKG_DIR, src, ignore=shutil.ignore_patterns(
        'test', 'build', '*.egg-info', '__pycache__', '.*_cache', '.hypothesis'))
    env = {**os.environ, 'PIP_DISABLE_PIP_VERSION_CHECK': '1'}
    env.pop('SDF_TOOLS_COMPILE', None)
    if compiled:
        env['SDF_TOOLS_COMPILE'] = '1'
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, '-m', 'pip', 'install', '-q', '--no-deps', '--no-build-isolation',
         '--no-index', '--compile', '--target', str(target), str(src)],
        capture_output=True, text=True, check=False, env=env)
    name = 'compiled' if compiled else 'default'
    if proc.returncode != 0:
        return None, f'no {name} build: pip failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}'
    how = 'SDF_TOOLS_COMPILE=1 pip install' if compiled else 'pip install (pure Python, byte-compiled)'
    return target, f'{name} build: {how} into {target} ({time.perf_counter() - t0:.0f} s)'


def build_default(scratch: Path) -> tuple[Path | None, str]:
    """``pip install`` a copy of the package into ``scratch/site``, as a user's install.

    Returns the prefix (None when pip failed) and a line saying what happened.
    """
    return _pip_install(scratch, compiled=False)


def build_compiled(scratch: Path) -> tuple[Path | None, str]:
    """``SDF_TOOLS_COMPILE=1 pip install`` a copy of the package into ``scratch/site``.

    Returns the prefix (None when it cannot be built here) and a line saying what happened.
    """
    if importlib.util.find_spec('mypyc') is None:
        return None, 'no compiled build: mypy (mypyc) is not installed in this interpreter'
    return _pip_install(scratch, compiled=True)
