"""The ``sdf_tools spawn``, ``delete``, ``set-pose`` and ``list`` subcommands.

::

    sdf_tools spawn robot.urdf.xacro arm:=left --name robot -x 1 -Y 1.57
    sdf_tools spawn model://table --world shop --relative-to robot -x 2 --allow-renaming
    sdf_tools set-pose robot -z 0.5 --relative-to robot
    sdf_tools delete robot
    sdf_tools list --json

The flags follow ``ros2 run ros_gz_sim create`` (``--world``, ``--name``,
``--allow-renaming``, ``-x -y -z -R -P -Y``, ``--string``), plus
``--relative-to``, ``--namespace``, ``--format`` and xacro arguments.
Exit codes: 0 done (and confirmed in the world); 1 it failed (the result
code and why are printed); 2 the command line is wrong.
"""
from __future__ import annotations

import argparse
import json
import math
import sys

from sdf_tools.formats import LOADED, names
from sdf_tools.gazebo import add_gazebo_option
from sdf_tools.spawn.assets import URI_MODES
from sdf_tools.spawn.backend_choice import BACKENDS, make_backend
from sdf_tools.spawn.errors import BackendUnavailableError
from sdf_tools.spawn.pipeline import SpawnRequest, delete, list_entities, set_pose, spawn
from sdf_tools.spawn.prepare import FORMATS, ModelSource
from sdf_tools.spawn.result import Outcome
from sdf_tools.spawn.simulator import EntityInfo, SimulatorBackend
from sdf_tools.transform import Transform
from sdf_tools.xacro_args import parse_name_values

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument('--world', default='', help='world name (default: the one Gazebo runs)')
    p.add_argument('--backend', choices=BACKENDS, default='auto',
                   help='how to reach Gazebo (default: %(default)s: Python bindings if '
                   'importable, else the gz/ign tools)')
    p.add_argument('--timeout', type=float, default=5.0, metavar='S',
                   help='seconds to wait for Gazebo and for the result (default: %(default)s)')


def _pose_flags(p: argparse.ArgumentParser) -> None:
    for flag, what in (('-x', 'X position (m)'), ('-y', 'Y position (m)'), ('-z', 'Z position (m)'),
                       ('-R', 'roll (rad)'), ('-P', 'pitch (rad)'), ('-Y', 'yaw (rad)')):
        p.add_argument(flag, type=float, default=None, help=f'{what}, default 0')
    p.add_argument('--relative-to', default='', metavar='ENTITY',
                   help='frame of the pose: an entity of the world, e.g. table or robot::base '
                   '(default: the world)')


