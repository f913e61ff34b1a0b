"""The spawner node over real DDS and gz-transport (scenarios: ../spawn/spawner_node_scenarios.py).

The scenarios start the Gazebo stand-in and the node under test in a private
network namespace (../spawn/netns.py) and call every service, bad requests
included; the node must answer each and survive. Skips, saying why, without rclpy.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from spawn.netns import rerun_in_private_network

from ros.ros_available import ros_missing

SCENARIOS = Path(__file__).resolve().parents[1] / 'spawn' / 'spawner_node_scenarios.py'


def test_spawner_node_scenarios_pass_in_a_private_network_namespace() -> None:
    why = ros_missing()
    if why is not None:
        pytest.skip(why)
    rerun_in_private_network(str(SCENARIOS))


PROBE = '''
import sys
import sdf_tools.ros.spawner_node
heavy = ('sdf_tools.spawn.pipeline', 'sdf_tools.spawn.prepare', 'sdf_tools.load', 'lxml.etree')
print(sorted(m for m in heavy if m in sys.modules))
import sdf_tools.spawn as s
print(all(getattr(s, name) is not None for name in s.__all__), 'sdf_tools.spawn.pipeline' in sys.modules)
'''


def test_the_spawn_pipeline_is_imported_by_the_first_request_not_at_start() -> None:
    """bench_ros_startup: sdf_tools.spawn imported its pipeline (reader, converters: ~40 ms) eagerly."""
    import os
    import subprocess
    import sys
    why = ros_missing()
    if why is not None:
        pytest.skip(why)
    src = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, 'PYTHONPATH': os.pathsep.join([src, os.environ.get('PYTHONPATH', '')])}
    run = subprocess.run([sys.executable, '-c', PROBE], capture_output=True, text=True, env=env,
                         timeout=60)
    assert run.stdout.split('\n')[:2] == ['[]', 'True True'], run.stdout + run.stderr
