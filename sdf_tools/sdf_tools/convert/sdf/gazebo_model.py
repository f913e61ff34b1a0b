"""Model-level ``<gazebo>`` blocks, and the check of every block against the robot.

:func:`check_blocks` runs before anything is applied: it declares every tag
and blob of every block in the :class:`Landing`, with a note when the tag
cannot land (a reference that names nothing, a link tag in a joint's block,
an unknown or misspelled tag -- which libsdformat copies without a word).
:func:`apply_to_model` then handles the blocks without ``reference``.
"""
from __future__ import annotations

import difflib

from lxml import etree

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.sdf.gazebo_apply import Landing
from sdf_tools.convert.sdf.gazebo_tags import (
    IGNORED_TAGS,
    JOINT_TAGS,
    LINK_TAGS,
    MODEL_TAGS,
    PARSED_TAGS,
    GazeboBlock,
)
from sdf_tools.errors import Diagnostic, ErrorCode, Severity
from sdf_tools.model import Extra, Model, Plugin
from sdf_tools.model.common import Loc
from sdf_tools.sdf.context import ReadContext
from sdf_tools.sdf.joint import JOINT_CHILDREN
from sdf_tools.sdf.link import LINK_CHILDREN
from sdf_tools.sdf.model import MODEL_CHILDREN
from sdf_tools.sdf.values import parse_bool_text, parse_pose_element
from sdf_tools.urdf.releases import rules
from sdf_tools.xmlsafe import to_xml

_VISUAL_CHILDREN = {'cast_shadows', 'laser_retro', 'transparency', 'visibility_flags', 'meta',
                    'material', 'plugin'}
_COLLISION_CHILDREN = {'laser_retro', 'max_contacts', 'surface', 'density', 'auto_inertia_params'}
_VALID = {'link': LINK_CHILDREN | {'plugin'}, 'joint': JOINT_CHILDREN, 'model': MODEL_CHILDREN,
          'visual': _VISUAL_CHILDREN, 'collision': _COLLISION_CHILDREN}


class Targets:
    """What a reference can name once lumping and dropping are decided."""

    def __init__(self, links: set[str], joints: set[str], lumped_links: set[str],
                 lumped_joints: set[str], dropped: set[str]) -> None:
        self.links = links
        self.joints = joints
        self.lumped_links = lumped_links
        self.lumped_joints = lumped_joints
        self.dropped = dropped

    def kinds(self, ref: str) -> set[str]:
        """Return 'link' and/or 'joint' for what ``ref`` reaches in the output."""
        out: set[str] = set()
        if ref in self.links or ref in self.lumped_links:
            out.add('link')
        # A block follows a lumped link into its parent (ReduceSDFExtensionToParent): a
        # joint named like that link (renamed by the reader, libsdformat keeps the name)
        # no longer gets it.
        if ref in self.joints and ref not in self.lumped_links:
            out.add('joint')
        return out

    def why_not(self, ref: str) -> str:
        if ref in self.dropped:
            return f'[{ref}] is left out of the output (massless_links)'
        if ref in self.lumped_joints:
            return f'joint [{ref}] is lumped away (fixed joint)'
        return f'reference [{ref}] names no link or joint of the robot'


def _unknown_note(tag: str, kind: str) -> str | None:
    if ':' in tag or tag in _VALID[kind]:
        return None
    known = sorted(PARSED_TAGS | _VALID[kind])
    close = difflib.get_close_matches(tag, known, n=1, cutoff=0.7)
    hint = f' (did you mean <{close[0]}>?)' if close else ''
    return (f"<{tag}> is neither an SDFormat child of <{kind}> nor a tag libsdformat's URDF "
            f'parser reads{hint}; copied like libsdformat does, and ignored by Gazebo')


def _declare_blob(landing: Landing, report: ConversionReport, b: GazeboBlock, blob: etree._Element,
                  prefix: str, kind: str, reach: str | None) -> None:
    tag = f'{prefix}{blob.tag}'
    line = b.line_of(blob)
    note = reach or _unknown_note(str(blob.tag), kind) or ''
    landing.declare(b, tag, line, ReportKind.KEPT, note)
    if note and reach is None:
        report.diagnostics.append(Diagnostic(ErrorCode.ELEMENT_UNKNOWN, note,
                                             b.loc.file if b.loc else None, line,
                                             severity=Severity.WARNING))


