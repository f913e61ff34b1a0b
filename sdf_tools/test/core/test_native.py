"""The compiled hot modules (sdf_tools/_native.py) and the pure-Python source agree.

Under ``./dev`` (``SDF_TOOLS_REQUIRE_TOOLS=1``, with mypy in the venv) the whole test suite
runs on the compiled modules; here the same files are loaded both ways and every byte of
the ``inspect --json`` object, diagnostics included, must be equal.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import sdf_tools
from sdf_tools import _native

HERE = Path(__file__).resolve().parent
TEST_DIR = HERE.parent
DATA = TEST_DIR / 'data'
PKG_ROOT = TEST_DIR.parent  # holds the `sdf_tools` package

# Loads each file of a JSON list [[path, {env}], ...] given on stdin and prints one line per
# file: the inspect object as canonical JSON (or the exception's type and text).
DIGEST = r'''
import json, os, sys
from sdf_tools import _native
from sdf_tools.resolved import inspect_json
from sdf_tools.load import load_file
base = dict(os.environ)
out = {'native': _native.ACTIVE, 'files': {}}
for path, env in json.load(sys.stdin):
    os.environ.clear(); os.environ.update(base); os.environ.update(env)
    try:
        text = json.dumps(inspect_json(load_file(path)), sort_keys=True)
    except Exception as exc:  # a crash is a difference too
        text = f'{type(exc).__name__}: {exc}'
    out['files'][path] = text
print(json.dumps(out))
'''


def _native_wanted() -> bool:
    """Under ./dev with mypy installed a current build must be in use (./dev setup made it)."""
    if os.environ.get('SDF_TOOLS_NATIVE', '1') == '0':
        return False
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return False
    return os.environ.get('SDF_TOOLS_REQUIRE_TOOLS') == '1'


def test_the_build_is_in_use_where_dev_made_it() -> None:
    if not _native_wanted():
        pytest.skip('not under ./dev with mypy, or SDF_TOOLS_NATIVE=0: pure Python by choice')
    assert _native.ACTIVE, 'no current build: `python -m sdf_tools.native_build status`'
    for name in _native.MODULES:
        module = sys.modules.get('sdf_tools.' + name.replace('/', '.'))
        if module is not None:
            assert _native.compiled(module), module.__file__


def test_switched_off_means_the_python_source() -> None:
    code = ('import sdf_tools._native as n, sdf_tools.sdf.link as l, sdf_tools.transform as t; '
            'print(n.ACTIVE, l.__file__, t._COMPILED)')
    proc = subprocess.run([sys.executable, '-c', code], cwd=PKG_ROOT, capture_output=True,
                          text=True, check=True, env={**os.environ, 'SDF_TOOLS_NATIVE': '0'})
    active, link_file, compiled = proc.stdout.split()
    assert (active, compiled) == ('False', 'False')
    assert link_file.endswith(os.path.join('sdf', 'link.py'))


def _write_manifest(pkg: Path) -> dict[str, object]:
    return {'format': _native.FORMAT, 'modules': {}, 'sources': {
        p.relative_to(pkg).as_posix(): [p.stat().st_size, p.stat().st_mtime_ns, _native._digest(p)]
        for p in _native._sources(pkg)}}


def test_a_build_counts_only_while_every_source_matches(tmp_path: Path) -> None:
    pkg = tmp_path / 'sdf_tools'
    shutil.copytree(Path(sdf_tools.__file__).parent, pkg,
                    ignore=shutil.ignore_patterns('__pycache__', 'examples', 'data'))
    manifest = _write_manifest(pkg)
    assert _native._current(manifest, pkg)

    link = pkg / 'sdf' / 'link.py'
    time.sleep(0.01)
    link.touch()  # a new time, the same bytes (a fresh copy): still current
    assert _native._current(manifest, pkg)

    text = link.read_bytes()
    i = text.index(b'mass')
    link.write_bytes(text[:i] + b'MASS' + text[i + 4:])  # the same size, other bytes
    assert not _native._current(manifest, pkg)
    link.write_bytes(text)
    assert _native._current(manifest, pkg)

    (pkg / 'frames' / 'new.py').write_text('X = 1\n')  # a module the build never saw
    assert not _native._current(manifest, pkg)
    (pkg / 'frames' / 'new.py').unlink()
    (pkg / 'frames' / 'placement.py').unlink()  # and one it saw, gone
    assert not _native._current(manifest, pkg)


def test_an_unusable_build_is_ignored(tmp_path: Path) -> None:
    """A missing, foreign or half-written build leaves the package as Python."""
    pkg = tmp_path / 'sdf_tools'
    shutil.copytree(Path(sdf_tools.__file__).parent, pkg,
                    ignore=shutil.ignore_patterns('__pycache__', 'examples', 'data'))
    where = _native.native_dir(pkg)
    where.mkdir(parents=True)
    code = ('import sys; sys.path.insert(0, sys.argv[1]); import sdf_tools._native as n; '
            'import sdf_tools.sdf.link as l; print(n.ACTIVE, l.__file__)')
    good = _write_manifest(pkg)
    for manifest in ('{not json', json.dumps({**good, 'format': 0}),
                     json.dumps({**good, 'modules': {'sdf_tools.sdf.link': 'missing.so'}})):
        (where / _native.MANIFEST).write_text(manifest)
        proc = subprocess.run([sys.executable, '-c', code, str(tmp_path)], cwd=tmp_path,
                              capture_output=True, text=True, check=True,
                              env={k: v for k, v in os.environ.items() if k != 'SDF_TOOLS_NATIVE'})
        active, link_file = proc.stdout.split()
        assert active == 'False' and link_file == str(pkg / 'sdf' / 'link.py'), manifest


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


def _digests(files: list[tuple[str, dict[str, str]]], native: str) -> dict[str, object]:
    proc = subprocess.run([sys.executable, '-c', DIGEST], cwd=PKG_ROOT, input=json.dumps(files),
                          capture_output=True, text=True, check=True, timeout=900,
                          env={**os.environ, 'SDF_TOOLS_NATIVE': native})
    out: dict[str, object] = json.loads(proc.stdout)
    return out


def test_compiled_and_python_read_every_file_alike() -> None:
    """Test data and the real-robot corpus: the same inspect object, byte for byte."""
    if not _native.ACTIVE:
        pytest.skip('no current compiled build in use (python -m sdf_tools.native_build)')
    files = _inputs()
    assert len(files) > 100
    compiled, python = _digests(files, '1'), _digests(files, '0')
    assert compiled['native'] is True and python['native'] is False
    a, b = compiled['files'], python['files']
    assert isinstance(a, dict) and isinstance(b, dict)
    differ = [path for path in a if a[path] != b[path]]
    assert not differ, f'{len(differ)} of {len(a)} files differ, e.g. {differ[:5]}'


def test_only_extension_modules_count_as_compiled() -> None:
    import importlib.machinery
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    assert _native.is_extension('/x/sdf_tools/transform' + suffix)
    # A sourceless install's bytecode is Python: Transform must not take the compiled path.
    for path in ('/x/sdf_tools/transform.py', '/x/sdf_tools/transform.pyc', '', None):
        assert not _native.is_extension(path)
