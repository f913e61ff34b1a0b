"""Random flattened SDFormat 1.6/1.7 world models, read by us and by libsdformat 12.

``sdf/unflatten.py`` applies libsdformat's 1.7 -> 1.8 step (``Converter::Unflatten``) to
world models of older files. Here hypothesis draws trees of nested models (two levels,
links, frames, joints with axes, poses relative to the model frame or a member), writes
each tree flattened as a pre-1.8 tool saved nested models (``A::B::l0``, a frame
``A::B::__model__`` attached to the canonical link and holding the model's pose), and the
probe judges: same verdict, every model, link, joint and frame with the same name and
world pose (1e-9). The nested models must come back: every drawn model is reported.

Each example runs the probe once (0.1-0.2 s); ``SDF_TOOLS_HYPOTHESIS_EXAMPLES`` raises
the count (default 40 here).
"""
from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from support.libsdformat import probe_available, probe_unavailable_reason

pytest.importorskip('hypothesis')
from hypothesis import HealthCheck, given, note, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from differential.reference import differences, ours_report  # noqa: E402

pytestmark = pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))

EXAMPLES = int(os.environ.get('SDF_TOOLS_HYPOTHESIS_EXAMPLES', '40'))


@dataclass
class Nested:
    """A model nested in the world model (``path``: its names from the world model down)."""

    path: tuple[str, ...]
    pose: str
    pose_rel: str          # '' (the parent's model frame) or a link of the parent
    links: list[tuple[str, str, str]] = field(default_factory=list)  # name, pose, relative_to
    frame: tuple[str, str] | None = None                            # attached_to, pose
    joint: tuple[str, str, str] | None = None                       # type, xyz, expressed_in
    children: list[Nested] = field(default_factory=list)


_num = st.sampled_from(['0', '0.5', '-1', '1.25', '2'])
_ang = st.sampled_from(['0', '0.3', '-0.7', '1.5707963267948966'])


@st.composite
def _pose(draw: st.DrawFn) -> str:
    return ' '.join([draw(_num) for _ in range(3)] + [draw(_ang) for _ in range(3)])


@st.composite
def _nested(draw: st.DrawFn, path: tuple[str, ...], parent_links: list[str], depth: int) -> Nested:
    m = Nested(path, draw(_pose()), draw(st.sampled_from([''] + parent_links)))
    names = ['l0', 'l1'][:draw(st.integers(1, 2))]
    for i, name in enumerate(names):
        rel = draw(st.sampled_from(['', '__model__'] + names[:i]))
        m.links.append((name, draw(_pose()), rel))
    if draw(st.booleans()):
        m.frame = (draw(st.sampled_from(names)), draw(_pose()))
    if len(names) == 2 and draw(st.booleans()):
        frames = ['f'] if m.frame else []
        m.joint = (draw(st.sampled_from(['revolute', 'prismatic', 'fixed'])),
                   draw(st.sampled_from(['0 0 1', '1 0 0', '0 1 1'])),
                   draw(st.sampled_from(['', '__model__', 'l0'] + frames)))
    if depth < 2:
        for child in draw(st.lists(st.sampled_from(['C', 'D']), max_size=2, unique=True)):
            m.children.append(draw(_nested(path + (child,), names, depth + 1)))
    return m


def _flat(m: Nested, version: str) -> str:
    """The members of ``m`` and its children, flattened into the world model."""
    pre = '::'.join(m.path) + '::'
    parent = '::'.join(m.path[:-1])
    outer = f'{parent}::' if parent else ''

    def rel(name: str, scope: str) -> str:
        if not name:
            return ''
        key = 'frame' if version < '1.7' else 'relative_to'
        return f' {key}="{scope}{name}"'

    out = []
    canonical = m.links[0][0]
    if version >= '1.7':
        # the nested model's own frame, holding its pose (relative to the parent's frame)
        out.append(f'<frame name="{pre}__model__" attached_to="{pre}{canonical}">'
                   f'<pose{rel(m.pose_rel or "__model__", outer)}>{m.pose}</pose></frame>')
    for name, pose, r in m.links:
        out.append(f'<link name="{pre}{name}"><pose{rel(r, pre)}>{pose}</pose></link>')
    if m.frame is not None:
        attached = f' attached_to="{pre}{m.frame[0]}"' if version >= '1.7' else ''
        out.append(f'<frame name="{pre}f"{attached}><pose{rel(m.frame[0], pre)}>'
                   f'{m.frame[1]}</pose></frame>')
    if m.joint is not None:
        jtype, xyz, expressed = m.joint
        axis = ''
        if jtype != 'fixed':
            if version >= '1.7':
                where = f' expressed_in="{pre}{expressed}"' if expressed else ''
                axis = f'<axis><xyz{where}>{xyz}</xyz></axis>'
            else:
                flag = 'true' if expressed == '__model__' else 'false'
                axis = (f'<axis><xyz>{xyz}</xyz><use_parent_model_frame>{flag}'
                        '</use_parent_model_frame></axis>')
        out.append(f'<joint name="{pre}j" type="{jtype}"><parent>{pre}l0</parent>'
                   f'<child>{pre}l1</child>{axis}</joint>')
    for child in m.children:
        out.append(_flat(child, version))
    return '\n'.join(out)


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, str, list[str]]:
    """(version, document text, scoped names of every nested model)."""
    version = draw(st.sampled_from(['1.7', '1.7', '1.6']))
    tops = draw(st.lists(st.sampled_from(['A', 'B']), min_size=1, max_size=2, unique=True))
    nested = [draw(_nested((t,), ['base'], 1)) for t in tops]
    if version < '1.7':
        # no model frames or attached_to before 1.7: poses relative to the world model
        for m in nested:
            _drop_model_frames(m)
    body = '\n'.join(_flat(m, version) for m in nested)
    models: list[str] = []
    stack = list(nested)
    while stack:
        m = stack.pop()
        models.append('P::' + '::'.join(m.path))
        stack.extend(m.children)
    xml = (f'<?xml version="1.0"?>\n<sdf version="{version}">\n<world name="w">\n'
           f'<model name="P"><pose>{draw(_pose())}</pose><link name="base"/>\n{body}\n'
           '</model>\n</world>\n</sdf>\n')
    return version, xml, models


def _drop_model_frames(m: Nested) -> None:
    """Pre-1.7 files: no ``__model__`` frame, no reference to it."""
    m.links = [(n, p, '' if r == '__model__' else r) for n, p, r in m.links]
    for c in m.children:
        _drop_model_frames(c)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          print_blob=False, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(documents())
def test_flattened_world_models_read_like_libsdformat(doc: tuple[str, str, list[str]]) -> None:
    version, xml, models = doc
    note(xml)
    with tempfile.TemporaryDirectory(prefix='sdf_tools_unflatten_') as tmp:
        path = Path(tmp) / 'flat.sdf'
        path.write_text(xml)
        ours = ours_report(path)
        diffs = differences(path)
    assert not diffs, '\n'.join(diffs)
    if ours['valid'] and version >= '1.7':
        # the nested models are back (pre-1.7 files have no model frames: libsdformat
        # nests them too, and the probe comparison above checked that)
        assert set(models) <= {m['name'] for m in ours['models']}
