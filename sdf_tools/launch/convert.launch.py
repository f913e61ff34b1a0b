"""Start the converter node, serving ~/convert (sdf_tools_interfaces/srv/Convert).

    ros2 launch sdf_tools convert.launch.py
    ros2 service call /converter/convert sdf_tools_interfaces/srv/Convert \
        "{input_path: package://my_robot/urdf/robot.urdf.xacro, output_format: sdf}"

Arguments (``--show-args``) and the node they make: sdf_tools.ros.launch_logic.
"""
from __future__ import annotations  # noqa: I001 (ruff takes launch/ here for the launch package)

from launch import LaunchContext, LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction, RegisterEventHandler
from launch.event_handlers import OnProcessExit
from launch.events.process import ProcessExited
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node

from sdf_tools.ros.launch_logic import (
    CONVERT_ARGS,
    NodeDiedError,
    NodeSpec,
    convert_nodes,
    node_exit_failure,
)


def watched(spec: NodeSpec) -> list[object]:
    """The node of ``spec``, and a handler that fails the launch when it dies (launch_logic)."""
    node = Node(package=spec.package, executable=spec.executable, name=spec.name,
                namespace=spec.namespace, parameters=spec.parameters, arguments=spec.arguments,
                output='screen')

    def on_exit(event: ProcessExited, context: LaunchContext) -> None:
        reason = node_exit_failure(spec, event.returncode, shutting_down=context.is_shutdown)
        if reason is not None:
            raise NodeDiedError(reason)

    return [node, RegisterEventHandler(OnProcessExit(target_action=node, on_exit=on_exit))]


def _nodes(context: LaunchContext) -> list[object]:
    values = {a.name: LaunchConfiguration(a.name).perform(context) for a in CONVERT_ARGS}
    return [action for spec in convert_nodes(values) for action in watched(spec)]


def generate_launch_description() -> LaunchDescription:
    return LaunchDescription([
        *(DeclareLaunchArgument(a.name, default_value=a.default, description=a.description,
                                **({'choices': list(a.choices)} if a.choices else {}))
          for a in CONVERT_ARGS),
        OpaqueFunction(function=_nodes),
    ])
