"""What the browser tests ask of a page, independent of which model it shows.

Screenshots are decoded with Pillow (a dependency of trimesh's image
support already installed with matplotlib) and compared pixel by pixel.
"""
from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
from lxml import etree
from support.chromium import Browser, chromium_path
from support.tools import skip_or_fail

PACKAGE = Path(__file__).resolve().parents[2]
#: The bundled examples: the demo world and the model it includes.
DEMO = PACKAGE / 'sdf_tools' / 'examples' / 'demo_world.sdf'
EXAMPLES = (DEMO, DEMO.parent / 'models' / 'sensor_mast')
#: The viewer's background colour (``scene.background`` in viewer_js.py).
BACKGROUND = (0xF3, 0xF5, 0xF7)
#: A pixel further than this (sum of channel differences) from another counts as different.
PIXEL_DELTA = 24


def write_page(path: Path, out: Path, env: dict[str, str],
               options: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """Run ``sdf_tools report`` as a user would."""
    return subprocess.run([sys.executable, '-m', 'sdf_tools', 'report', str(path), '-o', str(out),
                           *options],
                          env={**os.environ, **env, 'PYTHONPATH': str(PACKAGE)},
                          capture_output=True, text=True, timeout=300, check=False)


def require_chromium() -> None:
    """Skip (or fail, under ``SDF_TOOLS_REQUIRE_TOOLS``) without Debian's chromium."""
    if chromium_path() is None:
        skip_or_fail('chromium is not installed (apt-get install chromium; ./dev installs it)')


def view_clip(browser: Browser) -> dict[str, float]:
    """The 3D view's rectangle in page coordinates, scrolled into sight."""
    rect: dict[str, float] = browser.evaluate(
        '(() => { const v = document.getElementById("view"); v.scrollIntoView();'
        ' const r = v.getBoundingClientRect();'
        ' return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height}; })()')
    return rect


def pixels(png: Path) -> np.ndarray:
    """The RGB pixels of a PNG, as an (height, width, 3) integer array."""
    from PIL import Image
    with Image.open(io.BytesIO(png.read_bytes())) as im:
        return np.asarray(im.convert('RGB'), dtype=np.int32)


def differing(a: np.ndarray, b: np.ndarray) -> int:
    """How many pixels of two same-size images differ visibly."""
    return int(np.count_nonzero(np.abs(a - b).sum(axis=-1) > PIXEL_DELTA))


def drawn_fraction(png: Path) -> float:
    """The fraction of pixels that are not the background: something was drawn."""
    px = pixels(png)
    return differing(px, np.array(BACKGROUND, dtype=np.int32)) / max(1, px.shape[0] * px.shape[1])


def massless_names(path: Path) -> list[str]:
    """Links the file itself gives no mass (read from the XML here, not by our reader).

    URDF: no ``<inertial>``, no ``<mass>`` or a mass of at most 1e-6 (libsdformat's
    test), except ``world``. SDFormat: no ``<inertial>`` or such a mass, in models
    that are not static. Names as written (the page scopes them).
    """
    root = etree.parse(str(path)).getroot()
    out: list[str] = []
    if root.tag == 'robot':
        for link in root.findall('link'):
            mass = link.find('inertial/mass')
            value = float(mass.get('value', '0')) if mass is not None else 0.0
            if link.get('name') != 'world' and abs(value) <= 1e-6:
                out.append(str(link.get('name')))
        return out
    for model in root.iter('model'):
        if (model.findtext('static') or '').strip() in ('true', '1'):
            continue
        for link in model.findall('link'):
            mass = link.find('inertial/mass')
            value = float((mass.text or '0').strip()) if mass is not None else (
                1.0 if link.find('inertial') is not None else 0.0)
            if abs(value) <= 1e-6:
                out.append(str(link.get('name')))
    return out


def link_names(path: Path) -> list[str]:
    """Every link the file itself names (not its included models'), read from the XML here."""
    root = etree.parse(str(path)).getroot()
    links = root.findall('link') if root.tag == 'robot' else list(root.iter('link'))
    return [str(link.get('name')) for link in links if link.get('name') != 'world']


def moving_joints(path: Path) -> list[str]:
    """The joints of the file that move (not fixed), read from the XML here."""
    root = etree.parse(str(path)).getroot()
    return [str(j.get('name')) for j in root.iter('joint') if j.get('type') not in (None, 'fixed')]


def page_text(browser: Browser, selector: str = 'body') -> str:
    """The visible text of an element of the page."""
    text: Any = browser.evaluate(f'document.querySelector({selector!r}).innerText')
    return str(text)


def arms_world(n_models: int) -> str:
    """A world of ``n_models`` two-joint arms on a grid; every tenth tip has no inertial."""
    inertial = ('<inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz>'
                '</inertia></inertial>')
    shape = ('<visual name="v"><geometry><box><size>0.2 0.2 0.4</size></box></geometry></visual>'
             '<collision name="c"><geometry><box><size>0.2 0.2 0.4</size></box></geometry></collision>')
    models = []
    for i in range(n_models):
        links = ''.join(
            f'<link name="{name}"><pose>0 0 {0.2 + 0.4 * k} 0 0 0</pose>'
            f'{"" if name == "tip" and i % 10 == 0 else inertial}{shape}</link>'
            for k, name in enumerate(('base', 'arm', 'tip')))
        joints = ''.join(
            f'<joint name="j{k}" type="revolute"><pose>0 0 -0.2 0 0 0</pose><parent>{p}</parent>'
            f'<child>{c}</child><axis><xyz>0 1 0</xyz><limit><lower>-1.5</lower><upper>1.5</upper>'
            '</limit></axis></joint>' for k, (p, c) in enumerate((('base', 'arm'), ('arm', 'tip'))))
        models.append(f'<model name="arm_{i}"><pose>{i % 10} {i // 10} 0 0 0 0</pose>{links}{joints}</model>')
    return f'<?xml version="1.0"?><sdf version="1.9"><world name="w">{"".join(models)}</world></sdf>'
