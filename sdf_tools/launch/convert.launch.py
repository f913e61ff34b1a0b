"""Start the converter node, serving ~/convert (sdf_tools_interfaces/srv/Convert).

    ros2 launch sdf_tools convert.launch.py
    ros2 service call /converter/convert sdf_tools_interfaces/srv/Convert \
        "{input_path: package://my_robot/urdf/robot.urdf.xacro, output_format: sdf}"

Arguments (``--show-args``) and the node they make: sdf_tools.ros.launch_logic.
"""
from __future__ import annotations  # noqa: I001 (ruff takes launch/ here for the launch package)

from launch import LaunchContext, LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration

from sdf_tools.ros.launch_actions import sigterm_stops_cleanly, watched
from sdf_tools.ros.launch_logic import CONVERT_ARGS, convert_nodes


def _nodes(context: LaunchContext) -> list[object]:
    values = {a.name: LaunchConfiguration(a.name).perform(context) for a in CONVERT_ARGS}
    return [action for spec in convert_nodes(values) for action in watched(spec)]


def generate_launch_description() -> LaunchDescription:
    return LaunchDescription([
        *(DeclareLaunchArgument(a.name, default_value=a.default, description=a.description,
                                **({'choices': list(a.choices)} if a.choices else {}))
          for a in CONVERT_ARGS),
        sigterm_stops_cleanly(),
        OpaqueFunction(function=_nodes),
    ])
