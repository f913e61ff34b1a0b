"""What the description publisher's start does before its first /tf_static (bench_ros_startup).

The time to the first /tf_static is a bench figure (bench/bench_ros_startup.py); this test
keeps the work it cut from coming back: what only joint_states needs (the message module, the
joint mapper, the serialized fast path) is imported after the first publish; nor does the first
/tf_static wait for transforms3d (numpy.random with it), argparse or, for a URDF, which is
published as written, the converters.
"""
from __future__ import annotations

import os
import subprocess
import sys

from ros.ros_support import SRC

EXAMPLE = SRC / 'sdf_tools' / 'examples' / 'demo_world.sdf'
LUMPING = SRC / 'test' / 'data' / 'convert' / 'lumping.urdf'  # fixed joints: inertia rotated
LATER = ('sensor_msgs.msg', 'sdf_tools.ros.tf_fast_path', 'sdf_tools.ros.joint_states',
         'transforms3d', 'numpy.random', 'argparse')
PROBE = '''
import sys
import rclpy
from sdf_tools.ros import description_publisher as dp
seen = {}
publish = dp.DescriptionPublisher._publish_static
def probe(self, tree):
    seen['at first /tf_static'] = sorted(m for m in sys.argv[2:] if m in sys.modules)
    publish(self, tree)
dp.DescriptionPublisher._publish_static = probe
rclpy.init(args=['x', '--ros-args', '-p', f'description_file:={sys.argv[1]}'])
node = dp.DescriptionPublisher()
print(seen['at first /tf_static'], 'sensor_msgs.msg' in sys.modules)
node.destroy_node()
rclpy.try_shutdown()
'''


def _run(code: str, *args: str) -> str:
    env = {**os.environ, 'PYTHONPATH': os.pathsep.join([str(SRC), os.environ.get('PYTHONPATH', '')])}
    run = subprocess.run([sys.executable, '-c', code, *args], capture_output=True, text=True,
                         timeout=60, env=env)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip().splitlines()[-1]


def test_joint_states_machinery_comes_after_the_first_tf_static(ros: None) -> None:
    # none of them before the first /tf_static; the joint_states subscription after it
    assert _run(PROBE, str(EXAMPLE), *LATER) == '[] True'


def test_a_urdf_is_published_without_importing_the_converters(ros: None) -> None:
    # the URDF goes out as written: no converter before the first /tf_static; its lumped
    # inertias rotate without transforms3d
    assert _run(PROBE, str(LUMPING), *LATER, 'sdf_tools.convert') == '[] True'
