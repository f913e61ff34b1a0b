"""joint_states bytes in, /tf bytes out: description_publisher's path for high rates.

The ordinary path (:class:`~sdf_tools.ros.joint_states.JointStateMapper`,
then one ``TransformStamped`` per joint) spent its time building Python
messages and turning them back into C ones. This one takes ``joint_states``
serialized (a ``raw=True`` subscription), and publishes ``TFMessage``
serialized, written into a buffer built once per set of joint names:

* a message's ``name`` sequence is compared, as bytes, with those already
  seen; the *plan* of the first one that matches (made the second time a
  name set comes, so that a stream whose names keep changing does not pay
  for plans it never uses) says which position feeds
  which joint, in which order the mimic joints follow, and where each
  transform goes in the output buffer;
* all one-axis joints are computed in one numpy pass
  (:class:`~sdf_tools.ros.joint_batch.OneAxisBatch`), bit for bit what the
  ordinary path computes; multi-axis joints (rare) with the scalar code.

Anything the plan does not cover goes through the ordinary mapper with the
same names and positions, so the output never differs: a non-finite
position, ``name`` and ``position`` of different lengths, a negative stamp, a
buffer that is not little-endian CDR (``None`` from :meth:`FastTfPath.parse`:
the caller deserializes it). The first message of each plan is computed
both ways and compared; the ordinary path also gives its reports (unknown
names, missing axes), which therefore come once, as before.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from sdf_tools.ros import cdr
from sdf_tools.ros.joint_batch import OneAxisBatch
from sdf_tools.ros.joint_motion import MovingJoint
from sdf_tools.ros.joint_states import Edge, JointStateMapper
from sdf_tools.transform import Transform

Array = npt.NDArray[np.float64]
Index = npt.NDArray[np.intp]


@dataclass
class TfOut:
    """What one message gives: serialized ``TFMessage``, or edges for the ordinary publisher."""

    serialized: bytes | None = None
    edges: list[Edge] = field(default_factory=list)
    reports: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Slots:
    """Which joints a set of names moves, and where their values come from (see :class:`_Plan`)."""

    direct: dict[str, int]  # joint -> index of its (last) entry in the message
    extra: dict[tuple[str, int], int]  # (joint, axis k >= 1) -> index
    levels: list[list[tuple[str, str]]]  # mimic joints, each level following the ones before


def _slots(mapper: JointStateMapper, names: list[str]) -> _Slots:
    direct: dict[str, int] = {}
    extra: dict[tuple[str, int], int] = {}
    for i, raw in enumerate(names):
        name, k = mapper.lookup(raw)
        if name is not None:
            if k == 0:
                direct[name] = i
            else:
                extra[(name, k)] = i
    known = set(direct)
    levels: list[list[tuple[str, str]]] = []
    while True:
        level = [(n, mj.mimic.joint) for n, mj in mapper.mimics.items()
                 if mj.mimic is not None and n not in known and mj.mimic.joint in known]
        if not level:
            return _Slots(direct, extra, levels)
        levels.append(level)
        known.update(n for n, _ in level)


class _Plan:
    """Everything per message that depends only on the ``name`` sequence."""

    def __init__(self, mapper: JointStateMapper, names: list[str], key: cdr.StringsKey,
                 prefix: str) -> None:
        self.names, self.key, self.fast = names, key, True
        s = _slots(mapper, names)
        order = sorted([*s.direct, *(n for level in s.levels for n, _ in level)])
        slot = {n: i for i, n in enumerate(order)}
        self.q_size = len(order)
        self.direct_dst = np.array([slot[n] for n in s.direct], dtype=np.intp)
        self.direct_src = np.array(list(s.direct.values()), dtype=np.intp)
        self.levels: list[tuple[Index, Index, Array, Array]] = []
        for level in s.levels:
            mimics = [mapper.moving[n].mimic for n, _ in level]
            self.levels.append((np.array([slot[n] for n, _ in level], dtype=np.intp),
                                np.array([slot[lead] for _, lead in level], dtype=np.intp),
                                np.array([m.multiplier for m in mimics if m is not None]),
                                np.array([m.offset for m in mimics if m is not None])))
        one: list[tuple[int, MovingJoint, int]] = []  # (row, joint, q slot)
        self.multi: list[tuple[int, MovingJoint, int, list[int]]] = []
        rows: list[MovingJoint] = []
        for name in order:
            mj = mapper.moving[name]
            more = [s.extra.get((name, k)) for k in range(1, len(mj.axes))]
            if len(mj.axes) == 1:
                one.append((len(rows), mj, slot[name]))
            elif all(i is not None for i in more):
                self.multi.append((len(rows), mj, slot[name], [i for i in more if i is not None]))
            else:
                continue
            rows.append(mj)
        self.frames = [(mj.parent, mj.child) for mj in rows]
        self.batch = OneAxisBatch([mj for _, mj, _ in one])
        self.batch_q = np.array([q for _, _, q in one], dtype=np.intp)
        self.batch_rows = np.array([r for r, _, _ in one], dtype=np.intp)
        # without mimic joints every value is a position: one gather
        source = dict(zip(self.direct_dst.tolist(), self.direct_src.tolist(), strict=True))
        self.batch_positions = (None if self.levels or self.multi else
                                np.array([source[q] for q in self.batch_q.tolist()], dtype=np.intp))
        self.buffer = cdr.TfMessageBuffer([(prefix + p, prefix + c) for p, c in self.frames])
        p_slots, q_slots = self.buffer.slots(range(len(rows)))
        self.p_slots, self.q_slots = p_slots.T.copy(), q_slots.T.copy()  # as the values: (3|4, n)

    def compute(self, positions: Array) -> tuple[Array, Array]:
        """Return translations (3, n) and rotations (4, n: w x y z) of the plan's rows."""
        if self.batch_positions is not None:
            return self.batch.transforms(positions[self.batch_positions])
        q = np.empty(self.q_size)
        q[self.direct_dst] = positions[self.direct_src]
        for dst, src, multiplier, offset in self.levels:
            q[dst] = multiplier * q[src] + offset
        p_rows, q_rows = self.batch.transforms(q[self.batch_q])
        if not self.multi:
            return p_rows, q_rows
        p_all, q_all = np.empty((3, len(self.frames))), np.empty((4, len(self.frames)))
        p_all[:, self.batch_rows], q_all[:, self.batch_rows] = p_rows, q_rows
        for row, mj, slot, more in self.multi:
            x = mj.transform(float(q[slot]), *(float(positions[i]) for i in more))
            p_all[:, row], q_all[:, row] = x.p, x.q
        return p_all, q_all

    def agrees(self, edges: list[Edge], p: Array, q: Array) -> bool:
        """Return True if ``(p, q)`` are exactly the ordinary path's ``edges``."""
        return [(a, b) for a, b, _ in edges] == self.frames and all(
            Transform(tuple(p[:, i].tolist()), tuple(q[:, i].tolist())) == x
            for i, (_, _, x) in enumerate(edges))


