"""The CDR bytes of ``sensor_msgs/JointState`` (read) and ``tf2_msgs/TFMessage`` (written).

The joint_states -> /tf hot path takes and publishes serialized messages:
turning 45 ``TransformStamped`` into Python objects and back cost more than
half of the node's time at 1 kHz. This module knows the two layouts and
nothing of ROS. What the rmw hands over (and takes) is the encapsulation
header (``00 01 00 00``: plain CDR, little endian) followed by the
message in XCDR1: primitives aligned to their size from the end of the
header, a string as a ``uint32`` length (with the terminating NUL) then its
bytes and the NUL, a sequence as a ``uint32`` count then its elements.
Everything else (big endian, XCDR2, a truncated buffer) is refused here
(``None``) and the caller takes the ordinary path.

The padding an rmw leaves between fields is not specified (Fast DDS leaves
whatever was in memory); ours is zero, so comparisons skip it (``mask``).
"""
from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

CDR_LE = b'\x00\x01\x00\x00'
_U32 = struct.Struct('<I')
_STAMP = struct.Struct('<iI')


def _align(offset: int, size: int) -> int:
    """Round a buffer offset up to ``size`` counted from the end of the 4-byte header."""
    return 4 + ((offset - 4 + size - 1) & -size)


def names_offset(data: bytes) -> int | None:
    """Return where JointState's ``name`` sequence starts (its count), or None if not CDR LE."""
    if len(data) < 20 or not data.startswith(CDR_LE):
        return None
    end = 16 + _U32.unpack_from(data, 12)[0]  # after header.frame_id
    return _align(end, 4) if end + 4 <= len(data) else None


def stamp(data: bytes) -> tuple[int, int]:
    """Return ``header.stamp`` as (sec, nanosec) of a message accepted by :func:`names_offset`."""
    sec, nanosec = _STAMP.unpack_from(data, 4)
    return int(sec), int(nanosec)


def read_names(data: bytes, offset: int) -> tuple[list[str], int] | None:
    """Return the strings of the sequence at ``offset`` and the offset after them (None if bad)."""
    size = len(data)
    if offset + 4 > size:
        return None
    (count,) = _U32.unpack_from(data, offset)
    pos, names = offset + 4, []
    for _ in range(count):
        pos = _align(pos, 4)
        if pos + 4 > size:
            return None
        (length,) = _U32.unpack_from(data, pos)
        end = pos + 4 + length
        if length == 0 or end > size or data[end - 1] != 0:
            return None
        try:
            names.append(data[pos + 4:end - 1].decode())
        except UnicodeDecodeError:
            return None
        pos = end
    return names, pos


def read_positions(data: bytes, offset: int) -> npt.NDArray[np.float64] | None:
    """Return the ``float64`` sequence at ``offset`` (count first) as a read-only view."""
    offset = _align(offset, 4)
    if offset + 4 > len(data):
        return None
    (count,) = _U32.unpack_from(data, offset)
    start = _align(offset + 4, 8) if count else offset + 4
    if start + 8 * count > len(data):
        return None
    return np.frombuffer(data, dtype='<f8', count=count, offset=start)


class StringsKey:
    """A string sequence as it lies in a buffer, recognised again without its padding.

    A publisher's padding bytes are arbitrary (Fast DDS does not clear
    them), so two messages with the same names need not have the same bytes;
    the count, the lengths, the characters and the NULs must match.
    """

    def __init__(self, data: bytes, offset: int, end: int) -> None:
        keep, pos = [np.arange(4)], 4
        (count,) = _U32.unpack_from(data, offset)
        for _ in range(count):
            pos = _align(offset + pos, 4) - offset
            (length,) = _U32.unpack_from(data, offset + pos)
            keep.append(np.arange(pos, pos + 4 + length))
            pos += 4 + length
        self.size = end - offset
        self._keep = np.concatenate(keep)
        self._bytes = np.frombuffer(data, dtype=np.uint8, count=self.size, offset=offset)[
            self._keep].tobytes()

    def found_at(self, data: bytes, offset: int) -> bool:
        """Return True if ``data`` holds the same strings at ``offset``."""
        if offset + self.size > len(data):
            return False
        here = np.frombuffer(data, dtype=np.uint8, count=self.size, offset=offset)
        return here[self._keep].tobytes() == self._bytes


def _put_string(buf: bytearray, mask: bytearray, text: str) -> None:
    raw = text.encode() + b'\0'
    pad = _align(len(buf), 4) - len(buf)
    buf += bytes(pad) + _U32.pack(len(raw)) + raw
    mask += bytes(pad) + b'\1' * (4 + len(raw))


class TfMessageBuffer:
    """A serialized ``TFMessage`` for a fixed list of (frame_id, child_frame_id).

    Built once; per message only the stamps, translations and rotations are
    written, in place, through numpy views of the buffer.
    """

    def __init__(self, frames: Sequence[tuple[str, str]]) -> None:
        buf, mask = bytearray(CDR_LE + _U32.pack(len(frames))), bytearray(b'\1' * 8)
        stamps, values = [], []
        for parent, child in frames:
            stamps.append((len(buf) - 4) // 4)  # stamp: offset 8 + k*4, always 4-aligned
            buf += bytes(8)
            mask += b'\1' * 8
            _put_string(buf, mask, parent)
            _put_string(buf, mask, child)
            pad = _align(len(buf), 8) - len(buf)
            values.append((len(buf) + pad - 4) // 8)
            buf += bytes(pad + 56)
            mask += bytes(pad) + b'\1' * 56
        self.data, self.mask = buf, bytes(mask)
        self.size = len(frames)
        self._u32 = np.frombuffer(buf, dtype='<u4', count=(len(buf) - 4) // 4, offset=4)
        self._f64 = np.frombuffer(buf, dtype='<f8', count=(len(buf) - 4) // 8, offset=4)
        first = np.asarray(stamps, dtype=np.intp)
        self._sec, self._nanosec = first, first + 1
        base = np.asarray(values, dtype=np.intp)[:, None]
        self._p = base + np.arange(3)  # translation x, y, z
        self._q = base + np.array([6, 3, 4, 5])  # (w, x, y, z) -> rotation x, y, z, w slots

    def slots(self, rows: Sequence[int]) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """Return the ``float64`` slots of the translations (n, 3) and rotations (n, 4: w x y z)."""
        index = np.asarray(rows, dtype=np.intp)
        return self._p[index], self._q[index]

    def write_stamp(self, sec: int, nanosec: int) -> None:
        """Give every transform the stamp (sec, nanosec)."""
        self._u32[self._sec] = sec & 0xFFFFFFFF
        self._u32[self._nanosec] = nanosec

    def put(self, slots: npt.NDArray[np.intp], values: npt.NDArray[np.float64]) -> None:
        """Write ``values`` at ``slots`` (from :meth:`slots`)."""
        self._f64[slots] = values

    def matches(self, other: bytes) -> bool:
        """Return True if ``other`` (e.g. the rmw's serialization) equals ours but for padding."""
        if len(other) != len(self.data):
            return False
        return all(m == 0 or a == b for a, b, m in zip(self.data, other, self.mask, strict=True))
