"""Find the real robot descriptions shipped in registry packages on this machine.

Four collections, each located through its package rather than a hard-coded path:

* ``pybullet_data`` (PyPI ``pybullet``): ``pybullet_data.getDataPath()``.
* ``example-robot-data`` (PyPI, a cmeel wheel without a Python module): the
  ``EXAMPLE_ROBOT_DATA_MODEL_DIR`` variable when set, else the module of that name when a
  build ships one, else the ``share/example-robot-data/robots`` directory listed in the
  distribution's installed files.
* ``gym-ignition-models`` (PyPI): the package directory, which is what its
  ``get_models_path()`` returns. The module is found with ``importlib.util.find_spec``
  and not imported: importing it appends to ``IGN_GAZEBO_RESOURCE_PATH`` of the whole
  process, which would leak into every other test.
* ``dart-doc`` (Debian): the files ``dpkg -L dart-doc`` lists, when dpkg knows the package.

Every ``.sdf``, ``.world`` and ``.urdf`` file of a collection is one entry. Its ``env``
holds what the file needs to resolve ``model://`` and ``package://`` URIs the way the
collection's own users set it up: the collection root and each model directory on
``SDF_PATH`` / ``GZ_SIM_RESOURCE_PATH`` / ``IGN_GAZEBO_RESOURCE_PATH`` (the probe and
our reader both search them), and ``ROS_PACKAGE_PATH`` / ``AMENT_PREFIX_PATH`` where
the package layout maps ``package://name/...`` onto a directory.

Worlds of example-robot-data and dart-doc include ``model://sun`` and
``model://ground_plane`` from Gazebo's model database, which no package here ships.
Without them both readers only agree on ``URI_LOOKUP`` and nothing of the world is
compared, so :func:`gazebo_stand_ins` writes two small stand-in models (a directional
light and a static plane) to a temporary directory, searched last. Both readers read the
same stand-ins; what is compared is how each reads the real world around them.
"""
from __future__ import annotations

import atexit
import functools
import importlib
import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

__all__ = [
    'EXTENSIONS',
    'Collection',
    'RobotFile',
    'collections',
    'corpus',
    'corpus_id',
    'gazebo_stand_ins',
    'missing_collections',
]

#: File name endings of the robot descriptions taken into the corpus.
EXTENSIONS = ('.sdf', '.world', '.urdf')

_RESOURCE_VARS = ('SDF_PATH', 'GZ_SIM_RESOURCE_PATH', 'IGN_GAZEBO_RESOURCE_PATH')


class RobotFile(NamedTuple):
    """One description file: the collection it belongs to, its path, its environment."""

    collection: str
    path: Path
    env: dict[str, str]


class Collection(NamedTuple):
    """A located collection: its name, its root directory, its files and their env."""

    name: str
    root: Path
    files: tuple[Path, ...]
    env: dict[str, str]


def _search_path(*dirs: Path) -> str:
    """Join existing directories, without repeats, into a ``PATH``-style value."""
    seen: list[str] = []
    for d in dirs:
        text = str(d)
        if d.is_dir() and text not in seen:
            seen.append(text)
    return os.pathsep.join(seen)


def _resource_env(*dirs: Path) -> dict[str, str]:
    value = _search_path(*dirs, gazebo_stand_ins())
    return dict.fromkeys(_RESOURCE_VARS, value)


_MODEL_CONFIG = """<?xml version="1.0"?>
<model><name>{name}</name><version>1.0</version><sdf version="1.6">model.sdf</sdf></model>
"""
_STAND_INS = {
    'sun': """<?xml version="1.0"?>
<sdf version="1.6">
  <light type="directional" name="sun">
    <cast_shadows>true</cast_shadows>
    <pose>0 0 10 0 0 0</pose>
    <diffuse>0.8 0.8 0.8 1</diffuse>
    <direction>-0.5 0.1 -0.9</direction>
  </light>
</sdf>
""",
    'ground_plane': """<?xml version="1.0"?>
<sdf version="1.6">
  <model name="ground_plane">
    <static>true</static>
    <link name="link">
      <collision name="collision">
        <geometry><plane><normal>0 0 1</normal><size>100 100</size></plane></geometry>
      </collision>
      <visual name="visual">
        <geometry><plane><normal>0 0 1</normal><size>100 100</size></plane></geometry>
      </visual>
    </link>
  </model>
</sdf>
""",
}


@functools.cache
def gazebo_stand_ins() -> Path:
    """Write stand-ins for Gazebo's ``sun`` and ``ground_plane`` models; return their root.

    The directory is created once per process and removed when the process exits.
    """
    root = Path(tempfile.mkdtemp(prefix='sdf_tools_gazebo_models_'))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    for name, sdf in _STAND_INS.items():
        (root / name).mkdir()
        (root / name / 'model.config').write_text(_MODEL_CONFIG.format(name=name))
        (root / name / 'model.sdf').write_text(sdf)
    return root


def _descriptions(root: Path) -> tuple[Path, ...]:
    """Every description file under ``root``, sorted for stable test ids."""
    found = [p for p in root.rglob('*') if p.suffix in EXTENSIONS and p.is_file()]
    return tuple(sorted(found))


def _model_dirs(files: Iterable[Path]) -> list[Path]:
    """Directories holding a ``model.config`` next to one of ``files`` (Gazebo models)."""
    return sorted({p.parent for p in files if (p.parent / 'model.config').is_file()})


