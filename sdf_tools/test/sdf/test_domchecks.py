"""DOM checks per Gazebo target: a sensor type libsdformat 13+ knows."""
from __future__ import annotations

import pytest

from sdf_tools.load import load_string

SENSOR = ('<?xml version="1.0"?>\n<sdf version="{v}">\n<model name="m">\n<link name="l">\n'
          '<sensor name="s" type="air_speed"/>\n</link>\n</model>\n</sdf>\n')


@pytest.mark.parametrize('gazebo, version, valid', [
    ('fortress', '1.9', False),  # libsdformat 12's Sensor::Load: unknown type (the probe's verdict)
    ('harmonic', '1.9', True),   # gazebosim/sdformat#1215 (13.3): air_speed, whatever the version
    ('jetty', '1.6', True),
    ('fortress', '1.10', True),  # a 1.10+ file is read as its version means it
])
def test_air_speed_sensor_type(gazebo: str, version: str, valid: bool) -> None:
    result = load_string(SENSOR.format(v=version), 's.sdf', gazebo=gazebo)
    assert result.valid is valid
    refused = [(d.code.value, d.line) for d in result.errors]
    assert refused == ([] if valid else [('ATTRIBUTE_INVALID', 5)])
