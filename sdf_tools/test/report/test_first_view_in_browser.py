"""The first view, in headless Chromium: the model at first sight, on a grid, each problem once.

On the bundled examples, on test models without meshes (libsdformat's own
example from Debian's sdformat-doc, DART's test models from dart-doc, and
models built here) and on real robots with meshes, every page must:

* show the model: with the ground grid hidden, a meaningful fraction of the 3D
  canvas is not background (a model without geometry is drawn as link frames
  and its kinematic tree), and every placed link origin is inside the view;
* show the ground grid, sized to the model (cells of 1/25 to 1/4 of its extent);
* say libsdformat's verdict and our checks' counts apart, each matching the
  problem list; list each problem once, never under the generic ``WARNING``
  code; never a link both as massless and as "no <inertial>";
* start each joint slider at its initial position, inside its range, showing
  the value in the joint's unit.

Screenshots are kept (``SDF_TOOLS_REPORT_SHOTS=DIR``; else a temporary directory).
"""
from __future__ import annotations

import math
import os
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from differential.corpus import RobotFile, corpus, corpus_id
from support.chromium import Browser

from report.browser_checks import EXAMPLES, differing, drawn_fraction, pixels, view_clip, write_page

#: The model, drawn without the grid, covers at least this fraction of the canvas: a bare
#: link (one frame and its centre of mass) reaches about 1 %; before, four of eight such
#: models stayed under 0.5 % and read as an empty box.
MIN_MODEL = 0.008
#: The grid changes at least this many pixels (a model may cover most of it).
MIN_GRID_PIXELS = 1500
#: libsdformat's own example, shipped by Debian's sdformat-doc: one link, nothing else.
SDFORMAT_DOC = Path('/usr/share/doc/sdformat-doc/examples/simple.sdf')
#: DART's test models without meshes (dart-doc), and real robots with meshes.
NO_MESHES = ('dart-doc/sdf/double_pendulum.world', 'dart-doc/sdf/test/issue1193_revolute_test.sdf',
             'dart-doc/sdf/test/force_torque_test.world', 'dart-doc/urdf/test/primitive_geometry.urdf',
             'dart-doc/urdf/test/joint_properties.urdf')
WITH_MESHES = ('example-robot-data/panda_description/urdf/panda.urdf', 'pybullet_data/r2d2.urdf',
               'example-robot-data/talos_data/robots/talos_full_v2.urdf',
               'pybullet_data/kuka_iiwa/kuka_world.sdf')
#: Codes only our checks give as errors (the reader's never are): see sdf_tools.lint.
LINT_ERRORS = {'MASS_NOT_POSITIVE', 'INERTIA_NOT_POSITIVE_DEFINITE', 'INERTIA_TRIANGLE_INEQUALITY'}

#: A model without any geometry: a double pendulum hanging from a fixed base, a joint
#: starting at 0.5 rad, a continuous one, a slide of 0.1 m, and a frame 100 m away.
BARE = """<?xml version="1.0"?>
<sdf version="1.8">
<model name="bare">
  <link name="base"/>
  <link name="upper"><pose>0 0 1 0 0 0</pose>
    <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.01</izz></inertia></inertial></link>
  <link name="lower"><pose>0 0 2 0 0 0</pose>
    <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.01</izz></inertia></inertial></link>
  <link name="slider"><pose>0 0 2.5 0 0 0</pose>
    <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.01</izz></inertia></inertial></link>
  <joint name="fixed" type="fixed"><parent>world</parent><child>base</child></joint>
  <joint name="shoulder" type="revolute"><parent>base</parent><child>upper</child>
    <axis><xyz>1 0 0</xyz><limit><lower>-2</lower><upper>2</upper></limit>
    <initial_position>0.5</initial_position></axis></joint>
  <joint name="elbow" type="continuous"><parent>upper</parent><child>lower</child>
    <axis><xyz>1 0 0</xyz></axis></joint>
  <joint name="slide" type="prismatic"><parent>lower</parent><child>slider</child>
    <axis><xyz>0 0 1</xyz><limit><lower>0</lower><upper>0.3</upper></limit>
    <initial_position>0.1</initial_position></axis></joint>
  <frame name="far_away"><pose>100 0 0 0 0 0</pose></frame>
</model>
</sdf>
"""


def _frame(browser: Browser) -> None:
    browser.evaluate('new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))')


def _rows(browser: Browser) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = browser.evaluate(
        'Array.from(document.querySelectorAll("table.problems tbody tr")).map(r => ({'
        'severity: r.cells[0].textContent, code: r.cells[1].textContent, subject: r.cells[2].textContent,'
        'what: r.cells[3].textContent, where: r.cells[4].textContent, source: r.dataset.source,'
        'count: r.dataset.count}))')
    return rows


