"""Reports of the bundled example and of real robots, opened in headless Chromium.

For each page: no console error, the 3D canvas is not blank, every link name
is on the page, the problem list names each link the file gives no mass,
and moving a joint slider changes what the canvas shows. Screenshots are
kept (their directory is printed; run pytest with ``-s`` to see it).
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from differential.corpus import RobotFile, corpus, corpus_id
from support.chromium import Browser

from report.browser_checks import (
    DEMO,
    EXAMPLES,
    arms_world,
    differing,
    drawn_fraction,
    link_names,
    massless_names,
    moving_joints,
    page_text,
    pixels,
    view_clip,
    write_page,
)

#: A fair sample: an arm with massless links, junk inertias, a world of models, a
#: 60-link humanoid and a 52-link robot whose meshes are decimated, an arm whose
#: meshes are decimated, and an 82-link PR2.
SAMPLE = (
    'example-robot-data/panda_description/urdf/panda.urdf',
    'pybullet_data/r2d2.urdf',
    'pybullet_data/kuka_iiwa/kuka_world.sdf',
    'example-robot-data/talos_data/robots/talos_full_v2.urdf',
    'example-robot-data/ur_description/urdf/ur5_robot.urdf',
    'example-robot-data/pr2_description/urdf/pr2.urdf',
    'gym-ignition-models/iCubGazeboV2_5/icub.urdf',
)
#: Pages must stay small enough to open quickly (the issue: a few MB at most).
MAX_PAGE_BYTES = 5_000_000


def _sample() -> list[RobotFile]:
    """The sample above; every file of the corpus with ``SDF_TOOLS_REPORT_ALL=1`` (about an hour)."""
    if os.environ.get('SDF_TOOLS_REPORT_ALL'):
        return corpus()
    by_id = {corpus_id(e): e for e in corpus()}
    return [by_id[i] for i in SAMPLE if i in by_id]


def _move_a_joint(browser: Browser, before: np.ndarray, clip: dict[str, float],
                  shot: Path) -> int:
    """Move sliders one at a time to an end of their range until the view changes."""
    count = int(browser.evaluate('document.querySelectorAll("#sliders input").length'))
    for n in range(min(count, 8)):
        browser.evaluate(
            f'(() => {{ const i = document.querySelectorAll("#sliders input")[{n}];'
            ' i.value = Math.abs(i.max) > Math.abs(i.min) ? i.max : i.min;'
            ' i.dispatchEvent(new Event("input")); })()')
        browser.evaluate('new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))')
        browser.screenshot(shot, clip)
        changed = differing(before, pixels(shot))
        if changed:
            return changed
    return 0


def check_page(browser: Browser, page: Path, source: Path, shots: Path, name: str,
               allow_empty: bool = False) -> None:
    """Open ``page`` and assert everything the issue asks of it.

    ``allow_empty``: a page with nothing to draw (the file could not be read, or
    libsdformat keeps no link of it) passes when it lists errors (the whole corpus
    holds such files; the sample does not).
    """
    assert page.stat().st_size < MAX_PAGE_BYTES, f'{page}: {page.stat().st_size} bytes'
    browser.events.clear()
    browser.open(page)
    assert browser.console_errors() == []
    if allow_empty and not browser.evaluate('Boolean(document.getElementById("view"))'):
        assert browser.evaluate('document.querySelectorAll("table.problems tr.error").length') > 0
        return
    clip = view_clip(browser)
    first = browser.screenshot(shots / f'{name}.png', clip)
    assert drawn_fraction(first) > 0.01, f'blank canvas: {first}'
    shown = browser.evaluate('Array.from(document.querySelectorAll("#links-table tbody td:first-child"))'
                             '.map(td => td.textContent)')
    body = page_text(browser)
    for n in link_names(source):
        assert any(s == n or s.endswith('::' + n) for s in shown), f'link {n} not in the links table'
        assert n in body
    rows = browser.evaluate('Array.from(document.querySelectorAll("table.problems tbody tr"))'
                            '.map(r => [r.cells[2].textContent, r.cells[3].textContent])')
    for n in massless_names(source):
        assert any(s == n or s.endswith('::' + n) or f'[{n}]' in what for s, what in rows), \
            f'{n} not in the problem list'
    if not moving_joints(source):
        assert browser.evaluate('document.querySelectorAll("#sliders input").length') == 0
        return
    before = pixels(first)
    assert _move_a_joint(browser, before, clip, shots / f'{name}_moved.png') > 0, 'no slider moved the view'


@pytest.mark.parametrize('example', EXAMPLES, ids=lambda p: p.name)
def test_bundled_example_page(example: Path, browser: Browser, shots: Path, tmp_path: Path) -> None:
    out = tmp_path / 'page.html'
    run = write_page(example, out, {})
    assert run.returncode == 0, run.stderr
    source = example / 'model.sdf' if example.is_dir() else example  # a model directory: its model.sdf
    check_page(browser, out, source, shots, example.name)


@pytest.mark.parametrize('entry', _sample(), ids=corpus_id)
def test_real_robot_page(entry: RobotFile, browser: Browser, shots: Path, tmp_path: Path) -> None:
    out = tmp_path / 'report.html'
    run = write_page(entry.path, out, entry.env)
    assert run.returncode in (0, 1), run.stderr  # 1: libsdformat finds errors; the page is written
    check_page(browser, out, entry.path, shots, corpus_id(entry).replace('/', '__'),
               allow_empty=bool(os.environ.get('SDF_TOOLS_REPORT_ALL')))


def test_large_world_page(browser: Browser, shots: Path, tmp_path: Path) -> None:
    """A world of 40 models and 120 links: small, readable, and every check holds."""
    world = tmp_path / 'arms.sdf'
    world.write_text(arms_world(40))
    out = tmp_path / 'arms.html'
    run = write_page(world, out, {})
    assert run.returncode == 0, run.stderr
    assert out.stat().st_size < 1_500_000
    check_page(browser, out, world, shots, 'large_world')
    assert browser.evaluate('document.querySelectorAll("#sliders input").length') == 80
    assert browser.evaluate('document.querySelectorAll(".tree .node").length') == 120


def test_tree_click_highlights_and_toggles_hide(browser: Browser, shots: Path, tmp_path: Path) -> None:
    out = tmp_path / 'demo.html'
    assert write_page(DEMO, out, {}).returncode == 0
    browser.open(out)
    clip = view_clip(browser)
    before = pixels(browser.screenshot(shots / 'demo_plain.png', clip))
    browser.evaluate('document.querySelector(".tree .node[data-link=\'0\']")'
                     '.dispatchEvent(new MouseEvent("click", {bubbles: true}))')
    assert browser.evaluate('document.querySelector("#links-table tr[data-link=\'0\']")'
                            '.classList.contains("sel")')
    browser.evaluate('new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))')
    lit = pixels(browser.screenshot(shots / 'demo_highlight.png', clip))
    assert differing(before, lit) > 0
    browser.evaluate('sdfReport.highlight(-1)')
    at = browser.evaluate('sdfReport.screenOf(0)')  # the chassis, drawn as a box around its origin
    for kind in ('mousePressed', 'mouseReleased'):
        browser.send('Input.dispatchMouseEvent', {'type': kind, 'x': at['x'], 'y': at['y'],
                                                   'button': 'left', 'clickCount': 1}, session=True)
    assert browser.evaluate('document.getElementById("picked").textContent') == 'rover::chassis'
    assert browser.evaluate('document.querySelector("#links-table tr[data-link=\'0\']")'
                            '.classList.contains("sel")')
    browser.evaluate('(() => { const f = document.getElementById("filter"); f.value = "mast";'
                     ' f.dispatchEvent(new Event("input")); })()')
    visible = browser.evaluate('Array.from(document.querySelectorAll("#links-table tbody tr"))'
                               '.filter(r => r.offsetParent !== null).map(r => r.cells[0].textContent)')
    assert visible == ['rover::mast::mast']
    browser.evaluate('document.querySelector("input[data-layer=visual]").click()')
    browser.evaluate('new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))')
    hidden = pixels(browser.screenshot(shots / 'demo_no_visual.png', clip))
    assert differing(lit, hidden) > 0
    assert browser.console_errors() == []


def test_sample_is_installed() -> None:
    """The sample above exists (the registry packages are pinned in requirements.txt)."""
    by_id = {corpus_id(e) for e in corpus()}
    assert [i for i in SAMPLE if i not in by_id] == []
