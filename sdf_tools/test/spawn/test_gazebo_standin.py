"""Spawn, delete, move and list against the Gazebo stand-in over real gz-transport (gazebo_scenarios.py).

The scenarios run in a private network namespace (netns.py) so that gz-transport's
discovery never leaves this machine.
"""
from __future__ import annotations

from pathlib import Path

from spawn.netns import rerun_in_private_network

SCENARIOS = Path(__file__).with_name('gazebo_scenarios.py')


def test_gazebo_scenarios_pass_in_a_private_network_namespace() -> None:
    rerun_in_private_network(str(SCENARIOS))
