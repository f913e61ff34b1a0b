"""Where an actor is at a given time: its ``<script>`` played the way Gazebo plays it.

The SDFormat spec describes an actor's script as trajectories of timed
waypoints, played one after the other after ``delay_start`` seconds, looped
when ``loop`` is true, started only when ``auto_start`` is true, and
interpolated by a spline whose ``tension`` ranges from 0 (a Catmull-Rom
spline, which may overshoot waypoints) to 1 (sticks to the waypoints).
Gazebo fills in what the spec leaves open, and this module does the same:

* Waypoint times are truncated to whole milliseconds; two waypoints with the
  same time keep the later one; waypoints are sorted by time, and a
  trajectory lasts from its first to its last waypoint.
* Trajectories play in document order starting at ``delay_start``; before
  that the actor holds the first waypoint. Looping repeats the trajectories
  (not the delay); without looping the actor holds the last waypoint.
* Positions follow a cubic Hermite spline per trajectory whose tangents are
  ``(1 - tension) * (p[i+1] - p[i-1]) / 2`` (one-sided at the ends, wrapped
  when the first and last waypoints coincide within 1 mm).
* Orientations follow a rotation spline: slerp between two waypoints whose
  roll, pitch or yaw differ by less than 0.16 rad, squad through tangent
  quaternions otherwise.
* The actor's pose in the world is its ``<pose>`` composed with the
  trajectory pose. With ``auto_start`` false the script never runs and the
  actor stays at its ``<pose>``.

Quaternions here are ``(w, x, y, z)`` tuples.
"""
from __future__ import annotations

import math
from bisect import bisect_left
from dataclasses import dataclass, field

from sdf_tools.model import Actor, Trajectory
from sdf_tools.transform import IDENTITY, Quat, Transform, Vec3

_EPS = 1e-6            # gz::math::equal's default tolerance
_POINT_TOL = 1e-3      # gz::math Vector3/Quaternion operator== tolerance
_SLERP_BELOW = 0.16    # an Euler difference under this picks slerp over squad


def _equal(a: float, b: float, tol: float = _EPS) -> bool:
    return abs(a - b) <= tol


def _vclose(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return all(_equal(x, y, _POINT_TOL) for x, y in zip(a, b, strict=True))


# --- quaternion helpers --------------------------------------------------------------------

def _qmul(a: Quat, b: Quat) -> Quat:
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw)


def _qinv(q: Quat) -> Quat:
    s = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]
    if _equal(s, 0.0):
        return (1.0, 0.0, 0.0, 0.0)
    return (q[0] / s, -q[1] / s, -q[2] / s, -q[3] / s)


def _qnormalize(q: Quat) -> Quat:
    s = math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    if _equal(s, 0.0):
        return (1.0, 0.0, 0.0, 0.0)
    return (q[0] / s, q[1] / s, q[2] / s, q[3] / s)


def _qlog(q: Quat) -> Quat:
    """Return log(q) for a unit quaternion (w = 0); small angles keep the vector part."""
    if abs(q[0]) < 1.0:
        angle = math.acos(q[0])
        s = math.sin(angle)
        if abs(s) >= 1e-3:
            c = angle / s
            return (0.0, c * q[1], c * q[2], c * q[3])
    return (0.0, q[1], q[2], q[3])


def _qexp(q: Quat) -> Quat:
    """Return exp(q) for a pure quaternion; small angles keep the vector part."""
    angle = math.sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    s = math.sin(angle)
    if abs(s) >= 1e-3:
        c = s / angle
        return (math.cos(angle), c * q[1], c * q[2], c * q[3])
    return (math.cos(angle), q[1], q[2], q[3])


def _slerp(t: float, p: Quat, q: Quat, shortest: bool = False) -> Quat:
    cos = p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3]
    if cos < 0.0 and shortest:
        cos, q = -cos, (-q[0], -q[1], -q[2], -q[3])
    if abs(cos) < 1.0 - 1e-3:
        sin = math.sqrt(1.0 - cos * cos)
        angle = math.atan2(sin, cos)
        c0 = math.sin((1.0 - t) * angle) / sin
        c1 = math.sin(t * angle) / sin
        return (c0 * p[0] + c1 * q[0], c0 * p[1] + c1 * q[1],
                c0 * p[2] + c1 * q[2], c0 * p[3] + c1 * q[3])
    # Nearly equal (or opposite): linear blend, renormalised.
    return _qnormalize(((1.0 - t) * p[0] + t * q[0], (1.0 - t) * p[1] + t * q[1],
                        (1.0 - t) * p[2] + t * q[2], (1.0 - t) * p[3] + t * q[3]))


