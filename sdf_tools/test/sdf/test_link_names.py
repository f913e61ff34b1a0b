"""Children of a link of different kinds sharing a name: loaded, but `gz sdf -k` refuses them.

libsdformat's Root::Load (what Gazebo runs) accepts a visual and a collision of the same
name; the check users run (`ign sdf -k`, ``recursiveSiblingUniqueNames``) fails the file.
Our verdict stays libsdformat's load; the warning says what `-k` will say. Judged by the
probe's ``--ign-check`` (libsdformat 12) on each model.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from support.libsdformat import probe_available, probe_unavailable_reason, run_probe

from sdf_tools.errors import ErrorCode, Severity
from sdf_tools.load import load_file

_BOX = '<geometry><box><size>1 1 1</size></box></geometry>'
_CAMERA = '<camera><image><width>4</width><height>4</height></image></camera>'
LINKS = {
    'visual_and_collision': f'<collision name="g">{_BOX}</collision><visual name="g">{_BOX}</visual>',
    'visual_and_sensor': (f'<visual name="s">{_BOX}</visual>'
                          f'<sensor name="s" type="camera">{_CAMERA}</sensor>'),
    'collision_and_light': f'<collision name="x">{_BOX}</collision><light name="x" type="point"/>',
    'three_kinds': (f'<visual name="a">{_BOX}</visual><collision name="a">{_BOX}</collision>'
                    f'<sensor name="a" type="camera">{_CAMERA}</sensor>'),
    'distinct': f'<collision name="c">{_BOX}</collision><visual name="v">{_BOX}</visual>',
    'plugin_named_like_a_visual': (f'<visual name="p">{_BOX}</visual>'
                                   '<plugin name="p" filename="libfoo.so"/>'),
}


def _model(body: str) -> str:
    return ('<?xml version="1.0"?>\n<sdf version="1.9">\n<model name="m">\n<link name="l">\n'
            '<inertial><mass>1</mass></inertial>\n'
            + body.replace('><', '>\n<') + '\n</link>\n</model>\n</sdf>\n')


@pytest.mark.skipif(not probe_available(), reason=str(probe_unavailable_reason()))
@pytest.mark.parametrize('case', sorted(LINKS))
def test_the_warning_says_what_gz_sdf_check_says(case: str, tmp_path: Path) -> None:
    path = tmp_path / f'{case}.sdf'
    path.write_text(_model(LINKS[case]))
    ref = run_probe(path, ign_check=True)
    assert ref['errors'] == []  # libsdformat loads every one of them
    refused = 'recursiveSiblingUniqueNames' in ref['ign_check']['failed']
    result = load_file(str(path))
    assert result.valid and not result.errors
    shared = [d for d in result.diagnostics if d.code is ErrorCode.DUPLICATE_NAME]
    assert bool(shared) == refused, (case, ref['ign_check'])
    assert all(d.severity is Severity.WARNING for d in shared)
    if case == 'three_kinds':
        assert len(shared) == 1  # once a name, at its second kind
        assert 'a visual and a collision named [a]' in shared[0].message


def test_the_warning_is_at_the_second_element(tmp_path: Path) -> None:
    path = tmp_path / 'm.sdf'
    path.write_text(_model(LINKS['visual_and_sensor']))
    [d] = [d for d in load_file(str(path)).diagnostics if d.code is ErrorCode.DUPLICATE_NAME]
    lines = path.read_text().splitlines()
    assert d.file == str(path) and d.line is not None
    assert lines[d.line - 1].startswith('<sensor name="s"')
