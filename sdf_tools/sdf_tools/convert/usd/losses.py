"""Report what a USD stage does not hold: sensors, lights, plugins, unknown elements, world blocks.

UsdPhysics describes bodies, joints, shapes and materials; Gazebo's
sensors, plugins and lights, a world's physics/scene blocks and actors,
and the URDF extensions other tools read (``<gazebo>``, ``<transmission>``)
have no place in it. Each one is reported, with its file and line.
``<transmission>``/``<ros2_control>`` are read for drives
(:mod:`~sdf_tools.convert.usd.drives`) and reported as used, not lost.
"""
from __future__ import annotations

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.flatten import where as _at
from sdf_tools.convert.usd.rotation_limits import TAG as ROTATION_LIMITS
from sdf_tools.model import Collision, Document, Model, Visual, World
from sdf_tools.xmlsafe import parse_kept

#: Elements read elsewhere (colours, drives, friction): not losses.
_USED = ('material', 'surface')
_DRIVE_SOURCES = ('transmission', 'ros2_control')



def _gazebo_note(xml: str) -> tuple[ReportKind, str]:
    """A URDF ``<gazebo>`` block: its sensors are written (usd/sensors.py), the rest is not."""
    children = [str(c.tag) for c in parse_kept(xml) if isinstance(c.tag, str)]
    if 'sensor' not in children:
        return ReportKind.DROPPED, 'no USD form'
    rest = sorted({c for c in children if c != 'sensor'})
    said = 'its <sensor>s are written (see the gazebo[...]/sensor[...] entries)'
    if not rest:
        return ReportKind.KEPT, said
    return ReportKind.DROPPED, f'{said}; the rest ({", ".join(rest)}) has no USD form'


def _model(model: Model, scope: str, report: ConversionReport) -> None:
    label = f'model[{scope}]'
    for p in model.plugins:
        report.add(ReportKind.DROPPED, f'{label}/plugin[{p.name}]', 'plugins have no USD form',
                   *_at(p.loc or model.loc))
    for e in model.extras:
        tag = e.tag.split(':')[-1]
        if tag == 'material':
            continue
        if tag in _DRIVE_SOURCES:
            report.add(ReportKind.KEPT, f'{label}/{tag}', 'read for the joint drives, not '
                       'written otherwise', *_at(e.loc))
            continue
        kind, note = _gazebo_note(e.xml) if tag == 'gazebo' else (ReportKind.DROPPED, 'no USD form')
        report.add(kind, f'{label}/{e.tag}', note, *_at(e.loc))
    for link in model.links:
        where = f'{label}/link[{link.name}]'
        for light in link.lights:
            report.add(ReportKind.DROPPED, f'{where}/light[{light.name}]', 'lights are not '
                       'written', *_at(light.loc))
        for e in link.extras:
            report.add(ReportKind.DROPPED, f'{where}/{e.tag}', 'no USD form', *_at(e.loc))
        items: list[Visual | Collision] = [*link.visuals, *link.collisions]
        for item in items:
            for e in item.extras:
                if e.tag not in _USED:
                    report.add(ReportKind.DROPPED, f'{where}/{item.name}/{e.tag}', 'no USD form',
                               *_at(e.loc or item.loc))
    for joint in model.joints:
        for e in joint.extras:
            if e.tag == ROTATION_LIMITS and joint.type == 'ball':
                continue  # written as the D6 joint's limits (joints.py)
            report.add(ReportKind.DROPPED, f'{label}/joint[{joint.name}]/{e.tag}', 'no USD form',
                       *_at(e.loc or joint.loc))
    for m in model.models:
        _model(m, f'{scope}::{m.name}', report)


def _world(world: World, report: ConversionReport) -> None:
    label = f'world[{world.name}]'
    for light in world.lights:
        report.add(ReportKind.DROPPED, f'{label}/light[{light.name}]', 'lights are not written',
                   *_at(light.loc))
    for p in world.plugins:
        report.add(ReportKind.DROPPED, f'{label}/plugin[{p.name}]', 'plugins have no USD form',
                   *_at(p.loc))
    for a in world.actors:
        report.add(ReportKind.DROPPED, f'{label}/actor[{a.name}]', 'actors are not written',
                   *_at(a.loc))
    for f in world.frames:
        report.add(ReportKind.DROPPED, f'{label}/frame[{f.name}]', 'world frames are not '
                   'written', *_at(f.loc))
    for e in world.extras:
        if e.tag != 'gravity':  # the physics scene's (usd/scene.py)
            report.add(ReportKind.DROPPED, f'{label}/{e.tag}', 'no USD form', *_at(e.loc))


def report_losses(doc: Document, report: ConversionReport) -> None:
    """Add a report entry for each element of ``doc`` the stage does not hold."""
    if doc.model is not None:
        _model(doc.model, doc.model.name, report)
    for world in doc.worlds:
        _world(world, report)
        for m in world.models:
            _model(m, m.name, report)
    if doc.light is not None or doc.actor is not None:
        report.add(ReportKind.DROPPED, 'sdf', 'a top-level light or actor is not written')
