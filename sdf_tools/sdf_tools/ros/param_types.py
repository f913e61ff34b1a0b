"""Name a parameter value's type in refusals, the same words on every distro.

rclpy refuses a value of the wrong type before any callback of ours runs, and
Kilted's rclpy words it ``Wrong parameter type, expected '3' got '2'`` (its
``Parameter.Type`` formats as a number). So our nodes declare their
parameters with dynamic typing and refuse a wrong type themselves, saying
which type was expected and which was given.
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

    An integer is accepted where a double is declared (``ros2 param set ... 5``).
    """
    if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
        return None
    if type_name(default) == type_name(value):
        return None
    return (f'parameter [{name}] is {type_name(default)}, not {type_name(value)} '
            f'({value!r})')
