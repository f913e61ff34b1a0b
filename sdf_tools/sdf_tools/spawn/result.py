"""Result codes of spawn, delete and set-pose, and the outcome record every operation returns.

The codes are those of ``simulation_interfaces`` (``msg/Result.msg`` and the
extra codes of ``srv/SpawnEntity.srv``), with the same numbers, so a result
can be put into a ``simulation_interfaces`` response unchanged. One code is
our own: :attr:`ResultCode.TIMEOUT` (no simulator answered in time), which
``simulation_interfaces`` has no name for; :func:`to_simulation_interfaces`
turns it into ``RESULT_OPERATION_FAILED`` there.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

from sdf_tools.errors import Diagnostic
from sdf_tools.transform import Transform


class ResultCode(enum.IntEnum):
    """What happened, with ``simulation_interfaces``' numbers."""

    # simulation_interfaces/msg/Result
    FEATURE_UNSUPPORTED = 0  # the backend cannot do this at all
    OK = 1
    NOT_FOUND = 2            # no such entity, world, file or frame
    INCORRECT_STATE = 3
    OPERATION_FAILED = 4     # the simulator did not do what it was asked (see the message)
    # simulation_interfaces/srv/SpawnEntity
    NAME_NOT_UNIQUE = 101    # the name is taken and allow_renaming is false
    NAME_INVALID = 102       # the name breaks SDFormat or Gazebo naming rules (or is empty)
    UNSUPPORTED_FORMAT = 103  # not SDFormat, URDF or xacro
    NO_RESOURCE = 104        # neither a file/URI nor text was given
    NAMESPACE_INVALID = 105  # the namespace is not a valid ROS namespace
    RESOURCE_PARSE_ERROR = 106  # the model is invalid (see the diagnostics, with file:line)
    MISSING_ASSETS = 107     # a mesh or included model cannot be found
    UNSUPPORTED_ASSETS = 108
    INVALID_POSE = 109       # NaN/inf, a zero quaternion, or an unknown reference frame
    # sdf_tools' own
    TIMEOUT = 201            # no simulator answered in time: is Gazebo running?


def to_simulation_interfaces(code: ResultCode) -> int:
    """Return the number to put in a ``simulation_interfaces`` ``Result.result``."""
    return int(ResultCode.OPERATION_FAILED if code is ResultCode.TIMEOUT else code)


@dataclass
class Outcome:
    """What an operation did: a code, a message for people, and what it found.

    Attributes:
        code: the result code (``OK`` on success).
        message: one or more sentences saying what happened or why not.
        entity_name: the entity's real name in the simulation (spawn: after
            any renaming; delete/set-pose: the entity acted on).
        world: the world the operation went to ('' when none was reached).
        pose: the entity's world pose as the simulator reports it afterwards.
        diagnostics: problems of the model, each with file and line.
        notes: things done to the model on the way (conversion, URIs, namespace).
    """

    code: ResultCode
    message: str
    entity_name: str = ''
    world: str = ''
    pose: Transform | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.code is ResultCode.OK

    def details(self) -> str:
        """Return the message followed by one line per diagnostic."""
        return '\n'.join([self.message, *(f'  {d}' for d in self.diagnostics)])


class SpawnError(Exception):
    """Raised inside the spawn pipeline to stop with a result code; never escapes it."""

    def __init__(self, code: ResultCode, message: str,
                 diagnostics: list[Diagnostic] | None = None, *, world: str = '') -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.diagnostics = list(diagnostics or [])
        self.world = world  # the world the operation reached ('' when none was)
