#!/usr/bin/env python3
"""Open the report page of every model under some directories and check its first view.

A manual check, not a test: the tests hold the models packages ship; this sweeps
models that no package ships, as a new user would meet them (libsdformat's own
test models, sdformat_urdf's test models: ``git archive`` them into a directory).
Each file gets the checks of ``test_first_view_in_browser.check_first_view``
(the model covers a meaningful part of the canvas without the grid, the grid is
there and sized to the model, every link origin is inside the view, each problem
once under its own code, the verdicts match the list, sliders at their start);
it prints each failure and a summary. ``SDF_PATH`` is set to each file's
directory and its parents, as libsdformat's tests set it.

    ./dev run python tools/report_first_view_sweep.py DIR [DIR ...] [--shots OUT]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parents[1] / 'sdf_tools' / 'test'
sys.path.insert(0, str(TEST_DIR))
sys.path.insert(0, str(TEST_DIR.parent))

from report.test_first_view_in_browser import check_first_view
from report.test_page_in_browser import write_page
from support.chromium import Browser, BrowserError


def _files(dirs: list[Path]) -> list[Path]:
    out: list[Path] = []
    for d in dirs:
        out += sorted(p for p in d.rglob('*') if p.suffix in ('.sdf', '.urdf', '.world'))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('dirs', nargs='+', type=Path)
    parser.add_argument('--shots', type=Path, default=None, help='keep the screenshots here')
    ns = parser.parse_args()
    shots = ns.shots or Path(tempfile.mkdtemp(prefix='first_view_'))
    shots.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix='first_view_pages_'))
    failed, no_view, fractions = 0, 0, []
    with Browser(1400, 1000) as browser:
        for n, path in enumerate(_files(ns.dirs)):
            env = {'SDF_PATH': os.pathsep.join(str(p) for p in (path.parent, *path.parents[:3]))}
            page = work / f'{n}.html'
            run = write_page(path, page, env)
            if not page.exists():
                print(f'NO PAGE {path}: exit {run.returncode}: {run.stderr[-200:]}')
                failed += 1
                continue
            browser.events.clear()
            try:
                browser.open(page)
                if not browser.evaluate('Boolean(document.getElementById("view"))'):
                    no_view += 1  # nothing libsdformat keeps to draw: the page lists the errors
                    continue
                seen = check_first_view(browser, page, shots, f'{n}_{path.stem}')
                if seen['size'] == 0:
                    no_view += 1  # no link could be placed: the errors say why
                else:
                    fractions.append(seen['model'])
            except (AssertionError, BrowserError) as err:
                failed += 1
                print(f'FAIL {path}: {str(err).splitlines()[0][:300]}')
    fractions.sort()
    print(f'{len(fractions) + failed + no_view} files: {len(fractions)} pass, {failed} fail, '
          f'{no_view} without a view (unreadable, no link, or none placed); model fraction min '
          f'{fractions[0] if fractions else 0:.4f}, median '
          f'{fractions[len(fractions) // 2] if fractions else 0:.4f}; screenshots in {shots}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
