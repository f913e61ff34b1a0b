"""Performance helpers for the loader's hot paths."""
from __future__ import annotations

import contextlib
import functools
import gc
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar('F', bound=Callable[..., Any])


def no_gc(fn: F) -> F:
    """Pause the cyclic garbage collector while loading.

    Loading allocates hundreds of thousands of small objects and creates no
    reference cycles worth collecting; the collector's repeated passes over
    them cost about 40% of the load time of a large world.
    """
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            if was_enabled:
                # Move what the load made to the permanent generation first:
                # otherwise the collector's first passes after enable() walk
                # all of it (as costly as having left it on). Only cycles among
                # these objects escape collection, and the description model
                # makes none; refcounting still frees everything else.
                gc.freeze()
                gc.enable()
    return wrapper  # type: ignore[return-value]


# Below this many bytes of XML a tree leaves too few freed blocks to be worth a trim (and
# `sdf_tools check` of a small file does not import ctypes for it).
TRIM_ABOVE_BYTES = 1 << 20


def release_freed_memory(xml_bytes: int) -> None:
    """Hand memory freed by a large XML tree back to the OS (glibc only).

    libxml2's tree lives in malloc'd blocks that glibc keeps after they are
    freed; Python's own allocator takes fresh arenas instead of reusing
    them, so without a trim the peak memory counts the tree twice.
    """
    if xml_bytes < TRIM_ABOVE_BYTES:
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):  # not glibc: nothing to do
        ctypes.CDLL('libc.so.6').malloc_trim(0)
