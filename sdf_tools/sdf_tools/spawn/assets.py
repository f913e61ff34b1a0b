"""Meshes and included models: check they exist, and rewrite their URIs so Gazebo finds them.

A model sent to Gazebo as text has lost its folder: a relative mesh path,
or a ``package://`` URI Gazebo's resource paths do not cover, no longer
resolves there. Before sending, every ``<mesh><uri>``, ``<heightmap><uri>``
and ``<include><uri>`` of the top file is rewritten per mode:

* ``file`` (default): everything found here becomes an absolute path (Gazebo
  runs on this machine, or sees the same files);
* ``model``: ``package://pkg/...`` becomes ``model://pkg/...`` (libsdformat's
  own URDF rule; Gazebo then needs the package's parent folder in
  ``GZ_SIM_RESOURCE_PATH``), relative paths become absolute;
* ``keep``: nothing is changed.

Meshes of included models are resolved by Gazebo against the included file
itself, so they are only checked.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from lxml import etree

from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.model import Collision, Model, Visual
from sdf_tools.sdf.uris import resolve_uri

URI_MODES = ('file', 'model', 'keep')
_REWRITTEN = ('mesh', 'heightmap', 'include')  # parents of the <uri>s rewritten


def _meshes(model: Model) -> Iterator[tuple[str, str | None, int | None]]:
    for link in model.links:
        shapes: list[Visual | Collision] = [*link.visuals, *link.collisions]
        for shape in shapes:
            geom = shape.geometry
            if geom is not None and geom.type == 'mesh':
                loc = geom.loc or shape.loc
                yield (str(geom.params.get('uri') or ''), loc.file if loc else None,
                       loc.line if loc else None)
    for nested in model.models:
        yield from _meshes(nested)


def missing_meshes(model: Model, default_file: str | None) -> list[Diagnostic]:
    """Return one MISSING_ASSETS-worthy diagnostic per mesh URI that resolves to no file.

    ``http(s)://`` URIs (Gazebo Fuel) are not checked: nothing is downloaded.
    """
    found: list[Diagnostic] = []
    for uri, file, line in _meshes(model):
        file = file or default_file
        if uri.startswith(('http://', 'https://')):
            continue
        base = Path(file).parent if file and Path(file).exists() else None
        if not uri or resolve_uri(uri, base) is None:
            found.append(Diagnostic(ErrorCode.URI_LOOKUP, f'mesh [{uri}] not found', file, line))
    return found


def _rewrite(uri: str, base: Path | None, mode: str) -> str | None:
    """Return the URI to send instead of ``uri``, or None to keep it."""
    if mode == 'keep' or uri.startswith(('http://', 'https://', 'file:///')):
        return None
    if mode == 'model':
        if uri.startswith('package://'):
            return 'model://' + uri[len('package://'):]
        if uri.startswith(('model://', 'file://', '/')):
            return None
    path = resolve_uri(uri, base)
    if path is None:
        return None
    absolute = str(path.resolve())
    return absolute if absolute != uri else None


def rewrite_uris(root: etree._Element, base: Path | None, mode: str) -> list[str]:
    """Rewrite the mesh, heightmap and include URIs under ``root``; return one note per change."""
    notes: list[str] = []
    for el in root.iter('uri'):
        parent = el.getparent()
        if parent is None or parent.tag not in _REWRITTEN:
            continue
        uri = (el.text or '').strip()
        new = _rewrite(uri, base, mode)
        if new is not None:
            el.text = new
            notes.append(f'{parent.tag} URI [{uri}] sent as [{new}]')
    return notes
