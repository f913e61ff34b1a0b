#!/usr/bin/env python3
"""Compare our URDF -> MJCF export with MuJoCo's own URDF loader on the same robots.

Writes ``docs/mjcf_vs_mujoco_urdf.md``: for each robot, what the source holds
(links, moving joints, mass, mimic joints, velocity limits) and what each
route gives in MuJoCo (bodies, joints by type, free joint, total mass,
equality constraints), plus what each one refused or dropped.

MuJoCo's loader is given the URDF as users give it: as is first; when that
fails because of mesh paths (it strips directories and cannot resolve
``package://``), again from a copy whose mesh file names are absolute paths
(``<mujoco><compiler strippath="false"/></mujoco>``), so that the rest of
its behaviour is compared. Run through ``./dev run python tools/mjcf_compare.py``.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from lxml import etree

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'sdf_tools' / 'test'))

import mujoco
from differential.corpus import corpus
from sdf_tools.convert.mjcf.to_mjcf import convert_to_mjcf
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_file
from sdf_tools.sdf.uris import resolve_uri

OUT = ROOT / 'docs' / 'mjcf_vs_mujoco_urdf.md'
ROBOTS = ['ur5_robot.urdf', 'panda.urdf', 'solo12.urdf', 'a1.urdf', 'talos_full_v2.urdf',
          'tiago.urdf', 'romeo.urdf', 'go1.urdf', 'g1_29dof_rev_1_0.urdf', 'kuka_iiwa/model.urdf',
          'r2d2.urdf', 'husky/husky.urdf', 'racecar/racecar.urdf', 'cassie_reduced.urdf',
          'hyq_no_sensors.urdf', 'so101.urdf', 'bolt.urdf']
KINDS = {0: 'free', 1: 'ball', 2: 'slide', 3: 'hinge'}


def _source(path: Path) -> dict[str, Any]:
    root = etree.parse(str(path), etree.XMLParser(recover=True)).getroot()
    masses = [float(m.get('value', 0)) for m in root.iter('mass')]
    joints = [j for j in root.iter('joint') if j.get('type') not in ('fixed', None)]
    return {'links': len(list(root.iter('link'))), 'moving': len(joints), 'mass': sum(masses),
            'mimic': len(list(root.iter('mimic'))),
            'velocity': sum(1 for j in joints for lim in j.iter('limit') if lim.get('velocity')),
            'floating': not any(p.get('link') == 'world' for p in root.iter('parent'))}


def _summary(m: Any) -> dict[str, Any]:
    kinds: dict[str, int] = {}
    for j in range(m.njnt):
        k = KINDS.get(int(m.jnt_type[j]), '?')
        kinds[k] = kinds.get(k, 0) + 1
    return {'bodies': m.nbody - 1, 'joints': kinds, 'mass': float(sum(m.body_mass[1:])),
            'free': kinds.get('free', 0) > 0, 'eq': m.neq, 'nu': m.nu}


def _absolute_meshes(path: Path, tmp: Path) -> Path:
    tree = etree.parse(str(path))
    for mesh in tree.getroot().iter('mesh'):
        found = resolve_uri(mesh.get('filename', ''), path.parent)
        if found is not None:
            mesh.set('filename', str(found.resolve()))
    root = tree.getroot()
    ext = etree.SubElement(root, 'mujoco')
    etree.SubElement(ext, 'compiler', strippath='false')
    out = tmp / path.name
    tree.write(str(out))
    return out


def _mujoco_loader(path: Path) -> tuple[dict[str, Any] | None, str]:
    try:
        return _summary(mujoco.MjModel.from_xml_path(str(path))), 'loads as is'
    except Exception as err:  # MuJoCo's message is the result
        first = str(err).splitlines()[0][:90]
    with tempfile.TemporaryDirectory() as tmp:
        try:
            got = mujoco.MjModel.from_xml_path(str(_absolute_meshes(path, Path(tmp))))
            return _summary(got), f'as is: "{first}"; loads with absolute mesh paths'
        except Exception as err:
            return None, f'as is: "{first}"; with absolute mesh paths: "{str(err).splitlines()[0][:90]}"'


def _ours(path: Path) -> tuple[dict[str, Any] | None, str]:
    result = convert_to_mjcf(load_file(path), ConversionOptions())
    if not result.ok or result.text is None:
        return None, '; '.join(str(e) for e in result.report.errors)[:120]
    m = mujoco.MjModel.from_xml_string(result.text)
    dropped = sum(e.kind.value == 'dropped' for e in result.report.entries)
    return _summary(m), f'{dropped} dropped, each reported ({result.report.summary()})'


def _joints(s: dict[str, Any] | None) -> str:
    if s is None:
        return '-'
    return ' '.join(f'{n} {k}' for k, n in sorted(s['joints'].items())) or 'none'


def _row(name: str, path: Path) -> list[str]:
    src = _source(path)
    ours, ours_note = _ours(path)
    theirs, their_note = _mujoco_loader(path)

    def cell(s: dict[str, Any] | None, key: str, fmt: str = '{}') -> str:
        return '-' if s is None else fmt.format(s[key])

    return [name, f"{src['links']} / {src['moving']} / {src['mass']:.4g}",
            f"{cell(ours, 'bodies')} / {_joints(ours)} / {cell(ours, 'mass', '{:.4g}')} / "
            f"eq {cell(ours, 'eq')}",
            f"{cell(theirs, 'bodies')} / {_joints(theirs)} / {cell(theirs, 'mass', '{:.4g}')} / "
            f"eq {cell(theirs, 'eq')}",
            f"mimic {src['mimic']}, velocity limits {src['velocity']}", ours_note, their_note]


def main() -> int:
    files = {}
    for f in corpus():
        for want in ROBOTS:
            if str(f.path).endswith('/' + want) or f.path.name == want:
                files.setdefault(want, f)
    rows = []
    for want in ROBOTS:
        f = files.get(want)
        if f is None:
            continue
        old = dict(os.environ)
        os.environ.update(f.env)
        try:
            rows.append(_row(f'{f.collection}: {want}', f.path))
        finally:
            os.environ.clear()
            os.environ.update(old)
    head = ['robot', 'source: links / moving joints / mass (kg)',
            'ours: bodies / joints / mass / equalities', 'MuJoCo URDF loader: same',
            'source extras', 'ours: report', 'MuJoCo URDF loader: outcome']
    lines = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    lines += ['| ' + ' | '.join(c.replace('|', '/') for c in r) + ' |' for r in rows]
    text = OUT.read_text() if OUT.exists() else ''
    start, end = '<!-- table:start -->', '<!-- table:end -->'
    if start in text and end in text:
        text = text[:text.index(start) + len(start)] + '\n' + '\n'.join(lines) + '\n' + \
            text[text.index(end):]
    else:
        text = f'{start}\n' + '\n'.join(lines) + f'\n{end}\n'
    OUT.write_text(text)
    print('\n'.join(lines))
    return 0


if __name__ == '__main__':
    sys.exit(main())
