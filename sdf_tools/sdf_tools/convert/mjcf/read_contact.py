"""MJCF contact and simulation settings on import: what SDFormat holds is carried, the rest reported.

Per collision geom (``<surface>`` of the SDFormat collision):

==========================  ================================================================
MJCF                        SDFormat
==========================  ================================================================
``friction[0]``             ``friction/ode/mu`` and ``mu2`` (one sliding coefficient)
``friction[1]``, condim>=4  ``friction/torsional/coefficient`` with ``patch_radius`` 1 m:
                            Gazebo's torsional torque is coefficient x patch radius x normal
                            force, MuJoCo's friction[1] x normal force
condim 1                    ``mu`` 0 (frictionless)
``friction[2]``, condim 6   reported: SDFormat has no rolling friction
``solref`` -k -d (direct)   ``contact/ode/kp``/``kd`` (per unit effective mass: approximated)
contype = conaffinity       ``contact/collide_bitmask`` (Gazebo collides two shapes whose masks
                            share a bit: MuJoCo's rule when each geom's two masks are equal)
==========================  ================================================================

``solref`` as time constant and damping ratio, ``solimp``, ``margin``/``gap``,
``priority`` and unequal contype/conaffinity bits have no SDFormat counterpart
and are reported with their values. The ``<option>`` settings that differ from
MuJoCo's defaults and every texture are reported too: a model file has no
``<physics>`` (that is a world's), and SDFormat materials do not take MuJoCo's
generated or 2D textures.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sdf_tools.convert.conversion_report import ReportKind
from sdf_tools.model import Extra

if TYPE_CHECKING:  # the reader calls this module
    from sdf_tools.convert.mjcf.reader import MjcfSource

DEFAULT_SOLREF = (0.02, 1.0)
DEFAULT_SOLIMP = (0.9, 0.95, 0.001, 0.5, 2.0)
_INTEGRATORS = {0: 'Euler', 1: 'RK4', 2: 'implicit', 3: 'implicitfast'}
_CONES = {0: 'pyramidal', 1: 'elliptic'}


def _v(xs: Any) -> tuple[float, ...]:
    return tuple(float(x) for x in xs)


def _text(xs: tuple[float, ...]) -> str:
    return ' '.join(repr(x) for x in xs)


def surface(src: MjcfSource, g: int, name: str) -> list[Extra]:
    """Return the ``<surface>`` of collision geom ``g``; what it cannot hold is reported."""
    m = src.model
    friction, condim = _v(m.geom_friction[g]), int(m.geom_condim[g])
    where = src.where('geom', name)
    label = f'geom[{name}]'
    fr: list[str] = []
    if condim == 1:
        fr.append('<ode><mu>0</mu><mu2>0</mu2></ode>')
        src.report.add(ReportKind.REWRITTEN, f'{label}/condim', 'condim 1 (frictionless '
                       'contact): written as mu 0', *where)
    elif friction[0] != 1.0 or condim >= 4:
        fr.append(f'<ode><mu>{friction[0]!r}</mu><mu2>{friction[0]!r}</mu2></ode>')
    if condim >= 4:
        fr.append(f'<torsional><coefficient>{friction[1]!r}</coefficient>'
                  '<use_patch_radius>true</use_patch_radius><patch_radius>1</patch_radius>'
                  '</torsional>')
    if condim >= 6:
        src.report.add(ReportKind.DROPPED, f'{label}/friction', f'rolling friction '
                       f'{friction[2]!r} (condim 6): SDFormat has none', *where)
    contact = _contact(src, g, label, where)
    inner = (f'<friction>{"".join(fr)}</friction>' if fr else '') + contact
    _lost(src, g, label, where)
    return [Extra('surface', f'<surface>{inner}</surface>')] if inner else []


def _contact(src: MjcfSource, g: int, label: str, where: tuple[str, int | None]) -> str:
    m = src.model
    parts = []
    solref = _v(m.geom_solref[g])
    if solref != DEFAULT_SOLREF:
        if solref[0] < 0:
            parts.append(f'<ode><kp>{-solref[0]!r}</kp><kd>{-solref[1]!r}</kd></ode>')
            src.report.add(ReportKind.APPROXIMATED, f'{label}/solref', f'solref '
                           f'"{_text(solref)}" written as ODE kp {-solref[0]!r}, kd '
                           f'{-solref[1]!r} (MuJoCo: per unit effective mass)', *where)
        else:
            src.report.add(ReportKind.DROPPED, f'{label}/solref', f'solref "{_text(solref)}" '
                           '(time constant, damping ratio): SDFormat has no counterpart', *where)
    contype, conaffinity = int(m.geom_contype[g]), int(m.geom_conaffinity[g])
    if (contype, conaffinity) != (1, 1):
        mask = contype | conaffinity
        parts.append(f'<collide_bitmask>{mask}</collide_bitmask>')
        exact = contype == conaffinity
        src.report.add(ReportKind.REWRITTEN if exact else ReportKind.APPROXIMATED,
                       f'{label}/contype', f'contype {contype}, conaffinity {conaffinity}: '
                       f'collide_bitmask {mask}' + ('' if exact else ' (both masks in one: '
                                                   'Gazebo has one mask per shape)'), *where)
    return f'<contact>{"".join(parts)}</contact>' if parts else ''


def _lost(src: MjcfSource, g: int, label: str, where: tuple[str, int | None]) -> None:
    m = src.model
    solimp = _v(m.geom_solimp[g])
    lost = []
    if solimp != DEFAULT_SOLIMP:
        lost.append(f'solimp "{_text(solimp)}"')
    for attr in ('margin', 'gap', 'priority'):
        value = float(getattr(m, f'geom_{attr}')[g])
        if value:
            lost.append(f'{attr} {value:g}')
    if lost:
        src.report.add(ReportKind.DROPPED, label, f'{", ".join(lost)}: SDFormat has no '
                       'counterpart', *where)


def world_physics(src: MjcfSource, default: Any) -> list[Extra]:
    """Return a world's ``<gravity>`` and ``<physics>`` for an ``<option>`` that sets them.

    ``timestep`` is ``max_step_size`` (and ``real_time_update_rate`` its inverse, so that
    Gazebo runs in real time); ``gravity`` is the world's. Empty when both are MuJoCo's
    defaults: the import is then a model file, as the MJCF is a robot.
    """
    opt = src.model.opt
    gravity = _v(opt.gravity)
    if opt.timestep == default.timestep and gravity == _v(default.gravity):
        return []
    where = src.loc('option', '')
    step = float(opt.timestep)
    src.report.add(ReportKind.REWRITTEN, 'option', f'timestep {step!r} and gravity '
                   f'"{_text(gravity)}" written as the <physics> max_step_size and <gravity> of '
                   'a world holding the model', *src.where('option', ''))
    physics = (f'<physics name="mujoco" type="ode"><max_step_size>{step!r}</max_step_size>'
               '<real_time_factor>1</real_time_factor>'
               f'<real_time_update_rate>{1.0 / step!r}</real_time_update_rate></physics>')
    # The world elements the spec requires, at its defaults (libsdformat would add them and
    # warn): MuJoCo's magnetic field, when set, is reported with the other settings.
    required = [('magnetic_field', '<magnetic_field>5.5645e-6 22.8758e-6 -42.3884e-6'
                 '</magnetic_field>'), ('atmosphere', '<atmosphere type="adiabatic"/>'),
                ('scene', '<scene><ambient>0.4 0.4 0.4 1</ambient><background>0.7 0.7 0.7 1'
                 '</background><shadows>true</shadows></scene>')]
    return [Extra('gravity', f'<gravity>{_text(gravity)}</gravity>', where),
            Extra('physics', physics, where), *(Extra(tag, xml, where) for tag, xml in required)]


def option_losses(src: MjcfSource, default: Any, carried: bool) -> None:
    """Report each ``<option>`` setting that differs from MuJoCo's ``default`` options.

    ``carried``: timestep and gravity went into a world (:func:`world_physics`).
    """
    opt, ref = src.model.opt, default
    lost = []
    for attr in ('timestep', 'impratio', 'tolerance', 'iterations', 'noslip_iterations',
                 'density', 'viscosity'):
        value = getattr(opt, attr)
        if value != getattr(ref, attr) and not (carried and attr == 'timestep'):
            lost.append(f'{attr}={value:g}')
    for attr in ('gravity', 'wind', 'magnetic'):
        if _v(getattr(opt, attr)) != _v(getattr(ref, attr)) and not (carried and
                                                                      attr == 'gravity'):
            lost.append(f'{attr}="{_text(_v(getattr(opt, attr)))}"')
    if opt.integrator != ref.integrator:
        lost.append(f'integrator={_INTEGRATORS.get(int(opt.integrator), opt.integrator)}')
    if opt.cone != ref.cone:
        lost.append(f'cone={_CONES.get(int(opt.cone), opt.cone)}')
    if lost:
        src.report.add(ReportKind.DROPPED, 'option', f'{", ".join(lost)}: MuJoCo solver '
                       "settings SDFormat has no counterpart for (a world's <physics> holds "
                       'the step, its <gravity> the gravity)', *src.where('option', ''))


def texture_losses(src: MjcfSource) -> None:
    """Report each texture: a 2D image a visual shows is its PBR albedo map, the rest is lost."""
    m = src.model
    for t in range(int(m.ntex)):
        name = str(m.texture(t).name) or f'texture{t}'
        if t in src.carried_textures:
            src.report.add(ReportKind.REWRITTEN, f'texture[{name}]', 'the image is the '
                           '<pbr><metal><albedo_map> of the visuals whose material uses it '
                           '(texture coordinates as the mesh has them; texrepeat and the other '
                           'maps are not carried)', *src.where('texture', name))
            continue
        src.report.add(ReportKind.DROPPED, f'texture[{name}]', 'texture: the materials keep '
                       'their colour (rgba); a generated texture, a cube or skybox, or one no '
                       'visual shows is not carried over', *src.where('texture', name))
