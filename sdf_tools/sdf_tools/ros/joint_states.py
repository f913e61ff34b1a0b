"""joint_states in, transforms for ``/tf`` out: robot_state_publisher's rules, minus ROS.

* A message whose ``name`` and ``position`` lengths differ is ignored.
* Joints are looked up by their joint_states name or an alias; a mimic
  joint absent from the message follows its leader (``multiplier * q +
  offset``, chains of mimics too); a position in the message wins.
* Throttling: a message is published only when its stamp is at least
  ``1000 / publish_frequency`` whole milliseconds after the oldest last
  publication of the joints it names (``ignore_timestamp`` skips the
  check; a clock that jumps back clears the history). ``publish_frequency``
  0 publishes every message.

Unlike robot_state_publisher, which publishes whatever it gets, a name the
model does not know and a non-finite position are reported (once per joint)
and a non-finite position publishes nothing for that joint and its mimics.
"""
from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from sdf_tools.ros.joint_motion import MovingJoint, axis_entry
from sdf_tools.ros.tf_tree import TfTree
from sdf_tools.transform import Transform

Edge = tuple[str, str, Transform]  # parent frame, child frame, transform
_EXTRA_AXIS = re.compile(r'^(.*)__axis([23])$')


@dataclass
class PublishThrottle:
    """robot_state_publisher's per-joint rate limit, on message stamps (nanoseconds)."""

    last_published: dict[str, int] = field(default_factory=dict)
    last_callback: int = 0

    def check(self, names: Sequence[str], stamp: int, now: int, frequency: float,
              ignore_timestamp: bool) -> tuple[bool, bool]:
        """Return (publish?, clock moved back?) for a message and record the call time."""
        moved_back = self.last_callback > now
        if moved_back:
            self.last_published.clear()
        self.last_callback = now
        if ignore_timestamp or frequency <= 0.0:
            return True, moved_back
        oldest = now
        for n in names:
            oldest = min(oldest, self.last_published.get(n, 0))
        interval = int(1000.0 / frequency) * 1_000_000
        return stamp >= oldest + interval, moved_back

    def mark(self, names: Sequence[str], stamp: int) -> None:
        for n in names:
            self.last_published[n] = stamp


@dataclass
class JointStateResult:
    """What one message gives: transforms to publish and new things to report (once each)."""

    edges: list[Edge] = field(default_factory=list)
    reports: list[str] = field(default_factory=list)


class JointStateMapper:
    """Turn joint positions into transforms for one loaded tree."""

    def __init__(self, tree: TfTree) -> None:
        self.moving = tree.moving
        self.aliases = tree.aliases
        self.ignored = set(tree.ignored_joints)
        self.mimics = {n: m for n, m in tree.moving.items() if m.mimic is not None}
        self._reported: set[tuple[str, str]] = set()

    def _report(self, out: JointStateResult, key: tuple[str, str], text: str) -> None:
        if key not in self._reported:
            self._reported.add(key)
            out.reports.append(text)

    def lookup(self, raw: str) -> tuple[str | None, int]:
        """Return (joint_states name of the joint, axis index) for a name in a message."""
        name = raw if raw in self.moving else self.aliases.get(raw)
        if name is not None:
            return name, 0
        extra = _EXTRA_AXIS.match(raw)
        if extra is not None:
            base = extra.group(1)
            name = base if base in self.moving else self.aliases.get(base)
            if name is not None and len(self.moving[name].axes) >= int(extra.group(2)):
                return name, int(extra.group(2)) - 1
        return None, 0

    def _positions(self, names: Sequence[str], positions: Sequence[float], out: JointStateResult
                   ) -> tuple[dict[str, float], dict[tuple[str, int], float], set[str]]:
        q: dict[str, float] = {}
        extra: dict[tuple[str, int], float] = {}
        bad: set[str] = set()
        for raw, value in zip(names, positions, strict=True):
            name, k = self.lookup(raw)
            if name is None:
                if raw not in self.ignored:
                    self._report(out, ('unknown', raw),
                                 f'joint_states names joint [{raw}], which is not a moving joint of '
                                 'the model: ignored')
                continue
            if not math.isfinite(value):
                self._report(out, ('nan', raw),
                             f'joint_states gives joint [{raw}] the position {value}: its transform '
                             '(and those of joints mimicking it) is not published')
                bad.add(name)
                continue
            if k == 0:
                q[name] = float(value)
            else:
                extra[(name, k)] = float(value)
        return q, extra, bad

    def _add_mimics(self, q: dict[str, float], bad: set[str]) -> None:
        changed = True
        while changed:
            changed = False
            for name, mj in self.mimics.items():
                assert mj.mimic is not None
                leader = mj.mimic.joint
                if name in q or name in bad:
                    continue
                if leader in bad:
                    bad.add(name)
                    changed = True
                elif leader in q:
                    q[name] = mj.mimic.multiplier * q[leader] + mj.mimic.offset
                    changed = True

    def transforms(self, names: Sequence[str], positions: Sequence[float]) -> JointStateResult:
        """Return the transforms of the joints a message moves (sorted by joint name)."""
        out = JointStateResult()
        if len(names) != len(positions):
            first = names[0] if names else ''
            self._report(out, ('length', ''),
                         f'ignored a joint_states message about [{first}],... whose name and position '
                         f'lengths differ ({len(names)} and {len(positions)})')
            return out
        q, extra, bad = self._positions(names, positions, out)
        if self.mimics:
            self._add_mimics(q, bad)
        for name in sorted(q):
            if name in bad:
                continue
            mj: MovingJoint = self.moving[name]
            if len(mj.axes) == 1:
                out.edges.append((mj.parent, mj.child, mj.transform(q[name])))
                continue
            more = [extra.get((name, k)) for k in range(1, len(mj.axes))]
            if any(v is None for v in more):
                wanted = ', '.join(f'[{axis_entry(name, k)}]' for k in range(1, len(mj.axes)))
                self._report(out, ('axes', name),
                             f'{mj.source} has {len(mj.axes)} axes: joint_states must name {wanted} '
                             'too in the same message; not published until it does')
                continue
            out.edges.append((mj.parent, mj.child,
                              mj.transform(q[name], *(v for v in more if v is not None))))
        return out
