"""Name a parameter value's type in refusals, the same words on every distro.

Kilted's rclpy words a type refusal ``Wrong parameter type, expected '3' got
'2'`` (its ``Parameter.Type`` formats as a number); our nodes refuse first
with these words (:mod:`sdf_tools.ros.typed_params`). No ROS import here:
the launch logic uses them too.
"""
from __future__ import annotations

_NAMES: tuple[tuple[type, str], ...] = (
    (bool, 'a bool'), (int, 'an integer'), (float, 'a double'), (str, 'a string'),
    (list, 'an array'), (tuple, 'an array'), (bytes, 'a byte array'))


def type_name(value: object) -> str:
    """Return ``value``'s ROS parameter type in words (``'a string'``, ``'a double'``...)."""
    if value is None:
        return 'not set'
    for kind, name in _NAMES:  # bool first: it is an int to Python
        if isinstance(value, kind):
            return name
    return type(value).__name__


def wrong_type(name: str, default: object, value: object) -> str | None:
    """Return why ``value`` is refused for a parameter declared with ``default`` (None: same type).

    An integer where a double is declared is refused too, as rclpy and rclcpp
    refuse it (``ros2 param set ... 5`` sends an integer: write ``5.0``).
    """
    if type_name(default) == type_name(value):
        return None
    return (f'parameter [{name}] is {type_name(default)}, not {type_name(value)} '
            f'({value!r})')
