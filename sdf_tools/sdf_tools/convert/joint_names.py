"""A joint's name in a target that keeps joints apart from links (URDF, MJCF, USD).

A URDF may name a joint like a link (ANYmal's ``LF_HAA``); SDFormat cannot, so
the reader calls the joint ``LF_HAA_joint`` and keeps the name the file wrote
as :attr:`~sdf_tools.model.Joint.file_name`. Targets whose joints and links
live apart give the joint its own name back, so a round trip keeps it.
"""
from __future__ import annotations

from sdf_tools.convert.flatten import FlatJoint, FlatModel


def written_name(j: FlatJoint) -> str:
    """Return the name to write ``j`` under: the file's own where the reader renamed it."""
    own = j.joint.file_name
    # A flattened name other than the joint's own (a nested model's scope, a clash with
    # another name of the flat model) is the flattening's choice: it stays.
    return own if own and j.name == j.joint.name else j.name


def written_names(flat: FlatModel) -> dict[str, str]:
    """Return flat joint name -> :func:`written_name` for the joints that differ."""
    return {j.name: written_name(j) for j in flat.joints if written_name(j) != j.name}
