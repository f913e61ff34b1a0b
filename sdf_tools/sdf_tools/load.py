"""One entry point for every input format: SDFormat, URDF, xacro, and documents built in memory.

``load_file`` reads, checks and builds the frame graphs, and returns
everything as data: a document, its graphs, and every diagnostic. It never
raises for bad input. ``load_document`` does the same for a document an
importer built (MJCF, USD: :mod:`sdf_tools.convert.mjcf.from_mjcf`,
:mod:`sdf_tools.convert.usd.from_usd`), so every input reaches the
converters as one ``LoadResult``.
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from lxml import etree

from sdf_tools._perf import no_gc, release_freed_memory
from sdf_tools.errors import Diagnostic, ErrorCode, Findings, Severity
from sdf_tools.frames import FrameGraphs, build_model_graphs, build_world_graphs
from sdf_tools.frames.checks import check_joints
from sdf_tools.frames.graph import join
from sdf_tools.frames.resolve import resolve_pose
from sdf_tools.frames.world_joints import check_world_joints
from sdf_tools.gazebo import GazeboTarget, using
from sdf_tools.gazebo import current as current_target
from sdf_tools.model import Document, Link, Model
from sdf_tools.records import fields_eq, fields_repr
from sdf_tools.sdf.context import read_as
from sdf_tools.sdf.document import read_sdf_root
from sdf_tools.sdf.spec.parallel import start_worker
from sdf_tools.sdf.stream import WorldModelStreamer
from sdf_tools.transform import IDENTITY, Transform
from sdf_tools.xmlsafe import line_of, parse_bytes, read_file

if TYPE_CHECKING:
    from sdf_tools.urdf.lumping_walk import UrdfWalk


@dataclass(init=False, repr=False, eq=False)  # methods written out: sdf_tools/records.py
class LoadResult(Findings):
    """What loading a file produced.

    Attributes:
        document: the description (None when the input was unusable).
        diagnostics: errors and warnings, in the order found.
        model_graphs: graphs of a lone top-level model (or URDF robot).
        world_graphs: graphs of each world, in document order.
        usable: False when the input could not be read as SDFormat or URDF
            at all (missing file, not XML, unknown root): CLI exit code 2.
        urdf_walk: a URDF's walk as libsdformat converts it (what it lumps, in
            which order, which links it writes), made once by the reader; the
            converter, the lint and the frame listings read this one.
    """

    document: Document | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    model_graphs: FrameGraphs | None = None
    world_graphs: list[FrameGraphs] = field(default_factory=list)
    usable: bool = True
    gazebo: GazeboTarget = field(default_factory=current_target)  # whose libsdformat read it
    urdf_walk: UrdfWalk | None = None

    def __init__(self, document: Document | None, diagnostics: list[Diagnostic] | None = None,
                 model_graphs: FrameGraphs | None = None,
                 world_graphs: list[FrameGraphs] | None = None, usable: bool = True,
                 gazebo: GazeboTarget | None = None, urdf_walk: UrdfWalk | None = None) -> None:
        self.document = document
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.model_graphs = model_graphs
        self.world_graphs = [] if world_graphs is None else world_graphs
        self.usable = usable
        self.gazebo = current_target() if gazebo is None else gazebo
        self.urdf_walk = urdf_walk

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        return fields_eq(self, other)


def detect_format(root: etree._Element, source: str | None,
                  xacro_args: dict[str, str] | None = None) -> str:
    """Return 'sdf', 'urdf' or 'xacro' from the root element and file name.

    A ``<robot>`` is expanded with xacro when the file is a ``.xacro`` or
    xacro arguments are given, or when it declares the xacro namespace and
    is not a ``.urdf``; a ``.urdf`` is read literally, as libsdformat and
    robot_state_publisher read it (many carry the namespace unused).
    """
    if source and source.endswith('.xacro'):
        return 'xacro'
    if root.tag == 'sdf':
        return 'sdf'
    if root.tag == 'robot':
        nsmap = root.nsmap or {}
        declares = any('xacro' in (uri or '') for uri in nsmap.values())
        if xacro_args or (declares and not (source or '').endswith('.urdf')):
            return 'xacro'
        return 'urdf'
    return 'unknown'


def _unreadable(result: LoadResult, source: str | None) -> LoadResult:
    """Add libsdformat's summary error to an input it could not turn into a document.

    libsdformat reports such a file with the single code FILE_READ; we keep
    the specific diagnostic (it has the line) and add that summary, so both
    tools share a code.
    """
    if not any(d.code is ErrorCode.FILE_READ for d in result.diagnostics):
        result.diagnostics.append(Diagnostic(ErrorCode.FILE_READ,
                                             f'{READ_SUMMARY}{source or "<string>"}', source))
    return result


READ_SUMMARY = 'Unable to read file: '  # the start of the message _unreadable adds


def without_read_summary(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Return ``diagnostics`` without the FILE_READ summary when another error says why.

    The summary is there so that our codes match libsdformat's; to a person it
    only repeats, wrongly worded, what the specific error (with its line)
    already says. Messages for people (service responses, node logs) use this.
    """
    def summary(d: Diagnostic) -> bool:
        return d.code is ErrorCode.FILE_READ and d.message.startswith(READ_SUMMARY)

    if not any(d.severity is Severity.ERROR and not summary(d) for d in diagnostics):
        return list(diagnostics)
    return [d for d in diagnostics if not summary(d)]


