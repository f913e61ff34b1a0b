"""What libsdformat's URDF conversion keeps, for the checks it makes afterwards.

libsdformat converts a URDF before it validates it: fixed joints are lumped
(the child link's mass folds into its parent), so inertia is judged on the
lumped sums and a joint/link name clash matters only when both survive.
Our model keeps every link; these checks reproduce libsdformat's verdict.
"""
from __future__ import annotations

import numpy as np
from lxml import etree

from sdf_tools.errors import ErrorCode
from sdf_tools.model import Inertial, Joint, Link, Model
from sdf_tools.sdf.context import ReadContext
from sdf_tools.sdf.link import inertia_is_valid
from sdf_tools.sdf.values import parse_bool_text
from sdf_tools.transform import IDENTITY, Transform

_KEEP_TAGS = ('preserveFixedJoint', 'disableFixedJointLumping')


def preserved_joints(model: Model) -> set[str]:
    """Joints a ``<gazebo reference>`` block tells libsdformat not to lump."""
    out: set[str] = set()
    for extra in model.extras:
        if extra.tag != 'gazebo':
            continue
        try:
            el = etree.fromstring(extra.xml)
        except etree.XMLSyntaxError:
            continue
        ref = el.get('reference')
        if ref and any(parse_bool_text(c.text or '') for c in el if c.tag in _KEEP_TAGS):
            out.add(ref)
    return out


def lumped_joints(model: Model) -> set[str]:
    """Fixed joints libsdformat lumps away (a fixed joint to ``world`` stays)."""
    keep = preserved_joints(model)
    return {j.name for j in model.joints
            if j.type == 'fixed' and j.parent != 'world' and j.name not in keep}


def _inertia_matrix(inertial: Inertial) -> tuple[np.ndarray, np.ndarray]:
    """Return (centre of mass, inertia about it) in the link frame."""
    ixx, ixy, ixz, iyy, iyz, izz = inertial.inertia
    m = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    pose = inertial.pose.value if inertial.pose is not None else IDENTITY
    r = _rot(pose)
    return np.array(pose.p), r @ m @ r.T


def _rot(t: Transform) -> np.ndarray:
    w, x, y, z = t.q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def _lumped_inertia(root: Link, children: dict[str, list[tuple[Joint, Link]]],
                    lumped: set[str]) -> tuple[float, np.ndarray] | None:
    """Mass and inertia (about the combined CoM) of ``root`` with its lumped subtree."""
    parts: list[tuple[float, np.ndarray, np.ndarray]] = []
    stack: list[tuple[Link, Transform]] = [(root, IDENTITY)]
    while stack:
        link, x_rl = stack.pop()
        if link.inertial is not None and link.inertial.mass > 0:
            com, inertia = _inertia_matrix(link.inertial)
            r = _rot(x_rl)
            parts.append((link.inertial.mass, np.array(x_rl.p) + r @ com, r @ inertia @ r.T))
        for joint, child in children.get(link.name, []):
            if joint.name in lumped:
                origin = joint.pose.value if joint.pose is not None else IDENTITY
                stack.append((child, x_rl * origin))
    if not parts:
        return None
    mass = sum(p[0] for p in parts)
    centre = np.sum([p[0] * p[1] for p in parts], axis=0) / mass
    total = np.zeros((3, 3))
    for m, c, inertia in parts:
        d = c - centre
        total += inertia + m * (float(d @ d) * np.eye(3) - np.outer(d, d))
    return mass, total


def check_converted(ctx: ReadContext, model: Model, renamed: dict[str, str],
                    elements: dict[str, etree._Element]) -> None:
    """Report what libsdformat rejects in the converted URDF, at the right element."""
    lumped = lumped_joints(model)
    links = {lk.name: lk for lk in model.links}
    children: dict[str, list[tuple[Joint, Link]]] = {}
    lumped_links: set[str] = set()
    for j in model.joints:
        if j.child in links:
            children.setdefault(j.parent, []).append((j, links[j.child]))
            if j.name in lumped:
                lumped_links.add(j.child)
    for link in model.links:
        if link.inertial is None:
            continue
        own_ok = inertia_is_valid(link.inertial.mass, link.inertial.inertia)
        if link.name in lumped_links:
            if not own_ok:
                ctx.warn(ErrorCode.LINK_INERTIA_INVALID,
                         f'link [{link.name}] has invalid inertia; libsdformat lumps it into its '
                         'parent and checks only the sum', elements.get(link.name))
            continue
        summed = _lumped_inertia(link, children, lumped)
        if summed is None:
            continue
        m = summed[1]
        flat = (float(m[0, 0]), float(m[0, 1]), float(m[0, 2]),
                float(m[1, 1]), float(m[1, 2]), float(m[2, 2]))
        if not inertia_is_valid(summed[0], flat):
            absorbs = any(j.name in lumped for j, _ in children.get(link.name, []))
            ctx.error(ErrorCode.LINK_INERTIA_INVALID,
                      f'A link named {link.name} has invalid inertia'
                      + (' (with the links lumped into it)' if absorbs else '') + '.',
                      elements.get(link.name))
    for old, new in renamed.items():
        joint = next((j for j in model.joints if j.name == new), None)
        if joint is not None and joint.name not in lumped:
            ctx.error(ErrorCode.DUPLICATE_NAME,
                      f'joint [{old}] has the name of a link, and libsdformat keeps both when it '
                      'converts the URDF: Gazebo refuses the model', elements.get(old))
