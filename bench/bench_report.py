"""bench/bench_report.py: how fast `sdf_tools report` writes a page, and how fast Chromium opens it.

For generated worlds of N two-joint arms (3 links each) and, when installed, big real robots:

* **write**: `build_report` + `render_page`, against `load_file` + `inspect_json` of the same
  file in the same run (the report's own cost on top of reading the file);
* **open**: headless Chromium, from navigation to the first frame drawn (`sdfReportReady`),
  against a reference page measured in the same browser: the same three.js bundle and an empty
  scene (the cost of our scene, data and tables on top of parsing three.js).

Prints one row per input with both ratios and the page size. Usage:

    ./dev run python bench/bench_report.py                 # N = 10, 100, 300 and the real robots
    ./dev run python bench/bench_report.py --sizes 10,1000 --no-robots
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / 'sdf_tools'), str(ROOT / 'sdf_tools' / 'test')]

from differential.corpus import corpus, corpus_id
from report.browser_checks import arms_world
from sdf_tools.load import load_file
from sdf_tools.report.build import build_report
from sdf_tools.report.page import render_page
from sdf_tools.report.threejs import threejs_source
from sdf_tools.resolved import inspect_json
from support.chromium import Browser

ROBOTS = ('example-robot-data/talos_data/robots/talos_full_v2.urdf',
          'example-robot-data/pr2_description/urdf/pr2.urdf',
          'gym-ignition-models/iCubGazeboV2_5/icub.urdf')
REFERENCE = ('<!DOCTYPE html><html><body><div id="v" style="width:800px;height:560px"></div>'
             '<script>{three}</script><script>const r = new THREE.WebGLRenderer();'
             'document.getElementById("v").appendChild(r.domElement); r.setSize(800, 560);'
             'r.render(new THREE.Scene(), new THREE.PerspectiveCamera());'
             'window.sdfReportReady = true;</script></body></html>')


def best(fn: object, repeat: int) -> float:
    """The best wall time of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t)
    return min(times)


def open_time(browser: Browser, page: Path, repeat: int) -> float:
    return best(lambda: browser.open(page, timeout=600), repeat)


def measure(name: str, path: Path, browser: Browser, reference: float, out: Path,
            repeat: int) -> None:
    read = best(lambda: inspect_json(load_file(str(path)), str(path)), repeat)
    page = out / f'{name.replace("/", "_")}.html'
    write = best(lambda: page.write_text(render_page(build_report(str(path)))), repeat)
    opened = open_time(browser, page, repeat)
    errors = browser.console_errors()
    print(f'{name:60s} {read:8.3f} {write:8.3f} {write / read:7.1f}x {opened:8.3f} '
          f'{opened / reference:7.1f}x {page.stat().st_size / 1e6:7.2f}'
          + (f'  console errors: {errors}' if errors else ''), flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--sizes', default='10,100,300', help='numbers of arms in the generated worlds')
    ap.add_argument('--no-robots', action='store_true', help='skip the real robots')
    ap.add_argument('--repeat', type=int, default=3)
    ns = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, Browser(1400, 1000) as browser:
        out = Path(tmp)
        ref_page = out / 'reference.html'
        ref_page.write_text(REFERENCE.format(three=threejs_source()))
        reference = open_time(browser, ref_page, ns.repeat)
        print(f'reference page (three.js, empty scene) opens in {reference:.3f} s')
        print(f'{"input":60s} {"read s":>8s} {"write s":>8s} {"ratio":>8s} {"open s":>8s} '
              f'{"ratio":>8s} {"MB":>7s}')
        for n in (int(x) for x in ns.sizes.split(',')):
            world = out / f'arms_{n}.sdf'
            world.write_text(arms_world(n))
            measure(f'world of {n} arms ({3 * n} links)', world, browser, reference, out, ns.repeat)
        if not ns.no_robots:
            entries = {corpus_id(e): e for e in corpus()}
            for rid in ROBOTS:
                if rid in entries:
                    os.environ.update(entries[rid].env)
                    measure(rid, entries[rid].path, browser, reference, out, ns.repeat)
    return 0


if __name__ == '__main__':
    sys.exit(main())
