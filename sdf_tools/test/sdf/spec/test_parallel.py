"""The spec check of a large world made in a second process gives what a check made here gives.

``SDF_TOOLS_PARALLEL_CHECK=1`` starts the worker whatever the file's size, ``0`` never.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from sdf_tools.load import load_file
from sdf_tools.resolved import inspect_json
from sdf_tools.sdf import stream
from sdf_tools.sdf.spec import parallel
from sdf_tools.xmlsafe import parse_bytes

DATA = Path(__file__).resolve().parents[2] / 'data'

# Models that pass, fail (a bad value, a bad attribute, an unknown element, a missing
# required child, a deprecated element), nest, carry plugins and comments, in a world
# with its own frames and a later world-level problem: every kind of check diagnostic,
# each in its model's place among the reader's.
WORLD = '''<?xml version="1.0"?>
<sdf version="%(version)s">
  <world name="w">
    <frame name="f0"><pose>1 0 0 0 0 0</pose></frame>
    <model name="good">
      <link name="l"><inertial><mass>2</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz>
        </inertia></inertial><pose>0 0 1 0 0 0</pose></link>
      <link name="c"><pose relative_to="l">0 1 0 0 0 0</pose></link>
      <joint name="j" type="revolute"><parent>l</parent><child>c</child>
        <axis><xyz>0 0 1</xyz><dynamics><damping>0.1</damping></dynamics></axis></joint>
      <plugin name="p" filename="libp.so"><anything at="all">x</anything></plugin>
    </model>
    <!-- a comment between models -->
    <model name="bad_value"><link name="l"><pose>0 0 x 0 0 0</pose>
      <visual name="v"><geometry><box><size>1 2</size></box></geometry></visual></link></model>
    <model name="unknown" foo="1"><link name="l"><shininess>2</shininess></link>
      <model name="inner"><link name="k"><inertial><mass>abc</mass></inertial></link></model>
    </model>
    <model name="missing"><link name="l"><collision name="c"/><visual name="v">
      <geometry><mesh/></geometry></visual></link></model>
    <model name="good2"><static>true</static><link name="l"><pose degrees="true">0 0 0 90 0 0</pose>
      </link><frame name="f"><pose rotation_format="quat_xyzw">0 0 0 0 0 0 1</pose></frame></model>
    <model name="bad_quat"><link name="l"><pose rotation_format="quat_xyzw">0 0 0 0 0 0</pose>
      </link></model>
    <frame name="good"/>
  </world>
</sdf>
'''


def _load(path: Path, mode: str, monkeypatch: pytest.MonkeyPatch,
          gazebo: str | None = None) -> tuple[list[object], str]:
    monkeypatch.setenv(parallel.ENV, mode)
    r = load_file(path, gazebo=gazebo)
    diags = [(d.code.name, d.message, d.file, d.line, d.xml_path, d.severity.name)
             for d in r.diagnostics]
    return diags, json.dumps(inspect_json(r), sort_keys=True, default=str)


class Spy:
    """Where each world model's verdict came from: the worker, or a check made here."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.workers: list[parallel.CheckWorker] = []
        self.here = 0
        init, check_here = parallel.CheckWorker.__init__, stream._check_here

        def spy_init(worker: parallel.CheckWorker, *args: object) -> None:
            init(worker, *args)  # type: ignore[arg-type]
            self.workers.append(worker)

        def spy_here(*args: object) -> object:
            self.here += 1
            return check_here(*args)  # type: ignore[arg-type]

        monkeypatch.setattr(parallel.CheckWorker, '__init__', spy_init)
        monkeypatch.setattr(stream, '_check_here', spy_here)

    def verdicts(self) -> int:
        return sum(len(w.verdicts) for w in self.workers)


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    # Wait for every verdict at the end of the file, so that they all come from the worker.
    monkeypatch.setattr(stream.WorldModelStreamer, 'FINAL_WAIT_S', 60.0)
    return Spy(monkeypatch)


def _models(path: Path) -> int:
    root, _ = parse_bytes(path.read_bytes(), None)
    return len(root.xpath('/sdf/world/model')) if root is not None else 0


