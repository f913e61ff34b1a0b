"""Run the Gazebo stand-in (``tools/gazebo_standin``) for tests and the demo, never on a real network.

Not part of the installed package: the tests (``sdf_tools/test/conftest.py`` puts this folder
on ``sys.path``) and ``tools/demo.py`` import it as ``standin``.

gz-transport finds services by UDP multicast. Everything here runs in a
private network namespace holding only a loopback interface (``unshare -n``,
then multicast routed to ``lo``), so no discovery packet can leave the
machine and parallel runs cannot see each other:

    argv = private_network_argv([sys.executable, '-m', 'pytest', 'test_x.py'])

Inside, :class:`StandIn` builds the stand-in when its source changed, starts
it for some worlds and stops it; :func:`transport_env` is the environment
the ``ign`` tool needs there (Debian's ``ign service`` fixed through
``IGN_CONFIG_PATH``, see ``tools/gazebo_standin/build.sh``).
"""
from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType

REPO_ROOT = Path(__file__).resolve().parents[2]
BUILD_SCRIPT = REPO_ROOT / 'tools' / 'gazebo_standin' / 'build.sh'
IGN_CONFIG = REPO_ROOT / '.cache' / 'gazebo_standin' / 'ign_config'
_SETUP_NETWORK = ('ip link set lo up multicast on && ip route add 224.0.0.0/4 dev lo && '
                  'exec "$@"')


class StandInError(RuntimeError):
    """The stand-in cannot be built or started here."""


def in_private_network() -> bool:
    """Return True when this process's network namespace has no interface but ``lo``."""
    try:
        lines = Path('/proc/net/dev').read_text().splitlines()[2:]
    except OSError:
        return False
    return [line.split(':', 1)[0].strip() for line in lines] == ['lo']


def private_network_problem() -> str | None:
    """Return why :func:`private_network_argv` cannot work here, or None."""
    for tool in ('unshare', 'ip'):
        if shutil.which(tool) is None and not Path('/usr/sbin', tool).exists():
            return f'[{tool}] is not installed'
    probe = subprocess.run(['unshare', '-n', 'true'], capture_output=True, text=True, check=False)
    if probe.returncode != 0:
        return f'cannot create a network namespace (unshare -n: {probe.stderr.strip()}); run as root'
    return None


def private_network_argv(argv: Sequence[str]) -> list[str]:
    """Return ``argv`` wrapped to run in a new network namespace with multicast on loopback."""
    return ['unshare', '-n', 'sh', '-c', _SETUP_NETWORK, 'sh', *argv]


def transport_overrides() -> dict[str, str]:
    """Return the variables gz-transport and the ``ign`` tool need on loopback here."""
    out = {'IGN_IP': '127.0.0.1', 'GZ_IP': '127.0.0.1'}
    if IGN_CONFIG.is_dir():  # written by tools/gazebo_standin/build.sh
        out['IGN_CONFIG_PATH'] = f'/usr/share/ignition{os.pathsep}{IGN_CONFIG}'
    return out


def transport_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """Return ``env`` (default: this process's) with :func:`transport_overrides`."""
    return {**(os.environ if env is None else env), **transport_overrides()}


def build_standin() -> Path:
    """Build the stand-in when needed (``tools/gazebo_standin/build.sh``); return the binary."""
    if not BUILD_SCRIPT.is_file():
        raise StandInError(f'{BUILD_SCRIPT} not found: the stand-in needs a source checkout')
    proc = subprocess.run(['bash', str(BUILD_SCRIPT)], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise StandInError(f'building the Gazebo stand-in failed: {proc.stderr.strip()}')
    return Path(proc.stdout.strip().splitlines()[-1])


class StandIn:
    """A running ``gazebo_standin`` serving ``worlds``; use as a context manager.

    Args:
        worlds: world names, the first being the default one.
        env: environment of the server (default: :func:`transport_env`).
    """

    def __init__(self, worlds: Sequence[str] = ('default',), *,
                 env: Mapping[str, str] | None = None) -> None:
        self.worlds = list(worlds)
        self.env = transport_env(env)
        self.proc: subprocess.Popen[str] | None = None
        self._log = tempfile.TemporaryFile('w+')  # noqa: SIM115 (closed by stop())
        self._final_log: str | None = None

    def start(self, timeout: float = 20.0) -> StandIn:
        """Start the server and wait until it serves every world."""
        if not in_private_network():
            raise StandInError('refusing to start gz-transport outside a private network namespace '
                               '(see private_network_argv)')
        binary = build_standin()
        self.proc = subprocess.Popen([str(binary), *self.worlds], stdout=subprocess.PIPE,
                                     stderr=self._log, text=True, env=self.env)
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline() if ready else ''
        if line.strip() != 'ready':
            self.stop()
            raise StandInError(f'the stand-in did not start within {timeout:g} s: {self.log()}')
        return self

    def stop(self) -> None:
        """Stop the server (SIGINT, then SIGKILL after 5 s); its log stays readable."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()
        if self._final_log is None:
            self._final_log = self.log()
            self._log.close()

    def log(self) -> str:
        """Return what the server printed on stderr so far."""
        if self._final_log is not None:
            return self._final_log
        self._log.flush()
        self._log.seek(0)
        return self._log.read()

    def __enter__(self) -> StandIn:
        return self.start() if self.proc is None else self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