def _check_problems_once(browser: Browser) -> None:
    rows = _rows(browser)
    keys = [(r['code'], r['subject'], r['what'], r['where']) for r in rows]
    assert [k for k, n in Counter(keys).items() if n > 1] == [], 'a problem listed twice'
    assert all(r['code'] and r['code'] != 'WARNING' for r in rows), 'a line without its own code'
    # One fact, one line: a link is massless or lacks its <inertial>, never said both ways.
    massless = {r['subject'].rsplit('::', 1)[-1] for r in rows if r['code'] == 'MASSLESS_LINK'}
    for name in massless:
        assert not [r for r in rows if r['code'] != 'MASSLESS_LINK'
                    and (f'link [{name}] has no <inertial>' in r['what']
                         or f'link [{name}] has mass 0' in r['what'])], name
    uris = [r['what'].split('mesh [', 1)[1].split(']', 1)[0] for r in rows
            if r['code'] == 'MESH_UNRESOLVED']
    assert len(uris) == len(set(uris)), 'a missing mesh file listed more than once'
    # The header's two verdicts match the list: libsdformat's errors, and our checks'.
    said = browser.evaluate('document.getElementById("verdict-libsdformat").textContent')
    checks = browser.evaluate('document.getElementById("verdict-checks").textContent')
    reader_errors = sum(int(r['count']) for r in rows if r['source'] == 'reader' and r['severity'] == 'error')
    assert ('invalid' in said) == (reader_errors > 0), said
    if reader_errors:
        assert f'{reader_errors} errors' in said, said
    ours = Counter(r['severity'] for r in rows if r['source'] == 'check')
    assert f'{ours["error"]} errors, {ours["warning"]} warnings' in checks, checks
    assert f'{ours["note"]} notes' in checks, checks
    assert not [r for r in rows if r['code'] in LINT_ERRORS and r['source'] == 'reader']


def _check_sliders(browser: Browser) -> None:
    sliders = browser.evaluate(
        'Array.from(document.querySelectorAll("#sliders input")).map(i => ({min: Number(i.min),'
        ' max: Number(i.max), value: Number(i.value), initial: Number(i.dataset.initial),'
        ' shown: i.nextSibling.textContent}))')
    for s in sliders:
        assert s['min'] <= s['initial'] <= s['max'], s  # a joint locked by its limits: min = max
        assert s['value'] == pytest.approx(s['initial'], abs=(s['max'] - s['min']) / 1000), s
        assert s['shown'].endswith((' rad', ' m')), s


def check_first_view(browser: Browser, page: Path, shots: Path, name: str) -> dict[str, float]:
    """Open ``page`` and assert what the first view must show; return its measures."""
    browser.events.clear()
    browser.open(page)
    assert browser.console_errors() == []
    if not browser.evaluate('sdfReport.groups.some(g => g.visible)'):
        # No link could be placed (an invalid file): the errors say why, nothing to frame.
        assert [r for r in _rows(browser) if r['severity'] == 'error' and r['source'] == 'reader']
        _check_problems_once(browser)
        return {'model': 0.0, 'grid': 0, 'size': 0.0, 'cell': 0.0}
    clip = view_clip(browser)
    with_grid = browser.screenshot(shots / f'{name}.png', clip)
    browser.evaluate('sdfReport.layer("grid", false)')
    _frame(browser)
    bare = browser.screenshot(shots / f'{name}_model.png', clip)
    model = drawn_fraction(bare)
    assert model > MIN_MODEL, f'{name}: the model covers {model:.4f} of the view: {bare}'
    grid = differing(pixels(with_grid), pixels(bare))
    assert grid > MIN_GRID_PIXELS, f'{name}: no grid to see ({grid} pixels): {with_grid}'
    size, cell = browser.evaluate('[sdfReport.size, sdfReport.gridCell]')
    assert size / 25 <= cell <= size / 4, (size, cell)
    # The camera frames the links: every placed link with geometry (every placed link, in a
    # model without any) has its origin drawn inside the view.
    outside = browser.evaluate(
        '(() => { const v = document.querySelector("#view canvas").getBoundingClientRect();'
        ' const bare = !sdfReport.groups.some(g => g.userData.drawn);'
        ' return sdfReport.groups.map((g, i) => [i, g.visible && (bare || g.userData.drawn),'
        '  sdfReport.screenOf(i)])'
        '  .filter(([i, seen, p]) => seen && (p.x < v.left - 1 || p.x > v.right + 1'
        '   || p.y < v.top - 1 || p.y > v.bottom + 1)).map(([i]) => sdfReport.links[i]); })()')
    assert outside == [], f'{name}: links outside the first view: {outside[:5]}'
    browser.evaluate('sdfReport.layer("grid", true)')
    _check_problems_once(browser)
    _check_sliders(browser)
    return {'model': model, 'grid': grid, 'size': size, 'cell': cell}


