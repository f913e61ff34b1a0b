"""Display colours of visuals and friction of collisions (``PhysicsMaterialAPI``).

* A visual's colour is its ``<material>``'s diffuse (else ambient) colour in
  SDFormat, or its URDF ``<material><color rgba>`` (a named robot-level
  material resolved as urdfdom does), written as ``primvars:displayColor``
  and ``displayOpacity``. Scripts, shaders and textures are reported lost.
* A collision's ``<surface><friction><ode><mu>``/``<mu2>`` become one
  ``UsdShade.Material`` with ``PhysicsMaterialAPI`` (static and dynamic
  friction: the mean of ``mu`` and ``mu2``, reported when they differ, since
  UsdPhysics friction is isotropic), bound to the collision for the
  ``physics`` purpose; a URDF's ``<gazebo reference="link">`` ``<mu1>``/``<mu2>``
  apply to the link's collisions that have no ``<surface>`` of their own.
  Materials with the same numbers are shared.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree
from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics, UsdShade, Vt

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.model import Extra, Model
from sdf_tools.model.material import Rgba, material_color, named_colors, parse_material
from sdf_tools.xmlsafe import parse_kept

__all__ = ['PhysicsMaterials', 'Rgba', 'friction', 'gazebo_friction', 'robot_materials',
           'set_color', 'visual_color']


def _parse(xml: str) -> etree._Element | None:
    try:
        return parse_kept(xml)
    except etree.XMLSyntaxError:
        return None


def _where(extra: Extra) -> tuple[str | None, int | None]:
    return (extra.loc.file, extra.loc.line) if extra.loc else (None, None)


def robot_materials(model: Model) -> dict[str, Rgba]:
    """Return the colours of a URDF robot's named top-level materials (black without one)."""
    return named_colors(model.extras, default=(0.0, 0.0, 0.0, 1.0))


def visual_color(extras: list[Extra], table: dict[str, Rgba], label: str,
                 report: ConversionReport) -> Rgba | None:
    """Return the colour of a visual's ``<material>`` (SDFormat or URDF form), if any."""
    for extra in extras:
        el = parse_material(extra)
        if el is None:
            continue
        lost = sorted({str(c.tag) for c in el if isinstance(c.tag, str)} -
                      {'diffuse', 'ambient', 'color', 'specular', 'emissive'})
        if lost:
            report.add(ReportKind.DROPPED, f'{label}/material',
                       f'only the colour is written: <{">, <".join(lost)}> lost', *_where(extra))
        color = material_color(el, table)
        if color is not None:
            return color
    return None


def set_color(prim: Usd.Prim, rgba: Rgba) -> None:
    """Author the display colour and opacity of a gprim."""
    g = UsdGeom.Gprim(prim)
    g.CreateDisplayColorAttr(Vt.Vec3fArray([Gf.Vec3f(rgba[0], rgba[1], rgba[2])]))
    if rgba[3] != 1.0:
        g.CreateDisplayOpacityAttr(Vt.FloatArray([rgba[3]]))


def friction(extras: list[Extra]) -> tuple[float, float, Extra] | None:
    """Return ``(mu, mu2, surface)`` of a collision's ``<surface>`` ODE friction, if written."""
    for extra in extras:
        el = _parse(extra.xml) if extra.tag == 'surface' else None
        ode = el.find('friction/ode') if el is not None else None
        if ode is None:
            continue
        mu_el, mu2_el = ode.find('mu'), ode.find('mu2')
        try:
            mu = float(mu_el.text or 1.0) if mu_el is not None else 1.0
            mu2 = float(mu2_el.text or 1.0) if mu2_el is not None else 1.0
        except ValueError:
            continue
        return mu, mu2, extra
    return None


def gazebo_friction(model: Model) -> dict[str, tuple[float, float, Extra]]:
    """Return link -> (mu1, mu2, tag) from a URDF's ``<gazebo reference="link">`` tags."""
    out: dict[str, tuple[float, float, Extra]] = {}
    for extra in model.extras:
        el = _parse(extra.xml) if extra.tag == 'gazebo' else None
        if el is None or not el.get('reference'):
            continue
        values = {}
        for tag in ('mu1', 'mu2'):
            found = el.find(tag)
            try:
                values[tag] = float(found.text or '') if found is not None else None
            except ValueError:
                values[tag] = None
        mu1, mu2 = values['mu1'], values['mu2']
        if mu1 is not None or mu2 is not None:
            first = mu1 if mu1 is not None else mu2
            second = mu2 if mu2 is not None else mu1
            assert first is not None and second is not None
            out[el.get('reference', '')] = (first, second, extra)
    return out


@dataclass
class PhysicsMaterials:
    """The physics materials of one model, shared by value."""

    stage: Usd.Stage
    scope: str                                   # path of the materials scope
    made: dict[float, UsdShade.Material] = field(default_factory=dict)

    def bind(self, prim: Usd.Prim, extras: list[Extra], label: str,
             report: ConversionReport,
             fallback: tuple[float, float, Extra] | None = None) -> None:
        """Bind the friction of a collision's ``<surface>`` (else ``fallback``) to its prim."""
        found = friction(extras) or fallback
        if found is None:
            return
        mu, mu2, extra = found
        value = (mu + mu2) / 2.0
        if mu != mu2:
            report.add(ReportKind.APPROXIMATED, f'{label}/surface', f'mu {mu} and mu2 {mu2} '
                       f'written as one isotropic friction {value} (UsdPhysics)', *_where(extra))
        mat = self.made.get(value)
        if mat is None:
            if not self.made:
                UsdGeom.Scope.Define(self.stage, self.scope)
            path = Sdf.Path(self.scope).AppendChild(f'friction_{len(self.made)}')
            mat = UsdShade.Material.Define(self.stage, path)
            api = UsdPhysics.MaterialAPI.Apply(mat.GetPrim())
            api.CreateStaticFrictionAttr(value)
            api.CreateDynamicFrictionAttr(value)
            self.made[value] = mat
        binding = UsdShade.MaterialBindingAPI.Apply(prim)
        binding.Bind(mat, UsdShade.Tokens.weakerThanDescendants, 'physics')
