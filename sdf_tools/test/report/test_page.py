"""The page's structure: problems first, scripts inline, names escaped wherever they go."""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from sdf_tools.report import build_report
from sdf_tools.report.page import render_page
from sdf_tools.report.threejs import threejs_source

Writer = Callable[..., Path]
NASTY = '&lt;/script&gt;&lt;b&gt;x'  # the link name </script><b>x, as XML writes it


def test_threejs_comes_from_trimesh_without_its_viewer() -> None:
    src = threejs_source()
    assert src.lstrip().startswith('/**') and 'Three.js Authors' in src[:200]
    assert 'THREE.GLTFLoader=GLTFLoader' in src and 'THREE.TrackballControls' in src
    assert 'tracklight' not in src and '</script' not in src.lower()


def test_problems_come_first_and_names_are_escaped(write_sdf: Writer) -> None:
    path = write_sdf(f'<model name="m"><link name="{NASTY}"/><link name="b"><inertial><mass>1</mass>'
                     '<inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial>'
                     '<visual name="v"><geometry><box><size>1 1 1</size></box></geometry></visual></link>'
                     '</model>')
    html = render_page(build_report(str(path)))
    assert html.index('id="problems"') < html.index('id="viewer"') < html.index('id="links-table"')
    assert '</script><b>' not in html
    assert html.count('&lt;/script&gt;&lt;b&gt;x') >= 3  # problem list, tree, links table
    data = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', html, re.S)
    assert data is not None
    parsed = json.loads(data.group(1))
    assert [link['name'] for link in parsed['links']] == ['m::</script><b>x', 'm::b']
    assert [s['node'] for s in parsed['shapes']] == ['s0']


def test_unreadable_file_page_has_no_viewer(tmp_path: Path) -> None:
    path = tmp_path / 'x.sdf'
    path.write_text('not xml')
    html = render_page(build_report(str(path)))
    assert 'id="viewer"' not in html and 'Three.js Authors' not in html and 'XML_INVALID' in html
