"""Check a large world against the spec in a second process while this one reads it.

The spec check (``spec/check.py``) and the reader both walk every element in
Python, and neither needs the other's result: the check only adds diagnostics and
a verdict per world model. For a large world (the N=1000 benchmark world: 13 MB,
355,000 elements) the check costs about a third of the load, so on a machine with a
second core a worker process parses the same bytes and checks each top-level world
model, exactly as the streaming reader would have (same code, same parser, same
order), while this process reads them. :class:`CheckWorker` collects the worker's
verdicts, and ``WorldModelStreamer.context_for`` splices each model's diagnostics
back in front of the reader's, so the result is identical to a check made here.

Small files never start a worker (starting Python costs about 0.1 s, more than the
check of any ordinary robot). Anything unexpected (no second CPU, no Python
executable, the worker failing or the file changing under it) makes this process
check the models itself, from the same bytes.

The worker is ``main`` (pickled verdicts on stdout), started as ``python -c`` (see _WORKER).
"""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
import zlib
from pathlib import Path

from lxml import etree

from sdf_tools.errors import Diagnostic
from sdf_tools.sdf.context import ReadContext, top_world_model_version
from sdf_tools.sdf.spec.check import check_world_model
from sdf_tools.sdf.unflatten import unflatten_world_model
from sdf_tools.xmlsafe import parse_bytes

__all__ = ['CheckWorker', 'Outcome', 'check_world_models', 'start_worker']

# '0': never start a worker; '1': whenever the file is on disk (tests); unset: by size.
ENV = 'SDF_TOOLS_PARALLEL_CHECK'
# Below this the check takes less than starting the worker (measured: ~0.3 s per 10 MB
# of world, ~0.1 s to start Python and import the checker).
MIN_BYTES = 4 * 1024 * 1024
# A worker that takes longer than this is given up on (the check is redone here).
TIMEOUT_S = 600.0

# Per top-level world model, in document order: did it pass, and what the check said.
Outcome = list[tuple[bool, list[Diagnostic]]]
_PROTOCOL = 1  # bumped when what the worker writes changes
# Not ``-m``: that would run this module a second time beside the copy its package imports.
_WORKER = 'import sys; from sdf_tools.sdf.spec.parallel import main; sys.exit(main(sys.argv[1:]))'


def check_world_models(data: bytes, source: str | None) -> Outcome | None:
    """Check every top-level world model of ``data`` as the streaming reader does.

    None when the document is not streamed that way (malformed XML falls back to a
    whole-tree parse, where the reader checks its models itself).
    """
    outcomes: Outcome = []
    roots: list[etree._Element] = []

    def on_model(el: etree._Element) -> None:
        version = top_world_model_version(el)
        if version is None:
            return
        if not roots:
            roots.append(el.getparent().getparent())  # type: ignore[union-attr,arg-type]
        ctx = ReadContext(source, version)
        unflatten_world_model(ctx, el)  # as stream.read_world_model (its problems come with ours)
        check_world_model(ctx, el)
        outcomes.append((ctx.spec_checked[el], ctx.diagnostics))
        del el[:]

    root, _ = parse_bytes(data, source, ('model', on_model))
    if root is None or (roots and roots[0] is not root):
        return None
    return outcomes


class CheckWorker:
    """A running worker process and what to compare its answer with."""

    def __init__(self, proc: subprocess.Popen[bytes], data: bytes, source: str | None) -> None:
        self.proc = proc
        self.data = data
        self.source = source

    def outcomes(self, count: int) -> Outcome:
        """The worker's verdicts on the ``count`` models read here (checked here if it failed)."""
        got = self._answer()
        if got is None or len(got) != count:
            got = check_world_models(self.data, self.source)
        assert got is not None and len(got) == count, 'the reader and the check saw other models'
        return got

    def cancel(self) -> None:
        """Stop the worker: its answer is not needed."""
        self.proc.kill()
        self.proc.wait()

    def _answer(self) -> Outcome | None:
        try:
            out, _ = self.proc.communicate(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.cancel()
            return None
        if self.proc.returncode != 0:
            return None
        try:
            protocol, checksum, size, outcomes = pickle.loads(out)
        except Exception:  # noqa: BLE001  # any garbage: check here instead
            return None
        if protocol != _PROTOCOL or size != len(self.data) or checksum != zlib.adler32(self.data):
            return None  # another version of us, or the file changed in between
        return outcomes  # type: ignore[no-any-return]


def start_worker(path: str | Path, data: bytes, source: str | None) -> CheckWorker | None:
    """Start checking the file at ``path`` (whose bytes are ``data``) in a second process.

    None when not worth it or not possible: a small file, no second core free (one
    CPU, or the machine busy), no Python executable to start, or
    ``SDF_TOOLS_PARALLEL_CHECK=0``.
    """
    wanted = os.environ.get(ENV, '')
    if wanted == '0' or (wanted != '1' and len(data) < MIN_BYTES):
        return None
    if wanted != '1' and not _core_free():
        return None
    exe = sys.executable
    if not exe or not Path(exe).name.startswith('python'):
        return None  # embedded interpreters (a simulator's, Blender's): no worker
    env = dict(os.environ)
    # The worker must import this very copy of sdf_tools, wherever it came from.
    here = str(Path(__file__).resolve().parents[3])
    env['PYTHONPATH'] = os.pathsep.join(p for p in (here, env.get('PYTHONPATH', '')) if p)
    try:
        proc = subprocess.Popen(
            [exe, '-c', _WORKER, str(path), source or ''],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    except OSError:
        return None
    return CheckWorker(proc, data, source)


def _core_free() -> bool:
    """Whether a second core is likely idle for the worker.

    The last minute's load (this process counts in it) must leave one core free: a
    worker starved of CPU would make this process wait for it, slower than checking here.
    """
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cpus = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = 0.0
    return cpus >= 2 and load < cpus - 0.5


def main(argv: list[str]) -> int:
    """The worker: check the file and write the pickled verdicts to stdout."""
    path, source = argv[0], argv[1] or None
    data = Path(path).read_bytes()
    outcomes = check_world_models(data, source)
    if outcomes is None:
        return 1
    sys.stdout.buffer.write(pickle.dumps((_PROTOCOL, zlib.adler32(data), len(data), outcomes),
                                         protocol=pickle.HIGHEST_PROTOCOL))
    return 0