def _squad(t: float, p: Quat, a: Quat, b: Quat, q: Quat, shortest: bool) -> Quat:
    return _slerp(2.0 * t * (1.0 - t), _slerp(t, p, q, shortest), _slerp(t, a, b))


def _euler(q: Quat) -> Vec3:
    """Return roll, pitch, yaw the way gz::math::Quaternion::Euler computes them."""
    w, x, y, z = _qnormalize(q)
    sarg = -2.0 * (x * z - w * y)
    pitch = -0.5 * math.pi if sarg <= -1.0 else 0.5 * math.pi if sarg >= 1.0 else math.asin(sarg)
    if abs(sarg - 1.0) < 1e-15:
        return (math.atan2(2 * (x * y - z * w), w * w - x * x + y * y - z * z), pitch, 0.0)
    if abs(sarg + 1.0) < 1e-15:
        return (math.atan2(-2 * (x * y - z * w), w * w - x * x + y * y - z * z), pitch, 0.0)
    roll = math.atan2(2 * (y * z + w * x), w * w - x * x - y * y + z * z)
    yaw = math.atan2(2 * (x * y + w * z), w * w + x * x - y * y - z * z)
    return (roll, pitch, yaw)


# --- splines --------------------------------------------------------------------------------

def _position_tangents(points: list[Vec3], tension: float) -> list[Vec3]:
    n = len(points)
    k = 0.5 * (1.0 - tension)
    closed = _vclose(points[0], points[-1])

    def diff(a: Vec3, b: Vec3) -> Vec3:
        return (k * (a[0] - b[0]), k * (a[1] - b[1]), k * (a[2] - b[2]))

    out: list[Vec3] = []
    for i in range(n):
        if i == 0:
            out.append(diff(points[1], points[n - 2] if closed else points[0]))
        elif i == n - 1:
            out.append(out[0] if closed else diff(points[i], points[i - 1]))
        else:
            out.append(diff(points[i + 1], points[i - 1]))
    return out


def _rotation_tangents(rots: list[Quat]) -> list[Quat]:
    n = len(rots)
    closed = _vclose(rots[0], rots[-1])
    out: list[Quat] = []
    for i, p in enumerate(rots):
        inv = _qinv(p)
        nxt = rots[i + 1] if i < n - 1 else (rots[1] if closed else p)
        prv = rots[i - 1] if i > 0 else (rots[n - 2] if closed else p)
        a, b = _qlog(_qmul(inv, nxt)), _qlog(_qmul(inv, prv))
        pre = (0.0, -0.25 * (a[1] + b[1]), -0.25 * (a[2] + b[2]), -0.25 * (a[3] + b[3]))
        out.append(_qmul(p, _qexp(pre)))
    return out


def _hermite(p0: Vec3, p1: Vec3, m0: Vec3, m1: Vec3, s: float) -> Vec3:
    s2, s3 = s * s, s * s * s
    h00, h01 = 2 * s3 - 3 * s2 + 1, -2 * s3 + 3 * s2
    h10, h11 = s3 - 2 * s2 + s, s3 - s2
    return (h00 * p0[0] + h01 * p1[0] + h10 * m0[0] + h11 * m1[0],
            h00 * p0[1] + h01 * p1[1] + h10 * m0[1] + h11 * m1[1],
            h00 * p0[2] + h01 * p1[2] + h10 * m0[2] + h11 * m1[2])


