"""The GLB: every drawable shape a node in its link frame, meshes stored once, decimated to a budget."""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import trimesh

from sdf_tools.report import build_report
from sdf_tools.report.page import _colors
from sdf_tools.report.scene import build_scene

SPHERE_FACES = 20 * 4 ** 5  # an icosphere of 5 subdivisions


def _robot(tmp_path: Path) -> Path:
    trimesh.creation.icosphere(subdivisions=5).export(tmp_path / 'ball.stl')
    links = ''.join(
        f'<link name="l{i}"><pose>{i} 0 0 0 0 0</pose>'
        '<inertial><mass>1</mass><inertia><ixx>0.4</ixx><iyy>0.4</iyy><izz>0.4</izz></inertia></inertial>'
        '<visual name="v"><pose>0 0 0.5 0 0 0</pose><geometry><mesh><uri>ball.stl</uri>'
        '<scale>2 2 2</scale></mesh></geometry></visual>'
        '<collision name="c"><geometry><mesh><uri>ball.stl</uri></mesh></geometry></collision>'
        '<visual name="b"><geometry><box><size>1 2 3</size></box></geometry></visual></link>'
        for i in range(3))
    path = tmp_path / 'm.sdf'
    path.write_text(f'<?xml version="1.0"?><sdf version="1.9"><model name="m">{links}</model></sdf>')
    return path


def test_meshes_are_stored_once_and_placed_per_shape(tmp_path: Path) -> None:
    report = build_report(str(_robot(tmp_path)))
    scene = build_scene(report.lint.shapes)
    assert scene.decimated == [] and scene.faces == SPHERE_FACES + 12
    back = trimesh.load(io.BytesIO(scene.glb), file_type='glb', force='scene')
    assert len(back.geometry) == 2  # the ball and the box, whatever their uses
    assert len(scene.nodes) == 9
    for index, node in scene.nodes.items():
        matrix, _ = back.graph.get(node)
        assert np.allclose(matrix, report.lint.shapes.shapes[index].matrix, atol=1e-12)
    visual = report.lint.shapes.shapes[0]  # l0's mesh visual: 0.5 up, scaled 2
    assert np.allclose(visual.matrix, [[2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 2, 0.5], [0, 0, 0, 1]])


def test_big_meshes_are_decimated_to_the_budget_and_reported(tmp_path: Path) -> None:
    report = build_report(str(_robot(tmp_path)))
    scene = build_scene(report.lint.shapes, budget=2000)
    assert [d.before for d in scene.decimated] == [SPHERE_FACES]
    assert scene.faces <= 2000 + 12
    assert scene.decimated[0].after == scene.faces - 12
    back = trimesh.load(io.BytesIO(scene.glb), file_type='glb', force='scene')
    assert sum(len(g.faces) for g in back.geometry.values()) == scene.faces


def test_visual_colours_from_sdf_and_named_urdf_materials(tmp_path: Path) -> None:
    urdf = tmp_path / 'r.urdf'
    urdf.write_text(
        '<?xml version="1.0"?><robot name="r"><material name="blue"><color rgba="0 0 0.8 1"/></material>'
        '<link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>'
        '</inertial><visual><geometry><box size="1 1 1"/></geometry><material name="blue"/></visual>'
        '<visual><geometry><sphere radius="1"/></geometry><material name="x"><color rgba="1 0 0 0.5"/>'
        '</material></visual><visual><geometry><sphere radius="2"/></geometry></visual></link></robot>')
    assert _colors(build_report(str(urdf), draw=False)) == [(0.0, 0.0, 0.8, 1.0), (1.0, 0.0, 0.0, 0.5), None]
    sdf = tmp_path / 'm.sdf'
    sdf.write_text('<?xml version="1.0"?><sdf version="1.9"><model name="m"><link name="l"><visual name="v">'
                   '<geometry><box><size>1 1 1</size></box></geometry><material><ambient>0 1 0 1</ambient>'
                   '<diffuse>0.2 0.3 0.4 1</diffuse></material></visual></link></model></sdf>')
    assert _colors(build_report(str(sdf), draw=False)) == [(0.2, 0.3, 0.4, 1.0)]
