"""Our nodes' parameters declared with their types, and a wrong type refused naming both.

Every parameter is declared statically typed (``ParameterDescriptor.type``
from its default, ``dynamic_typing`` off) except the few that take two
types (``xacro_args``: a string or a list of strings), so ``ros2 param
describe`` shows the type and a value of another type (an integer for a
double included, as rclcpp nodes do) is refused. rclpy's own refusal reads
``Wrong parameter type, expected '3' got '2'`` on Kilted (its type enum
formats as a number), so :class:`TypedParameters` refuses first, in words
(:func:`sdf_tools.ros.param_types.wrong_type`), through the parameter
services' ``set_parameters_atomically``; rclpy's check still runs after it.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rcl_interfaces.msg import ParameterDescriptor, ParameterType, SetParametersResult
from rclpy.node import Node
from rclpy.parameter import Parameter

from sdf_tools.ros.param_types import wrong_type

_TYPES: tuple[tuple[type, int], ...] = (
    (bool, ParameterType.PARAMETER_BOOL), (int, ParameterType.PARAMETER_INTEGER),
    (float, ParameterType.PARAMETER_DOUBLE), (str, ParameterType.PARAMETER_STRING))


class ParameterTypeError(ValueError):
    """A start-up parameter (``-p``, a params file) of the wrong type: the node cannot start."""


def descriptor(default: object, description: str = '', *,
               dynamic: bool = False) -> ParameterDescriptor:
    """Return the descriptor of a parameter typed by ``default`` (``dynamic``: any type)."""
    if dynamic:
        return ParameterDescriptor(description=description, dynamic_typing=True)
    kind = next(t for cls, t in _TYPES if isinstance(default, cls))  # bool before int
    return ParameterDescriptor(description=description, type=kind, dynamic_typing=False)


class TypedParameters(Node):
    """A node whose parameters are declared with :meth:`declare_all`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._typed_defaults: dict[str, object] = {}

    def declare_all(self, specs: Sequence[tuple[str, str | float | bool, str, bool]]) -> None:
        """Declare ``(name, default, description, dynamic)`` each typed by its default, at once.

        Every start-up value is checked before any parameter is declared.

        Raises:
            ParameterTypeError: ``-p`` or a params file gave one a value of another type.
        """
        for name, default, _, dynamic in specs:
            given = self._parameter_overrides.get(name)
            reason = None if dynamic or given is None else wrong_type(name, default, given.value)
            if reason is not None:
                raise ParameterTypeError(f'{reason}: give it as {type_example(default)}')
        self.declare_parameters('', [(name, default, descriptor(default, text, dynamic=dynamic))
                                     for name, default, text, dynamic in specs])
        self._typed_defaults.update({name: default for name, default, _, dynamic in specs
                                     if not dynamic})

    def set_parameters_atomically(self, parameter_list: list[Parameter[Any]]
                                  ) -> SetParametersResult:
        """Refuse a value of the wrong type naming both types; else set as rclpy does."""
        for p in parameter_list:
            if p.name in self._typed_defaults and p.type_ is not Parameter.Type.NOT_SET:
                reason = wrong_type(p.name, self._typed_defaults[p.name], p.value)
                if reason is not None:
                    return SetParametersResult(successful=False, reason=reason)
        return super().set_parameters_atomically(parameter_list)


def type_example(default: object) -> str:
    """Return how a value of ``default``'s type is written on the command line."""
    if isinstance(default, bool):
        return 'true or false'
    if isinstance(default, float):
        return 'a number with a decimal point (5.0, not 5)'
    if isinstance(default, int):
        return 'an integer'
    return "a string (quote a number: '\"1\"')"
