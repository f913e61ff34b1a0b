"""libsdformat's walk of a URDF (urdf/lumping_walk.py), judged by libsdformat itself.

Each small robot below trips one rule of ``parser_urdf.cc`` (``ReduceFixedJoints``,
``ReduceInertialToParent``, ``CreateSDF``). The walk's verdicts -- which links the
conversion writes, which it writes first (the canonical link), the lumped ``<inertial>``
of each -- are compared with what the probe loads: libsdformat 12.3 (Fortress, built by
the tests) always; 14, 15 and 16 (Harmonic, Ionic, Jetty) when ``SDFORMAT_PROBE_14`` /
``_15`` / ``_16`` name a build of the same probe against them
(tools/libsdformat_test_sweep.py ``--probe``).
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.libsdformat import probe_available, probe_unavailable_reason, run_probe

from sdf_tools.cli import main
from sdf_tools.convert.api import convert_loaded
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.gazebo import using
from sdf_tools.load import load_file
from sdf_tools.urdf.lumping_walk import UrdfWalk

INERTIA = '<inertia ixx="{i}" ixy="0" ixz="0" iyy="{i}" iyz="0" izz="{i}"/>'


def _link(name: str, mass: float | None = None, xyz: str = '0 0 0') -> str:
    if mass is None:
        return f'<link name="{name}"/>'
    return (f'<link name="{name}"><inertial><origin xyz="{xyz}"/><mass value="{mass!r}"/>'
            f'{INERTIA.format(i=0.01)}</inertial></link>')


def _joint(name: str, kind: str, parent: str, child: str, xyz: str = '0 0 0.1') -> str:
    axis = '' if kind == 'fixed' else (
        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>')
    return (f'<joint name="{name}" type="{kind}"><parent link="{parent}"/>'
            f'<child link="{child}"/><origin xyz="{xyz}"/>{axis}</joint>')


# name -> the robot's body (links and joints, in document order)
ROBOTS = {
    # no link left: libsdformat refuses the robot (MODEL_WITHOUT_LINK)
    'massless_root': [_link('base'), _joint('j', 'revolute', 'base', 'arm'), _link('arm', 1.0)],
    # a massless leaf lumped into a massive parent: nothing lost
    'massless_lumped_leaf': [_link('base', 1.0), _joint('f', 'fixed', 'base', 'tip'), _link('tip')],
    # a massless link lumped into its parent, with a moving child: 12.3 stops there and
    # leaves [arm] out; 14+ (gazebosim/sdformat#1238) goes on
    'massless_lumped_mount': [
        _link('base', 1.0), _joint('f', 'fixed', 'base', 'mount'), _link('mount'),
        _joint('j', 'revolute', 'mount', 'arm'), _link('arm', 1.0)],
    # ... unless a lumped child gives it a mass: CreateSDF judges a link's <inertial> after
    # ReduceFixedJoints (its own lumped children in), in 12.3 too, so [arm] is written
    'lumped_mount_with_massive_child': [
        _link('base', 1.0), _joint('f', 'fixed', 'base', 'mount'), _link('mount'),
        _joint('g', 'fixed', 'mount', 'plate'), _link('plate', 0.5),
        _joint('j', 'revolute', 'mount', 'arm'), _link('arm', 1.0)],
    # a massless link fixed to world: 12.3 leaves it and its subtree out; 14+ writes [arm]
    # first (its joint then names a link that is not there)
    'massless_world_child': [
        _link('world'), _joint('fix', 'fixed', 'world', 'base'), _link('base'),
        _joint('j', 'revolute', 'base', 'arm'), _link('arm', 1.0)],
    # several children of world: the first written (by joint name) is the canonical link
    'world_children': [
        _link('world'), _joint('b_fix', 'fixed', 'world', 'b'), _link('b', 1.0),
        _joint('a_fix', 'fixed', 'world', 'a'), _link('a'),
        _joint('a_f', 'fixed', 'a', 'a_body'), _link('a_body', 2.0)],
    # preserveFixedJoint: the massless child is not lumped, so it is left out
    'preserved_fixed_joint': [
        _link('base', 1.0), _joint('f', 'fixed', 'base', 'sensor'), _link('sensor'),
        _joint('j', 'revolute', 'sensor', 'arm'), _link('arm', 1.0),
        '<gazebo reference="f"><preserveFixedJoint>true</preserveFixedJoint></gazebo>'],
    # a chain of massless lumped links ending in a massive one: the sum gives the root mass
    'massless_chain_massive_tail': [
        _link('base'), _joint('f1', 'fixed', 'base', 'l1'), _link('l1'),
        _joint('f2', 'fixed', 'l1', 'l2'), _link('l2'),
        _joint('f3', 'fixed', 'l2', 'tail', '0.2 0 0'), _link('tail', 2.0, '0 0.1 0')],
    # two lumped children declared against the order of their names: the sum is taken in
    # the names' order, (0.1 + 0.1) + 0.6 == 0.8, not (0.1 + 0.6) + 0.1 == 0.7999999999999999
    'lumping_order': [
        _link('base', 0.1), _joint('b_joint', 'fixed', 'base', 'b', '0 0.3 0'),
        _link('b', 0.6, '0.1 0 0'), _joint('a_joint', 'fixed', 'base', 'a', '0.2 0 0'),
        _link('a', 0.1, '0 0 0.05')],
    # the same, with a joint the reader renames ([a], named like its link, is [a_joint] in
    # our model): urdfdom orders joints by their URDF names, [a] before [a_0]
    'renamed_joint_order': [
        _link('base', 0.1), _joint('a_0', 'fixed', 'base', 'c', '0 0.3 0'),
        _link('c', 0.6, '0.1 0 0'), _joint('a', 'fixed', 'base', 'a', '0.2 0 0'),
        _link('a', 0.1, '0 0 0.05')],
}

PROBES = {'fortress': None, 'harmonic': os.environ.get('SDFORMAT_PROBE_14'),
          'ionic': os.environ.get('SDFORMAT_PROBE_15'),
          'jetty': os.environ.get('SDFORMAT_PROBE_16')}


def _write(tmp_path: Path, name: str, body: list[str] | None = None) -> Path:
    path = tmp_path / f'{name}.urdf'
    text = '\n'.join(ROBOTS[name] if body is None else body)
    path.write_text(f'<?xml version="1.0"?>\n<robot name="r">\n{text}\n</robot>\n')
    return path


def _probe(gazebo: str, path: Path) -> dict:
    if gazebo == 'fortress':
        if not probe_available():
            pytest.skip(str(probe_unavailable_reason()))
        return run_probe(path)
    probe = PROBES[gazebo]
    if not probe or not Path(probe).is_file():
        pytest.skip(f'no libsdformat probe for {gazebo} (SDFORMAT_PROBE_1x)')
    return run_probe(path, probe=probe)


@pytest.mark.parametrize('gazebo', list(PROBES))
@pytest.mark.parametrize('name', list(ROBOTS))
def test_walk_writes_the_links_libsdformat_writes(tmp_path: Path, name: str, gazebo: str) -> None:
    path = _write(tmp_path, name)
    ref = _probe(gazebo, path)
    loaded = load_file(path, gazebo=gazebo)
    assert loaded.document is not None and loaded.document.model is not None
    walk = loaded.urdf_walk  # the one the load made, which every verdict reads
    assert walk is not None
    with using(gazebo):
        visits = walk.create_sdf()
    written = [v.link for v in visits if v.written]
    assert sorted(f'r::{n}' for n in written) == sorted(lk['name'] for lk in ref['links'])
    if ref['links']:  # the canonical link is the first written, in CreateSDF's order
        assert ref['models'][0]['canonical_link'] == f'r::{written[0]}'
        canonical = loaded.document.model.canonical_link or loaded.document.model.links[0].name
        assert canonical == written[0]
    else:  # no link left: refused by both
        assert not ref['valid'] and not loaded.valid
        assert 'MODEL_WITHOUT_LINK' in {d.code.name for d in loaded.diagnostics}
    for lk in ref['links']:  # the lumped sums, in libsdformat's order
        inertial = walk.lumped_inertial(lk['name'].split('::', 1)[1])
        assert inertial is not None
        assert inertial.mass == lk['mass']
        pose = inertial.pose.value if inertial.pose is not None else None
        assert pose is not None
        if lk['pose'] is None:  # not resolvable (a joint names a link left out)
            continue
        # the probe gives poses in the model frame (no rotation in these robots)
        com = [c - o for c, o in zip(lk['inertial_pose']['xyz'], lk['pose']['xyz'], strict=True)]
        assert pose.p == pytest.approx(tuple(com), abs=1e-9)
        assert inertial.inertia == pytest.approx(tuple(lk['inertia']), abs=1e-9)


@pytest.mark.parametrize('gazebo', list(PROBES))
def test_preserved_joint_named_like_its_link_clashes(tmp_path: Path, gazebo: str) -> None:
    # <gazebo reference> names the joint by its URDF name, which the reader renamed
    # ([tool] -> [tool_joint]): the joint is still preserved, so libsdformat writes it
    # beside link [tool] and refuses the model in every release.
    path = _write(tmp_path, 'preserved_named_like_link', [
        _link('base', 1.0), _joint('tool', 'fixed', 'base', 'tool'), _link('tool', 1.0),
        '<gazebo reference="tool"><preserveFixedJoint>true</preserveFixedJoint></gazebo>'])
    ref = _probe(gazebo, path)
    assert not ref['valid'] and 'DUPLICATE_NAME' in {e['code'] for e in ref['errors']}
    loaded = load_file(path, gazebo=gazebo)
    clash = [d for d in loaded.diagnostics if d.severity.value == 'error']
    assert [d.code.name for d in clash] == ['DUPLICATE_NAME']
    assert 'frame of the lumped joint' not in clash[0].message
    walk = loaded.urdf_walk
    assert walk is not None and 'tool_joint' in walk.joints and not walk.lumped
    # The conversion keeps the preserved joint (renamed) and libsdformat loads the result.
    converted = convert_loaded(load_file(path, gazebo=gazebo), to='sdf',
                               options=ConversionOptions(gazebo=gazebo))
    assert converted.text is not None
    out = tmp_path / 'converted.sdf'
    out.write_text(converted.text)
    back = _probe(gazebo, out)
    assert back['valid'], back['errors']
    assert [(j['name'], j['type']) for j in back['joints']] == [('r::tool_joint', 'fixed')]


ARM = Path(__file__).resolve().parents[1] / 'data' / 'urdf' / 'arm.urdf'


@pytest.mark.parametrize('command', [
    ['check', '--strict'], ['frames'], ['inspect', '--json'], ['report', '--json'],
    ['convert', '--to', 'sdf', '-o', '-'], ['convert', '--to', 'mjcf', '-o', '-']])
@pytest.mark.parametrize('gazebo', ['fortress', 'harmonic'])
def test_each_command_walks_the_urdf_once(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str],
                                         command: list[str], gazebo: str) -> None:
    # The reader's walk rides on the LoadResult: the converter, the lint and the frame
    # listings read it instead of replaying libsdformat's conversion again. (A copy for
    # the converter is a deepcopy, which does not call __init__.)
    made: list[UrdfWalk] = []
    init = UrdfWalk.__init__

    def counted(self: UrdfWalk, *args: object, **kwargs: object) -> None:
        made.append(self)
        init(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(UrdfWalk, '__init__', counted)
    assert main([*command, str(ARM), '--gazebo', gazebo]) in (0, 1)
    assert capsys.readouterr().out  # it did its work
    assert len(made) == 1