@dataclass(slots=True)
class RawJointStates:
    """A parsed ``joint_states`` message (the throttle needs names and stamp before the work)."""

    names: list[str]
    stamp_ns: int
    sec: int
    nanosec: int
    positions: Array
    plan: _Plan | None
    data: bytes
    offset: int  # of the name sequence in data
    end: int  # after it


class FastTfPath:
    """Serialized joint_states -> serialized TFMessage for one tree and frame_prefix."""

    MAX_PLANS = 32  # distinct name sequences kept (a stream usually has one)

    def __init__(self, mapper: JointStateMapper, frame_prefix: str) -> None:
        self.mapper, self.prefix = mapper, frame_prefix
        self._plans: list[_Plan] = []
        self._seen_once: set[tuple[str, ...]] = set()  # name sets without a plan yet

    def parse(self, data: bytes) -> RawJointStates | None:
        """Read a serialized JointState; None when it is not little-endian CDR or is truncated."""
        offset = cdr.names_offset(data)
        if offset is None:
            return None
        plan = next((p for p in self._plans if p.key.found_at(data, offset)), None)
        if plan is not None:
            names, end = plan.names, offset + plan.key.size
            if plan is not self._plans[0]:  # least recently used last
                self._plans.remove(plan)
                self._plans.insert(0, plan)
        else:
            found = cdr.read_names(data, offset)
            if found is None:
                return None
            names, end = found
        positions = cdr.read_positions(data, end)
        if positions is None:
            return None
        sec, nanosec = cdr.stamp(data)
        return RawJointStates(names, sec * 1_000_000_000 + nanosec, sec, nanosec, positions, plan,
                              data, offset, end)

    def transforms(self, msg: RawJointStates) -> TfOut:
        """Return the /tf message for ``msg``: serialized when the plan covers it."""
        plan = msg.plan
        usual = (len(msg.positions) == len(msg.names) and msg.sec >= 0
                 and bool(np.isfinite(msg.positions).all()))
        if not usual or plan is None or not plan.fast:
            result = self.mapper.transforms(msg.names, msg.positions.tolist())
            out = TfOut(edges=result.edges, reports=result.reports)
            if usual and plan is None:
                self._plan_if_seen_before(msg, result.edges)
            return out
        return TfOut(serialized=self._write(plan, msg))

    def _plan_if_seen_before(self, msg: RawJointStates, edges: list[Edge]) -> None:
        """Make a plan for a name set met the second time (a plan costs ~6 ordinary messages)."""
        names = tuple(msg.names)
        if names not in self._seen_once:
            if len(self._seen_once) >= 8 * self.MAX_PLANS:
                self._seen_once.clear()
            self._seen_once.add(names)
            return
        self._seen_once.discard(names)
        key = cdr.StringsKey(msg.data, msg.offset, msg.end)
        plan = _Plan(self.mapper, msg.names, key, self.prefix)
        if edges or plan.frames:
            p, q = plan.compute(msg.positions)
            plan.fast = plan.agrees(edges, p, q)
        if len(self._plans) >= self.MAX_PLANS:
            self._plans.pop()
        self._plans.insert(0, plan)

    @staticmethod
    def _write(plan: _Plan, msg: RawJointStates) -> bytes | None:
        if not plan.frames:
            return None
        p, q = plan.compute(msg.positions)
        buf = plan.buffer
        buf.write_stamp(msg.sec, msg.nanosec)
        buf.put(plan.p_slots, p)
        buf.put(plan.q_slots, q)
        return bytes(buf.data)


