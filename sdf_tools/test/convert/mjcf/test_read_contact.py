"""MJCF import of contact and simulation settings (``test/data/mjcf/features.xml``, written to
show what menagerie robots use): friction (torsional included), condim, contact bits and joint
``ref`` carried where SDFormat holds them, every other setting reported with its MJCF line."""
from __future__ import annotations

import math
from pathlib import Path

import mujoco
import pytest
from lxml import etree

from sdf_tools.convert.api import convert_input
from sdf_tools.convert.conversion_report import ReportKind
from sdf_tools.convert.mjcf.to_mjcf import convert_to_mjcf
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_string

FEATURES = Path(__file__).resolve().parents[2] / 'data' / 'mjcf' / 'features.xml'
LINES = FEATURES.read_text().splitlines()


def _line(fragment: str) -> int:
    """Line (1-based) of the last line of the start tag holding ``fragment`` (libxml2's)."""
    k = next(i for i, text in enumerate(LINES) if fragment in text)
    while not LINES[k].rstrip().endswith('>'):
        k += 1
    return k + 1


@pytest.fixture(scope='module')
def imported() -> tuple[str, list[tuple[ReportKind, str, str, int | None]]]:
    result = convert_input(FEATURES, to='sdf', options=ConversionOptions(), input_format='mjcf')
    assert result.ok, [str(d) for d in result.report.errors]
    assert result.text is not None
    return result.text, [(e.kind, e.element, e.message, e.line) for e in result.report.entries]


def _surface(text: str, collision: str) -> etree._Element:
    root = etree.fromstring(text.encode())
    found = root.find(f'.//collision[@name="{collision}"]/surface')
    assert found is not None
    return found


def test_friction_with_torsion_is_carried(imported: tuple[str, list]) -> None:
    text, _ = imported
    foot = _surface(text, 'foot')
    assert float(foot.findtext('friction/ode/mu') or 'nan') == 0.8
    assert float(foot.findtext('friction/ode/mu2') or 'nan') == 0.8
    tors = float(foot.findtext('friction/torsional/coefficient') or 'nan')
    radius = float(foot.findtext('friction/torsional/patch_radius') or 'nan')
    assert tors * radius == 0.02  # MuJoCo's torsional friction, Gazebo's torque law


def test_equal_contact_bits_are_a_bitmask(imported: tuple[str, list]) -> None:
    text, entries = imported
    assert _surface(text, 'torso').findtext('contact/collide_bitmask') == '3'
    assert any(e[1] == 'geom[torso]/contype' and e[0] is ReportKind.APPROXIMATED
               for e in entries)


def test_joint_ref_shifts_the_limits(imported: tuple[str, list]) -> None:
    text, entries = imported
    doc = load_string(text, 'features.sdf').document
    assert doc is not None and len(doc.worlds) == 1  # <option> sets timestep: a world holds it
    model = doc.worlds[0].models[0]
    hip = next(j for j in model.joints if j.name == 'hip_joint')
    assert hip.axis is not None
    assert math.isclose(hip.axis.lower, -1.2, abs_tol=1e-15)
    assert math.isclose(hip.axis.upper, 0.8, abs_tol=1e-15)
    assert ('joint[hip]/ref', _line('name="hip" axis')) in {(e[1], e[3]) for e in entries}


def test_what_sdformat_cannot_hold_is_reported_at_its_mjcf_line(imported: tuple[str, list]
                                                                 ) -> None:
    _, entries = imported
    by = {e[1]: e for e in entries}
    option = next(e for e in entries if e[1] == 'option' and e[0] is ReportKind.DROPPED)
    for setting in ('impratio=10', 'integrator=implicitfast', 'cone=elliptic'):
        assert setting in option[2]
    assert option[3] == _line('<option')
    assert 'timestep=' not in option[2] and 'gravity=' not in option[2]  # carried
    assert by['texture[grid]'][3] == _line('<texture name="grid"')
    assert 'rolling friction 0.001' in by['geom[foot]/friction'][2]
    assert 'time constant' in by['geom[foot]/solref'][2]
    assert 'priority 1' in by['geom[foot]'][2] and 'solimp' in by['geom[foot]'][2]
    assert 'margin 0.001' in by['geom[thigh]'][2]
    assert by['geom[foot]'][3] == _line('name="foot" type="sphere"')


