"""Fixtures of the ROS tests: an rclpy context in this process, nodes under test in others.

Every test here talks over real DDS on the loopback interface: the node under
test runs as a subprocess (``python -m sdf_tools.ros.<node>``) and is stopped
with SIGTERM; this process listens and publishes with rclpy. Each test
session gets a DDS domain of its own (``ROS_DOMAIN_ID``, random unless set)
and discovery stays on this machine. Without rclpy (or the message packages)
the tests that need them skip, saying which import failed.
"""
from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

from ros.ros_available import ros_missing

os.environ.setdefault('ROS_DOMAIN_ID', str(random.randint(1, 100)))
os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')


@pytest.fixture(scope='session')
def ros() -> Iterator[None]:
    """Initialise rclpy once for the session (skip when it is missing)."""
    why = ros_missing()
    if why is not None:
        pytest.skip(why)
    import rclpy
    rclpy.init()
    yield
    rclpy.try_shutdown()


@pytest.fixture
def listener(ros: None) -> Iterator[Any]:
    """A node in this process subscribed to what description_publisher publishes."""
    from ros.ros_support import Listener
    lst = Listener()
    yield lst
    lst.destroy()
