"""The ``converter`` node: the service ``~/convert`` (sdf_tools_interfaces/srv/Convert).

Does what ``sdf_tools convert`` does (see :mod:`sdf_tools.ros.convert_request`);
a bad request gets ``success: false`` and a message with file:line, and the
node keeps serving. Parameter ``gazebo`` (fortress, harmonic, ionic, jetty; ''
for ROS_DISTRO's, as the other nodes): the target a request is read and converted
as, unless its ``options_yaml`` names one (``{gazebo: fortress}``).
"""
from __future__ import annotations

import sys

from rclpy.node import Node

from sdf_tools.gazebo import TARGETS, using
from sdf_tools.ros.convert_request import ConvertRequest, ConvertResponse, handle_convert
from sdf_tools.ros.spin import run_node, say_ready
from sdf_tools_interfaces.srv import Convert


class ConverterNode(Node):
    """Serve ``~/convert``."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__('converter', **kwargs)  # type: ignore[arg-type]
        self.declare_parameter('gazebo', '')
        self.create_service(Convert, '~/convert', self._on_convert)
        self.get_logger().info(f'serving {self.resolve_service_name("~/convert")}')
        say_ready(self, 'service ~/convert created')

    def _on_convert(self, request: Convert.Request, response: Convert.Response) -> Convert.Response:
        req = ConvertRequest(request.input_path, request.input_text, request.input_format,
                             request.output_format, list(request.xacro_args), request.options_yaml,
                             request.output_path)
        # the request's options_yaml `gazebo`, when given, wins over the target in force
        with using(self._gazebo()):
            result: ConvertResponse = handle_convert(req)
        what = req.input_path or 'input_text'
        if result.success:
            self.get_logger().info(f'converted {what} to {req.output_format or result.output_path}')
        else:
            self.get_logger().warning(f'convert {what}: {result.error_message.splitlines()[0]}')
        response.success = result.success
        response.output_text = result.output_text
        response.output_path = result.output_path
        response.warnings = result.warnings
        response.losses = result.losses
        response.error_message = result.error_message
        response.error_file = result.error_file
        response.error_line = result.error_line
        return response

    def _gazebo(self) -> str | None:
        """The ``gazebo`` parameter (None: ROS_DISTRO's target); a bad value is logged, not used."""
        name = str(self.get_parameter('gazebo').value or '').strip().lower()
        if name and name not in TARGETS:
            self.get_logger().error(f'parameter gazebo={name!r} must be one of '
                                    f'{", ".join(TARGETS)}: using ROS_DISTRO\'s target')
            return None
        return name or None


def main(args: list[str] | None = None) -> int:
    """Run the node until SIGINT or SIGTERM."""
    return run_node(ConverterNode, args)


if __name__ == '__main__':
    sys.exit(main())
