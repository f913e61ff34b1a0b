"""The Gazebo release whose libsdformat we reproduce, chosen once per run.

Each Gazebo ships one libsdformat major: Fortress 12 (SDFormat 1.9), Harmonic 14
(1.11), Ionic 15 (1.12), Jetty 16 (1.12). What a file means differs between them
(``<inertial auto="true">`` is computed from 14 on; see docs/libsdformat-releases.md),
so the reader asks :func:`current` which one it is reading for. The target is set
for the duration of a load (:func:`using`, ``load_file(..., gazebo=...)``) and
defaults to the one of ``ROS_DISTRO``, else the newest.
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sdf_tools.records import fields_eq, fields_repr

if TYPE_CHECKING:  # annotations only: the ROS nodes import this module and need no argparse
    import argparse

__all__ = ['TARGETS', 'GazeboTarget', 'add_gazebo_option', 'current', 'default_target',
           'split_gazebo_option', 'target', 'using']


# Methods written out rather than generated at import (sdf_tools/records.py says why).
@dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)
class GazeboTarget:
    """One Gazebo release and the libsdformat it reads SDFormat with."""

    name: str                       # 'fortress', 'harmonic', ...
    libsdformat: int                # major version
    spec: str                       # newest SDFormat version that libsdformat reads
    ros_distro: str                 # the ROS 2 distribution paired with it
    convert_version: str            # the SDFormat version `convert` writes by default

    def __init__(self, name: str, libsdformat: int, spec: str, ros_distro: str,
                 convert_version: str) -> None:
        # As a frozen dataclass's generated __init__ sets them.
        object.__setattr__(self, 'name', name)
        object.__setattr__(self, 'libsdformat', libsdformat)
        object.__setattr__(self, 'spec', spec)
        object.__setattr__(self, 'ros_distro', ros_distro)
        object.__setattr__(self, 'convert_version', convert_version)

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)

    def __hash__(self) -> int:
        return hash((self.name, self.libsdformat, self.spec, self.ros_distro,
                     self.convert_version))

    @property
    def auto_inertials(self) -> bool:
        """Whether ``<inertial auto="true">`` is computed (libsdformat 14+)."""
        return self.libsdformat >= 14

    def to_json(self) -> dict[str, object]:
        """The target as ``inspect --json`` and the report state it."""
        return {'name': self.name, 'libsdformat': self.libsdformat, 'sdformat': self.spec}


TARGETS: dict[str, GazeboTarget] = {
    'fortress': GazeboTarget('fortress', 12, '1.9', 'humble', '1.9'),
    'harmonic': GazeboTarget('harmonic', 14, '1.11', 'jazzy', '1.11'),
    # libsdformat 15 and 16 read and write SDFormat 1.12 (SDF_PROTOCOL_VERSION in their
    # CMakeLists.txt since 15.0.0, gazebosim/sdformat#1375): `gz sdf -p` of a URDF prints 1.12.
    'ionic': GazeboTarget('ionic', 15, '1.12', 'kilted', '1.12'),
    'jetty': GazeboTarget('jetty', 16, '1.12', 'rolling', '1.12'),
}
NEWEST = 'jetty'

_current: ContextVar[GazeboTarget | None] = ContextVar('sdf_tools_gazebo_target', default=None)


def default_target(env: dict[str, str] | None = None) -> GazeboTarget:
    """Return the target paired with ``ROS_DISTRO`` (humble -> fortress, ...), else the newest."""
    distro = (os.environ if env is None else env).get('ROS_DISTRO', '').strip().lower()
    for t in TARGETS.values():
        if t.ros_distro == distro:
            return t
    return TARGETS[NEWEST]


def target(name: str | GazeboTarget | None) -> GazeboTarget:
    """Return the target named ``name`` (None: :func:`current`).

    Raises:
        ValueError: ``name`` is not a Gazebo release we reproduce.
    """
    if name is None:
        return current()
    if isinstance(name, GazeboTarget):
        return name
    found = TARGETS.get(name.strip().lower())
    if found is None:
        msg = f'unknown Gazebo target {name!r}: choose one of {", ".join(TARGETS)}'
        raise ValueError(msg)
    return found


def current() -> GazeboTarget:
    """Return the target of the load under way (or the default one)."""
    t = _current.get()
    return t if t is not None else default_target()


@contextmanager
def using(name: str | GazeboTarget | None) -> Iterator[GazeboTarget]:
    """Read as ``name`` inside the block (None keeps the target in force)."""
    t = target(name)
    token = _current.set(t)
    try:
        yield t
    finally:
        _current.reset(token)


GAZEBO_HELP = ('the Gazebo whose libsdformat to reproduce: fortress (12), harmonic (14), ionic (15), '
               'jetty (16) (default: from ROS_DISTRO, else the newest, jetty)')


def add_gazebo_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """Add ``--gazebo NAME`` to a command's parser."""
    parser.add_argument('--gazebo', choices=tuple(TARGETS), default=None, help=GAZEBO_HELP)


def split_gazebo_option(args: list[str]) -> tuple[str | None, list[str]]:
    """Take ``--gazebo NAME`` (or ``--gazebo=NAME``) out of a command line, wherever it is.

    Raises:
        ValueError: the option has no value or names no target.
    """
    name: str | None = None
    rest: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == '--gazebo':
            if i + 1 >= len(args):
                msg = f'--gazebo needs a value: one of {", ".join(TARGETS)}'
                raise ValueError(msg)
            name, i = args[i + 1], i + 2
        elif a.startswith('--gazebo='):
            name, i = a.split('=', 1)[1], i + 1
        else:
            rest.append(a)
            i += 1
    if name is not None:
        target(name)  # raises for an unknown one
    return name, rest
