"""Names MJCF has no element for, kept as ``<custom><text>`` so a round trip gives them back.

MJCF welds a body to its parent by giving it no joint, so a fixed joint's
name has nowhere to go; a URDF link without mass, folded into its parent as
libsdformat folds it, is a site. Each is recorded in the model's custom
texts (MuJoCo keeps them, ``mjOBJ_TEXT``), which the import reads back
(:mod:`~sdf_tools.convert.mjcf.reader`):

* ``<text name="sdf_tools:joint:BODY" data="JOINT"/>``: body BODY hangs from its
  parent by the (fixed) joint JOINT;
* ``<text name="sdf_tools:link:SITE" data="JOINT"/>``: site SITE is a link without
  mass that fixed joint JOINT holds (the joint's own frame is the same: no
  site is written for it).
"""
from __future__ import annotations

from sdf_tools.convert.flatten import FlatModel
from sdf_tools.convert.joint_names import written_name
from sdf_tools.convert.mjcf.tree import BodyTree
from sdf_tools.convert.mjcf.writer import MjcfDocument, sub
from sdf_tools.model import Model

JOINT_TEXT = 'sdf_tools:joint:'
LINK_TEXT = 'sdf_tools:link:'


def folded_links(source: Model | None, flat: FlatModel) -> dict[str, str]:
    """Return site (a folded URDF link) -> the fixed joint that held it, for a URDF source.

    A link without mass that lumping folded into its parent left two ``<frame>``\\ s of
    the same pose: its own and its fixed joint's (libsdformat's rule).
    """
    if source is None:
        return {}
    frames = {fr.name for fr in flat.frames}
    links = {lk.name for lk in flat.links}
    out = {}
    for j in source.joints:
        if j.type == 'fixed' and j.child in frames and j.child not in links and j.name in frames:
            out[j.child] = j.file_name or j.name
    return out


def record_names(doc: MjcfDocument, tree: BodyTree, written: dict[str, list[str]],
                 folded: dict[str, str], prefix: str) -> None:
    """Write the custom texts of welded bodies' joints and folded links."""
    custom = doc.section('custom')
    for link, pj in tree.parent_joint.items():
        if not written.get(pj.name):
            sub(custom, 'text', name=f'{JOINT_TEXT}{prefix}{link}', data=written_name(pj))
    for site, joint in folded.items():
        sub(custom, 'text', name=f'{LINK_TEXT}{prefix}{site}', data=joint)
