"""Actor scripts over time: values worked out by hand from the Hermite and slerp formulas."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation, Slerp

from sdf_tools.model import Actor, RawPose, Trajectory, Waypoint
from sdf_tools.ros.actor_motion import ActorMotion, TrajectoryTrack
from sdf_tools.transform import Transform


def wp(t: float, x: float, y: float = 0.0, z: float = 0.0, yaw: float = 0.0,
       rpy: tuple[float, float, float] | None = None) -> Waypoint:
    r = rpy if rpy is not None else (0.0, 0.0, yaw)
    return Waypoint(t, RawPose(Transform.from_xyz_rpy((x, y, z), r)))


def actor(*trajectories: Trajectory, delay: float = 0.0, loop: bool = True, auto_start: bool = True,
          pose: Transform | None = None) -> ActorMotion:
    a = Actor('a', RawPose(pose) if pose else None, loop=loop, delay_start=delay,
              auto_start=auto_start, trajectories=list(trajectories))
    return ActorMotion.from_actor(a)


def test_tension_one_sticks_to_the_waypoints_with_zero_tangents() -> None:
    m = actor(Trajectory(0, 'w', 1.0, [wp(0, 0.0), wp(2, 4.0)]))
    # Zero tangents: x(s) = 4 * (3 s^2 - 2 s^3).
    assert m.pose_at(1.0).p[0] == pytest.approx(2.0, abs=1e-12)
    assert m.pose_at(0.5).p[0] == pytest.approx(4 * (3 / 16 - 2 / 64), abs=1e-12)


def test_tension_zero_is_catmull_rom_with_one_sided_ends() -> None:
    m = actor(Trajectory(0, 'w', 0.0, [wp(0, 0.0), wp(1, 1.0), wp(2, 3.0)]))
    # Tangents: m0 = (1-0)/2, m1 = (3-0)/2; at s = 1/2: p = 1/2 + m0/8 - m1/8.
    assert m.pose_at(0.5).p[0] == pytest.approx(0.5 + 0.5 / 8 - 1.5 / 8, abs=1e-12)
    # Second segment: m1 = 1.5, m2 = (3-1)/2 = 1; at s = 1/2: 2 + 1.5/8 - 1/8.
    assert m.pose_at(1.5).p[0] == pytest.approx(2.0 + 1.5 / 8 - 1.0 / 8, abs=1e-12)


def test_a_closed_trajectory_wraps_its_end_tangents() -> None:
    pts = [wp(0, 0, 0), wp(1, 1, 0), wp(2, 1, 1), wp(3, 0, 0)]
    m = actor(Trajectory(0, 'w', 0.5, pts))
    # First and last points coincide: m0 = 0.25 * (p1 - p2) = (0, -0.25) (wrap to p[n-2]).
    track = m.tracks[0]
    assert track.tangents[0] == pytest.approx((0.0, -0.25, 0.0))
    assert track.tangents[-1] == track.tangents[0]


def test_delay_loop_and_clamp() -> None:
    traj = Trajectory(0, 'w', 1.0, [wp(0, 0.0), wp(1, 1.0)])
    looping = actor(traj, delay=2.0)
    assert looping.pose_at(0.0).p[0] == 0.0 and looping.pose_at(1.9).p[0] == 0.0  # waiting
    assert looping.pose_at(2.5).p[0] == pytest.approx(0.5)
    assert looping.pose_at(3.0).p[0] == pytest.approx(1.0)  # the end, not the start again
    assert looping.pose_at(5.25).p[0] == pytest.approx(looping.pose_at(2.25).p[0])  # no new delay
    once = actor(traj, delay=2.0, loop=False)
    assert once.pose_at(100.0).p[0] == pytest.approx(1.0)


def test_trajectories_play_in_document_order_and_times_are_whole_milliseconds() -> None:
    first = Trajectory(5, 'w', 1.0, [wp(10.0, 0.0), wp(11.0, 1.0)])  # times from the first waypoint
    second = Trajectory(1, 'w', 1.0, [wp(0.0, 1.0), wp(0.0019, 1.0, 1.0), wp(2.0, 1.0, 2.0)])
    m = actor(first, second)
    assert m.tracks[1].times == (0.0, 0.001, 2.0)
    assert m.total == pytest.approx(3.0)
    assert m.pose_at(1.5).p[0] == pytest.approx(1.0)
    assert m.pose_at(3.0).p == pytest.approx((1.0, 2.0, 0.0))


def test_orientation_slerps_when_an_euler_angle_barely_changes() -> None:
    m = actor(Trajectory(0, 'w', 0.0, [wp(0, 0.0), wp(1, 0.0, yaw=1.0)]))
    q = m.pose_at(0.5).q
    assert q == pytest.approx((math.cos(0.25), 0.0, 0.0, math.sin(0.25)), abs=1e-12)


def test_orientation_squads_when_every_euler_angle_changes() -> None:
    a, b = (0.0, 0.0, 0.0), (0.5, 0.4, 0.6)
    m = actor(Trajectory(0, 'w', 0.0, [wp(0, 0.0, rpy=a), wp(1, 0.0, rpy=b)]))
    p = Rotation.from_euler('xyz', a)
    q = Rotation.from_euler('xyz', b)
    # Squad with Shoemake's tangents, one-sided at both ends, built with scipy:
    # a = p exp(-log(p^-1 q)/4), b = q exp(-log(q^-1 p)/4); log/exp of a unit quaternion are
    # half a rotation vector.
    ta = p * Rotation.from_rotvec(-(p.inv() * q).as_rotvec() / 4)
    tb = q * Rotation.from_rotvec(-(q.inv() * p).as_rotvec() / 4)
    s = 0.3
    outer = Slerp([0, 1], Rotation.concatenate([p, q]))([s])[0]
    inner = Slerp([0, 1], Rotation.concatenate([ta, tb]))([s])[0]
    want = Slerp([0, 1], Rotation.concatenate([outer, inner]))([2 * s * (1 - s)])[0]
    got = m.pose_at(s).q
    x, y, z, w = want.as_quat()
    assert np.allclose(got, (w, x, y, z), atol=1e-12) or np.allclose(got, (-w, -x, -y, -z), atol=1e-12)


def test_actor_pose_is_composed_with_the_trajectory_and_auto_start_false_holds_it() -> None:
    base = Transform.from_xyz_rpy((0.0, -3.0, 0.0), (0.0, 0.0, math.pi / 2))
    traj = Trajectory(0, 'w', 1.0, [wp(0, 0.0), wp(1, 2.0)])
    m = actor(traj, pose=base)
    assert m.pose_at(1.0).p == pytest.approx((0.0, -1.0, 0.0))
    held = actor(traj, pose=base, auto_start=False)
    assert not held.moving and held.pose_at(1.0) == base
    assert any('auto_start' in n for n in held.notes)


def test_trajectory_without_waypoints_is_skipped_with_a_note() -> None:
    m = actor(Trajectory(3, 'w', 0.0, []))
    assert not m.tracks and not m.moving and '[3]' in m.notes[0]
    assert TrajectoryTrack.from_trajectory(Trajectory(3, 'w')) is None
