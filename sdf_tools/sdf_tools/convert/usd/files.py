"""USD files: ``.usda`` is text, ``.usd`` and ``.usdc`` the binary crate format.

The exporter returns ``.usda`` text (what the report and the services
carry); writing a ``.usd``/``.usdc`` file goes through an ``Sdf.Layer``,
into a temporary file in the target directory renamed into place, so a
failure never leaves a partial file.
"""
from __future__ import annotations

import os
from pathlib import Path

from pxr import Sdf, Tf

from sdf_tools.files import replace_atomically


def save_usd(text: str, path: str | os.PathLike[str]) -> None:
    """Write ``.usda`` text to ``path``, as crate when it ends in ``.usd``/``.usdc``.

    Raises:
        OSError: the directory is missing or not writable, or USD cannot write it.
    """
    target = Path(path)
    layer = Sdf.Layer.CreateAnonymous('.usda')
    if not layer.ImportFromString(text):
        raise OSError(f'the stage text does not parse as USD: {target}')

    def export(tmp: str) -> None:
        try:
            ok = layer.Export(tmp, args={'format': 'usdc'})
        except Tf.ErrorException as err:
            raise OSError(str(err)) from err
        if not ok:
            raise OSError(f'USD could not write {target}')
    replace_atomically(target, export)