@pytest.mark.parametrize('version', ['1.6', '1.9', '1.11'])
def test_worker_gives_what_a_check_here_gives(tmp_path: Path, version: str, spy: Spy,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / 'w.sdf'
    path.write_text(WORLD % {'version': version}, encoding='utf-8')
    here = _load(path, '0', monkeypatch)
    assert not spy.workers and spy.here == 0
    there = _load(path, '1', monkeypatch)
    assert len(spy.workers) == 1 and spy.verdicts() == _models(path) == 6 and spy.here == 0
    assert there == here
    codes = {d[0] for d in here[0]}
    # The world really exercises the check: failures, warnings and defaults.
    assert {'ELEMENT_INVALID', 'ELEMENT_INCORRECT_TYPE', 'ATTRIBUTE_INCORRECT_TYPE',
            'DEFAULT_ASSUMED'} <= codes


@pytest.mark.parametrize('gazebo', ['fortress', 'harmonic', 'jetty'])
def test_worker_checks_for_the_target_of_the_load(tmp_path: Path, gazebo: str, spy: Spy,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # A 1.9 world whose models hold what only 1.10+ knows (a nameless plugin, a cone, a
    # 1.10 limit default): Fortress refuses or warns, Harmonic and Jetty read it as their
    # newest spec. The worker must check for the load's target, not its own default one.
    monkeypatch.setenv('ROS_DISTRO', 'humble' if gazebo != 'fortress' else 'rolling')
    path = tmp_path / 'w.sdf'
    path.write_text(WORLD.replace('<plugin name="p"', '<plugin').replace(
        '<shininess>2</shininess>', '<visual name="c"><geometry><cone><radius>1</radius>'
        '<length>1</length></cone></geometry></visual>') % {'version': '1.9'}, encoding='utf-8')
    here = _load(path, '0', monkeypatch, gazebo)
    there = _load(path, '1', monkeypatch, gazebo)
    assert len(spy.workers) == 1 and spy.verdicts() == 6 and spy.here == 0
    assert there == here
    plugin_refused = any('attribute[name] in element[plugin]' in str(d[1]) for d in here[0])
    assert plugin_refused is (gazebo == 'fortress')


@pytest.mark.parametrize('name', sorted(str(p.relative_to(DATA)) for p in DATA.rglob('*.sdf')
                                        if '<world' in p.read_text(encoding='utf-8')))
def test_worker_on_test_worlds(name: str, spy: Spy, monkeypatch: pytest.MonkeyPatch) -> None:
    here = _load(DATA / name, '0', monkeypatch)
    assert _load(DATA / name, '1', monkeypatch) == here
    # Every verdict from the worker (none at all when the world holds no model of its own).
    assert (spy.verdicts(), spy.here) == (_models(DATA / name), 0)


def test_late_verdicts_are_made_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No verdict awaited: each model is checked here unless the worker was quicker."""
    path = tmp_path / 'w.sdf'
    path.write_text(WORLD % {'version': '1.9'}, encoding='utf-8')
    here = _load(path, '0', monkeypatch)
    spy = Spy(monkeypatch)
    monkeypatch.setattr(stream.WorldModelStreamer, 'PENDING', 0)
    assert _load(path, '1', monkeypatch) == here
    assert spy.verdicts() + spy.here >= 6 and spy.here >= 1


@pytest.mark.parametrize('program', [
    'import sys; sys.exit(3)',                                   # the worker fails
    'import sys; sys.stdout.write("garbage")',                   # says nonsense
    'import time; time.sleep(30)',                               # takes too long
    # another version of us, or other bytes (the file changed in between)
    'import pickle, struct, sys; b = pickle.dumps((2, 0, 0)); '
    'sys.stdout.buffer.write(struct.pack("<Q", len(b)) + b)',
])
def test_unusable_worker_means_checking_here(tmp_path: Path, program: str, spy: Spy,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / 'w.sdf'
    path.write_text(WORLD % {'version': '1.9'}, encoding='utf-8')
    here = _load(path, '0', monkeypatch)
    monkeypatch.setattr(stream.WorldModelStreamer, 'FINAL_WAIT_S', 0.0)  # not for the sleeper
    monkeypatch.setattr(parallel, '_WORKER', program)
    assert _load(path, '1', monkeypatch) == here
    assert (spy.verdicts(), spy.here) == (0, 6)
    assert spy.workers[0].proc.returncode is not None  # stopped, not left running


def test_worker_not_asked_is_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that is no world (or whose parse falls back) leaves no process behind."""
    started: list[parallel.CheckWorker] = []
    start = parallel.start_worker

    def spy(*args: object) -> parallel.CheckWorker | None:
        w = start(*args)  # type: ignore[arg-type]
        if w is not None:
            started.append(w)
        return w

    monkeypatch.setattr('sdf_tools.load.start_worker', spy)
    monkeypatch.setenv(parallel.ENV, '1')
    for text in ('<sdf version="1.9"><model name="m"><link name="l"/></model></sdf>',
                 '<robot name="r"><link name="l"/></robot>',
                 '<sdf version="1.9"><world name="w"><model name="m"><link name="l"/></model>'
                 '</world></sdf><junk',
                 '<sdf version="1.9"><world name="w"><model name="m"><link name="l"/></model>'):
        path = tmp_path / 'f.sdf'
        path.write_text(text, encoding='utf-8')
        load_file(path)
        assert started and started[-1].proc.returncode is not None, text
        started.clear()


def test_small_files_and_switch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / 'w.sdf'
    path.write_text(WORLD % {'version': '1.9'}, encoding='utf-8')
    data = path.read_bytes()
    monkeypatch.delenv(parallel.ENV, raising=False)
    assert parallel.start_worker(path, data, str(path)) is None  # far below MIN_BYTES
    monkeypatch.setenv(parallel.ENV, '0')
    assert parallel.start_worker(path, data * 10_000, str(path)) is None
