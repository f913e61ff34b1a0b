"""Log each message once per load, at any severity, through an rclpy logger.

rclpy remembers the severity of the first call made from each line of code
and raises ``ValueError: Logger severity cannot be changed between calls``
when a later call from that line has another one. So each severity is
logged from its own line here, never through one ``getattr(logger, level)``.
"""
from __future__ import annotations

from typing import Protocol


class RcutilsLogger(Protocol):
    """What of rclpy's logger this module uses."""

    def debug(self, message: str) -> object: ...
    def info(self, message: str) -> object: ...
    def warning(self, message: str) -> object: ...
    def error(self, message: str) -> object: ...


class OnceLog:
    """Log a message the first time it is given, until :meth:`clear`."""

    def __init__(self, logger: RcutilsLogger) -> None:
        self._logger = logger
        self._seen: set[str] = set()

    def clear(self) -> None:
        """Forget what was logged (a new load reports its own findings again)."""
        self._seen.clear()

    def _first(self, text: str) -> bool:
        if text in self._seen:
            return False
        self._seen.add(text)
        return True

    def debug(self, text: str) -> None:
        if self._first(text):
            self._logger.debug(text)

    def info(self, text: str) -> None:
        if self._first(text):
            self._logger.info(text)

    def warning(self, text: str) -> None:
        if self._first(text):
            self._logger.warning(text)

    def error(self, text: str) -> None:
        if self._first(text):
            self._logger.error(text)
