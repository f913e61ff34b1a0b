"""An MJCF keyframe read back (issue 23 §2): the key ``initial`` (else the first) becomes each
joint's ``//axis/initial_position`` in the SDFormat written from the MJCF; what SDFormat has no
place for is reported. Round trip: SDFormat -> MJCF -> SDFormat keeps every start to 1e-9."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.initial_positions import ARM, GIVEN, initial_positions

from sdf_tools.convert.api import convert_file
from sdf_tools.convert.options import ConversionOptions


def _to_sdf(src: Path, out: Path) -> tuple[dict[str, float], list[str]]:
    result = convert_file(src, to='sdf', output_path=out, options=ConversionOptions())
    assert result.ok, result.report.errors
    return initial_positions(out), [f'{e.kind.value}: {e.element}: {e.message}'
                          for e in result.report.entries if 'key' in e.element]


def test_sdf_to_mjcf_to_sdf_keeps_every_initial_position(tmp_path: Path) -> None:
    mjcf = tmp_path / 'arm.xml'
    assert convert_file(ARM, to='mjcf', output_path=mjcf,
                        options=ConversionOptions(joint_positions=GIVEN)).ok
    got, notes = _to_sdf(mjcf, tmp_path / 'back.sdf')
    want = {**initial_positions(ARM), **GIVEN}  # shoulder's 0.4 from the file, the rest given
    assert set(got) == set(want)
    for name, q in want.items():
        assert got[name] == pytest.approx(q, abs=1e-9), name
    assert any('key[initial]' in n and '3 joint(s)' in n for n in notes), notes


KEYS = """<mujoco model="keys">
  <compiler angle="radian"/>
  <worldbody>
    <body name="floating" pos="0 0 1"><freejoint name="root"/>
      <geom type="box" size=".1 .1 .1" mass="1"/>
      <body name="arm" pos="0 0 .2"><joint name="hinge" axis="0 1 0" ref="0.25" range="-1 1"/>
        <geom type="capsule" size=".02" fromto="0 0 0 0 0 .3" mass=".5"/>
        <body name="tip" pos="0 0 .3"><joint name="slider" type="slide" axis="0 0 1"/>
          <geom type="sphere" size=".03" mass=".1"/></body></body></body>
  </worldbody>
  <keyframe>
    <key name="home" qpos="0 0 1 1 0 0 0  0.25  0.01"/>
    <key name="other" qpos="0 0 2 1 0 0 0  0.75  0.02" qvel="0 0 0 0 0 0 0.1 0"/>
  </keyframe>
</mujoco>
"""


@pytest.mark.parametrize('first, hinge, slider', [('home', 0.0, 0.01), ('initial', 0.5, 0.02)])
def test_the_key_named_initial_wins_else_the_first_and_the_rest_is_reported(
        first: str, hinge: float, slider: float, tmp_path: Path) -> None:
    src = tmp_path / 'keys.xml'
    src.write_text(KEYS.replace('name="other"', f'name="{first}"' if first == 'initial' else
                                'name="other"'))
    got, notes = _to_sdf(src, tmp_path / 'keys.sdf')
    # MuJoCo's q is SDFormat's q + ref: the hinge's 0.25 is its position 0
    assert got['hinge'] == pytest.approx(hinge, abs=1e-12)
    assert got['slider'] == pytest.approx(slider, abs=1e-12)
    if first == 'initial':  # the second key: its free joint moved, its velocity set
        assert any('joint[root]' in n and 'dropped' in n for n in notes), notes
        assert any('qvel' in n for n in notes), notes
        assert any('key[home]' in n and 'dropped' in n for n in notes), notes
    else:
        assert any('key[other]' in n and 'dropped' in n for n in notes), notes
