"""three.js, taken from the build trimesh ships, to be inlined into the page.

trimesh's offline viewer template (``trimesh/resources/templates/viewer.zip``)
holds one script: three.js (MIT), its TrackballControls and GLTFLoader, and
then trimesh's own few lines of viewer code. We take the library part -- the
script up to where trimesh's viewer code starts -- and write our own viewer.
Nothing of it is copied into this repository; it comes with the pinned
trimesh at run time.
"""
from __future__ import annotations

import functools
import io
import zipfile

_SCRIPT = '<script>'
#: Where trimesh's own viewer code begins (its global variables).
_VIEWER_START = 'var camera,controls,scene,renderer,tracklight;'


class ThreeJsUnavailableError(RuntimeError):
    """The installed trimesh does not carry the three.js build we expect."""


@functools.cache
def threejs_source() -> str:
    """Return three.js with TrackballControls and GLTFLoader, as one script."""
    from trimesh import resources
    try:
        data = resources.get_bytes('templates/viewer.zip')
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            html = z.read('viewer.html.template').decode('utf-8')
    except (OSError, KeyError, zipfile.BadZipFile) as exc:
        msg = f'trimesh carries no viewer template with three.js: {exc}'
        raise ThreeJsUnavailableError(msg) from exc
    start = html.find(_SCRIPT)
    end = html.find(_VIEWER_START, start)
    if start < 0 or end < 0 or 'THREE.GLTFLoader' not in html[start:end]:
        msg = "trimesh's viewer template changed: three.js not found where expected"
        raise ThreeJsUnavailableError(msg)
    return html[start + len(_SCRIPT):end]
