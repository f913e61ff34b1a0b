"""Publish robot_description and TF of an SDFormat, URDF or xacro model (ROS 2 Jazzy, Kilted).

    ros2 launch sdf_tools description.launch.py description_file:=/path/robot.urdf.xacro \
        xacro_args:="arm:=left" rviz:=true
    ros2 launch sdf_tools description.launch.py description_file:=package://my_robot/robot.sdf \
        frame_prefix:=r1/ use_sim_time:=true

Arguments (``--show-args``) and the nodes they make: sdf_tools.ros.launch_logic.
"""
from __future__ import annotations  # noqa: I001 (ruff takes launch/ here for the launch package)

from ament_index_python.packages import get_package_share_directory
from launch import LaunchContext, LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration

from sdf_tools.ros.launch_actions import sigterm_stops_cleanly, watched
from sdf_tools.ros.launch_logic import DESCRIPTION_ARGS, description_nodes


def _nodes(context: LaunchContext) -> list[object]:
    values = {a.name: LaunchConfiguration(a.name).perform(context) for a in DESCRIPTION_ARGS}
    specs = description_nodes(values, get_package_share_directory('sdf_tools'))
    return [action for spec in specs for action in watched(spec)]


def generate_launch_description() -> LaunchDescription:
    return LaunchDescription([
        *(DeclareLaunchArgument(a.name, default_value=a.default, description=a.description,
                                **({'choices': list(a.choices)} if a.choices else {}))
          for a in DESCRIPTION_ARGS),
        sigterm_stops_cleanly(),
        OpaqueFunction(function=_nodes),
    ])
