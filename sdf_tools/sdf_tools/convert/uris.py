"""Mesh and image URIs in the output: kept, made ``model://`` or made absolute ``file://``.

* ``'keep'`` (default): written as in the input. Gazebo resolves
  ``package://`` and ``model://`` through its resource paths.
* ``'model'``: ``package://pkg/path`` becomes ``model://pkg/path``, the
  rewrite libsdformat applies when it loads a URDF.
* ``'file'``: every URI that can be found on this machine becomes an
  absolute ``file://`` path, so the output loads from anywhere.

Whatever the policy, a URI that cannot be found here (searched like the
reader does: next to the input, ``AMENT_PREFIX_PATH``, ``ROS_PACKAGE_PATH``
and the Gazebo resource paths) is reported once, with the line of its
first use, and so is a relative URI kept as written (it is relative to
the input file, so the output must sit in the same directory).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.model import Collision, Model, Visual
from sdf_tools.model.common import Loc
from sdf_tools.sdf.uris import resolve_uri

_URI_SHAPES = ('mesh', 'image')


@dataclass
class _Seen:
    loc: Loc | None
    uses: int = 0
    targets: list[str] = field(default_factory=list)


def shapes_of(model: Model) -> list[tuple[str, Visual | Collision]]:
    """Return every visual and collision of ``model`` and its nested models, with its owner."""
    out: list[tuple[str, Visual | Collision]] = []
    for link in model.links:
        out.extend((f'model[{model.name}]/link[{link.name}]', v) for v in link.visuals)
        out.extend((f'model[{model.name}]/link[{link.name}]', c) for c in link.collisions)
    for m in model.models:
        out.extend(shapes_of(m))
    return out


def rewrite_uri(uri: str, policy: str, base: Path | None) -> tuple[str, Path | None]:
    """Return the URI to write under ``policy`` and the file it names here (None if not found)."""
    found = resolve_uri(uri, base)
    if policy == 'model' and uri.startswith('package://'):
        return 'model://' + uri[len('package://'):], found
    if policy == 'file' and found is not None and not uri.startswith('file://'):
        return found.resolve().as_uri(), found
    return uri, found


def apply_uri_policy(models: list[Model], policy: str, base: Path | None,
                     report: ConversionReport) -> None:
    """Rewrite mesh and image URIs of every shape per ``policy``; report the unresolvable ones."""
    seen: dict[str, _Seen] = {}
    missing: set[str] = set()
    for model in models:
        for _, item in shapes_of(model):
            g = item.geometry
            if g is None or g.type not in _URI_SHAPES or not isinstance(g.params.get('uri'), str):
                continue
            uri = str(g.params['uri'])
            # A relative URI is relative to the file it was written in (an included model's own).
            here = Path(g.loc.file).parent if g.loc is not None and g.loc.file else base
            new, found = rewrite_uri(uri, policy, here)
            info = seen.setdefault(uri, _Seen(g.loc or item.loc))
            info.uses += 1
            if found is None:
                missing.add(uri)
            if new != uri:
                g.params['uri'] = new
                info.targets.append(new)
    for uri, info in seen.items():
        _report(uri, info, policy, uri in missing, report)


def _report(uri: str, info: _Seen, policy: str, missing: bool, report: ConversionReport) -> None:
    file, line = (info.loc.file, info.loc.line) if info.loc else (None, None)
    uses = f' ({info.uses} uses)' if info.uses > 1 else ''
    if info.targets:
        report.add(ReportKind.REWRITTEN, f'uri[{uri}]', f'written as [{info.targets[0]}]'
                   f' (uris={policy}){uses}', file, line)
    if missing:
        report.add(ReportKind.KEPT, f'uri[{uri}]',
                   'cannot be found on this machine (searched next to the input, '
                   'AMENT_PREFIX_PATH, ROS_PACKAGE_PATH and the Gazebo resource paths); '
                   f'written as it is{uses}', file, line)
    elif not info.targets and '://' not in uri and not Path(uri).is_absolute():
        report.add(ReportKind.KEPT, f'uri[{uri}]',
                   'relative to the input file: write the output in the same directory, or '
                   f'convert with uris=file{uses}', file, line)
