"""The ROS 2 layer: nodes that publish robot_description and TF, and a convert service.

Only the node modules (``description_publisher``, ``converter_node``) import
rclpy; the logic they run lives in pure modules next to them, testable
without ROS:

* :mod:`sdf_tools.ros.tf_tree` — the static and moving transforms of a model.
* :mod:`sdf_tools.ros.joint_motion` — a moving joint's transform at a position.
* :mod:`sdf_tools.ros.joint_states` — joint_states to ``/tf``, with
  robot_state_publisher's throttling, mimic joints and bad-input reports.
* :mod:`sdf_tools.ros.actor_motion` — actor scripts over time.
* :mod:`sdf_tools.ros.description` — parameters to description text and TF tree.
* :mod:`sdf_tools.ros.params` — the nodes' parameters, defaults and checks.
* :mod:`sdf_tools.ros.convert_request` — the convert service, minus ROS.
* :mod:`sdf_tools.ros.launch_logic` and :mod:`sdf_tools.ros.spawn_launch_logic` — what
  the launch files compute and check before anything starts.
* :mod:`sdf_tools.ros.params_file` — what a ``--params-file`` gives a node (rcl's rules).
"""
from __future__ import annotations

__all__: list[str] = []
