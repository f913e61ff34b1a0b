"""Build script of the sdf_tools package, for colcon (ament_python) and for plain pip.

- colcon runs it from this folder: `data_files` install the ament resource-index marker,
  package.xml, launch files and parameter files into `share/`, and setup.cfg puts the console
  scripts into `lib/sdf_tools/`, where `ros2 run sdf_tools ...` finds them.
- `pip install ./sdf_tools` installs the same Python package with its dependencies; the console
  scripts then go to the environment's `bin/`.
- With SDF_TOOLS_COMPILE=1 (and mypy installed: `pip install --no-build-isolation`, or colcon
  in an environment that has it) the loader's hot modules are also compiled by mypyc from the
  same source (sdf_tools/_native.py lists them and says why); without it the package is pure
  Python, and behaves the same.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
from glob import glob

from setuptools import find_packages, setup

PACKAGE_NAME = 'sdf_tools'
HERE = os.path.dirname(os.path.abspath(__file__))


def package_files(*subdirs: str) -> list[str]:
    """Return every file under the given folders of the Python package, relative to it."""
    root = os.path.join(HERE, PACKAGE_NAME)
    found: list[str] = []
    for subdir in subdirs:
        for dirpath, _dirnames, filenames in os.walk(os.path.join(root, subdir)):
            if '__pycache__' in dirpath:
                continue
            found.extend(os.path.relpath(os.path.join(dirpath, name), root) for name in filenames)
    return sorted(found)


def share_files(pattern: str) -> list[str]:
    """Return the files matching a glob relative to this folder (sorted, no folders)."""
    return sorted(path for path in glob(pattern) if os.path.isfile(path))


def compiled_modules() -> list:
    """The hot modules as mypyc extensions when SDF_TOOLS_COMPILE=1, else none."""
    if os.environ.get('SDF_TOOLS_COMPILE') != '1':
        return []
    if 'develop' in sys.argv[1:]:
        # An in-place build would put the compiled modules beside the sources they were made
        # from (colcon --symlink-install), where they would shadow every later edit.
        print('SDF_TOOLS_COMPILE ignored for a develop install: the source runs as it is',
              file=sys.stderr)
        return []
    from mypyc.build import mypycify  # mypy's compiler: only needed for this build

    # _native.py imports only the standard library: read its module list without the package.
    spec = importlib.util.spec_from_file_location(
        '_sdf_tools_native', os.path.join(HERE, PACKAGE_NAME, '_native.py'))
    assert spec is not None and spec.loader is not None
    native = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(native)
    os.chdir(HERE)  # mypyc takes paths relative to the package root and reads pyproject.toml
    # mypyc's notes go to stderr: colcon reads this script's stdout for the package's metadata.
    with contextlib.redirect_stdout(sys.stderr):
        return mypycify([f'{PACKAGE_NAME}/{m}.py' for m in native.MODULES], opt_level='3')


setup(
    name=PACKAGE_NAME,
    version='0.1.0',  # keep equal to <version> in package.xml
    description='Read SDFormat, URDF and xacro the way Gazebo does; resolve frames; convert; '
    'publish robot_description and TF in ROS 2.',
    license='Apache-2.0',
    maintainer='sdf_tools maintainers',
    maintainer_email='sdf-tools@example.com',
    python_requires='>=3.10',
    packages=find_packages(include=[PACKAGE_NAME, PACKAGE_NAME + '.*']),
    package_data={PACKAGE_NAME: ['py.typed', *package_files('examples', 'sdf/spec/data')]},
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + PACKAGE_NAME]),
        ('share/' + PACKAGE_NAME, ['package.xml']),
        ('share/' + PACKAGE_NAME + '/launch', share_files('launch/*.py')),
        ('share/' + PACKAGE_NAME + '/config',
         share_files('config/*.yaml') + share_files('config/*.rviz')),
    ],
    install_requires=[
        'lxml>=4.8,<7',
        'numpy>=1.21,<3',
        'scipy>=1.8,<2',
        'transforms3d>=0.4,<0.5',
        'xacro>=2.0,<3',
        'PyYAML>=5.4,<7',
        'trimesh>=4,<6',  # convex hulls and inertia from geometry in conversions
    ],
    extras_require={'test': ['pytest>=7', 'hypothesis>=6'],
                    # `sdf_tools report` decimates big meshes with it (through trimesh)
                    'report': ['fast-simplification>=0.1.9,<1'],
                    # `sdf_tools convert --to usd` / `--from usd` (meshes through trimesh)
                    'usd': ['usd-core>=25.5', 'trimesh>=4,<6', 'pycollada>=0.8'],
                    # `sdf_tools convert --from mjcf` reads MJCF through mujoco.MjSpec
                    # (the MJCF exporter itself needs only lxml)
                    'mjcf': ['mujoco>=3.3,<4', 'pycollada>=0.8']},
    ext_modules=compiled_modules(),
    zip_safe=False,
    classifiers=[
        'Programming Language :: Python :: 3',
        'Typing :: Typed',
    ],
    entry_points={
        'console_scripts': [
            'sdf_tools = sdf_tools.cli:main',
            # ROS 2 nodes (rclpy is imported only inside sdf_tools.ros).
            'description_publisher = sdf_tools.ros.description_publisher:main',
            'converter = sdf_tools.ros.converter_node:main',
            'spawner = sdf_tools.ros.spawner_node:main',
        ],
    },
)