def add_spawn_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the spawn, delete, set-pose and list subcommands to the ``sdf_tools`` parser."""
    p = sub.add_parser('spawn', help='spawn a model into a running Gazebo and confirm it')
    p.add_argument('file', nargs='?', default='', help=f'{names(LOADED)} file or URI (package://, model://)')
    p.add_argument('args', nargs='*', help='xacro arguments name:=value')
    add_gazebo_option(p)
    p.add_argument('--string', default='', metavar='XML', help='the model as text instead of FILE')
    p.add_argument('--name', default='', help="entity name (default: the model's own)")
    p.add_argument('--allow-renaming', action='store_true',
                   help='take name_0, name_1... when the name is taken (default: fail)')
    p.add_argument('--format', choices=FORMATS, default='auto', help='(default: %(default)s)')
    p.add_argument('--model', default='', metavar='NAME',
                   help="for a world file: the model to spawn, where the world puts it "
                   "(default: the world's only model)")
    p.add_argument('--namespace', default='', help='ROS namespace for the ROS plugins of the model')
    p.add_argument('--uris', choices=URI_MODES, default='file',
                   help='how mesh URIs are made resolvable for Gazebo (default: %(default)s)')
    _pose_flags(p)
    _common(p)
    p = sub.add_parser('delete', help='remove a top-level entity from a running Gazebo')
    p.add_argument('name')
    _common(p)
    p = sub.add_parser('set-pose', help='move a top-level model of a running Gazebo')
    p.add_argument('name')
    _pose_flags(p)
    _common(p)
    p = sub.add_parser('list', help='list the entities of a running Gazebo world')
    p.add_argument('--json', action='store_true', help='print one JSON object')
    _common(p)


def _pose(ns: argparse.Namespace) -> Transform | None:
    values = [ns.x, ns.y, ns.z, ns.R, ns.P, ns.Y]
    if all(v is None for v in values) and not ns.relative_to:
        return None
    x, y, z, r, p, yaw = (0.0 if v is None else v for v in values)
    return Transform.from_xyz_rpy((x, y, z), (r, p, yaw))


def _fmt(pose: Transform) -> str:
    r, p, y = pose.rpy()
    return (f'xyz=({pose.p[0]:.6g}, {pose.p[1]:.6g}, {pose.p[2]:.6g}) '
            f'rpy=({r:.6g}, {p:.6g}, {y:.6g})')


def _report(outcome: Outcome) -> int:
    if outcome.ok:
        where = f' at {_fmt(outcome.pose)}' if outcome.pose is not None else ''
        print(f'{outcome.message}{where}')
        for note in outcome.notes:
            print(f'  note: {note}')
        for warning in outcome.diagnostics:
            print(f'  {warning}', file=sys.stderr)
        return EXIT_OK
    print(f'sdf_tools: {outcome.code.name}: {outcome.details()}', file=sys.stderr)
    return EXIT_FAILED


def _entity_json(e: EntityInfo) -> dict[str, object]:
    return {'name': e.name, 'id': e.id, 'kind': e.kind, 'parent': e.parent, 'static': e.static,
            'pose': e.world_pose.to_json(), 'relative_pose': e.pose.to_json()}


def _list(backend: SimulatorBackend, ns: argparse.Namespace) -> int:
    outcome, entities = list_entities(backend, world=ns.world)
    if not outcome.ok:
        return _report(outcome)
    if ns.json:
        json.dump({'world': outcome.world, 'entities': [_entity_json(e) for e in entities]},
                  sys.stdout, indent=1, allow_nan=False)
        print()
        return EXIT_OK
    print(f'world [{outcome.world}]: {len(entities)} entities')
    for e in entities:
        depth = e.name.count('::')
        print(f'{"  " * (depth + 1)}{e.name} [{e.kind}] {_fmt(e.world_pose)}')
    return EXIT_OK


def run_spawn_command(ns: argparse.Namespace) -> int:
    """Run a spawn, delete, set-pose or list command (see add_spawn_commands); return its exit code."""
    if not (math.isfinite(ns.timeout) and ns.timeout > 0):
        print('sdf_tools: --timeout must be > 0', file=sys.stderr)
        return EXIT_USAGE
    try:
        backend = make_backend(ns.backend, timeout=ns.timeout)
    except BackendUnavailableError as err:
        print(f'sdf_tools: FEATURE_UNSUPPORTED: {err}', file=sys.stderr)
        return EXIT_FAILED
    if ns.command == 'list':
        return _list(backend, ns)
    if ns.command == 'delete':
        return _report(delete(backend, ns.name, world=ns.world, timeout=ns.timeout))
    pose = _pose(ns) or Transform()
    if ns.command == 'set-pose':
        return _report(set_pose(backend, ns.name, pose, relative_to=ns.relative_to, world=ns.world,
                                timeout=ns.timeout))
    xargs, bad = parse_name_values(ns.args)
    if bad:
        print(f'sdf_tools: arguments after FILE must be name:=value: {bad[0]}', file=sys.stderr)
        return EXIT_USAGE
    source = ModelSource(file=ns.file, text=ns.string, format=ns.format, xacro_args=xargs,
                         source_name='--string' if ns.string else '', model=ns.model)
    request = SpawnRequest(source, ns.name, ns.allow_renaming, ns.world, _pose(ns), ns.relative_to,
                           ns.namespace, ns.uris)
    return _report(spawn(backend, request, timeout=ns.timeout))
