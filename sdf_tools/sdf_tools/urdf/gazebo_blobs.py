"""The spec check of what a URDF's ``<gazebo>`` blocks add to libsdformat's model.

libsdformat converts a URDF into an SDFormat document and reads that like any other,
spec check included. ``parser_urdf.cc`` (``ParseSDFExtension``) reads a handful of
``<gazebo>`` children itself (``mu1``, ``material``, ``selfCollide``, ...) and copies
every other one verbatim ("blobs") into the converted element: the ``<link>`` the block's
``reference`` names (or the link it is lumped into), the ``<joint>`` it names when that
joint is kept (not a lumped fixed joint), the ``<model>`` when it has no ``reference``;
a block naming nothing is dropped. A blob whose value its spec type refuses (a light's
``<diffuse>220 210 175 1</diffuse>``) makes libsdformat refuse the whole file, as in an
SDFormat file. Our reader keeps the blocks verbatim (``model.extras``); this module
judges the copied children against the SDFormat 1.9 spec (libsdformat 12 converts a URDF
to 1.9) and reports only errors: warnings about what the blobs hold are the converter's.
"""
from __future__ import annotations

from lxml import etree

from sdf_tools.errors import ErrorCode, Severity
from sdf_tools.sdf.context import ReadContext
from sdf_tools.sdf.spec import ElementSpec
from sdf_tools.sdf.spec.check import SpecChecker, spec_for_version
from sdf_tools.urdf.conversion import LUMPING_SWITCHES, switch_on

# The <gazebo> children parser_urdf.cc reads itself instead of copying them.
_READ_BY_LIBSDFORMAT = frozenset({
    'canonicalBody', 'cfmDamping', 'collision', 'dampingFactor', *LUMPING_SWITCHES,
    'fdir1', 'fudgeFactor', 'implicitSpringDamper', 'kd', 'kp', 'laserRetro', 'material',
    'maxContacts', 'maxVel', 'minDepth', 'mu1', 'mu2', 'provideFeedback', 'selfCollide',
    'springReference', 'springStiffness', 'static', 'stopCfm', 'stopErp', 'turnGravityOff',
    'visual',
    # a robot-level <pose> is the model pose, read (and judged) by the URDF reader
    'pose',
})

def _kept_joints(root: etree._Element) -> set[str]:
    """Joints that stay joints in libsdformat's model: not fixed, or kept fixed."""
    kept = {j.get('name', '') for j in root.iterchildren('joint') if j.get('type') != 'fixed'}
    for g in root.iterchildren('gazebo'):
        if any(switch_on(c) for tag in LUMPING_SWITCHES for c in g.iterchildren(tag)):
            kept.add(g.get('reference', ''))
    return kept


def _target(spec: ElementSpec, ref: str | None, links: set[str], joints: set[str]
            ) -> ElementSpec | None:
    if not ref:
        return spec
    if ref in links:
        return spec.children['link']
    if ref in joints:
        return spec.children['joint']
    return None  # libsdformat drops a block that names neither


def check_gazebo_blobs(ctx: ReadContext, root: etree._Element) -> None:
    """Report each copied ``<gazebo>`` child the spec refuses, as libsdformat does."""
    blocks = [g for g in root.iterchildren('gazebo')
              if any(isinstance(c.tag, str) and c.tag not in _READ_BY_LIBSDFORMAT for c in g)]
    if not blocks:
        return  # nothing copied to check: no spec table (~25 ms to build for a URDF's load)
    model = spec_for_version('1.9').children['model']
    links = {link.get('name', '') for link in root.iterchildren('link')}
    joints = _kept_joints(root)
    scratch = ReadContext(ctx.file, '1.9')
    checker = SpecChecker(scratch)
    for g in blocks:
        target = _target(model, g.get('reference'), links, joints)
        if target is None:
            continue
        for c in g:
            if not isinstance(c.tag, str) or c.tag in _READ_BY_LIBSDFORMAT:
                continue
            spec = target.children.get(c.tag)
            if spec is not None and not checker.check(c, spec):
                scratch.error(ErrorCode.ELEMENT_INVALID,
                              f'Error reading element <{c.tag}> (copied by libsdformat from '
                              f'<gazebo> into the converted <{target.name}>)', c)
    ctx.diagnostics.extend(d for d in scratch.diagnostics if d.severity is Severity.ERROR)
