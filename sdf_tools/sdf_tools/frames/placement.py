"""Placement-frame resolution for a model taken on its own (merge includes)."""
from __future__ import annotations

from sdf_tools.frames.build import build_model_graphs
from sdf_tools.frames.resolve import pose_to_source
from sdf_tools.model import Model
from sdf_tools.transform import IDENTITY, Transform


def resolve_placed_model_pose(model: Model) -> Transform:
    """Return the model-frame pose ``X_RM`` implied by its placement-frame pose."""
    raw = model.pose.value if model.pose is not None else IDENTITY
    g = build_model_graphs(model)
    pf = g.find(model.name, model.placement_frame)
    mf = g.find(model.name, '__model__')
    if pf is None or mf is None:
        return raw
    x_mpf, err = pose_to_source(g, pf, mf)
    if err is not None or x_mpf is None:
        return raw
    return raw * x_mpf.inverse()
