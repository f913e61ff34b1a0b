"""URDF joint limits: what an SDFormat joint without effort or velocity limits becomes."""
from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from support.drake import require_drake
from support.libsdformat import probe_available, probe_unavailable_reason, run_probe

from sdf_tools.convert.api import convert_file
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file
from sdf_tools.verify.expected import rate

ARM = '''<sdf version="1.9"><model name="arm">
  <link name="base"><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz>
  </inertia></inertial></link>
  <link name="upper"><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz>
  </inertia></inertial></link>
  <joint name="shoulder" type="revolute"><parent>base</parent><child>upper</child>
    <axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis></joint>
</model></sdf>
'''

# In a child process: Drake's parser aborts the process (no exception) on a negative velocity.
DRAKE = '''import json, sys
from pydrake.multibody.parsing import Parser
from pydrake.multibody.plant import MultibodyPlant
plant = MultibodyPlant(0.0)
Parser(plant).AddModels(sys.argv[1])
plant.Finalize()
j = plant.GetJointByName('shoulder')
print(json.dumps([j.velocity_lower_limits()[0], j.velocity_upper_limits()[0]]))
'''


def test_an_unlimited_velocity_is_a_limit_drake_reads_and_verify_calls_none(tmp_path: Path
                                                                              ) -> None:
    """Menagerie's Unitree G1 (no velocity limits in MJCF) crashed Drake as URDF."""
    require_drake()
    src, out = tmp_path / 'arm.sdf', tmp_path / 'arm.urdf'
    src.write_text(ARM)
    result = convert_file(src, to='urdf', output_path=out, options=ConversionOptions())
    assert result.ok
    assert any('unlimited velocity written as 1e16' in e.message for e in result.report.entries)
    run = subprocess.run([sys.executable, '-c', DRAKE, str(out)], capture_output=True, text=True,
                         timeout=120, check=False)
    assert run.returncode == 0, run.stderr[-500:]
    assert json.loads(run.stdout.splitlines()[-1]) == [-1e16, 1e16]
    back = load_file(out)
    assert back.valid and back.document is not None and back.document.model is not None
    axis = back.document.model.joints[0].axis
    assert axis is not None and rate(axis.velocity) is None and rate(axis.effort) is None


_POINT_MASS = '''<model name="cp">
  <link name="cart"><inertial><mass>10</mass></inertial></link>
  <link name="pole">
    <pose>0 0 -0.5 0 0 0</pose>
    <inertial><mass>1</mass><inertia><ixx>{i}</ixx><iyy>{i}</iyy><izz>{i}</izz></inertia></inertial>
  </link>
  <joint name="pin" type="revolute">
    <pose relative_to="cart"/>
    <parent>cart</parent><child>pole</child>
    <axis><xyz>0 1 0</xyz></axis>
  </joint>
</model>'''


@pytest.mark.parametrize('inertia, refused', [('1e-20', True), ('0.01', False)])
def test_child_lumped_into_a_joint_frame_link_is_judged_as_libsdformat_lumps_it(
        write_sdf: Callable[..., Path], tmp_path: Path, inertia: str, refused: bool) -> None:
    # Drake's cart-pole: the pin's frame is not the pole's, so the pole hangs from a massless
    # [pin__frame] link, and libsdformat's lumping rounds a point mass's moments to 0
    if not probe_available():
        pytest.skip(str(probe_unavailable_reason()))
    src = write_sdf(_POINT_MASS.format(i=inertia))
    out = tmp_path / 'cp.urdf'
    result = convert_file(src, to='urdf', output_path=out, options=ConversionOptions())
    assert result.ok
    ref = run_probe(out)
    assert ref['valid'] is not refused
    said = [e for e in result.report.entries
            if e.element == 'link[pole]/inertial' and 'LINK_INERTIA_INVALID' in e.message]
    assert bool(said) is refused
    assert load_file(str(out)).valid is not refused
