"""Spawn a model into a running Gazebo with sdf_tools' spawner node (ROS 2 Jazzy, Kilted).

    ros2 launch sdf_tools spawn.launch.py file:=/path/robot.urdf.xacro xacro_args:="arm:=left" \
        name:=robot z:=0.1 Y:=1.57
    ros2 launch sdf_tools spawn.launch.py topic:=robot_description name:=robot relative_to:=dock

Every argument (``ros2 launch sdf_tools spawn.launch.py --show-args``) and how
it becomes a node parameter: sdf_tools.ros.spawn_launch_logic. The node
validates, converts and spawns the model, checks that it exists in the world
and exits (status 1 on failure) unless exit_after_spawn:=false; a failed spawn
fails the launch too (``ros2 launch`` exits 1 and says why), and a launch with
nothing to spawn is refused before anything starts.
"""
from __future__ import annotations  # noqa: I001 (ruff takes launch/ here for the launch package)

from launch import LaunchContext, LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration

from sdf_tools.ros.launch_actions import sigterm_stops_cleanly, watched
from sdf_tools.ros.launch_logic import NodeSpec
from sdf_tools.ros.spawn_launch_logic import (
    LAUNCH_ARGUMENTS,
    SpawnLaunchError,
    spawner_exit_failure,
    spawner_parameters,
)


def _rule(returncode: int | None, shutting_down: bool) -> str | None:
    return spawner_exit_failure(returncode, shutting_down=shutting_down)


def _spawner(context: LaunchContext) -> list[object]:
    values = {name: LaunchConfiguration(name).perform(context) for name, _, _ in LAUNCH_ARGUMENTS}
    spec = NodeSpec('sdf_tools', 'spawner', values['node_name'],
                    parameters=[spawner_parameters(values)])
    return watched(spec, rule=_rule, error=SpawnLaunchError)


def generate_launch_description() -> LaunchDescription:
    return LaunchDescription([
        *(DeclareLaunchArgument(name, default_value=default, description=text)
          for name, default, text in LAUNCH_ARGUMENTS),
        sigterm_stops_cleanly(),
        OpaqueFunction(function=_spawner),
    ])