def _page(source: Path, tmp_path: Path, env: dict[str, str] | None = None,
          options: tuple[str, ...] = ()) -> Path:
    out = tmp_path / 'page.html'
    run = write_page(source, out, env or {}, options)
    assert run.returncode in (0, 1), run.stderr
    return out


@pytest.mark.parametrize('example', EXAMPLES, ids=lambda p: p.name)
def test_bundled_example_first_view(example: Path, browser: Browser, shots: Path, tmp_path: Path) -> None:
    check_first_view(browser, _page(example, tmp_path), shots, f'first_{example.name}')


def test_model_without_geometry_reads(browser: Browser, shots: Path, tmp_path: Path) -> None:
    source = tmp_path / 'bare.sdf'
    source.write_text(BARE)
    seen = check_first_view(browser, _page(source, tmp_path), shots, 'first_bare')
    # The frame 100 m away is not framed: the view is sized to the 2.5 m pendulum.
    assert seen['size'] < 10
    # Link frames and the tree between joint origins are drawn; each link's name on hover.
    assert browser.evaluate('sdfReport.groups.every(g => g.children.some(c => c.visible))')
    for i, name in enumerate(['bare::base', 'bare::upper', 'bare::lower', 'bare::slider']):
        at = browser.evaluate(f'sdfReport.screenOf({i})')
        browser.send('Input.dispatchMouseEvent', {'type': 'mouseMoved', 'x': at['x'], 'y': at['y']},
                     session=True)
        _frame(browser)
        assert browser.evaluate('document.getElementById("hover").textContent') == name
    sliders = browser.evaluate(
        'Array.from(document.querySelectorAll("#sliders .slider")).map(r => [r.firstChild.textContent,'
        ' Number(r.children[1].min), Number(r.children[1].max), Number(r.children[1].value),'
        ' r.lastChild.textContent])')
    by_name = {s[0]: s[1:] for s in sliders}
    assert by_name['bare::shoulder'][:3] == [-2, 2, 0.5] and by_name['bare::shoulder'][3] == '0.500 rad'
    lo, hi, value, shown = by_name['bare::elbow']
    assert (lo, hi, value, shown) == (pytest.approx(-math.pi), pytest.approx(math.pi), 0,
                                      '0.000 rad')
    assert by_name['bare::slide'][:3] == [0, 0.3, 0.1]
    assert by_name['bare::slide'][3] == '0.1000 m'
    # The model is drawn at its initial positions: the slider's link sits 0.1 m up the slide,
    # swung with the shoulder by 0.5 rad about x through (0, 0, 1).
    z = browser.evaluate('(() => { const e = sdfReport.groups[3].matrix.elements;'
                         ' return [e[12], e[13], e[14]]; })()')
    assert z == [pytest.approx(0.0, abs=1e-9), pytest.approx(-1.6 * math.sin(0.5), abs=1e-9),
                 pytest.approx(1 + 1.6 * math.cos(0.5), abs=1e-9)]


def test_joint_positions_option_starts_the_sliders(browser: Browser, shots: Path,
                                                   tmp_path: Path) -> None:
    """``--joint-positions`` moves the sliders' start off ``<initial_position>``."""
    source = tmp_path / 'bare.sdf'
    source.write_text(BARE)
    page = _page(source, tmp_path, options=('--joint-positions', 'bare::shoulder=-1.25,bare::slide=0.25'))
    check_first_view(browser, page, shots, 'first_bare_positions')
    sliders = browser.evaluate(
        'Array.from(document.querySelectorAll("#sliders .slider")).map(r => [r.firstChild.textContent,'
        ' Number(r.children[1].value), Number(r.children[1].dataset.initial)])')
    by_name = {s[0]: s[1:] for s in sliders}
    assert by_name['bare::shoulder'] == [-1.25, -1.25]
    assert by_name['bare::slide'] == [0.25, 0.25]
    assert by_name['bare::elbow'] == [0, 0]  # not named: its <initial_position> (none: 0)