# ---------------------------------------------------------------------------------------
# The four collections.


def _pybullet_data() -> Collection | None:
    try:
        module = importlib.import_module('pybullet_data')
    except ImportError:
        return None
    root = Path(module.getDataPath())
    files = _descriptions(root)
    # A few URDFs write `package://xarm_description/...` (the files are in ./xarm) or
    # `package://meshes/...`; the layout maps no package name onto a directory, so only
    # the root is given. Neither reader opens mesh files, so this changes no report.
    env = _resource_env(root, *_model_dirs(files))
    env['ROS_PACKAGE_PATH'] = str(root)
    return Collection('pybullet_data', root, files, env)


def _example_robot_data_root() -> tuple[Path, Path | None] | None:
    """Return the ``robots`` directory and the install prefix (for AMENT_PREFIX_PATH)."""
    from_env = os.environ.get('EXAMPLE_ROBOT_DATA_MODEL_DIR')
    if from_env and Path(from_env).is_dir():
        return Path(from_env), None
    try:
        path_module = importlib.import_module('example_robot_data.path')
        model_dir = Path(path_module.EXAMPLE_ROBOT_DATA_MODEL_DIR)
        if model_dir.is_dir():
            return model_dir, None
    except (ImportError, AttributeError):
        pass
    try:
        dist = importlib.metadata.distribution('example-robot-data')
    except importlib.metadata.PackageNotFoundError:
        return None
    marker = ('share', 'example-robot-data', 'robots')
    for file in dist.files or ():
        parts = file.parts
        for i in range(len(parts) - len(marker) + 1):
            if parts[i:i + len(marker)] == marker:
                # A cmeel wheel installs under `cmeel.prefix/`, a plain one at the top.
                prefix = Path(str(dist.locate_file(Path(*parts[:i]) if i else Path())))
                robots = prefix.joinpath(*marker)
                if robots.is_dir():
                    return robots, prefix
    return None


def _example_robot_data() -> Collection | None:
    located = _example_robot_data_root()
    if located is None:
        return None
    robots, prefix = located
    files = _descriptions(robots)
    # Meshes are `package://example-robot-data/robots/<robot>/...` (an ament package
    # installed under the prefix) or `package://<robot>_description/...` (a directory
    # of robots/), and a few `model://example-robot-data/...`: the prefix's share
    # directory serves the last form.
    share = robots.parent.parent
    env = _resource_env(robots, share, *_model_dirs(files))
    env['ROS_PACKAGE_PATH'] = str(robots)
    if prefix is not None:
        env['AMENT_PREFIX_PATH'] = str(prefix)
    return Collection('example-robot-data', robots, files, env)


def _gym_ignition_models() -> Collection | None:
    spec = importlib.util.find_spec('gym_ignition_models')
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    files = _descriptions(root)
    # What the package's own setup_environment() puts on IGN_GAZEBO_RESOURCE_PATH: the
    # models directory and each model directory (meshes are `file://meshes/...`).
    model_dirs = sorted({p.parent for p in files})
    env = _resource_env(root, *model_dirs)
    return Collection('gym-ignition-models', root, files, env)


def _dpkg_files(package: str) -> list[Path] | None:
    dpkg = shutil.which('dpkg')
    if dpkg is None:
        return None
    try:
        result = subprocess.run(
            [dpkg, '-L', package], capture_output=True, text=True, check=False, timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if result.returncode != 0:
        return None
    return [Path(line) for line in result.stdout.splitlines() if line.strip()]


def _dart_doc() -> Collection | None:
    listed = _dpkg_files('dart-doc')
    if listed is None:
        return None
    files = tuple(sorted(p for p in listed if p.suffix in EXTENSIONS and p.is_file()))
    if not files:
        return None
    root = Path(os.path.commonpath([str(p.parent) for p in files]))
    # Worlds include `model://sun` and `model://ground_plane` from the Gazebo model
    # database, which dart-doc does not ship; URDFs name `package://<robot>` packages
    # whose meshes are not installed either (only `file://media/...` ones are).
    env = _resource_env(root, *sorted({p.parent for p in files}))
    env['ROS_PACKAGE_PATH'] = str(root)
    return Collection('dart-doc', root, files, env)


_LOCATORS: dict[str, Callable[[], Collection | None]] = {
    'pybullet_data': _pybullet_data,
    'example-robot-data': _example_robot_data,
    'gym-ignition-models': _gym_ignition_models,
    'dart-doc': _dart_doc,
}


@functools.cache
def _located() -> tuple[tuple[str, Collection | None], ...]:
    return tuple((name, locate()) for name, locate in _LOCATORS.items())


def collections() -> list[Collection]:
    """Return the collections installed on this machine, in a fixed order."""
    return [c for _, c in _located() if c is not None]


def missing_collections() -> list[str]:
    """Return the names of the collections that are not installed here."""
    return [name for name, c in _located() if c is None]


def corpus() -> list[RobotFile]:
    """Return every description file of every installed collection, in a stable order."""
    return [
        RobotFile(c.name, path, dict(c.env)) for c in collections() for path in c.files
    ]


def corpus_id(entry: RobotFile) -> str:
    """Return ``collection/relative/path`` for a test id."""
    for c in collections():
        if c.name == entry.collection:
            return f'{c.name}/{entry.path.relative_to(c.root).as_posix()}'
    return f'{entry.collection}/{entry.path.name}'
