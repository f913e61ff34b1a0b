"""From the node's parameters to what it publishes: description text and TF tree.

``load_description`` never raises for bad input: what went wrong comes
back as messages with file:line, and a result that is not ``ok`` holds
nothing to publish (the node keeps what it had).

What ``robot_description`` carries:

* ``robot_description_format: urdf`` — a URDF or xacro input is passed
  through as written (xacro expanded), as robot_state_publisher does; an
  SDFormat model is converted (:func:`sdf_tools.convert.urdf.to_urdf.convert_to_urdf`,
  nested names flattened with ``scope_separator``, ``<frame>``s as links when
  ``publish_frames``). The TF tree of a converted model is then computed
  from that URDF, so every URDF link has its transform and joint_states
  names are the URDF joint names (what ros2_control and MoveIt use); frames
  only the SDFormat has (nested model frames, the world's frames, actors,
  the model's placement in its world) are added from the SDFormat.
* ``robot_description_format: sdf`` — the resolved SDFormat 1.9
  (:func:`sdf_tools.convert.sdf.to_sdf.convert_to_sdf`); TF comes from the
  input itself.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from sdf_tools.errors import Diagnostic, ErrorCode, Severity
from sdf_tools.gazebo import using
from sdf_tools.load import LoadResult, load_file, load_string, without_read_summary
from sdf_tools.resolved import Resolved, resolve
from sdf_tools.ros.params import PublisherParams, resolve_description_file
from sdf_tools.ros.tf_tree import TfTree, TreeOptions, build_tf_tree
from sdf_tools.urdf.conversion import is_massless_root
from sdf_tools.urdf.lumped_frames import is_unattached_lumped_frame
from sdf_tools.urdf.zero_mass_sum import is_zero_mass_sum
from sdf_tools.xmlsafe import parse_bytes


@dataclass
class LoadedDescription:
    """The outcome of one (re)load.

    Attributes:
        source: what was read (a path, or where the text came from).
        text: the robot_description to publish (None: none could be made).
        tree: the TF tree (None: the input is unusable; publish nothing).
        errors: why something is missing, one message each (with file:line).
        warnings: what the reader assumed or noticed (libsdformat's silent
            defaults and the like), one message each.
        tf_notes: what of the model TF cannot show (undrivable joints, free
            bodies, loops), one message each.
        gazebo_only: errors only Gazebo minds (invalid inertia...), published
            anyway and logged as warnings.
        mesh_uris: each mesh URI the URDF conversion rewrote, or could not
            find and kept as written (``mesh_uris``).
    """

    source: str
    text: str | None = None
    tree: TfTree | None = None
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    tf_notes: list[str] = field(default_factory=list)
    gazebo_only: list[str] = field(default_factory=list)
    mesh_uris: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.tree is not None


def _is_xacro_text(text: str) -> bool:
    root, _ = parse_bytes(text.encode('utf-8'), None)
    return root is not None and root.tag == 'robot' and any(
        'xacro' in (uri or '') for uri in (root.nsmap or {}).values())


def _read_input(params: PublisherParams, text: str | None, text_source: str | None
                ) -> tuple[str, LoadResult | None, str | None, list[str]]:
    """Return (source, load result, URDF text when the input is URDF/xacro, errors)."""
    args = params.xacro_dict
    if text is None and params.description_file:
        path, why = resolve_description_file(params.description_file)
        if path is None:
            return params.description_file, None, None, [why or 'no such file']
        result = load_file(path, args)
        return str(path), result, _urdf_text_of_file(path, result, args), []
    if text is None:
        text, text_source = params.robot_description, 'parameter robot_description'
    source = text_source or 'robot_description'
    if not text.strip():
        return source, None, None, ['no description: set parameter description_file or '
                                    'robot_description' + (' or publish on description_topic'
                                                           if params.description_topic else '')]
    if _is_xacro_text(text):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / 'robot_description.urdf.xacro'
            path.write_text(text, encoding='utf-8')
            result = load_file(path, args)
            urdf = _urdf_text_of_file(path, result, args)
        return source, result, urdf, []
    result = load_string(text, source, args)
    is_urdf = result.document is not None and result.document.format == 'urdf'
    return source, result, text if is_urdf else None, []


def _urdf_text_of_file(path: Path, result: LoadResult, args: dict[str, str]) -> str | None:
    """Return the URDF text of a URDF or xacro file: expanded exactly when the loader expanded it.

    A ``.urdf`` that only declares the xacro namespace (many do, e.g. example-robot-data's
    baxter) is read literally by the loader (:func:`sdf_tools.load.detect_format`, as
    libsdformat and robot_state_publisher read it), so TF shows that reading: it is
    published as written, not as xacro rewrites it (which also took longer than the load).
    """
    doc = result.document
    if doc is None or doc.format != 'urdf':
        return None
    text = path.read_text(encoding='utf-8')
    if path.name.endswith('.xacro') or (_is_xacro_text(text)
                                        and (args or not path.name.endswith('.urdf'))):
        from sdf_tools.urdf.xacro_expand import expand_xacro
        data, _ = expand_xacro(path, args)
        return None if data is None else data.decode('utf-8')
    return text


def _convert(result: LoadResult, resolved: Resolved, params: PublisherParams, to: str,
             out: LoadedDescription) -> str | None:
    """Convert with the suite's converters; errors and mesh URI rewrites go to ``out``.

    ``resolved`` is ``result`` as TF resolved it: the URDF writer reads the same
    records rather than resolving the model again.
    """
    from sdf_tools.convert.api import convert_loaded
    from sdf_tools.convert.conversion_report import ReportKind
    from sdf_tools.convert.options import ConversionOptions
    world = result.document.worlds[0] if result.document and result.document.worlds else None
    model = params.model or (world.models[0].name if world and len(world.models) == 1 else '')
    mapping: dict[str, object] = {'scope_separator': params.scope_separator,
                                  'frames_as_links': params.publish_frames,
                                  'uris': params.mesh_uris,
                                  # TF cuts a loop's last joint too: a URDF for RViz, reported
                                  'break_loops': True}
    if model:
        mapping['model'] = model
    options, problems = ConversionOptions.from_mapping(mapping)
    if problems:
        out.errors += [f'robot_description: {p}' for p in problems]
        return None
    converted = convert_loaded(_as_ros_reads_it(result), to=to, options=options,
                               resolved=resolved)
    if not converted.ok or converted.text is None:
        out.errors += [f'robot_description: conversion to {to} failed: {d}'
                       for d in converted.report.errors] or [f'robot_description: conversion to '
                                                             f'{to} failed']
        return None
    out.mesh_uris += [str(e) for e in converted.report.entries
                      if e.kind in (ReportKind.REWRITTEN, ReportKind.ASSUMED)
                      and e.message.startswith('mesh URI')]
    return converted.text


def _as_ros_reads_it(result: LoadResult) -> LoadResult:
    """Return ``result`` with the errors only Gazebo minds (see :func:`_kinematic`) as warnings.

    RViz and TF draw a link of invalid inertia like any other, so the
    conversion writes it (the node has already logged the error once, as a
    warning that Gazebo would refuse it); what makes TF unknowable still
    fails the conversion.
    """
    fmt = result.document.format if result.document is not None else ''
    if not any(d.severity is Severity.ERROR and not _kinematic(d, fmt) for d in result.diagnostics):
        return result
    return replace(result, diagnostics=[
        replace(d, severity=Severity.WARNING)
        if d.severity is Severity.ERROR and not _kinematic(d, fmt) else d
        for d in result.diagnostics])


def _several_models(result: LoadResult, params: PublisherParams) -> list[str]:
    """Return the bracketed model names when a URDF is asked of a world of several and no model."""
    doc = result.document
    if params.robot_description_format != 'urdf' or params.model or doc is None \
            or doc.model is not None:
        return []
    names = [f'[{m.name}]' for w in doc.worlds for m in w.models]
    return names if len(names) > 1 else []


def _merge(urdf_tree: TfTree, sdf_tree: TfTree) -> TfTree:
    """Return the URDF's tree plus what only the SDFormat has (see the module docs)."""
    parents = urdf_tree.parents()
    merged = replace(urdf_tree, fixed=list(urdf_tree.fixed), actors=[],
                     aliases=dict(urdf_tree.aliases), notes=list(urdf_tree.notes))

    def creates_loop(parent: str, child: str) -> bool:
        node: str | None = parent
        while node is not None:
            if node == child:
                return True
            node = parents.get(node)
        return False

    for f in sdf_tree.fixed:
        if f.child not in parents and not creates_loop(f.parent, f.child):
            merged.fixed.append(f)
            parents[f.child] = f.parent
    for a in sdf_tree.actors:
        if a.child not in parents:
            merged.actors.append(a)
            parents[a.child] = a.parent
    for alias, name in sdf_tree.aliases.items():
        if name in merged.moving and alias not in merged.moving:
            merged.aliases.setdefault(alias, name)
    merged.ignored_joints = urdf_tree.ignored_joints | sdf_tree.ignored_joints
    for name, mj in sdf_tree.moving.items():  # URDF has no <initial_position>: the SDFormat's
        target = name if name in merged.moving else merged.aliases.get(name)
        if target is not None and any(mj.initial):
            merged.moving[target] = replace(merged.moving[target], initial=mj.initial)
    kept = {(d.message, d.line) for d in merged.notes}
    merged.notes += [d for d in sdf_tree.notes
                     if (d.message, d.line) not in kept and 'joint' not in d.message]
    return merged


