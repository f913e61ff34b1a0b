"""Write output files atomically: a reader never sees half of one, a failure leaves none.

Every file we write for a user (converted models, reports, meshes, pages) goes
through here: the data goes to a temporary file in the target's folder, which is
then renamed over the target. The file gets the permissions a plain ``open``
would give it (0666 less the umask), not mkstemp's 0600.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def write_atomically(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path``.

    Raises:
        OSError: the folder is missing or not writable.
    """
    payload = data.encode('utf-8') if isinstance(data, str) else data

    def write(tmp: str) -> None:
        with open(tmp, 'wb') as f:
            f.write(payload)
    replace_atomically(path, write)


def replace_atomically(path: str | os.PathLike[str], write: Callable[[str], None]) -> None:
    """Let ``write`` fill a temporary file by its path, then rename it to ``path``.

    For writers that want a file name rather than data (USD's ``Export``); the
    temporary file keeps the target's suffix, which such writers read the format
    from.

    Raises:
        OSError: the folder is missing or not writable, or ``write`` raised it.
    """
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f'.{target.stem}.', suffix=target.suffix or '.tmp',
                               dir=str(target.parent) or '.')
    os.close(fd)
    try:
        write(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
