"""Compile the hot modules with mypyc for a checkout: ``python -m sdf_tools.native_build``.

``python -m sdf_tools.native_build`` builds, ``... status`` says whether the checkout's build
is current. What is compiled and how it is used: ``sdf_tools/_native.py``.
"""
from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from sdf_tools._native import (
    FORMAT,
    MANIFEST,
    MODULES,
    PACKAGE_DIR,
    _current,
    _digest,
    _sources,
    native_dir,
)


def build(package_dir: Path = PACKAGE_DIR, out: Path | None = None) -> Path:
    """Compile ``MODULES`` with mypyc into ``out`` (default: ``native_dir()``); return it.

    The compilation is setup.py's own (``SDF_TOOLS_COMPILE=1``, ``build_ext --inplace``),
    made in a scratch copy of the checkout, so the checkout never holds a half-made build;
    then ``out`` is replaced as a whole. Raises ``RuntimeError`` with mypyc's output on
    failure, or when ``package_dir`` is not in a checkout (no setup.py beside it).
    """
    out = out or native_dir(package_dir)
    root = package_dir.parent  # setup.py, pyproject.toml (mypy's settings), package.xml ...
    if not (root / 'setup.py').is_file():
        raise RuntimeError(f'no setup.py beside {package_dir}: not a source checkout')
    sources = _sources(package_dir)
    with tempfile.TemporaryDirectory(prefix='sdf_tools_native_') as tmp:
        work = Path(tmp) / 'src'
        shutil.copytree(root, work, ignore=shutil.ignore_patterns(
            'test', 'build', '.native', '*.egg-info', '__pycache__', '.*_cache', '.hypothesis'))
        proc = subprocess.run(
            [sys.executable, 'setup.py', '-q', 'build_ext', '--inplace'],
            cwd=work, capture_output=True, text=True, check=False,
            env={**os.environ, 'SDF_TOOLS_COMPILE': '1'})
        if proc.returncode != 0:
            raise RuntimeError(f'mypyc failed ({proc.returncode}):\n{proc.stdout[-4000:]}'
                               f'{proc.stderr[-4000:]}')
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        stage = Path(tmp) / 'native'
        modules: dict[str, str] = {}
        for so in sorted(work.rglob('*' + suffix)):
            if 'build' in so.relative_to(work).parts[:1]:
                continue  # mypyc's intermediate folder
            rel = so.relative_to(work)
            name = '.'.join((*rel.parts[:-1], rel.name[:-len(suffix)]))
            (stage / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(so, stage / rel)
            modules[name] = rel.as_posix()
        expected = {'sdf_tools.' + m.replace('/', '.') for m in MODULES}
        if not expected <= set(modules):
            raise RuntimeError(f'mypyc built no module for {sorted(expected - set(modules))}')
        manifest = {
            'format': FORMAT,
            'python': sys.version,
            'modules': modules,
            'sources': {p.relative_to(package_dir).as_posix():
                        [p.stat().st_size, p.stat().st_mtime_ns, _digest(p)] for p in sources},
        }
        (stage / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding='utf-8')
        # Copied next to ``out`` and swapped in by renames: a process importing meanwhile
        # finds the old build, none (and runs as Python) or the new one, never half of one.
        out.parent.mkdir(parents=True, exist_ok=True)
        fresh = out.with_name(f'{out.name}.new-{os.getpid()}')
        old = out.with_name(f'{out.name}.old-{os.getpid()}')
        shutil.copytree(stage, fresh)
        if out.exists():
            out.rename(old)
        fresh.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m sdf_tools.native_build [status]``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        try:
            where = build()
        except (RuntimeError, OSError) as exc:
            print(f'sdf_tools native build failed: {exc}', file=sys.stderr)
            return 1
        print(f'sdf_tools: {len(MODULES)} modules compiled with mypyc into {where}')
        return 0
    if args == ['status']:
        where = native_dir()
        try:
            manifest = json.loads((where / MANIFEST).read_text(encoding='utf-8'))
            fresh = manifest.get('format') == FORMAT and _current(manifest, PACKAGE_DIR)
        except (OSError, ValueError, AttributeError):
            print(f'no build in {where}: pure Python')
            return 1
        print(f'{where}: ' + ('current, in use unless SDF_TOOLS_NATIVE=0' if fresh else
                              'stale (a source changed since): pure Python until rebuilt'))
        return 0 if fresh else 1
    print('usage: python -m sdf_tools.native_build [status]', file=sys.stderr)
    return 2




if __name__ == '__main__':
    sys.exit(main())
