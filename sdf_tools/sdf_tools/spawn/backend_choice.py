"""Choose a simulator backend by name: ``auto``, ``gz_cli`` or ``gz_python``."""
from __future__ import annotations

from collections.abc import Mapping

from sdf_tools.spawn.errors import BackendUnavailableError
from sdf_tools.spawn.simulator import SimulatorBackend

BACKENDS = ('auto', 'gz_cli', 'gz_python')


def make_backend(kind: str = 'auto', *, timeout: float = 5.0,
                 env: Mapping[str, str] | None = None) -> SimulatorBackend:
    """Return the backend ``kind`` names.

    ``auto`` takes the gz-transport Python bindings when they can be
    imported (no process per call) and the ``gz``/``ign`` command-line tools
    otherwise.

    Raises:
        BackendUnavailableError: the backend cannot run here, or ``kind`` is unknown.
    """
    from sdf_tools.spawn.gz_cli import gz_cli_backend
    from sdf_tools.spawn.gz_python import gz_python_backend

    if kind not in BACKENDS:
        raise BackendUnavailableError(f'unknown backend [{kind}]: choose one of {", ".join(BACKENDS)}')
    if kind == 'gz_python':
        return gz_python_backend(timeout=timeout)
    if kind == 'gz_cli':
        return gz_cli_backend(timeout=timeout, env=env)
    try:
        return gz_python_backend(timeout=timeout)
    except BackendUnavailableError:
        return gz_cli_backend(timeout=timeout, env=env)
