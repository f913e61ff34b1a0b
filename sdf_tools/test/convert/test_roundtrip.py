"""Round trips on generated tree-shaped models keep every resolved pose and axis (1e-9).

* SDF -> URDF: read back by our reader (and, for some examples, by libsdformat 12),
  every link and frame is where the SDFormat put it, every joint axis points the same way;
* SDF -> URDF -> SDF: every link of the first SDFormat is a link or a ``<frame>`` (when
  fixed-joint lumping merged it) of the last, at the same pose; axes are kept;
* URDF -> SDF -> URDF: every link of the first URDF is a link of the last at the same
  pose; axes are kept.

The generators below are small and our own: SDFormat models of up to six links with
poses relative to links, joints, frames or the model, written as radians, degrees or
quaternions; every joint type SDFormat has except screw and gearbox; axes expressed in
the joint, parent or model frame; a nested model and ``<frame>``s. URDF robots of up to
six links with every URDF joint type but floating and planar. Examples are derandomized
(the same every run).
"""
from __future__ import annotations

import math
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from support.libsdformat import probe_available, run_probe

from convert.urdf.urdf_readback import TOL, by_name, libsdformat_problems, pose_diff, vec_diff
from sdf_tools.convert import ConversionOptions
from sdf_tools.convert.sdf.to_sdf import convert_to_sdf
from sdf_tools.convert.urdf.to_urdf import convert_to_urdf
from sdf_tools.load import LoadResult, load_string
from sdf_tools.resolved import inspect_json