def check_blocks(blocks: list[GazeboBlock], targets: Targets, landing: Landing,
                 report: ConversionReport) -> None:
    """Declare every tag and blob of every block, noting the ones that cannot land."""
    for b in blocks:
        kinds = {'model'} if not b.reference else targets.kinds(b.reference)
        missing = None if kinds else targets.why_not(b.reference)
        for value in b.values.values():
            landing.declare(b, value.tag, value.line, ReportKind.REWRITTEN,
                            missing or _misplaced(value.tag, kinds) or '')
        for value in b.problems:
            landing.declare(b, value.tag, value.line, ReportKind.REWRITTEN,
                            f'value [{value.value}] is not a number (libsdformat would stop '
                            'with an exception)')
        main = 'model' if 'model' in kinds else ('link' if 'link' in kinds else 'joint')
        for blob in b.blobs:
            _declare_blob(landing, report, b, blob, '', main, missing)
        for prefix, blobs in (('visual/', b.visual_blobs), ('collision/', b.collision_blobs)):
            reach = missing or (None if 'link' in kinds else
                                f'<{prefix[:-1]}> blocks only apply to links')
            for blob in blobs:
                _declare_blob(landing, report, b, blob, prefix, prefix[:-1], reach)


def _misplaced(tag: str, kinds: set[str]) -> str | None:
    if tag in IGNORED_TAGS:
        return 'libsdformat reads it and does nothing with it'
    if tag in MODEL_TAGS and 'model' not in kinds:
        return f'<{tag}> only applies in a <gazebo> block without reference'
    if tag in LINK_TAGS and 'link' not in kinds:
        return f'<{tag}> applies to links, and this block is about a ' + (
            'joint' if 'joint' in kinds else 'model')
    if tag in JOINT_TAGS and 'joint' not in kinds:
        return f'<{tag}> applies to joints, and this block is about a ' + (
            'link' if 'link' in kinds else 'model')
    return None


def apply_to_model(model: Model, blocks: list[GazeboBlock], landing: Landing,
                   origin_given: bool) -> None:
    """Apply the blocks without reference: ``<static>`` and the blobs copied into the model.

    In libsdformat 12 every such block sets ``static`` (false when it has no
    ``<static>``), so the last block decides; from 13.3 on (gazebosim/sdformat#1193)
    only a block holding ``<static>`` sets it. A ``<pose>`` blob is the model pose
    unless the robot has an ``<origin>`` (which wins).
    """
    pose_taken = origin_given
    static_seen = False
    only_given = rules().static_only_when_given
    for b in blocks:
        static = b.get('static') is True
        static_seen = static_seen or static
        if b.has('static') or not only_given:
            model.static = static
        if b.has('static'):
            landing.hit(b, 'static', b.values['static'].line, 'model/static')
        for blob in b.blobs:
            pose_taken = _model_blob(model, b, blob, landing, pose_taken)
    if blocks and static_seen and not model.static and not only_given:
        last = blocks[-1]
        landing.declare(last, 'static', None, ReportKind.REWRITTEN,
                        'a later <gazebo> block without <static> sets the model back to not '
                        'static, as libsdformat does; put <static> in the last block')


def _model_blob(model: Model, b: GazeboBlock, blob: etree._Element, landing: Landing,
                pose_taken: bool) -> bool:
    tag = str(blob.tag)
    line = b.line_of(blob)
    loc = Loc(b.loc.file if b.loc else None, line)
    if tag == 'pose':
        if pose_taken:
            landing.declare(b, tag, line, ReportKind.DROPPED,
                            'the model pose is already given (robot <origin> or an earlier block)')
            return True
        model.pose = parse_pose_element(ReadContext(loc.file, '1.9'), blob)
        landing.hit(b, tag, line, 'model/pose')
        return True
    if tag in ('self_collide', 'allow_auto_disable', 'enable_wind'):
        value = parse_bool_text(blob.text or '')
        if value is not None:
            setattr(model, tag, value)
    elif tag == 'plugin':
        model.plugins.append(Plugin(blob.get('name', ''), blob.get('filename', ''), to_xml(blob), loc))
    else:
        model.extras.append(Extra(tag, to_xml(blob), loc))
    landing.hit(b, tag, line, f'model/{tag}', ReportKind.KEPT)
    return pose_taken
