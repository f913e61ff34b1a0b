"""Ship an MJCF file with its assets: the files it loads copied beside it, named relatively.

The export (:mod:`~sdf_tools.convert.mjcf.geometry`) names each mesh, height
field and texture by its absolute path: the source's file, or a converted
copy in the mesh cache (:mod:`~sdf_tools.convert.mesh_files`). A model that
points into a cache, a ROS workspace or site-packages cannot be moved or
given away. When the MJCF is written to a file, each such file is copied
into an assets directory (``assets`` next to the output unless told
otherwise), as Menagerie lays its models out, and the model names it
relative to ``<compiler assetdir>``: the output and its assets directory
can move together anywhere.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from lxml import etree

#: The assets directory, relative to the output's directory, when none is given.
DEFAULT_ASSETS = 'assets'
_FILE_ELEMENTS = ('mesh', 'hfield', 'texture', 'skin')


def _same(a: Path, b: Path) -> bool:
    try:
        return a.stat().st_size == b.stat().st_size and a.read_bytes() == b.read_bytes()
    except OSError:
        return False


def _place(src: Path, folder: Path, placed: dict[Path, str]) -> str:
    """Copy ``src`` into ``folder`` (a file of the same name and bytes is reused, another
    name taken for different bytes); return its name there."""
    if src in placed:
        return placed[src]
    name, k = src.name, 2
    while (folder / name).exists() and not _same(src, folder / name):
        name, k = f'{src.stem}_{k}{src.suffix}', k + 1
    if not (folder / name).exists():
        shutil.copyfile(src, folder / name)
    placed[src] = name
    return name


def package_assets(text: str, output: str | os.PathLike[str], assets_dir: str = '') -> str:
    """Copy the files an MJCF text loads into the assets directory; return the text naming them.

    Args:
        text: the MJCF, with absolute file names (as the export writes them).
        output: the file the MJCF is written to.
        assets_dir: the directory for the assets: relative to the output's directory,
            or absolute; '' for ``assets`` next to the output.

    Raises:
        OSError: the directory cannot be made or a file cannot be copied.
    """
    root = etree.fromstring(text.encode('utf-8'))
    asset = root.find('asset')
    files = [el for el in (asset if asset is not None else []) if el.tag in _FILE_ELEMENTS
             and el.get('file') and Path(str(el.get('file'))).is_absolute()]
    if not files:
        return text
    out_dir = Path(output).resolve().parent
    folder = Path(assets_dir or DEFAULT_ASSETS)
    folder = folder if folder.is_absolute() else out_dir / folder
    folder.mkdir(parents=True, exist_ok=True)
    placed: dict[Path, str] = {}
    for el in files:
        el.set('file', _place(Path(str(el.get('file'))), folder, placed))
    compiler = root.find('compiler')
    if compiler is None:
        compiler = etree.Element('compiler')
        root.insert(0, compiler)
    rel = os.path.relpath(folder, out_dir)
    compiler.set('assetdir', Path(rel).as_posix())
    return etree.tostring(root, encoding='unicode') + '\n'
