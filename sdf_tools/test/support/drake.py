"""Load a file with Drake's SDFormat parser: the judge for SDFormat 1.10/1.11.

Drake's wheel embeds a newer libsdformat (spec 1.12) than Debian's libsdformat 12, so it
reads the 1.10/1.11 features libsdformat 12 cannot (world joints, merge-include into a
world). Its MultibodyPlant is stricter than libsdformat in places (see
``differential/MISMATCHES.md``); where it accepts a file, every body's world pose at the
default configuration is compared with ours.
"""
from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from pathlib import Path

from support.tools import skip_or_fail

__all__ = ['DrakeRefusedError', 'DrakeResult', 'drake_load', 'require_drake']


class DrakeRefusedError(Exception):
    """Drake's parser or plant refused the file; the message is Drake's."""


@dataclass(frozen=True)
class DrakeResult:
    """Each body's world pose at default positions, by our scoped name (``model::link``)."""

    poses: dict[str, tuple[list[float], list[float]]]  # name -> (xyz, quat_xyzw)
    joint_types: dict[str, str]  # scoped joint name -> Drake's type name
    # scoped joint name -> (position lower, position upper, velocity upper) of its first dof
    joint_limits: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    # scoped joint name -> (parent body, child body), scoped like ``poses``
    joint_bodies: dict[str, tuple[str, str]] = field(default_factory=dict)


def require_drake() -> None:
    """Skip (or fail, under ``SDF_TOOLS_REQUIRE_TOOLS``) when pydrake is not installed."""
    if importlib.util.find_spec('pydrake') is None:
        skip_or_fail('pydrake (pip package drake) is not installed')


def drake_load(path: Path) -> DrakeResult:
    """Parse ``path`` into a finalised MultibodyPlant and read its default poses.

    Raises:
        DrakeRefusedError: Drake's parser or the plant refused the file.
    """
    from pydrake.multibody.parsing import Parser
    from pydrake.multibody.plant import MultibodyPlant
    from pydrake.multibody.tree import BodyIndex, JointIndex

    plant = MultibodyPlant(0.0)
    try:
        Parser(plant).AddModels(str(path))
        plant.Finalize()
    except RuntimeError as err:
        raise DrakeRefusedError(str(err)) from err
    ctx = plant.CreateDefaultContext()
    world = plant.world_body().index()
    poses: dict[str, tuple[list[float], list[float]]] = {}
    for i in range(plant.num_bodies()):
        body = plant.get_body(BodyIndex(i))
        if body.index() == world:
            continue
        x = plant.EvalBodyPoseInWorld(ctx, body)
        w, qx, qy, qz = x.rotation().ToQuaternion().wxyz()
        name = f'{plant.GetModelInstanceName(body.model_instance())}::{body.name()}'
        poses[name] = ([float(v) for v in x.translation()], [qx, qy, qz, w])
    joints: dict[str, str] = {}
    limits: dict[str, tuple[float, float, float]] = {}
    bodies: dict[str, tuple[str, str]] = {}

    def scoped(body: object) -> str:
        return f'{plant.GetModelInstanceName(body.model_instance())}::{body.name()}'  # type: ignore[attr-defined]
    for i in range(plant.num_joints()):
        joint = plant.get_joint(JointIndex(i))
        instance = plant.GetModelInstanceName(joint.model_instance())
        joints[f'{instance}::{joint.name()}'] = joint.type_name()
        bodies[f'{instance}::{joint.name()}'] = (scoped(joint.parent_body()), scoped(joint.child_body()))
        if joint.num_positions() == 1:
            limits[f'{instance}::{joint.name()}'] = (
                float(joint.position_lower_limits()[0]), float(joint.position_upper_limits()[0]),
                float(joint.velocity_upper_limits()[0]))
    return DrakeResult(poses, joints, limits, bodies)
