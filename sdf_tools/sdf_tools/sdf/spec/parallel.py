"""Check a large world against the spec in a second process while this one reads it.

The spec check (``spec/check.py``) and the reader both walk every element in
Python, and neither needs the other's result: the check only adds diagnostics and
a verdict per world model. For a large world (the N=1000 benchmark world: 13 MB,
355,000 elements) the check costs about a third of the load, so on a machine with a
second core a worker process parses the same bytes and checks each top-level world
model, exactly as the streaming reader would (same code, same parser, same order),
while this process reads them. The worker writes the verdicts as it makes them;
:class:`CheckWorker` takes them in without waiting, and ``WorldModelStreamer``
(``sdf/stream.py``) puts each in front of the model's own diagnostics, so the result
is identical to a check made here.

This process never waits for the worker: a model whose verdict is late is checked
here (see ``WorldModelStreamer``), so a worker without a core of its own costs little
and a failed one nothing but its start. Small files never start one (starting Python
and the checker costs ~0.07 s, more than the check of any ordinary robot), nor does a
busy machine, and a worker that read other bytes than ours (the file changed in
between) is not listened to.

The worker is ``main``, started as ``python -c`` (see ``_WORKER``); it writes
length-prefixed pickles to stdout: a header (protocol, checksum and size of the
bytes it read), then ``(index, verdict)`` per top-level world model.
"""
from __future__ import annotations

import os
import struct
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING

from lxml import etree

from sdf_tools import gazebo
from sdf_tools.errors import Diagnostic
from sdf_tools.sdf.context import ReadContext, top_world_model_version
from sdf_tools.sdf.spec.check import check_world_model
from sdf_tools.sdf.unflatten import unflatten_world_model
from sdf_tools.xmlsafe import parse_bytes

if TYPE_CHECKING:
    import subprocess

# pickle, select and subprocess are imported where a worker is started or read: every load
# imports this module, and only a large world uses it (`sdf_tools check` starts faster).

__all__ = ['CheckWorker', 'Verdict', 'check_world_models', 'start_worker']

# '0': never start a worker; '1': whenever the file is on disk (tests); unset: by size.
ENV = 'SDF_TOOLS_PARALLEL_CHECK'
# Below this the check takes less than starting the worker (measured: ~0.3 s per 10 MB
# of world, ~0.07 s to start Python and import the checker).
MIN_BYTES = 4 * 1024 * 1024

# Of one top-level world model: did it pass, and what the check said.
Verdict = tuple[bool, list[Diagnostic]]
_PROTOCOL = 3  # bumped when what the worker writes changes
# Not ``-m``: that would run this module a second time beside the copy its package imports.
_WORKER = 'import sys; from sdf_tools.sdf.spec.parallel import main; sys.exit(main(sys.argv[1:]))'
_LENGTH = struct.Struct('<Q')


def check_world_models(data: bytes, source: str | None,
                       emit: Callable[[int, Verdict], None]) -> bool:
    """Check every top-level world model of ``data`` as the streaming reader does.

    ``emit(index, verdict)`` is called as each is checked, in document order. False
    when the document is not streamed that way (malformed XML falls back to a
    whole-tree parse, where the reader checks its models itself).
    """
    roots: list[etree._Element] = []
    count = 0

    def on_model(el: etree._Element) -> None:
        nonlocal count
        version = top_world_model_version(el)
        if version is None:
            return
        if not roots:
            roots.append(el.getparent().getparent())  # type: ignore[union-attr,arg-type]
        ctx = ReadContext(source, version)
        unflatten_world_model(ctx, el)  # as stream.read_world_model (its problems come with ours)
        check_world_model(ctx, el)
        emit(count, (ctx.spec_checked[el], ctx.diagnostics))
        count += 1
        del el[:]

    root, _ = parse_bytes(data, source, ('model', on_model))
    return root is not None and (not roots or roots[0] is root)


class CheckWorker:
    """A running worker process, and the verdicts it has sent so far.

    Its stdout is read without blocking each time a verdict is asked for (one system
    call per model read here): no thread, so the reader never hands the GIL over.
    """

    def __init__(self, proc: subprocess.Popen[bytes], data: bytes) -> None:
        self.proc = proc
        self.data = data
        self.verdicts: dict[int, Verdict] = {}
        # Set when nothing more will come: the worker ended, failed, said nonsense, or
        # read other bytes than ours (the file changed in between).
        self.done = False
        self._header = False
        self._buffer = bytearray()
        assert proc.stdout is not None
        self._fd = proc.stdout.fileno()
        os.set_blocking(self._fd, False)

    def result(self, index: int, wait: float = 0.0) -> Verdict | None:
        """The verdict on world model ``index`` if it has come (within ``wait`` seconds)."""
        if index not in self.verdicts and not self.done:
            self._receive()
            deadline = time.monotonic() + wait
            while index not in self.verdicts and not self.done:
                left = deadline - time.monotonic()
                if left <= 0.0:
                    break
                import select
                select.select([self._fd], [], [], left)
                self._receive()
        return self.verdicts.get(index)

    def cancel(self) -> None:
        """Stop the worker if it still runs."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self.done = True

    def _receive(self) -> None:
        """Take in what the worker has written, without waiting for more."""
        try:
            while chunk := os.read(self._fd, 1 << 20):
                self._buffer += chunk
            self.done = True  # end of the stream: whatever has not come will not
        except BlockingIOError:
            pass  # nothing more for now
        except OSError:
            self.done = True
        try:
            self._decode()
        except Exception:  # noqa: BLE001  # garbage: check here instead
            self.done = True

    def _decode(self) -> None:
        """Turn the complete records of the buffer into verdicts."""
        import pickle
        buf, pos = self._buffer, 0
        while len(buf) - pos >= _LENGTH.size:
            size, = _LENGTH.unpack_from(buf, pos)
            if len(buf) - pos - _LENGTH.size < size:
                break
            record = pickle.loads(buf[pos + _LENGTH.size:pos + _LENGTH.size + size])
            pos += _LENGTH.size + size
            if not self._header:
                if record != (_PROTOCOL, zlib.adler32(self.data), len(self.data)):
                    self.done = True  # another version of us, or the file changed
                    return
                self._header = True
                continue
            index, verdict = record
            self.verdicts[index] = verdict
        del buf[:pos]


def _write(stream: IO[bytes], value: object) -> None:
    import pickle
    body = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(body)) + body)


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
    import subprocess
    try:
        proc = subprocess.Popen(
            # The load's Gazebo target: what the check accepts depends on it (its newest spec).
            [exe, '-c', _WORKER, str(path), source or '', gazebo.current().name],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    except OSError:
        return None
    return CheckWorker(proc, data)


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
    """The worker: check the file, writing each verdict to stdout as soon as it is made."""
    path, source, target = argv[0], argv[1] or None, argv[2]
    data = Path(path).read_bytes()
    out = sys.stdout.buffer
    _write(out, (_PROTOCOL, zlib.adler32(data), len(data)))
    out.flush()

    def emit(index: int, verdict: Verdict) -> None:
        # Written through stdout's buffer (~25 verdicts of the bench world at a time):
        # fewer, larger writes for the reader to take in.
        _write(out, (index, verdict))

    with gazebo.using(target):
        return 0 if check_world_models(data, source, emit) else 1
