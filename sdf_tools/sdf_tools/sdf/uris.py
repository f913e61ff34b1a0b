"""Find the file an ``<include>`` or mesh URI names, as Gazebo would.

Search order: absolute paths; paths relative to the including file;
``model://`` and bare names under SDF_PATH, GZ_SIM_RESOURCE_PATH,
IGN_GAZEBO_RESOURCE_PATH and GAZEBO_MODEL_PATH; ``package://`` under the
ROS package share directories (AMENT_PREFIX_PATH, ROS_PACKAGE_PATH) and then
the resource paths too (Gazebo treats a package name like a model name).
"""
from __future__ import annotations

import os
from pathlib import Path

from lxml import etree

RESOURCE_ENV_VARS = ('SDF_PATH', 'GZ_SIM_RESOURCE_PATH', 'IGN_GAZEBO_RESOURCE_PATH',
                     'GAZEBO_MODEL_PATH')
MAX_SUPPORTED = (1, 11)


def resource_dirs(env: dict[str, str] | None = None) -> list[Path]:
    """Return the model search directories named by the environment."""
    env = dict(os.environ) if env is None else env
    dirs: list[Path] = []
    for var in RESOURCE_ENV_VARS:
        for part in env.get(var, '').split(os.pathsep):
            if part:
                dirs.append(Path(part))
    return dirs


def package_dirs(package: str, env: dict[str, str] | None = None) -> list[Path]:
    """Return candidate share directories of a ROS package."""
    env = dict(os.environ) if env is None else env
    out: list[Path] = []
    for prefix in env.get('AMENT_PREFIX_PATH', '').split(os.pathsep):
        if prefix:
            out.append(Path(prefix) / 'share' / package)
    for root in env.get('ROS_PACKAGE_PATH', '').split(os.pathsep):
        if root:
            out.append(Path(root) / package)
    return out


def package_uri_of(path: Path, env: dict[str, str] | None = None) -> str | None:
    """Return ``package://pkg/sub`` for a file inside a ROS package's share directory, or None.

    The package must be one ROS finds: registered in the ament index of an
    ``AMENT_PREFIX_PATH`` prefix (``share/ament_index/resource_index/packages/<pkg>``), or a
    directory with a ``package.xml`` right under a ``ROS_PACKAGE_PATH`` root. This is the URI
    RViz (resource_retriever) and ros_gz open on any machine that has the package.
    """
    env = dict(os.environ) if env is None else env
    target = path.resolve()
    for prefix in env.get('AMENT_PREFIX_PATH', '').split(os.pathsep):
        if not prefix:
            continue
        share = Path(prefix).resolve() / 'share'
        rel = _inside(target, share)
        if rel is not None and len(rel.parts) > 1 and \
                (share / 'ament_index' / 'resource_index' / 'packages' / rel.parts[0]).is_file():
            return 'package://' + rel.as_posix()
    for root in env.get('ROS_PACKAGE_PATH', '').split(os.pathsep):
        rel = _inside(target, Path(root).resolve()) if root else None
        if rel is not None and len(rel.parts) > 1 and \
                (Path(root).resolve() / rel.parts[0] / 'package.xml').is_file():
            return 'package://' + rel.as_posix()
    return None


def _inside(path: Path, directory: Path) -> Path | None:
    try:
        return path.relative_to(directory)
    except ValueError:
        return None


def resolve_uri(uri: str, base_dir: Path | None, env: dict[str, str] | None = None) -> Path | None:
    """Return the existing path ``uri`` names, or None."""
    uri = uri.strip()
    if not uri:
        return None
    if uri.startswith('file://'):
        uri = uri[len('file://'):]
    candidates: list[Path] = []
    if uri.startswith('model://'):
        rest = uri[len('model://'):]
        candidates += [d / rest for d in resource_dirs(env)]
        if base_dir is not None:
            candidates.append(base_dir / rest)
    elif uri.startswith('package://'):
        rest = uri[len('package://'):]
        pkg, _, sub = rest.partition('/')
        candidates += [d / sub for d in package_dirs(pkg, env)]
        candidates += [d / rest for d in resource_dirs(env)]
    elif '://' in uri:
        return None  # http(s) and other schemes are never fetched
    else:
        p = Path(uri)
        if p.is_absolute():
            candidates.append(p)
        else:
            if base_dir is not None:
                candidates.append(base_dir / p)
            # libsdformat itself looks in the working directory, then SDF_PATH.
            candidates.append(Path.cwd() / p)
            candidates += [d / p for d in resource_dirs(env)]
    for c in candidates:
        if c.exists():
            return c
    return None


def model_file_in_dir(directory: Path, *, sdf_fallback: bool = True,
                      must_exist: bool = True) -> Path | None:
    """Pick the SDFormat file of a model directory from its ``model.config``.

    The highest ``<sdf version>`` we support wins, as libsdformat picks the
    highest it supports. Without a model.config, the deprecated
    ``manifest.xml`` is read instead (as libsdformat does); without either,
    ``model.sdf`` is used when ``sdf_fallback`` (the command line and the
    spawner are lenient), else there is no file (libsdformat's ``<include>``).
    With ``must_exist`` False, the file the config names is returned even when it is
    not there: libsdformat's ``<include>`` then fails to read it (``FILE_READ``).
    """
    config = directory / 'model.config'
    if not config.is_file():
        config = directory / 'manifest.xml'
    if not config.is_file():
        fallback = directory / 'model.sdf'
        return fallback if sdf_fallback and fallback.is_file() else None
    try:
        root = etree.parse(str(config), etree.XMLParser(resolve_entities=False, no_network=True)).getroot()
    except (etree.XMLSyntaxError, OSError):
        return None
    best: tuple[tuple[int, int], str] | None = None
    first: str | None = None
    for el in root.iter('sdf'):
        name = (el.text or '').strip()
        if not name:
            continue
        first = first or name
        try:
            major, minor = (int(x) for x in el.get('version', '0.0').split('.')[:2])
        except ValueError:
            continue
        if (major, minor) <= MAX_SUPPORTED and (best is None or (major, minor) > best[0]):
            best = ((major, minor), name)
    chosen = best[1] if best else first
    if chosen is None:
        return None
    path = directory / chosen
    return path if path.is_file() or not must_exist else None
