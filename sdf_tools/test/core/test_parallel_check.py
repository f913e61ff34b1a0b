"""The spec check of a large world made in a second process gives what a check made here gives.

``SDF_TOOLS_PARALLEL_CHECK=1`` starts the worker whatever the file's size, ``0`` never.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from sdf_tools.inspect import inspect_result
from sdf_tools.load import load_file
from sdf_tools.sdf.spec import parallel
from sdf_tools.xmlsafe import parse_bytes

DATA = Path(__file__).resolve().parents[1] / 'data'

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


def _load(path: Path, mode: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[object], str]:
    monkeypatch.setenv(parallel.ENV, mode)
    r = load_file(path)
    diags = [(d.code.name, d.message, d.file, d.line, d.xml_path, d.severity.name)
             for d in r.diagnostics]
    return diags, json.dumps(inspect_result(r), sort_keys=True, default=str)


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The worker answers received (None: unusable, so checked here)."""
    got: list[object] = []
    answer = parallel.CheckWorker._answer

    def spy(self: parallel.CheckWorker) -> object:
        got.append(answer(self))
        return got[-1]

    monkeypatch.setattr(parallel.CheckWorker, '_answer', spy)
    return got


@pytest.mark.parametrize('version', ['1.6', '1.9', '1.11'])
def test_worker_gives_what_a_check_here_gives(tmp_path: Path, version: str, answers: list[object],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / 'w.sdf'
    path.write_text(WORLD % {'version': version}, encoding='utf-8')
    here = _load(path, '0', monkeypatch)
    assert answers == []
    there = _load(path, '1', monkeypatch)
    assert len(answers) == 1 and answers[0] is not None, 'the worker did not answer'
    assert there == here
    codes = {d[0] for d in here[0]}
    # The world really exercises the check: failures, warnings and defaults.
    assert {'ELEMENT_INVALID', 'ELEMENT_INCORRECT_TYPE', 'ATTRIBUTE_INCORRECT_TYPE',
            'DEFAULT_ASSUMED'} <= codes


@pytest.mark.parametrize('name', sorted(str(p.relative_to(DATA)) for p in DATA.rglob('*.sdf')
                                        if '<world' in p.read_text(encoding='utf-8')))
def test_worker_on_test_worlds(name: str, answers: list[object],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    here = _load(DATA / name, '0', monkeypatch)
    assert _load(DATA / name, '1', monkeypatch) == here
    # The worker is asked only when the world holds models of its own (not only includes).
    root, _ = parse_bytes((DATA / name).read_bytes(), None)
    models = root is not None and root.xpath('/sdf/world/model')
    assert len(answers) == (1 if models else 0)


@pytest.mark.parametrize('program', [
    'import sys; sys.exit(3)',                                   # the worker fails
    'import sys; sys.stdout.write("garbage")',                   # says nonsense
    'import pickle, sys; sys.stdout.buffer.write(pickle.dumps((1, 0, 0, [])))',  # other bytes
])
def test_unusable_worker_means_checking_here(tmp_path: Path, program: str, answers: list[object],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / 'w.sdf'
    path.write_text(WORLD % {'version': '1.9'}, encoding='utf-8')
    here = _load(path, '0', monkeypatch)
    monkeypatch.setattr(parallel, '_WORKER', program)
    assert _load(path, '1', monkeypatch) == here
    assert answers == [None]


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
