"""Spawn one model of a world file, where that world puts it.

Gazebo's create service takes one top-level ``<model>``. A robot written
inside a world (``<world><model name="rover">``) is cut out as its own
``<sdf><model>``: its ``<pose>`` becomes the world pose the world file gives
it (``relative_to`` world frames and ``placement_frame`` resolved by
sdf_tools' frame graph), so it lands where the world would have put it
unless the request gives another pose.
"""
from __future__ import annotations

import copy

from lxml import etree

from sdf_tools.frames import resolve_pose
from sdf_tools.load import LoadResult
from sdf_tools.model import Model
from sdf_tools.spawn.result import ResultCode, SpawnError
from sdf_tools.transform import Transform


def pick_world_model(loaded: LoadResult, name: str, source: str) -> tuple[Model, Transform]:
    """Return the world's model called ``name`` ('' = its only one) and its world pose."""
    doc = loaded.document
    assert doc is not None
    candidates = [(w, g, m) for w, g in zip(doc.worlds, loaded.world_graphs, strict=False)
                  for m in w.models if not name or m.name == name]
    if len(candidates) != 1:
        names = ', '.join(f'[{m.name}]' for w in doc.worlds for m in w.models) or 'none'
        if not candidates:
            raise SpawnError(ResultCode.NOT_FOUND if name else ResultCode.RESOURCE_PARSE_ERROR,
                             f'[{source}] has no model [{name}] in its world: it has {names}'
                             if name else f'[{source}] holds a world without models')
        raise SpawnError(ResultCode.RESOURCE_PARSE_ERROR,
                         f'[{source}] holds a world with several models ({names}): say which one')
    _, graph, model = candidates[0]
    vid = graph.ids.get(model.name)
    pose = resolve_pose(graph, vid) if vid is not None else None
    if pose is None:
        raise SpawnError(ResultCode.RESOURCE_PARSE_ERROR,
                         f'the pose of model [{model.name}] in [{source}] cannot be resolved')
    return model, pose


def _pose_text(pose: Transform) -> str:
    r, p, y = pose.rpy()
    return ' '.join(repr(float(v)) for v in (*pose.p, r, p, y))


def standalone_model(root: etree._Element, name: str, pose: Transform) -> str:
    """Return the world's ``<model name=...>`` as an ``<sdf><model>`` document placed at ``pose``."""
    found = [m for w in root.findall('world') for m in w.findall('model') if m.get('name') == name]
    if not found:
        raise SpawnError(ResultCode.RESOURCE_PARSE_ERROR,
                         f'model [{name}] is included (<include>) by the world: spawn its URI '
                         'instead')
    model = copy.deepcopy(found[0])
    if 'placement_frame' in model.attrib:
        del model.attrib['placement_frame']  # already applied to `pose`
    for old in model.findall('pose'):
        model.remove(old)
    pose_el = etree.Element('pose')
    pose_el.text = _pose_text(pose)
    model.insert(0, pose_el)
    sdf = etree.Element('sdf', version=root.get('version', '1.9'))
    sdf.append(model)
    return etree.tostring(sdf, encoding='unicode')
