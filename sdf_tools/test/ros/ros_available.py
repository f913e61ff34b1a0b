"""Whether the ROS tests can run here (no ROS import at module level)."""
from __future__ import annotations


def ros_missing() -> str | None:
    """Return why the ROS tests cannot run (None when they can)."""
    try:
        import geometry_msgs.msg  # noqa: F401
        import rclpy  # noqa: F401
        import sensor_msgs.msg  # noqa: F401
        import std_msgs.msg  # noqa: F401
        import tf2_msgs.msg  # noqa: F401
    except ImportError as err:
        return f'ROS 2 Python packages are not importable ({err}); run the tests with ./dev test'
    return None
