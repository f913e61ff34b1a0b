"""Exceptions of the simulator backends: raised by a backend, turned into result codes above it."""
from __future__ import annotations


class BackendError(Exception):
    """The simulator could not be asked, or it answered that it failed."""


class BackendTimeoutError(BackendError):
    """No simulator answered within the timeout (not running, or another partition)."""


class BackendUnavailableError(BackendError):
    """This backend cannot run here (no ``gz``/``ign`` tool, no Python bindings)."""
