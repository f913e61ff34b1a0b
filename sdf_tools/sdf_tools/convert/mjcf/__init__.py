"""MJCF (MuJoCo): export from SDFormat/URDF/xacro, and import through ``mujoco.MjSpec``.

* :mod:`.to_mjcf` -- the exporter (lxml only; MuJoCo is not needed);
  :mod:`.tree`, :mod:`.bodies`, :mod:`.joints`, :mod:`.inertia`,
  :mod:`.geometry`, :mod:`.contact`, :mod:`.actuators` map one concept each,
  :mod:`.writer` holds the document layout;
* :mod:`.from_mjcf` / :mod:`.reader` -- the importer (needs ``mujoco``, the
  ``mjcf`` extra).
"""
from __future__ import annotations

from sdf_tools.convert.mjcf.to_mjcf import convert_to_mjcf

__all__ = ['convert_to_mjcf']