def _urdf_aliases(tree: TfTree, result: LoadResult, urdf_text: str) -> None:
    """Accept the URDF's own joint names where the reader had to rename a joint."""
    root, _ = parse_bytes(urdf_text.encode('utf-8'), None)
    doc = result.document
    if root is None or doc is None or doc.model is None:
        return
    by_line: dict[int, str] = {}
    for el in root:
        line: object = el.sourceline
        if el.tag == 'joint' and isinstance(line, int):
            by_line[line] = el.get('name', '')
    for joint in doc.model.joints:
        original = by_line.get(joint.loc.line) if joint.loc and joint.loc.line else None
        if original and original != joint.name:
            if joint.name in tree.moving:
                tree.aliases[original] = joint.name
            else:
                tree.ignored_joints.add(original)


def _kinematic(d: Diagnostic, fmt: str) -> bool:
    """Whether an error makes TF unknowable; what only Gazebo refuses does not.

    Invalid inertia never changes a frame; in a URDF, a joint named like a link
    is fine for ROS tools (the reader renames it for SDFormat's single
    namespace, and joint_states keeps the URDF name).
    """
    if d.code is ErrorCode.LINK_INERTIA_INVALID:
        return False
    if fmt == 'urdf' and (is_massless_root(d) or is_zero_mass_sum(d)
                          or is_unattached_lumped_frame(d)):
        return False  # libsdformat drops or refuses what has no mass; every frame is known
    return not (fmt == 'urdf' and d.code is ErrorCode.DUPLICATE_NAME)


