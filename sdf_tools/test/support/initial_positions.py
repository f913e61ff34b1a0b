"""The joint starts the round-trip tests of MJCF keyframes and USD joint state share.

Both convert ``sensor_arm.sdf`` with some joints' positions given, read the result back to
SDFormat and compare every joint's ``//axis/initial_position`` with the file's own starts
overlaid by the given ones.
"""
from __future__ import annotations

from pathlib import Path

from sdf_tools.load import load_file

__all__ = ['ARM', 'GIVEN', 'initial_positions']

ARM = Path(__file__).resolve().parents[1] / 'data' / 'sim' / 'sensor_arm.sdf'
# Digits down to 1e-13: a start rounded anywhere on the way (degrees, float32) shows at 1e-9.
GIVEN = {'slide': 0.0312345678901, 'spin': -1.2345678901234}


def initial_positions(path: Path) -> dict[str, float]:
    """Each joint's ``//axis/initial_position`` as our reader reads ``path``."""
    loaded = load_file(path)
    assert loaded.document is not None and loaded.document.model is not None
    return {j.name: j.axis.initial_position for j in loaded.document.model.joints
            if j.axis is not None}
