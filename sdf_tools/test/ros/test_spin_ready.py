"""Each node says at DEBUG when it is up, on its own ``startup`` logger (ros/spin.py say_ready).

bench/bench_ros_startup.py times a start by that line's stamp rather than by DDS discovery; it
must come once, at the moment named (services created; the first /tf_static published, so never
when nothing could be published), carry the CPU so far, and stay silent unless asked for.
"""
from __future__ import annotations

import re
from pathlib import Path

from ros.ros_support import SRC, NodeProcess, wait_log

EXAMPLE = SRC / 'sdf_tools' / 'examples' / 'demo_world.sdf'
READY = re.compile(r'\[(\w+)\.startup\]: ready: (.+) \((\d+\.\d+) s CPU since the process started\)')


def _ready_lines(proc: NodeProcess) -> list[tuple[str, str, float]]:
    return [(m.group(1), m.group(2), float(m.group(3))) for m in READY.finditer(proc.text())]


def _debug(name: str) -> tuple[str, ...]:
    return ('-r', f'__node:={name}', '--log-level', f'{name}.startup:=debug')


def test_each_node_says_once_when_it_is_up(ros: None, tmp_path: Path) -> None:
    procs = {
        'conv': NodeProcess('sdf_tools.ros.converter_node', {}, tmp_path / 'c.log',
                            ros_args=_debug('conv')),
        'spawn': NodeProcess('sdf_tools.ros.spawner_node', {}, tmp_path / 's.log',
                             ros_args=_debug('spawn')),
        'pub': NodeProcess('sdf_tools.ros.description_publisher',
                           {'description_file': str(EXAMPLE)}, tmp_path / 'p.log',
                           ros_args=_debug('pub')),
        'quiet': NodeProcess('sdf_tools.ros.converter_node', {}, tmp_path / 'q.log',
                             ros_args=('-r', '__node:=quiet')),
        'broken': NodeProcess('sdf_tools.ros.description_publisher',
                              {'description_file': str(tmp_path / 'missing.sdf')},
                              tmp_path / 'b.log', ros_args=_debug('broken')),
    }
    try:
        for name in ('conv', 'spawn', 'pub'):
            assert wait_log(procs[name], 'ready:'), procs[name].text()
        assert wait_log(procs['quiet'], 'serving'), procs['quiet'].text()
        assert wait_log(procs['broken'], 'no such file'), procs['broken'].text()
        assert wait_log(procs['pub'], 'publishing'), procs['pub'].text()
        lines = {name: _ready_lines(proc) for name, proc in procs.items()}
        assert [line[:2] for line in lines['conv']] == [('conv', 'service ~/convert created')]
        assert [line[:2] for line in lines['spawn']] == [('spawn', 'services created')]
        assert [line[:2] for line in lines['pub']] == [('pub', 'first /tf_static published')]
        # the moment is the first /tf_static: before the load's summary, which follows it
        text = procs['pub'].text()
        assert text.index('ready:') < text.index('publishing')
        assert all(0 < line[2] < 60 for name in ('conv', 'spawn', 'pub') for line in lines[name])
        assert lines['quiet'] == [] and 'ready:' not in procs['quiet'].text()
        assert lines['broken'] == []  # nothing published: not ready
        assert all(proc.alive() for proc in procs.values())
    finally:
        codes = {name: proc.stop() for name, proc in procs.items()}
    assert set(codes.values()) == {0}, codes
