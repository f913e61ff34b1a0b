"""The Gazebo target: chosen once, from ROS_DISTRO by default, per load otherwise."""
from __future__ import annotations

import pytest

from sdf_tools import gazebo
from sdf_tools.load import load_string


@pytest.mark.parametrize('distro, name', [('humble', 'fortress'), ('jazzy', 'harmonic'),
                                          ('kilted', 'ionic'), ('rolling', 'jetty'),
                                          ('', 'jetty'), ('noetic', 'jetty')])
def test_default_target_follows_ros_distro(distro: str, name: str) -> None:
    assert gazebo.default_target({'ROS_DISTRO': distro}).name == name


def test_using_sets_the_target_for_a_block_only() -> None:
    outer = gazebo.current()
    with gazebo.using('fortress') as t:
        assert gazebo.current() is t and t.libsdformat == 12
        assert load_string('<sdf version="1.9"><model name="m"><link name="l"/></model></sdf>'
                           ).gazebo is t
    assert gazebo.current() == outer


def test_gazebo_option_is_taken_from_anywhere() -> None:
    assert gazebo.split_gazebo_option(['check', 'f', '--gazebo', 'ionic']) == ('ionic', ['check', 'f'])
    assert gazebo.split_gazebo_option(['--gazebo=jetty', 'x']) == ('jetty', ['x'])
    with pytest.raises(ValueError, match='unknown Gazebo target'):
        gazebo.split_gazebo_option(['--gazebo', 'garden'])
    with pytest.raises(ValueError, match='needs a value'):
        gazebo.split_gazebo_option(['--gazebo'])


def test_a_1_12_file_is_read_and_newer_than_harmonic_says_so() -> None:
    text = ('<sdf version="1.12"><model name="m"><link name="l"><sensor name="s" type="imu">'
            '<frame_id>f</frame_id></sensor></link></model></sdf>')
    jetty = load_string(text, gazebo='jetty')
    assert jetty.valid and not [d for d in jetty.warnings if d.code.value != 'DEFAULT_ASSUMED']
    harmonic = load_string(text, gazebo='harmonic')
    (w,) = [d for d in harmonic.warnings if d.code.value == 'VERSION_UNSUPPORTED']
    assert 'newer than Gazebo Harmonic' in w.message and w.line == 1
    # 1.11's spec has no //sensor/frame_id: Harmonic reads a 1.11 file as 1.11 and calls it
    # unknown; Jetty converts it to 1.12 first (libsdformat's readDoc), where it is known
    as_1_11 = text.replace('1.12', '1.11')
    assert any('frame_id' in d.message for d in load_string(as_1_11, gazebo='harmonic').warnings)
    assert not any('frame_id' in d.message for d in load_string(as_1_11, gazebo='jetty').warnings)
