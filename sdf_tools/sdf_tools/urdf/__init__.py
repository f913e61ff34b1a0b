"""URDF and xacro input: read a ``<robot>`` into the description model.

:func:`read_urdf_file` and :func:`read_urdf_root` give a
:class:`~sdf_tools.model.Document` whose model is placed with SDFormat 1.9
frame semantics (joints relative to their parent link, links relative to
their parent joint); :func:`~sdf_tools.urdf.xacro_expand.expand_xacro`
turns a xacro file into URDF bytes first. :func:`read_urdf` also gives libsdformat's
walk of the robot (:mod:`sdf_tools.urdf.lumping_walk`), which the loader keeps.
"""
from __future__ import annotations

from sdf_tools.urdf.link import sdf_shape_name
from sdf_tools.urdf.reader import UrdfRead, read_urdf, read_urdf_file, read_urdf_root
from sdf_tools.urdf.xacro_expand import expand_xacro

__all__ = ['UrdfRead', 'expand_xacro', 'read_urdf', 'read_urdf_file', 'read_urdf_root',
           'sdf_shape_name']
