"""``SDF_TOOLS_COMPILE=1 pip install``: the package installed with its hot modules compiled.

setup.py compiles the modules ``sdf_tools/_native.py`` lists with mypyc, in place in the
installed package; what it reads must be what the pure-Python source reads.
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sdf_tools import _native

PKG_ROOT = Path(__file__).resolve().parents[2]  # holds setup.py
DATA = PKG_ROOT / 'test' / 'data'

PROBE = r'''
import json, sys
from sdf_tools import _native
import sdf_tools.sdf.link as link
from sdf_tools.resolved import inspect_json
from sdf_tools.load import load_file
print(json.dumps({'file': link.__file__, 'in_use': _native.in_use(), 'active': _native.ACTIVE,
                  'out': {p: inspect_json(load_file(p)) for p in sys.argv[1:]}}, sort_keys=True))
'''


def test_compiled_install_reads_as_the_source(tmp_path: Path) -> None:
    if importlib.util.find_spec('mypyc') is None:
        if os.environ.get('SDF_TOOLS_REQUIRE_TOOLS') == '1':
            pytest.fail('mypy (mypyc) is not installed in this environment')
        pytest.skip('mypy (mypyc) is not installed')
    # A copy of the package to build from: pip builds in the source folder, and the
    # checkout must not be left holding mypyc's build/ and an egg-info.
    src = tmp_path / 'src'
    shutil.copytree(PKG_ROOT, src, ignore=shutil.ignore_patterns(
        'test', 'build', '.native', '*.egg-info', '__pycache__', '.*_cache', '.hypothesis'))
    target = tmp_path / 'site'
    proc = subprocess.run(
        [sys.executable, '-m', 'pip', 'install', '-q', '--no-deps', '--no-build-isolation',
         '--no-index', '--target', str(target), str(src)],
        capture_output=True, text=True, check=False, timeout=900,
        env={**os.environ, 'SDF_TOOLS_COMPILE': '1', 'PIP_DISABLE_PIP_VERSION_CHECK': '1'})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    built = {p.relative_to(target / 'sdf_tools').as_posix().split('.')[0]
             for p in (target / 'sdf_tools').rglob('*.so')}
    assert built == set(_native.MODULES)

    files = [str(p) for p in sorted(DATA.rglob('*.sdf'))]
    runs = {}
    for name, path in (('installed', target), ('source', PKG_ROOT)):
        out = subprocess.run([sys.executable, '-c', PROBE, *files], cwd=tmp_path,
                             capture_output=True, text=True, check=True, timeout=600,
                             env={**os.environ, 'PYTHONPATH': str(path), 'SDF_TOOLS_NATIVE': '0'})
        runs[name] = json.loads(out.stdout)
    installed, source = runs['installed'], runs['source']
    assert installed['file'].startswith(str(target)) and not installed['file'].endswith('.py')
    assert installed['in_use'] and not installed['active']
    assert source['file'].endswith('link.py') and not source['in_use']
    assert len(files) >= 20 and installed['out'] == source['out']

    # colcon reads the package's metadata from setup.py's stdout: mypyc must not write there.
    meta = subprocess.run([sys.executable, 'setup.py', '--name'], cwd=src, capture_output=True,
                          text=True, check=True, timeout=600,
                          env={**os.environ, 'SDF_TOOLS_COMPILE': '1'})
    assert meta.stdout == 'sdf_tools\n'
