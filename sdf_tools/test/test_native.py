"""The compiled install (``SDF_TOOLS_COMPILE=1``, ``sdf_tools/_native.py``) reads as the source.

One compiled install is built per session, by the standard route (``pip install`` through
setup.py, in a scratch prefix), and every test file and the real-robot corpus are read
both ways: the ``inspect --json`` output must be the same, byte for byte. The checkout
itself always runs as the Python source: nothing in the import system swaps it.
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sdf_tools import _native

TEST_DIR = Path(__file__).resolve().parent
DATA = TEST_DIR / 'data'
PKG_ROOT = TEST_DIR.parent  # holds setup.py and the `sdf_tools` package

# Reads each file of a JSON list [[path, {env}], ...] given on stdin and prints one JSON
# object: where sdf_tools.sdf.link came from, whether the install is compiled, and per file
# the `inspect --json` text as the CLI writes it (or the exception's type and text).
DIGEST = r'''
import json, os, sys
from sdf_tools import _native
import sdf_tools.sdf.link as link
from sdf_tools.load import load_file
from sdf_tools.resolved import inspect_json
base = dict(os.environ)
out = {'link': link.__file__, 'compiled': _native.in_use(), 'files': {}}
for path, env in json.load(sys.stdin):
    os.environ.clear(); os.environ.update(base); os.environ.update(env)
    try:
        text = json.dumps(inspect_json(load_file(path), path), indent=1, allow_nan=False)
    except Exception as exc:  # a crash is a difference too
        text = f'{type(exc).__name__}: {exc}'
    out['files'][path] = text
print(json.dumps(out))
'''


@pytest.fixture(scope='session')
def compiled_install(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``SDF_TOOLS_COMPILE=1 pip install`` of a copy of the package into a scratch prefix."""
    if importlib.util.find_spec('mypyc') is None:
        if os.environ.get('SDF_TOOLS_REQUIRE_TOOLS') == '1':
            pytest.fail('mypy (mypyc) is not installed in this environment')
        pytest.skip('mypy (mypyc) is not installed')
    tmp = tmp_path_factory.mktemp('compiled')
    # pip builds in the source folder: the checkout must not be left holding mypyc's build/.
    src = tmp / 'src'
    shutil.copytree(PKG_ROOT, src, ignore=shutil.ignore_patterns(
        'test', 'build', '*.egg-info', '__pycache__', '.*_cache', '.hypothesis'))
    target = tmp / 'site'
    proc = subprocess.run(
        [sys.executable, '-m', 'pip', 'install', '-q', '--no-deps', '--no-build-isolation',
         '--no-index', '--target', str(target), str(src)],
        capture_output=True, text=True, check=False, timeout=900,
        env={**os.environ, 'SDF_TOOLS_COMPILE': '1', 'PIP_DISABLE_PIP_VERSION_CHECK': '1'})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return target


def _digests(files: list[tuple[str, dict[str, str]]], where: Path, cwd: Path) -> dict:
    proc = subprocess.run([sys.executable, '-c', DIGEST], cwd=cwd, input=json.dumps(files),
                          capture_output=True, text=True, check=True, timeout=900,
                          env={**os.environ, 'PYTHONPATH': str(where)})
    out: dict = json.loads(proc.stdout)
    return out


def _inputs() -> list[tuple[str, dict[str, str]]]:
    files = [(str(p), {}) for p in sorted(DATA.rglob('*'))
             if p.suffix in ('.sdf', '.world', '.urdf', '.xacro') and p.is_file()]
    sys.path.insert(0, str(TEST_DIR / 'differential'))
    try:
        from corpus import corpus
        files += [(str(e.path), dict(e.env)) for e in corpus()]
    finally:
        sys.path.remove(str(TEST_DIR / 'differential'))
    return files


def test_compiled_install_builds_every_listed_module(compiled_install: Path) -> None:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    built = {p.relative_to(compiled_install / 'sdf_tools').as_posix()[:-len(suffix)]
             for p in (compiled_install / 'sdf_tools').rglob('*' + suffix)}
    assert built == set(_native.MODULES)


def test_compiled_install_reads_every_file_as_the_source(compiled_install: Path,
                                                         tmp_path: Path) -> None:
    """Test data and the real-robot corpus: the same `inspect --json`, byte for byte."""
    files = _inputs()
    assert len(files) > 100
    compiled = _digests(files, compiled_install, tmp_path)
    source = _digests(files, PKG_ROOT, tmp_path)
    assert compiled['compiled'] and _native.is_extension(compiled['link'])
    assert compiled['link'].startswith(str(compiled_install))
    assert not source['compiled'] and source['link'] == str(PKG_ROOT / 'sdf_tools' / 'sdf' /
                                                            'link.py')
    a, b = compiled['files'], source['files']
    assert a.keys() == b.keys()
    differ = [path for path in a if a[path] != b[path]]
    assert not differ, f'{len(differ)} of {len(a)} files differ, e.g. {differ[:5]}'


def test_setup_py_keeps_stdout_for_colcon(tmp_path: Path) -> None:
    """colcon reads the package's metadata from setup.py's stdout: mypyc must not write there."""
    if importlib.util.find_spec('mypyc') is None:
        pytest.skip('mypy (mypyc) is not installed')
    src = tmp_path / 'src'
    shutil.copytree(PKG_ROOT, src, ignore=shutil.ignore_patterns(
        'test', 'build', '*.egg-info', '__pycache__', '.*_cache', '.hypothesis'))
    meta = subprocess.run([sys.executable, 'setup.py', '--name'], cwd=src, capture_output=True,
                          text=True, check=True, timeout=600,
                          env={**os.environ, 'SDF_TOOLS_COMPILE': '1'})
    assert meta.stdout == 'sdf_tools\n'


def test_the_checkout_runs_its_source() -> None:
    """No import hook: importing sdf_tools leaves sys.meta_path alone, every module is .py."""
    code = ('import sys; before = list(sys.meta_path); import sdf_tools.load, sdf_tools._native as n; '
            'import sdf_tools.sdf.link as l, sdf_tools.transform as t; '
            'print(sys.meta_path == before, n.in_use(), l.__file__, t.__file__)')
    proc = subprocess.run([sys.executable, '-c', code], cwd=PKG_ROOT, capture_output=True,
                          text=True, check=True, env={**os.environ, 'PYTHONPATH': str(PKG_ROOT)})
    same, in_use, link_file, transform_file = proc.stdout.split()
    assert (same, in_use) == ('True', 'False')
    assert link_file == str(PKG_ROOT / 'sdf_tools' / 'sdf' / 'link.py')
    assert transform_file == str(PKG_ROOT / 'sdf_tools' / 'transform.py')


def test_only_extension_modules_count_as_compiled() -> None:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    assert _native.is_extension('/x/sdf_tools/transform' + suffix)
    # A sourceless install's bytecode is Python: Transform must not take the compiled path.
    for path in ('/x/sdf_tools/transform.py', '/x/sdf_tools/transform.pyc', '', None):
        assert not _native.is_extension(path)