def test_names_a_body_shares_are_renamed_and_the_output_is_clean(imported: tuple[str, list]
                                                                  ) -> None:
    text, entries = imported
    renamed = {e[1]: e[2] for e in entries if e[0] is ReportKind.RENAMED}
    # torso, thigh and foot collide and are seen: a collision and a visual of the same name
    assert set(renamed) == {'joint[hip]', 'joint[knee]', 'site[base]', 'visual[torso]',
                            'visual[thigh]', 'visual[foot]'}
    assert 'written as [hip_joint]' in renamed['joint[hip]']
    assert 'written as [foot_visual]' in renamed['visual[foot]']
    back = load_string(text, 'features.sdf')
    assert back.valid and back.diagnostics == [], [str(d) for d in back.diagnostics]
    assert all(e[3] is None or 1 <= e[3] <= len(LINES) for e in entries)


def test_the_sdformat_surface_goes_back_to_mujoco(imported: tuple[str, list]) -> None:
    text, _ = imported
    result = convert_to_mjcf(load_string(text, 'features.sdf'), ConversionOptions())
    assert result.ok and result.text is not None
    m = mujoco.MjModel.from_xml_string(result.text)
    foot = m.geom('knee/foot')  # the collision kept the geom's name
    assert int(m.geom_condim[foot.id]) == 4 and list(m.geom_friction[foot.id][:2]) == [0.8, 0.02]
    torso = m.geom('base/torso')
    assert (int(m.geom_contype[torso.id]), int(m.geom_conaffinity[torso.id])) == (3, 3)


def test_timestep_and_gravity_are_the_physics_of_a_world(imported: tuple[str, list]) -> None:
    text, entries = imported
    root = etree.fromstring(text.encode())
    assert float(root.findtext('world/physics/max_step_size') or 'nan') == 0.005
    assert [float(v) for v in (root.findtext('world/gravity') or '').split()] == [0, 0, -9.81]
    assert ('option', _line('<option')) in {(e[1], e[3]) for e in entries
                                            if e[0] is ReportKind.REWRITTEN}
    back = convert_to_mjcf(load_string(text, 'features.sdf'), ConversionOptions())
    m = mujoco.MjModel.from_xml_string(back.text or '')
    assert m.opt.timestep == 0.005 and list(m.opt.gravity) == [0, 0, -9.81]


def _png(path: Path) -> None:
    """Write a 2x2 RGB PNG (MuJoCo decodes it with lodepng)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack('>I', len(data)) + kind + data + struct.pack(
            '>I', zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b''.join(b'\x00' + bytes([200, 30, 30] * 2) for _ in range(2))
    path.write_bytes(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 2, 2, 8, 2, 0,
                                                                        0, 0))
                     + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))


def test_an_image_texture_is_the_visuals_albedo_map(tmp_path: Path) -> None:
    (tmp_path / 'tex').mkdir()
    _png(tmp_path / 'tex' / 'paint.png')
    text = FEATURES.read_text().replace('<compiler angle="radian"/>',
                                        '<compiler angle="radian" texturedir="tex"/>')
    text = text.replace('<material name="grid" texture="grid" texrepeat="2 2"/>',
                        '<material name="grid" texture="grid" texrepeat="2 2"/>'
                        '<texture name="paint" type="2d" file="paint.png"/>'
                        '<material name="paint" texture="paint"/>')
    text = text.replace('size="0.02" margin="0.001"', 'size="0.02" margin="0.001" '
                        'material="paint"')
    src = tmp_path / 'painted.xml'
    src.write_text(text)
    result = convert_input(src, to='sdf', options=ConversionOptions(), input_format='mjcf')
    assert result.ok and result.text is not None
    root = etree.fromstring(result.text.encode())
    maps = [el.text for el in root.iter('albedo_map')]
    assert maps == [str((tmp_path / 'tex' / 'paint.png').resolve())]  # the thigh's visual
    kinds = {e.element: e.kind for e in result.report.entries if e.element.startswith('texture[')}
    assert kinds == {'texture[paint]': ReportKind.REWRITTEN, 'texture[grid]': ReportKind.DROPPED}
    assert load_string(result.text, str(tmp_path / 'out.sdf')).diagnostics == []


def test_a_renamed_joint_keeps_its_name_in_urdf_and_the_report_says_so() -> None:
    """Menagerie's Cassie names each hinge after its body: only SDFormat renames the joint."""
    result = convert_input(FEATURES, to='urdf', options=ConversionOptions(), input_format='mjcf')
    assert result.ok and result.text is not None
    joints = {j.get('name') for j in etree.fromstring(result.text.encode()).iter('joint')}
    assert {'hip', 'knee'} <= joints and not {'hip_joint', 'knee_joint'} & joints
    renamed = {e.element: e.message for e in result.report.entries if e.kind is ReportKind.RENAMED}
    assert 'URDF, MJCF and USD output keep [hip]' in renamed['joint[hip]']
    assert 'keep' not in renamed['site[base]']
