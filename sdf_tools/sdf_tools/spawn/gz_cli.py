"""gz-transport through its command-line tools: ``gz service`` (Garden and later) or ``ign service``.

Which tool, and which message package its type names take, is found once:

1. ``gz service`` when it works (``gz.msgs.*`` types; Gazebo Classic's ``gz``
   has no ``service`` command and is skipped);
2. ``ign service`` when it works (``ignition.msgs.*``: Citadel, Fortress);
3. the helper binaries behind those commands, run directly
   (``/usr/libexec/{gz,ignition}/transport*/...-transport-service``): Debian
   12's ``ign`` front-end looks for them in the wrong folder.

Each call is one process: it starts, discovers the service (gz-transport's
multicast discovery, within ``GZ_PARTITION``/``IGN_PARTITION`` and
``GZ_IP``/``IGN_IP``), sends, prints the reply in text format and exits.
One argument carries the whole request, and Linux limits one argument to
128 KiB: bigger models are sent as a temporary file by the pipeline
(:attr:`GzCliTransport.max_request`).
"""
from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sdf_tools.spawn.errors import BackendError, BackendTimeoutError, BackendUnavailableError
from sdf_tools.spawn.gz_backend import GzBackend
from sdf_tools.spawn.textproto import TextFormatError, TextMessage, parse

#: Requests longer than this go through a file (the kernel's limit on one argument is 128 KiB).
MAX_INLINE_REQUEST = 100_000
_HELPER_GLOBS = ('/usr/libexec/gz/transport*/gz-transport-{}',
                 '/usr/lib/*/gz/transport*/gz-transport-{}',
                 '/usr/libexec/ignition/transport*/ign-transport-{}',
                 '/usr/lib/*/ignition/transport*/ign-transport-{}')


@dataclass(frozen=True)
class CliTool:
    """How to run ``service`` and ``topic`` commands, and the message package they name."""

    service: tuple[str, ...]
    topic: tuple[str, ...]
    msgs_package: str  # 'gz.msgs' or 'ignition.msgs'


def run_killable(argv: Sequence[str], timeout: float,
                 env: Mapping[str, str] | None) -> tuple[str, str, int | None]:
    """Run ``argv``; return stdout, stderr and exit status (None when killed at ``timeout``).

    The command runs in a session of its own and the whole session is killed
    on time-out: ``ign`` is a ruby script that runs the real tool as a child.
    """
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=None if env is None else dict(env), start_new_session=True)
    except OSError as err:
        raise BackendUnavailableError(f'cannot run {argv[0]}: {err}') from err
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        stdout, stderr = proc.communicate()
        return stdout, stderr, None
    return stdout, stderr, proc.returncode


def _works(argv: Sequence[str], env: Mapping[str, str] | None) -> bool:
    try:
        out, err, status = run_killable([*argv, '--help'], 10.0, env)
    except BackendUnavailableError:
        return False
    return status == 0 and '--reqtype' in out + err


def _helper(prefix: str, command: str) -> str | None:
    """Return the newest ``<prefix>-transport-<command>`` helper binary installed, if any."""
    for pattern in _HELPER_GLOBS:
        if f'/{prefix}-transport-' in pattern:
            found = sorted(glob.glob(pattern.format(command)))
            if found:
                return found[-1]
    return None


def detect_cli(env: Mapping[str, str] | None = None) -> CliTool:
    """Find a working gz-transport command-line tool.

    Raises:
        BackendUnavailableError: neither ``gz`` nor ``ign`` (nor their helpers) works here.
    """
    path = None if env is None else env.get('PATH')
    for exe, package in (('gz', 'gz.msgs'), ('ign', 'ignition.msgs')):
        found = shutil.which(exe, path=path)
        if found and _works([found, 'service'], env):
            return CliTool((found, 'service'), (found, 'topic'), package)
    for prefix, package in (('gz', 'gz.msgs'), ('ign', 'ignition.msgs')):
        service, topic = _helper(prefix, 'service'), _helper(prefix, 'topic')
        if service and topic and _works([service], env):
            return CliTool((service,), (topic,), package)
    raise BackendUnavailableError('no gz-transport command-line tool works here: install Gazebo '
                                  "('gz service', Garden or later) or Ignition Fortress ('ign service')")


class GzCliTransport:
    """A :class:`~sdf_tools.spawn.gz_backend.GzTransport` running ``gz``/``ign`` per call.

    Args:
        tool: the command to run; found with :func:`detect_cli` when None.
        timeout: seconds to wait for a service answer or a topic message.
        env: environment of the tool's processes (default: this process's).
    """

    max_request: int | None = MAX_INLINE_REQUEST

    def __init__(self, tool: CliTool | None = None, *, timeout: float = 5.0,
                 env: Mapping[str, str] | None = None) -> None:
        self.env = None if env is None else dict(env)
        self.tool = tool or detect_cli(self.env)
        self.timeout = timeout

    def _run(self, argv: list[str], what: str, timeout: float) -> str:
        out, err, status = run_killable(argv, timeout, self.env)
        if status is None:
            raise BackendTimeoutError(f'no answer on {what} within {timeout:g} s')
        if 'timed out' in out + err:
            raise BackendTimeoutError(f'no answer on {what} within {self.timeout:g} s')
        if 'Service call failed' in out or status != 0:
            text = ' '.join((out + err).split())
            raise BackendError(f'{what} failed: {text or f"exit status {status}"}')
        return out

    def request(self, service: str, req_type: str, rep_type: str, request: str) -> TextMessage:
        pkg = self.tool.msgs_package
        argv = [*self.tool.service, '-s', service, '--reqtype', f'{pkg}.{req_type}',
                '--reptype', f'{pkg}.{rep_type}', '--timeout', str(int(self.timeout * 1000)),
                '--req', request]
        out = self._run(argv, service, self.timeout + 10.0)
        try:
            return parse(out)
        except TextFormatError as err:
            raise BackendError(f'unreadable answer on {service}: {err}: {out[:200]!r}') from err

    def echo_one(self, topic: str, msg_type: str) -> TextMessage:
        del msg_type  # the tool learns the type from the publisher
        argv = [*self.tool.topic, '-e', '-t', topic, '-n', '1']
        out = self._run(argv, topic, min(self.timeout, 2.0))
        try:
            return parse(out)
        except TextFormatError as err:
            raise BackendError(f'unreadable message on {topic}: {err}') from err


def gz_cli_backend(*, timeout: float = 5.0, env: Mapping[str, str] | None = None,
                   tool: CliTool | None = None) -> GzBackend:
    """Return a Gazebo backend over the command-line tools (raises ``BackendUnavailableError``)."""
    return GzBackend(GzCliTransport(tool, timeout=timeout, env=env))