def read_string(text: str | bytes, source: str | None = None) -> LoadResult:
    """Read SDFormat or URDF text into a document, as :func:`load_string` does, without graphs.

    For an importer that writes the description it read as SDFormat (so that our
    reader checks it like any input), changes the document it gets back, then
    hands it to :func:`load_document`.
    """
    data = text.encode('utf-8') if isinstance(text, str) else text
    return _read_bytes(data, None, source, None)


def load_document(document: Document, diagnostics: Iterable[Diagnostic] = ()) -> LoadResult:
    """Build and validate the frame graphs of a document built in memory, as ``load_file`` does.

    Args:
        document: the description an importer built (MJCF, USD).
        diagnostics: what reading it found, kept first.
    """
    walk = None
    if document.format == 'urdf' and document.model is not None:
        # A URDF model built in memory is walked here, as the reader walks what it reads.
        from sdf_tools.urdf.lumping_walk import urdf_walk
        walk = urdf_walk(document.model)
    return _with_graphs(LoadResult(document, list(diagnostics), urdf_walk=walk))


def _with_graphs(result: LoadResult) -> LoadResult:
    """Build and validate the frame graphs of a read document."""
    doc = result.document
    if doc is None:
        return result
    # A file read as 1.10+ (any file for Harmonic on, which converts it to its newest
    # version) may name a model frame as a joint end (libsdformat 14.9.0 accepts a child
    # __model__ in its test/sdf/joint_child_model_frame.sdf, a 1.8 file; 12.3 refuses it).
    newer = doc.format == 'sdf' and read_as(doc.version or '') >= (1, 10)
    if doc.model is not None:
        g = build_model_graphs(doc.model)
        result.model_graphs = g
        _place_auto_inertials(doc.model, g, '')
        # urdfdom refuses a robot without <link> (the reader's URDF_INVALID): no graph is built.
        if doc.format != 'urdf' or doc.model.links:
            result.diagnostics.extend(g.errors)
        result.diagnostics.extend(check_joints(doc.model, g, '', model_frame_child_ok=newer))
    for world in doc.worlds:
        g = build_world_graphs(world)
        result.world_graphs.append(g)
        for m in world.models:
            _place_auto_inertials(m, g, '')
        result.diagnostics.extend(g.errors)
        for m in world.models:
            result.diagnostics.extend(check_joints(m, g, '', model_frame_child_ok=newer))
        if world.joints:
            result.diagnostics.extend(check_world_joints(world, g))
    return result


def _place_auto_inertials(model: Model, g: FrameGraphs, parent_scope: str) -> None:
    """Sum again the auto inertials whose collisions are placed relative_to another frame.

    The reader sums each collision at its pose in the link frame; a pose relative to
    another frame is only known once the graphs are built (libsdformat resolves it
    through the pose graph before summing, ``Collision::CalculateInertial``).
    """
    scope = join(parent_scope, model.name)
    for link in model.links:
        inertial = link.inertial
        if inertial is None or not inertial.auto or not any(
                c.pose is not None and c.pose.relative_to for c in link.collisions):
            continue
        poses = _collision_poses(link, g, scope)
        if poses is not None:  # None: a pose the graph cannot place (its error says why)
            # Only for <inertial auto>, as in sdf/link.py's reader: imported when one is there.
            from sdf_tools.sdf.auto_inertial import place_relative_collisions

            place_relative_collisions(inertial, poses)
    for m in model.models:
        _place_auto_inertials(m, g, scope)


def _collision_poses(link: Link, g: FrameGraphs, scope: str) -> dict[str, Transform] | None:
    """Each collision's pose in its link frame, through the pose graph."""
    link_vid = g.find(scope, link.name)
    poses = {}
    for c in link.collisions:
        value = c.pose.value if c.pose is not None else IDENTITY
        if c.pose is None or not c.pose.relative_to:
            poses[c.name] = value
            continue
        ref = g.find(scope, c.pose.relative_to)
        placed = None if ref is None or link_vid is None else resolve_pose(g, ref, link_vid)
        if placed is None:
            return None
        poses[c.name] = placed * value
    return poses


