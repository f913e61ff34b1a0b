"""./dev's two ROS 2 distros: pins that cannot drift, and an environment that is the distro it says.

CI runs the whole suite on Kilted and the ROS tests again on Jazzy
(``SDF_TOOLS_ROS_DISTRO=jazzy ./dev test``); these tests run in both passes.
"""
from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DISTROS = ('kilted', 'jazzy')


def pins(path: Path) -> dict[str, str]:
    """Return name -> version of every ``name==version`` line of a requirements file."""
    out = {}
    for line in path.read_text().splitlines():
        m = re.fullmatch(r'([A-Za-z0-9_.-]+)==(\S+)', line.split('#')[0].strip())
        if m:
            out[m.group(1).lower()] = m.group(2)
    return out


def test_jazzy_pins_equal_the_kilted_ones_except_the_ros_wheels() -> None:
    kilted, jazzy = pins(ROOT / 'requirements.txt'), pins(ROOT / 'requirements-jazzy.txt')
    assert any(name.startswith('ros-jazzy-') for name in jazzy)
    assert not any(name.startswith('ros-kilted-') for name in jazzy)
    shared = {name: version for name, version in jazzy.items() if not name.startswith('ros-jazzy-')}
    assert shared == {name: kilted.get(name) for name in shared}


def test_the_environment_is_the_distro_it_says() -> None:
    distro = os.environ.get('ROS_DISTRO')
    if distro is None:
        pytest.skip('ROS_DISTRO is not set: run the tests with ./dev test')
    assert distro in DISTROS
    try:
        importlib.metadata.version(f'ros-{distro}-rclpy')
    except importlib.metadata.PackageNotFoundError:
        pytest.fail(f'ROS_DISTRO is {distro} but ros-{distro}-rclpy is not installed')
    others = [d for d in DISTROS if d != distro]
    for other in others:
        with pytest.raises(importlib.metadata.PackageNotFoundError):
            importlib.metadata.version(f'ros-{other}-rclpy')


def test_dev_refuses_an_unknown_distro() -> None:
    env = {**os.environ, 'SDF_TOOLS_ROS_DISTRO': 'humble'}
    result = subprocess.run([str(ROOT / 'dev'), 'help'], env=env, capture_output=True, text=True,
                            timeout=30, check=False)
    assert result.returncode == 1
    assert 'SDF_TOOLS_ROS_DISTRO must be kilted or jazzy, not [humble]' in result.stderr


def test_every_ros_module_imports_and_the_rclpy_api_we_use_is_there() -> None:
    """What differs between the distros' rclpy, and what the nodes rely on.

    Kilted's rclpy is generic (``Subscription[String]``), Jazzy's is not: our
    modules keep such annotations unevaluated, and import on both. Both have
    the events executor, post-set parameter callbacks and raw subscriptions.
    """
    if os.environ.get('ROS_DISTRO') is None:
        pytest.skip('ROS_DISTRO is not set: run the tests with ./dev test')
    import importlib
    import inspect

    from rclpy.node import Node

    from sdf_tools.ros.spin import events_executor
    for name in ('description_publisher', 'converter_node', 'spawner_node', 'spin'):
        importlib.import_module(f'sdf_tools.ros.{name}')
    assert events_executor() is not None
    assert hasattr(Node, 'add_post_set_parameters_callback')
    assert 'raw' in inspect.signature(Node.create_subscription).parameters