def rmw_speaks_cdr() -> bool:
    """Return True if this process's rmw serializes both messages as this module does.

    Asked once per node: the rmw's own serialization of a sample ``TFMessage``
    must equal our buffer (padding aside) and its ``JointState`` must parse
    back. True for the DDS rmws (Fast DDS, Cyclone DDS, Connext) and Zenoh;
    an rmw that is not, keeps the ordinary path.
    """
    from geometry_msgs.msg import TransformStamped
    from rclpy.serialization import serialize_message
    from sensor_msgs.msg import JointState
    from tf2_msgs.msg import TFMessage

    frames = [('base', 'arm/\u00e9'), ('x', 'yz')]
    sample = TFMessage(transforms=[TransformStamped() for _ in frames])
    buf = cdr.TfMessageBuffer(frames)
    buf.write_stamp(7, 8)
    p, q = np.arange(6.0).reshape(2, 3) + 0.5, np.arange(8.0).reshape(2, 4) - 0.25  # (n, 3|4)
    p_slots, q_slots = buf.slots([0, 1])
    buf.put(p_slots, p)
    buf.put(q_slots, q)
    for tf, (parent, child), pi, qi in zip(sample.transforms, frames, p.tolist(), q.tolist(), strict=True):
        tf.header.stamp.sec, tf.header.stamp.nanosec = 7, 8
        tf.header.frame_id, tf.child_frame_id = parent, child
        t, r = tf.transform.translation, tf.transform.rotation
        t.x, t.y, t.z = pi
        r.w, r.x, r.y, r.z = qi
    if not buf.matches(serialize_message(sample)):
        return False
    js = JointState(name=['a', 'b\u00e9c'], position=[0.5, -2.0])
    js.header.stamp.sec, js.header.stamp.nanosec, js.header.frame_id = 3, 4, 'f'
    data = serialize_message(js)
    offset = cdr.names_offset(data)
    names = None if offset is None else cdr.read_names(data, offset)
    positions = None if names is None else cdr.read_positions(data, names[1])
    return (names is not None and names[0] == list(js.name) and positions is not None
            and positions.tolist() == list(js.position) and cdr.stamp(data) == (3, 4))
