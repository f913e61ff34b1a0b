"""Find the file a mesh URI names, as ROS and Gazebo find it, and say where it was looked for.

* ``package://NAME/rest``: a directory given as ``--package NAME=DIR``; the ament
  index (``<prefix>/share/ament_index/resource_index/packages/NAME`` under each
  ``AMENT_PREFIX_PATH`` prefix, then ``<prefix>/share/NAME``, as
  ``ament_index_python.get_package_share_directory`` answers); each
  ``ROS_PACKAGE_PATH`` root, searched for a ``package.xml`` naming NAME as
  ROS 1's rospack crawls it; then Gazebo's resource paths, which take a package
  name for a model name.
* ``model://NAME/rest``: ``SDF_PATH``, ``GZ_SIM_RESOURCE_PATH``,
  ``IGN_GAZEBO_RESOURCE_PATH``, ``GAZEBO_MODEL_PATH``, then beside the file, then
  beside its directory (a model's ``model.sdf`` naming its own meshes as
  ``model://NAME/meshes/...`` from the directory NAME).
* ``file://`` and plain paths: absolute as written, relative beside the file that
  names them, then under the resource paths (libsdformat's ``SDF_PATH``).

A URI not found comes back with every place tried, so the message can say where.
"""
from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from sdf_tools.sdf.uris import RESOURCE_ENV_VARS, resource_dirs

#: How deep under a ROS_PACKAGE_PATH root rospack looks for packages (it has no limit;
#: ours keeps a root like ``/`` from crawling the whole disk).
CRAWL_DEPTH = 4
_NAME = re.compile(rb'<name>\s*([^<\s]+)\s*</name>')


@dataclass(frozen=True)
class Lookup:
    """Where a URI was found (None: nowhere) and every place tried, in order."""

    path: Path | None
    tried: tuple[str, ...]


@dataclass(frozen=True)
class MeshPaths:
    """The search a report runs: ``--package`` directories and an environment."""

    packages: Mapping[str, Path] = field(default_factory=dict)
    env: Mapping[str, str] | None = None

    def _env(self) -> dict[str, str]:
        return dict(os.environ if self.env is None else self.env)

    def find(self, uri: str, base_dir: Path | None) -> Lookup:
        """Find ``uri`` (written in a file in ``base_dir``)."""
        uri = uri.strip()
        env = self._env()
        if uri.startswith('package://'):
            return _first(self._package(uri[len('package://'):], env))
        if uri.startswith('model://'):
            rest = uri[len('model://'):]
            found = [_place(d / rest) for d in resource_dirs(env)] or [_unset(', '.join(RESOURCE_ENV_VARS))]
            if base_dir is not None:  # beside the file, and its model's own directory's parent
                found += [_place(base_dir / rest), _place(base_dir.parent / rest)]
            return _first(found)
        if uri.startswith('file://'):
            uri = uri[len('file://'):]
        elif '://' in uri:
            return Lookup(None, (f'{uri.split("://")[0]}:// is never fetched',))
        p = Path(uri)
        if p.is_absolute():
            return _first([_place(p)])
        return _first(([_place(base_dir / p)] if base_dir is not None else [])
                      + [_place(d / p) for d in resource_dirs(env)])

    def _package(self, rest: str, env: dict[str, str]) -> list[tuple[Path | None, str]]:
        name, _, sub = rest.partition('/')
        out: list[tuple[Path | None, str]] = []
        given = self.packages.get(name)
        out.append(_place(given / sub) if given is not None else (None, f'--package {name}=DIR not given'))
        prefixes = [p for p in env.get('AMENT_PREFIX_PATH', '').split(os.pathsep) if p]
        out += [_place(Path(p) / 'share' / name / sub) for p in _ament_prefixes(name, prefixes)]
        if not prefixes:
            out.append(_unset('AMENT_PREFIX_PATH'))
        elif not _ament_prefixes(name, prefixes):
            out.append((None, f'ament index: no package [{name}] under AMENT_PREFIX_PATH'))
        roots = [r for r in env.get('ROS_PACKAGE_PATH', '').split(os.pathsep) if r]
        for root in roots:
            pkg = _crawl(Path(root), name)
            out.append(_place(pkg / sub) if pkg is not None
                       else (None, f'ROS_PACKAGE_PATH root {root}: no package [{name}]'))
        if not roots:
            out.append(_unset('ROS_PACKAGE_PATH'))
        out += [_place(d / rest) for d in resource_dirs(env)]
        return out


def _place(p: Path) -> tuple[Path | None, str]:
    return (p if p.is_file() else None), str(p)


def _unset(names: str) -> tuple[Path | None, str]:
    return None, f'{names} {"are" if "," in names else "is"} not set'


def _first(places: list[tuple[Path | None, str]]) -> Lookup:
    tried = tuple(text for _, text in places)
    return Lookup(next((p for p, _ in places if p is not None), None), tried)


def _ament_prefixes(name: str, prefixes: list[str]) -> list[str]:
    """The prefixes whose ament index lists package ``name`` (else those with its share dir)."""
    marked = [p for p in prefixes
              if (Path(p) / 'share' / 'ament_index' / 'resource_index' / 'packages' / name).is_file()]
    return marked or [p for p in prefixes if (Path(p) / 'share' / name).is_dir()]


@functools.lru_cache(maxsize=256)
def _crawl(root: Path, name: str) -> Path | None:
    """The directory under ``root`` whose package.xml names ``name`` (rospack's crawl).

    ``root/name`` itself comes first, package.xml or not: the layout a
    ROS_PACKAGE_PATH of package directories has always been read with here.
    """
    if (root / name).is_dir():
        return root / name
    stack = [(root, 0)]
    while stack:
        here, depth = stack.pop()
        manifest = here / 'package.xml'
        if manifest.is_file():
            try:
                m = _NAME.search(manifest.read_bytes())
            except OSError:
                m = None
            if (m.group(1).decode() if m else here.name) == name:
                return here
            continue  # rospack does not look inside a package
        if depth >= CRAWL_DEPTH:
            continue
        try:
            subdirs = sorted((d for d in here.iterdir() if d.is_dir() and not d.name.startswith('.')),
                             reverse=True)
        except OSError:
            continue
        stack += [(d, depth + 1) for d in subdirs]
    return None