@dataclass(frozen=True)
class TrajectoryTrack:
    """One trajectory ready to sample: key times (s, from its first waypoint) and splines."""

    times: tuple[float, ...]
    points: tuple[Vec3, ...]
    rotations: tuple[Quat, ...]
    tangents: tuple[Vec3, ...]
    rotation_tangents: tuple[Quat, ...]

    @property
    def duration(self) -> float:
        return self.times[-1]

    @staticmethod
    def from_trajectory(trajectory: Trajectory) -> TrajectoryTrack | None:
        """Build the track (None when the trajectory has no waypoint)."""
        by_ms: dict[int, Transform] = {}
        for w in trajectory.waypoints:
            by_ms[int(w.time * 1000)] = w.pose.value  # truncated, later one wins
        if not by_ms:
            return None
        keys = sorted(by_ms)
        times = tuple((k - keys[0]) / 1000.0 for k in keys)
        points = [by_ms[k].p for k in keys]
        rots = [by_ms[k].q for k in keys]
        tension = min(max(trajectory.tension, 0.0), 1.0)
        tangents = _position_tangents(points, tension) if len(points) > 1 else list(points)
        rtangents = _rotation_tangents(rots) if len(rots) > 1 else list(rots)
        return TrajectoryTrack(times, tuple(points), tuple(rots), tuple(tangents), tuple(rtangents))

    def pose_at(self, local: float) -> Transform:
        """Return the trajectory pose ``local`` seconds after its first waypoint."""
        local = min(max(local, 0.0), self.duration)
        i2 = bisect_left(self.times, local)
        if i2 == len(self.times):
            i2 -= 1
        i1 = i2 - 1 if i2 > 0 and local < self.times[i2] else i2
        t1, t2 = self.times[i1], self.times[i2]
        frac = 0.0 if _equal(t1, t2) else (local - t1) / (t2 - t1)
        if _equal(frac, 0.0):
            return Transform(self.points[i1], self.rotations[i1])
        if _equal(frac, 1.0):
            return Transform(self.points[i1 + 1], self.rotations[i1 + 1])
        p = _hermite(self.points[i1], self.points[i1 + 1], self.tangents[i1], self.tangents[i1 + 1],
                     frac)
        return Transform(p, self._rotation(i1, frac))

    def _rotation(self, i: int, frac: float) -> Quat:
        p, q = self.rotations[i], self.rotations[i + 1]
        ep, eq = _euler(p), _euler(q)
        if any(abs(a - b) < _SLERP_BELOW for a, b in zip(ep, eq, strict=True)):
            return _slerp(frac, p, q, True)
        return _squad(frac, p, self.rotation_tangents[i], self.rotation_tangents[i + 1], q, True)


@dataclass
class ActorMotion:
    """An actor's script, compiled: ``pose_at(t)`` gives its world pose at script time ``t``.

    ``t`` counts seconds since the simulation (or playback) started; the
    delay is applied here. ``notes`` say what of the script is not played.
    """

    name: str
    pose: Transform
    tracks: list[TrajectoryTrack] = field(default_factory=list)
    delay: float = 0.0
    loop: bool = True
    auto_start: bool = True
    notes: list[str] = field(default_factory=list)

    @property
    def moving(self) -> bool:
        """True when the pose changes over time."""
        return self.auto_start and any(t.duration > 0.0 for t in self.tracks)

    @property
    def total(self) -> float:
        return sum(t.duration for t in self.tracks)

    @staticmethod
    def from_actor(actor: Actor) -> ActorMotion:
        """Compile an actor's ``<script>``."""
        motion = ActorMotion(actor.name, actor.pose.value if actor.pose else IDENTITY,
                             delay=int(actor.delay_start * 1000) / 1000.0, loop=actor.loop,
                             auto_start=actor.auto_start)
        for trajectory in actor.trajectories:
            track = TrajectoryTrack.from_trajectory(trajectory)
            if track is None:
                motion.notes.append(f'trajectory [{trajectory.id}] of actor [{actor.name}] has no '
                                    'waypoint: it is skipped')
            else:
                motion.tracks.append(track)
        if motion.tracks and not actor.auto_start:
            motion.notes.append(f'actor [{actor.name}] has auto_start false: its script waits for a '
                                'plugin to start it, so it stays at its <pose>')
        return motion

    def script_time(self, t: float) -> float:
        """Map time since start to time within the trajectories (delay, loop, clamp)."""
        total = self.total
        time = max(t - self.delay, 0.0)
        if total <= 0.0:
            return 0.0
        if self.loop:
            if time > total:
                time -= total * (math.ceil(time / total) - 1)
            return min(time, total)
        return min(time, total)

    def trajectory_pose_at(self, t: float) -> Transform:
        """Return the trajectory pose (relative to the actor's ``<pose>``) at time ``t``."""
        if not self.tracks:
            return IDENTITY
        if not self.auto_start:
            return IDENTITY
        time = self.script_time(t)
        start = 0.0
        for track in self.tracks:
            if start <= time <= start + track.duration:
                return track.pose_at(time - start)
            start += track.duration
        return self.tracks[-1].pose_at(self.tracks[-1].duration)

    def pose_at(self, t: float) -> Transform:
        """Return the actor's pose in the world at time ``t`` (seconds since start)."""
        return self.pose * self.trajectory_pose_at(t)
