"""OpenUSD export and import with UsdPhysics (usd-core is imported only inside this package).

* :mod:`~sdf_tools.convert.usd.to_usd`: the writer walking the resolved
  description (links, joints, shapes, frames) into a stage;
* :mod:`~sdf_tools.convert.usd.names`, :mod:`~sdf_tools.convert.usd.xforms`,
  :mod:`~sdf_tools.convert.usd.mass`, :mod:`~sdf_tools.convert.usd.joints`,
  :mod:`~sdf_tools.convert.usd.drives`, :mod:`~sdf_tools.convert.usd.shapes`,
  :mod:`~sdf_tools.convert.usd.materials`: one concept each;
* :mod:`~sdf_tools.convert.usd.from_usd`: the reader, through usd-core's
  ``UsdPhysics.LoadUsdPhysicsFromRange``;
* :mod:`~sdf_tools.convert.usd.files`: ``.usda``/``.usd``/``.usdc`` files;
* :mod:`~sdf_tools.convert.usd.couplings`, :mod:`~sdf_tools.convert.usd.joint_state`: mimic,
  gearbox and friction as Newton's and PhysX's schemas; where joints start
  (:mod:`~sdf_tools.convert.usd.read_gearbox` gives a gearbox back);
* :mod:`~sdf_tools.convert.usd.world_joints`, :mod:`~sdf_tools.convert.usd.read_world_joints`:
  a world's own joints, there and back;
* :mod:`~sdf_tools.convert.usd.rotation_limits`: a limited three-rotation D6 joint as a ball
  joint with ``<sdf_tools:rotation_limits>``, there and back.
"""
from __future__ import annotations

import contextlib

# Newton's schemas (NewtonMimicAPI, NewtonJointAPI) must be registered before usd-core's schema
# registry is first used, or a stage never knows them as applied schemas. Optional: without
# them the stage still carries the attributes.
with contextlib.suppress(ImportError):
    import newton_usd_schemas  # type: ignore[import-untyped]  # noqa: F401
