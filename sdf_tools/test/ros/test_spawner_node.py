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
