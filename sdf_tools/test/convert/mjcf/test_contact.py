"""Self-collision in MJCF judged by MuJoCo's own contacts: a model with self-collision off gets a
contact bit (no per-pair <exclude>), touches other models and never itself; a model with it on
collides with itself except parent and child, as MuJoCo and Gazebo both filter."""
from __future__ import annotations

import mujoco

from sdf_tools.convert.mjcf.to_mjcf import convert_to_mjcf
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.load import load_string

BOX = ('<collision name="c"><geometry><box><size>0.2 0.2 0.2</size></box></geometry>'
       '</collision><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy>'
       '<izz>0.01</izz></inertia></inertial>')


def _chain(name: str, self_collide: bool, x: float) -> str:
    """Three overlapping boxes on two hinges, the model at ``x``."""
    links = ''.join(f'<link name="{n}"><pose>0 0 {0.05 * k} 0 0 0</pose>{BOX}</link>'
                    for k, n in enumerate(('l1', 'l2', 'l3')))
    joints = ''.join(f'<joint name="j{k}" type="revolute"><parent>{p}</parent><child>{c}</child>'
                     '<axis><xyz>0 0 1</xyz></axis></joint>'
                     for k, (p, c) in enumerate((('l1', 'l2'), ('l2', 'l3'))))
    return (f'<model name="{name}"><pose>{x} 0 1 0 0 0</pose>'
            f'<self_collide>{str(self_collide).lower()}</self_collide>{links}{joints}</model>')


WORLD = (f'<sdf version="1.9"><world name="w">{_chain("apart", False, 0.0)}'
         f'{_chain("together", True, 0.1)}</world></sdf>')


def _contacts(text: str) -> set[tuple[str, str]]:
    m = mujoco.MjModel.from_xml_string(text)
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    out = set()
    for c in d.contact[:d.ncon]:
        a, b = (m.body(m.geom_bodyid[g]).name for g in (c.geom1, c.geom2))
        out.add((min(a, b), max(a, b)))
    return out


def test_self_collision_is_filtered_by_contact_bits_not_pairs() -> None:
    result = convert_to_mjcf(load_string(WORLD, 'w.sdf'), ConversionOptions())
    assert result.ok and result.text is not None
    assert '<exclude body1' not in result.text
    got = _contacts(result.text)
    apart = {f'apart::{n}' for n in ('l1', 'l2', 'l3')}
    together = {f'together::{n}' for n in ('l1', 'l2', 'l3')}
    assert not {p for p in got if set(p) <= apart}  # self-collision off: never itself
    assert {p for p in got if set(p) <= together} == {('together::l1', 'together::l3')}
    across = {(a, b) for a in apart for b in together}
    assert {p for p in got if p in across} == across  # every overlapping pair across models


def test_a_model_mixing_self_collision_gets_excluded_pairs() -> None:
    mixed = WORLD.replace('<link name="l3">', '<link name="l3"><self_collide>true</self_collide>',
                          1)
    result = convert_to_mjcf(load_string(mixed, 'w.sdf'), ConversionOptions())
    assert result.ok and result.text is not None
    assert result.text.count('<exclude body1') == 1  # apart::l1 and l3 (l2 is either's parent)
    got = _contacts(result.text)
    assert not {p for p in got if p[0].startswith('apart') and p[1].startswith('apart')}