def test_libsdformats_bare_link_reads(browser: Browser, shots: Path, tmp_path: Path) -> None:
    """libsdformat's example model (sdformat-doc): one link, no inertial, no geometry."""
    if not SDFORMAT_DOC.is_file():
        msg = 'sdformat-doc is not installed (./dev installs it)'
        if os.environ.get('SDF_TOOLS_REQUIRE_TOOLS') or shutil.which('dpkg') is None:
            pytest.fail(msg)
        pytest.skip(msg)
    local = tmp_path / 'simple.sdf'
    shutil.copy(SDFORMAT_DOC, local)
    check_first_view(browser, _page(local, tmp_path), shots, 'first_sdformat_simple')


def _entries(ids: tuple[str, ...]) -> list[RobotFile]:
    by_id = {corpus_id(e): e for e in corpus()}
    return [by_id[i] for i in ids if i in by_id]


def test_the_collections_are_installed() -> None:
    """The models these tests open are there (dart-doc by ./dev, the rest pinned on PyPI)."""
    have = {corpus_id(e) for e in corpus()}
    assert [i for i in NO_MESHES + WITH_MESHES if i not in have] == []
    assert subprocess.run(['dpkg', '-s', 'sdformat-doc'], capture_output=True, check=False).returncode == 0


@pytest.mark.parametrize('entry', _entries(NO_MESHES + WITH_MESHES), ids=corpus_id)
def test_collection_first_view(entry: RobotFile, browser: Browser, shots: Path, tmp_path: Path) -> None:
    check_first_view(browser, _page(entry.path, tmp_path, entry.env), shots,
                     'first_' + corpus_id(entry).replace('/', '__'))


@pytest.mark.parametrize('text', ['<sdf version="1.9"><model name="m">',
                                  '<?xml version="1.0"?><sdf version="1.9"><world name="w"/></sdf>'],
                         ids=['unreadable', 'no_link'])
def test_page_without_a_view_runs_its_script(text: str, browser: Browser, tmp_path: Path) -> None:
    """No model to draw (unreadable, or a world without links): the page still works, no error."""
    source = tmp_path / 'empty.sdf'
    source.write_text(text)
    out = tmp_path / 'page.html'
    write_page(source, out, {})
    browser.events.clear()
    browser.open(out)
    assert browser.console_errors() == []
    assert browser.evaluate('document.getElementById("view")') is None
    assert browser.evaluate('document.getElementById("verdict-libsdformat").textContent')


def test_floating_model_still_has_its_grid(browser: Browser, shots: Path, tmp_path: Path) -> None:
    """A model 10 m up (libsdformat's placement-frame test models): the grid moves under it."""
    source = tmp_path / 'floating.sdf'
    source.write_text(BARE.replace('<model name="bare">', '<model name="bare"><pose>0 0 10 0 0 0</pose>')
                      .replace('<parent>world</parent>', '<parent>base</parent>')
                      .replace('<link name="base"/>', '<link name="base"/><link name="stand"/>')
                      .replace('<child>base</child>', '<child>stand</child>'))
    check_first_view(browser, _page(source, tmp_path), shots, 'first_floating')
    assert 'at z = 10 m' in browser.evaluate('document.getElementById("scale").textContent')


def test_far_off_link_without_geometry_is_not_framed(browser: Browser, shots: Path, tmp_path: Path) -> None:
    """A sensor link 333 m away (libsdformat's urdf_gazebo_extensions): the view stays on the robot."""
    source = tmp_path / 'far.urdf'
    source.write_text(
        '<?xml version="1.0"?><robot name="r"><link name="base"><inertial><mass value="1"/>'
        '<inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>'
        '<visual><geometry><box size="0.4 0.4 0.4"/></geometry></visual></link>'
        '<link name="sensor"/><joint name="mount" type="fixed"><parent link="base"/>'
        '<child link="sensor"/><origin xyz="333 0 0"/></joint></robot>')
    seen = check_first_view(browser, _page(source, tmp_path), shots, 'first_far_sensor')
    assert seen['size'] < 2 and seen['model'] > 0.05


def test_joint_without_axis_does_not_break_the_view(browser: Browser, shots: Path, tmp_path: Path) -> None:
    """A prismatic joint without <axis> (sdformat_urdf's test models): drawn, no slider, no error."""
    box = '<visual name="v"><geometry><box><size>0.1 0.2 0.4</size></box></geometry></visual>'
    source = tmp_path / 'no_axis.sdf'
    source.write_text(f'<?xml version="1.0"?><sdf version="1.7"><model name="m"><link name="a">{box}</link>'
                      f'<link name="b"><pose>0 0 1 0 0 0</pose>{box}</link><joint name="j" type="prismatic">'
                      '<parent>a</parent><child>b</child></joint></model></sdf>')
    check_first_view(browser, _page(source, tmp_path), shots, 'first_no_axis')
    assert browser.evaluate('document.querySelectorAll("#sliders input").length') == 0
