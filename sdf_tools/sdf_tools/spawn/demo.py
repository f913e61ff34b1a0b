"""The spawn demo: the bundled rover into a Gazebo stand-in, then the world's entity list.

    python -m sdf_tools.spawn.demo

Starts ``tools/gazebo_standin`` (built on first use) for a world named
``demo`` inside a private network namespace, and drives it over real
gz-transport with the ``ign``/``gz`` command-line tools, as against Gazebo:
the rover of ``examples/demo_world.sdf`` where that world puts it, the
sensor mast model placed relative to the rover's chassis, a second rover
under a taken name (renamed by Gazebo's rule), a model that is refused.
Needs root (for ``unshare -n``), g++ and the Ignition Fortress development
packages; ``./dev`` installs them.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sdf_tools.spawn.gz_cli import gz_cli_backend
from sdf_tools.spawn.pipeline import SpawnRequest, list_entities, spawn
from sdf_tools.spawn.prepare import ModelSource
from sdf_tools.spawn.result import Outcome
from sdf_tools.spawn.simulator import SimulatorBackend
from sdf_tools.spawn.standin import (
    StandIn,
    StandInError,
    in_private_network,
    private_network_argv,
    private_network_problem,
    transport_env,
)
from sdf_tools.transform import Transform

EXAMPLES = Path(__file__).resolve().parents[1] / 'examples'
_BROKEN = '<sdf version="1.9"><model name="broken"><link name="l"/><link name="l"/></model></sdf>'


def _show(step: str, outcome: Outcome) -> None:
    print(f'\n$ {step}')
    print(f'  {outcome.code.name}: {outcome.message}')
    if outcome.pose is not None:
        r, p, y = outcome.pose.rpy()
        print(f'  pose in the world: xyz=({", ".join(f"{v:.4g}" for v in outcome.pose.p)}) '
              f'rpy=({r:.4g}, {p:.4g}, {y:.4g})')
    for line in [*outcome.notes, *(str(d) for d in outcome.diagnostics)]:
        print(f'  {line}')


def _run(backend: SimulatorBackend) -> int:
    world = str(EXAMPLES / 'demo_world.sdf')
    mast = str(EXAMPLES / 'models' / 'sensor_mast')
    steps = [
        ('spawn the rover of demo_world.sdf where that world puts it',
         SpawnRequest(ModelSource(file=world, model='rover'))),
        ('spawn the sensor mast 0.5 m ahead of the rover chassis',
         SpawnRequest(ModelSource(file=mast), name='mast', pose=Transform((0.5, 0.0, 0.0)),
                      relative_to='rover::chassis')),
        ('spawn the rover again, at x=-3, renaming allowed',
         SpawnRequest(ModelSource(file=world, model='rover'), allow_renaming=True,
                      pose=Transform((-3.0, 0.0, 0.0)))),
        ('spawn a model with two links of the same name',
         SpawnRequest(ModelSource(text=_BROKEN, source_name='broken.sdf'))),
    ]
    for step, request in steps:
        _show(step, spawn(backend, request))
    outcome, entities = list_entities(backend)
    print(f'\n$ list the entities of world [{outcome.world}]: {outcome.code.name}')
    for e in entities:
        x, y, z = e.world_pose.p
        print(f'  {"  " * e.name.count("::")}{e.name} [{e.kind}] id={e.id} '
              f'xyz=({x:.4g}, {y:.4g}, {z:.4g})')
    return 0 if outcome.ok else 1


def demo_spawn() -> int:
    """Start the stand-in, spawn the bundled robot, print the entity list, stop; return a status."""
    if not in_private_network():
        problem = private_network_problem()
        if problem is not None:
            print(f'spawn demo: {problem}', file=sys.stderr)
            return 2
        env = dict(os.environ)
        env['PYTHONPATH'] = os.pathsep.join([str(Path(__file__).resolve().parents[2]),
                                             env.get('PYTHONPATH', '')])
        argv = private_network_argv([sys.executable, '-m', 'sdf_tools.spawn.demo'])
        return subprocess.call(argv, env=env)
    try:
        with StandIn(['demo']) as standin:
            print('Gazebo stand-in serving world [demo] (tools/gazebo_standin, private network)')
            status = _run(gz_cli_backend(env=transport_env()))
            print('\nThe stand-in logged (as Gazebo would):')
            print(''.join(f'  {line}\n' for line in standin.log().splitlines()), end='')
        return status
    except StandInError as err:
        print(f'spawn demo: {err}', file=sys.stderr)
        return 2


if __name__ == '__main__':
    sys.exit(demo_spawn())