def _messages(diagnostics: list[Diagnostic], severity: Severity) -> list[str]:
    return [str(d) for d in diagnostics if d.severity is severity]


def load_description(params: PublisherParams, *, text: str | None = None,
                     text_source: str | None = None) -> LoadedDescription:
    """Load what the parameters (or a text from the description topic) name.

    Args:
        params: the node's parameters.
        text: a description received on the description topic (wins over
            the parameters); ``text_source`` names it in messages.
    """
    with using(params.gazebo or None):
        source, result, urdf_text, errors = _read_input(params, text, text_source)
    out = LoadedDescription(os.fspath(source), errors=errors)
    if result is None:
        return out
    out.warnings += _messages(result.diagnostics, Severity.WARNING)
    fmt = result.document.format if result.document is not None else ''
    blocking = [d for d in without_read_summary(result.errors) if _kinematic(d, fmt)]
    if not result.usable or result.document is None or blocking:
        out.errors += [str(d) for d in blocking] or [f'{source}: the description cannot be read']
        return out
    out.gazebo_only += [f'{d} (Gazebo would refuse this; ROS tools and TF do not mind)'
                        for d in result.errors]
    options = TreeOptions(params.root_frame, params.scope_separator, params.publish_frames,
                          params.model)
    resolved = resolve(result)  # once: TF and the URDF conversion read the same records
    tree = build_tf_tree(resolved, options)
    if tree.errors:
        out.errors += _messages(tree.notes, Severity.ERROR)
        return out
    if urdf_text is not None:
        _urdf_aliases(tree, result, urdf_text)
    if params.robot_description_format == 'urdf' and urdf_text is not None:
        out.text = urdf_text
    elif (several := _several_models(result, params)):
        out.tf_notes.append(
            f'{source}: a world of {len(several)} models ({", ".join(several)}) and one URDF '
            'holds one model: no robot_description is published (set the parameter model to one '
            'of them, or robot_description_format to sdf); TF is published for every model')
    else:
        out.text = _convert(result, resolved, params, params.robot_description_format, out)
        if out.text is not None and params.robot_description_format == 'urdf':
            tree = _tree_from_urdf(out.text, source, params, tree, out)
    out.tree = tree
    out.tf_notes += _messages(tree.notes, Severity.WARNING)
    return out


def _tree_from_urdf(urdf: str, source: str, params: PublisherParams, sdf_tree: TfTree,
                    out: LoadedDescription) -> TfTree:
    converted = load_string(urdf, f'{source} (as URDF)')
    options = TreeOptions(params.root_frame, params.scope_separator, params.publish_frames)
    urdf_tree = build_tf_tree(converted, options) if converted.valid else None
    if urdf_tree is None or urdf_tree.errors:
        out.warnings.append(f'{source}: the URDF made from it cannot be read back '
                            f'({"; ".join(str(d) for d in converted.errors[:3])}); TF follows the '
                            'SDFormat, so some URDF links may lack a transform')
        return sdf_tree
    return _merge(urdf_tree, sdf_tree)