def _read_root(root: etree._Element, source: str | None,
               xacro_args: dict[str, str] | None, streamer: WorldModelStreamer) -> LoadResult:
    """Read a parsed root into a document (no graphs yet)."""
    fmt = detect_format(root, source, xacro_args)
    if fmt == 'sdf':
        doc, diags = read_sdf_root(root, source, streamer.include_stack, streamer.context_for(root))
        usable = doc is not None or not any(
            d.code in (ErrorCode.ATTRIBUTE_MISSING, ErrorCode.VERSION_UNSUPPORTED) for d in diags)
        return LoadResult(doc, list(diags), usable=usable)
    if fmt in ('urdf', 'xacro'):
        from sdf_tools.urdf import read_urdf  # URDF support is optional at import time
        if fmt == 'xacro':
            from sdf_tools.urdf.xacro_expand import expand_xacro
            if source is None:
                return LoadResult(None, [Diagnostic(ErrorCode.XACRO_ERROR,
                                                    'xacro input must be a file', None)], usable=False)
            data, xd = expand_xacro(source, xacro_args or {})
            if data is None:
                return LoadResult(None, xd, usable=False)
            root2, bad = parse_bytes(data, source)
            if root2 is None:
                return LoadResult(None, [*xd, *([bad] if bad else [])], usable=False)
            root = root2
        read = read_urdf(root, source)
        return LoadResult(read.document, list(read.diagnostics), urdf_walk=read.walk)
    # A Menagerie model given to check/inspect/report: say which commands read MJCF.
    hint = ('; MJCF is read by sdf_tools convert and verify (convert FILE --to sdf -o OUT.sdf)'
            if root.tag == 'mujoco' else '')
    return LoadResult(None, [Diagnostic(
        ErrorCode.ELEMENT_INVALID,
        f'root element <{root.tag}> is neither <sdf> nor <robot>{hint}', source, line_of(root))],
        usable=False)


def _read_bytes(data: bytes | None, path: str | Path | None, source: str | None,
                xacro_args: dict[str, str] | None) -> LoadResult:
    """Parse and read; the XML tree is released when this returns.

    A world's models are read while the file is parsed (``sdf/stream.py``),
    so a large world never holds its whole XML tree; what is left of the
    tree goes before the graphs are built.
    """
    worker = None
    if data is None and path is not None:
        data, unread = read_file(path)
        if data is None:
            return _unreadable(LoadResult(None, [unread] if unread else [], usable=False), source)
        # A large world is checked against the spec in a second process meanwhile.
        worker = start_worker(path, data, source)
    streamer = WorldModelStreamer(source, (str(Path(source).resolve()),) if source else (), worker)
    try:
        root, bad = parse_bytes(data or b'', source, (streamer.tag, streamer))
        if root is None:
            return _unreadable(LoadResult(None, [bad] if bad else [], usable=False), source)
        result = _read_root(root, source, xacro_args, streamer)
    finally:
        if streamer.worker is not None:  # its answer was not asked for (not a world)
            streamer.worker.cancel()
    if bad is not None:  # a warning: XML that libsdformat's parser tolerates
        result.diagnostics.insert(0, bad)
    if result.document is None or (result.document.format == 'urdf' and any(
            d.code is ErrorCode.URDF_INVALID for d in result.errors)):
        # urdfdom (libsdformat's URDF reader) refuses a URDF with any of these errors.
        _unreadable(result, source)
    return result


@no_gc
def load_file(path: str | Path, xacro_args: dict[str, str] | None = None, *,
              gazebo: str | GazeboTarget | None = None) -> LoadResult:
    """Load an SDFormat, URDF or xacro file and resolve its frames.

    Args:
        path: the file, or a model directory (its ``model.config`` names the file).
        xacro_args: ``name:=value`` arguments of a xacro file.
        gazebo: the Gazebo release (``'fortress'``, ``'harmonic'``, ``'ionic'``,
            ``'jetty'``) whose libsdformat the file is read as; None: the one in
            force (``sdf_tools.gazebo.using``), else ``ROS_DISTRO``'s, else the newest.
    """
    with using(gazebo):
        return _load_file(path, xacro_args)


def _load_file(path: str | Path, xacro_args: dict[str, str] | None) -> LoadResult:
    source = str(path)
    if Path(path).is_dir():
        from sdf_tools.sdf.uris import model_file_in_dir
        found = model_file_in_dir(Path(path))
        if found is None:
            return LoadResult(None, [Diagnostic(ErrorCode.FILE_READ,
                                                'directory holds no model.config or model.sdf',
                                                source)], usable=False)
        path, source = found, str(found)
    result = _read_bytes(None, path, source, xacro_args)
    release_freed_memory(_size(path))
    return _with_graphs(result)


def _size(path: str | Path) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


@no_gc
def load_string(text: str | bytes, source: str | None = None,
                xacro_args: dict[str, str] | None = None, *,
                gazebo: str | GazeboTarget | None = None) -> LoadResult:
    """Load a description given as text (``source`` names it in messages; ``gazebo`` as in
    :func:`load_file`)."""
    data = text.encode('utf-8') if isinstance(text, str) else text
    with using(gazebo):
        return _with_graphs(_read_bytes(data, None, source, xacro_args))
