"""The conversion options that change the model itself, applied after URDF or SDF preparation.

``uris`` (:mod:`~sdf_tools.convert.uris`), ``visual_as_collision``,
``mesh_collision`` and ``inertia_from_geometry``
(:mod:`~sdf_tools.convert.geometry_ops`), ``joint_drive_from_transmission``
(:mod:`~sdf_tools.convert.joint_drives`) and, here, ``root_transform``,
``floating_base`` and ``self_collide``. The last three are about the robot
of a file holding one model; for a world file they are reported as not
applied.
"""
from __future__ import annotations

from pathlib import Path

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.geometry_ops import apply_geometry_options
from sdf_tools.convert.joint_drives import add_joint_drives
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.convert.poses import computed_pose, is_identity
from sdf_tools.convert.uris import apply_uri_policy
from sdf_tools.model import Document, Joint, Model
from sdf_tools.transform import IDENTITY


def _where(model: Model) -> tuple[str | None, int | None]:
    return (model.loc.file if model.loc else None, model.loc.line if model.loc else None)


def top_models(doc: Document) -> list[Model]:
    """Return the document's model, or every model of its worlds, in document order."""
    return [doc.model] if doc.model is not None else [m for w in doc.worlds for m in w.models]


def all_models(models: list[Model]) -> list[Model]:
    """Return ``models`` and every model nested in them, each before its nested ones."""
    out: list[Model] = []
    for m in models:
        out.append(m)
        out.extend(all_models(m.models))
    return out


def _root_transform(model: Model, options: ConversionOptions, report: ConversionReport) -> None:
    rt = options.root_transform
    if is_identity(rt):
        return
    raw = model.pose.value if model.pose is not None else IDENTITY
    model.pose = computed_pose(rt * raw)
    report.add(ReportKind.REWRITTEN, f'model[{model.name}]/pose',
               'root_transform applied: the model is placed at root_transform * its pose',
               *_where(model))


def _fix_to_world(model: Model, report: ConversionReport) -> None:
    if model.static or any(j.parent == 'world' for j in model.joints) or not model.links:
        return
    taken = {lk.name for lk in model.links} | {j.name for j in model.joints}
    taken |= {f.name for f in model.frames} | {m.name for m in model.models}
    name, i = 'fixed_to_world', 0
    while name in taken:
        name, i = f'fixed_to_world{i}', i + 1
    # canonical_link may name a frame or joint (libsdformat accepts it): a link is needed.
    names = {lk.name for lk in model.links}
    child = model.canonical_link if model.canonical_link in names else model.links[0].name
    model.joints.append(Joint(name, 'fixed', 'world', child, loc=model.loc))
    report.add(ReportKind.ASSUMED, f'model[{model.name}]/joint[{name}]',
               f'floating_base=False: fixed joint from [world] to the root link [{child}] added',
               *_where(model))


def _self_collide(models: list[Model], value: bool, report: ConversionReport) -> None:
    for model in models:
        overridden = [lk.name for lk in model.links if lk.self_collide is not None]
        if model.self_collide == value and not overridden:
            continue
        model.self_collide = value
        for link in model.links:
            link.self_collide = None
        extra = f' (link overrides removed: {", ".join(overridden)})' if overridden else ''
        report.add(ReportKind.REWRITTEN, f'model[{model.name}]/self_collide',
                   f'set to {str(value).lower()} by the self_collide option{extra}', *_where(model))


def apply_model_options(doc: Document, options: ConversionOptions, report: ConversionReport,
                        base: Path | None) -> None:
    """Apply every model-changing option to the document (in place)."""
    tops = top_models(doc)
    models = all_models(tops)
    apply_uri_policy(tops, options.uris, base, report)
    apply_geometry_options(models, options, report, base)
    if options.self_collide is not None:
        _self_collide(models, options.self_collide, report)
    if doc.model is not None:
        _root_transform(doc.model, options, report)
        if not options.floating_base:
            _fix_to_world(doc.model, report)
        if options.joint_drive_from_transmission and doc.format == 'urdf':
            add_joint_drives(doc.model, report)
    elif not is_identity(options.root_transform) or not options.floating_base:
        report.add(ReportKind.DROPPED, 'options',
                   'root_transform and floating_base apply to a file holding one model; this '
                   'file holds worlds, so they are not applied')