SETTINGS = settings(max_examples=80, derandomize=True, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SEP = '__'  # our URDF reader refuses '::' in names (libsdformat accepts it)

coord = st.floats(-2.0, 2.0, allow_nan=False, allow_subnormal=False)
angle = st.floats(-3.1, 3.1, allow_nan=False, allow_subnormal=False)
unit = st.tuples(coord, coord, coord).filter(lambda v: math.hypot(*v) > 0.1)


def _num(x: float) -> str:
    return repr(float(x))


@st.composite
def sdf_pose(draw: st.DrawFn, relative_to: str = '') -> str:
    """A ``<pose>`` in one of the three rotation forms."""
    xyz = ' '.join(_num(draw(coord)) for _ in range(3))
    rel = f' relative_to="{relative_to}"' if relative_to else ''
    form = draw(st.sampled_from(['rpy', 'degrees', 'quat']))
    if form == 'quat':
        q = draw(st.tuples(coord, coord, coord, coord).filter(lambda q: math.hypot(*q) > 0.2))
        n = math.hypot(*q)
        text = ' '.join(_num(c / n) for c in q)
        return f'<pose{rel} rotation_format="quat_xyzw">{xyz} {text}</pose>'
    rpy = [draw(angle) for _ in range(3)]
    if form == 'degrees':
        return f'<pose{rel} degrees="true">{xyz} {" ".join(_num(math.degrees(a)) for a in rpy)}</pose>'
    return f'<pose{rel}>{xyz} {" ".join(_num(a) for a in rpy)}</pose>'


def _axis(draw: st.DrawFn, tag: str, parent: str) -> str:
    xyz = ' '.join(_num(c) for c in draw(unit))
    frame = draw(st.sampled_from(['', '__model__', parent]))
    attr = f' expressed_in="{frame}"' if frame else ''
    lower = draw(st.floats(-3, 0))
    limit = f'<limit><lower>{_num(lower)}</lower><upper>{_num(lower + 1)}</upper>' \
            f'<effort>{_num(draw(st.floats(0.1, 50)))}</effort><velocity>1</velocity></limit>'
    return f'<{tag}><xyz{attr}>{xyz}</xyz>{limit if draw(st.booleans()) else ""}</{tag}>'


@st.composite
def sdf_models(draw: st.DrawFn) -> str:
    """A tree-shaped SDFormat 1.9 model (one root, one parent joint per link)."""
    n = draw(st.integers(1, 6))
    parts, named = [draw(sdf_pose())], ['__model__']
    for i in range(n):
        ref = draw(st.sampled_from(['', *named])) if i else ''
        mass = _num(draw(st.floats(0.1, 10)))
        parts.append(f'<link name="l{i}">{draw(sdf_pose(ref if ref != "__model__" else ""))}'
                     f'<inertial><mass>{mass}</mass></inertial></link>')
        named.append(f'l{i}')
        if i:
            parent = f'l{draw(st.integers(0, i - 1))}'
            jtype = draw(st.sampled_from(['revolute', 'prismatic', 'continuous', 'fixed',
                                          'universal', 'revolute2', 'ball']))
            jref = draw(st.sampled_from(['', parent, '__model__']))
            pose = draw(sdf_pose(jref)) if draw(st.booleans()) or jref else ''
            axes = '' if jtype in ('fixed', 'ball') else _axis(draw, 'axis', parent)
            if jtype in ('universal', 'revolute2'):
                axes += _axis(draw, 'axis2', parent)
            parts.append(f'<joint name="j{i}" type="{jtype}">{pose}<parent>{parent}</parent>'
                         f'<child>l{i}</child>{axes}</joint>')
            named.append(f'j{i}')
    if draw(st.booleans()):
        on = f'l{draw(st.integers(0, n - 1))}'
        parts.append(f'<model name="sub">{draw(sdf_pose())}<link name="s">'
                     f'{draw(sdf_pose())}</link></model><joint name="to_sub" type="revolute">'
                     f'<parent>{on}</parent><child>sub::s</child>{_axis(draw, "axis", on)}</joint>')
    for k in range(draw(st.integers(0, 2))):
        on = f'l{draw(st.integers(0, n - 1))}'
        parts.append(f'<frame name="f{k}" attached_to="{on}">{draw(sdf_pose())}</frame>')
    if draw(st.booleans()):
        jtype = draw(st.sampled_from(['fixed', 'revolute']))
        axis = '<axis><xyz>0 0 1</xyz></axis>' if jtype == 'revolute' else ''
        parts.append(f'<joint name="to_world" type="{jtype}"><parent>world</parent>'
                     f'<child>l0</child>{axis}</joint>')
    return '<?xml version="1.0"?>\n<sdf version="1.9"><model name="gen">' + \
        '\n'.join(parts) + '</model></sdf>\n'


def _origin(draw: st.DrawFn) -> str:
    xyz = ' '.join(_num(draw(coord)) for _ in range(3))
    rpy = ' '.join(_num(draw(st.floats(-1.4, 1.4) if k == 1 else angle)) for k in range(3))
    return f'<origin xyz="{xyz}" rpy="{rpy}"/>'


@st.composite
def urdf_robots(draw: st.DrawFn) -> str:
    """A URDF robot: every link with mass, joints of the types libsdformat writes."""
    n = draw(st.integers(1, 6))
    parts = []
    for i in range(n):
        mass = _num(draw(st.floats(0.1, 10)))
        parts.append(f'<link name="u{i}"><inertial>{_origin(draw)}<mass value="{mass}"/>'
                     '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>')
        if not i:
            continue
        jtype = draw(st.sampled_from(['revolute', 'continuous', 'prismatic', 'fixed']))
        axis = f'<axis xyz="{" ".join(_num(c) for c in draw(unit))}"/>' if jtype != 'fixed' else ''
        limit = '<limit lower="-1" upper="1" effort="5" velocity="2"/>' \
            if jtype in ('revolute', 'prismatic') else ''
        parent = f'u{draw(st.integers(0, i - 1))}'
        parts.append(f'<joint name="j{i}" type="{jtype}">{_origin(draw)}<parent link="{parent}"/>'
                     f'<child link="u{i}"/>{axis}{limit}</joint>')
    if draw(st.booleans()):
        parts.append('<link name="world"/><joint name="fix" type="fixed"><parent link="world"/>'
                     f'<child link="u0"/>{_origin(draw)}</joint>')
    return '<?xml version="1.0"?>\n<robot name="gen">' + '\n'.join(parts) + '</robot>\n'


def _load(text: str, name: str) -> LoadResult:
    loaded = load_string(text, name)
    assert loaded.valid, [str(d) for d in loaded.errors]
    return loaded


def _to_urdf(loaded: LoadResult) -> LoadResult:
    result = convert_to_urdf(loaded, ConversionOptions(scope_separator=SEP))
    assert result.ok, [str(e) for e in result.report.errors]
    note(result.text or '')
    return _load(result.text or '', 'converted.urdf')


def _to_sdf(loaded: LoadResult) -> LoadResult:
    result = convert_to_sdf(loaded, ConversionOptions())
    assert result.ok, [str(e) for e in result.report.errors]
    note(result.text or '')
    return _load(result.text or '', 'converted.sdf')


def _places(report: dict[str, Any], sep: str = SEP) -> dict[str, Any]:
    """Every link and frame of the report's first model, by URDF-style name."""
    model = report['models'][0]['name']
    found = {**by_name(report['frames'], model), **by_name(report['links'], model)}
    return {n.replace('::', sep): v['pose'] for n, v in found.items()}


def _axes(report: dict[str, Any], sep: str = SEP) -> dict[str, list[float]]:
    model = report['models'][0]['name']
    out = {}
    for name, j in by_name(report['joints'], model).items():
        if j['type'] in ('ball', 'fixed') or j['axis'] is None:
            continue
        out[name.replace('::', sep)] = j['axis']
        if j['axis2'] is not None:
            out[f'{name.replace("::", sep)}__axis2'] = j['axis2']
    return out


def _compare(first: dict[str, Any], last: dict[str, Any]) -> None:
    """Every link and axis of ``first`` is in ``last``, within 1e-9."""
    places, back = _places(first), _places(last)
    missing = places.keys() - back.keys()
    assert not missing, f'missing after the round trip: {sorted(missing)}'
    worst = {n: pose_diff(p, back[n]) for n, p in places.items()}
    assert max(worst.values()) <= TOL, worst
    axes, back_axes = _axes(first), _axes(last)
    for name, axis in axes.items():
        if name in back_axes:
            assert vec_diff(axis, back_axes[name]) <= TOL, name


@SETTINGS
@given(sdf_models())
def test_sdf_to_urdf_keeps_every_pose_and_axis(text: str) -> None:
    note(text)
    src = _load(text, 'gen.sdf')
    first, last = inspect_json(src), inspect_json(_to_urdf(src))
    _compare(first, last)
    assert _axes(first).keys() <= _axes(last).keys()


@SETTINGS
@given(sdf_models())
def test_sdf_to_urdf_to_sdf_keeps_every_pose_and_axis(text: str) -> None:
    note(text)
    src = _load(text, 'gen.sdf')
    _compare(inspect_json(src), inspect_json(_to_sdf(_to_urdf(src))))


@SETTINGS
@given(urdf_robots())
def test_urdf_to_sdf_to_urdf_keeps_every_pose_and_axis(text: str) -> None:
    note(text)
    src = _load(text, 'gen.urdf')
    last = _to_urdf(_to_sdf(src))
    first, back = inspect_json(src), inspect_json(last)
    _compare(first, back)


@pytest.mark.skipif(not probe_available(), reason='libsdformat 12 probe unavailable')
@settings(SETTINGS, max_examples=30)
@given(sdf_models())
def test_libsdformat_reads_generated_models_converted_to_urdf_in_place(text: str) -> None:
    note(text)
    src = _load(text, 'gen.sdf')
    result = convert_to_urdf(src, ConversionOptions())
    assert result.ok and result.text is not None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / 'gen.urdf'
        path.write_text(result.text)
        ref = run_probe(path)
    assert ref['valid'], ref['errors']
    problems = libsdformat_problems(inspect_json(src), ref, 'gen')
    assert not problems, problems
