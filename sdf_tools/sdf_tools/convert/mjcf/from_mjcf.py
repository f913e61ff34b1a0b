"""MJCF -> a load result: ``sdf_tools convert robot.xml -o robot.sdf --from mjcf``.

MuJoCo reads the file (:mod:`~sdf_tools.convert.mjcf.reader`), the
description model built from it is written as SDFormat and read back by our
reader (so the spec check checks it like any input), pointed at the MJCF
file's lines (:mod:`~sdf_tools.convert.mjcf.import_lines`) and loaded with
:func:`sdf_tools.load.load_document` (the frame graphs): :func:`load_mjcf`
returns that load result, which converts to every format with the usual
options (:func:`sdf_tools.convert.api.convert_loaded`). What MJCF has and the
description model does not is in the import's report, reported before what
the conversion did.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from lxml import etree

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.convert.imported import Imported
from sdf_tools.convert.mjcf.compile_error import lfs_pointer, locate_compile_error
from sdf_tools.convert.mjcf.import_lines import in_mjcf, line_map, name_mjcf, origins
from sdf_tools.convert.mjcf.read_contact import option_losses, texture_losses, world_physics
from sdf_tools.convert.mjcf.read_keyframe import read_initial_key
from sdf_tools.convert.mjcf.read_sensors import read_sensors
from sdf_tools.convert.mjcf.reader import (
    MjcfSource,
    body_name,
    custom_texts,
    element_name,
    geoms,
    joints_of_body,
    link_of_body,
    sites,
    source_lines,
    velocity_limits,
)
from sdf_tools.convert.sdf.writer import WriteOptions, to_text, write_document
from sdf_tools.errors import Diagnostic, ErrorCode, Severity
from sdf_tools.load import load_document, read_string
from sdf_tools.model import (
    Collision,
    Document,
    Frame,
    Joint,
    Link,
    Model,
    RawPose,
    Sensor,
    Visual,
    World,
)
from sdf_tools.transform import Transform

__all__ = ['load_mjcf', 'read_mjcf']
_EQUALITY = {0: 'connect', 1: 'weld', 2: 'joint', 3: 'tendon', 4: 'flex'}
# (count attribute, element tag, what) of what the description model has no place for.
_LOST = [('nu', 'actuator', 'actuator'), ('ntendon', 'tendon', 'tendon'),
         ('nsensor', 'sensor', 'sensor'), ('ncam', 'camera', 'camera'),
         ('nlight', 'light', 'light'), ('nkey', 'key', 'keyframe'),
         ('npair', 'pair', 'contact pair'), ('nexclude', 'exclude', 'contact exclude'),
         ('nplugin', 'plugin', 'plugin'), ('nskin', 'skin', 'skin'),
         ('nflex', 'flex', 'flexible body')]
# <custom> elements other than the ones our MJCF export writes and reads back (reader.py):
# Menagerie's barkour_v0_mjx.xml keeps its initial pose as <numeric name="init_qpos">.
_CUSTOM = [('nnumeric', 'numeric', ('velocity_limit:', 'sensor_update_rate:')),
           ('ntext', 'text', ('sdf_tools:', 'sensor_noise:')), ('ntuple', 'tuple', ())]


def _spec(mujoco: Any, path: Path) -> Any:
    """Parse with MuJoCo, which reads only ``.xml`` names: another ending is read via a copy."""
    if path.suffix.lower() == '.xml':
        return mujoco.MjSpec.from_file(str(path))
    fd, tmp = tempfile.mkstemp(prefix=f'.{path.stem}.', suffix='.xml', dir=str(path.parent))
    try:
        with os.fdopen(fd, 'wb') as f:
            f.write(path.read_bytes())
        return mujoco.MjSpec.from_file(tmp)
    finally:
        Path(tmp).unlink(missing_ok=True)


def _compile(path: Path) -> MjcfSource | Diagnostic:
    try:
        import mujoco
    except ImportError:
        return Diagnostic(ErrorCode.FILE_READ, 'reading MJCF needs MuJoCo: pip install '
                          "'sdf_tools[mjcf]' (mujoco)", str(path))
    try:
        spec = _spec(mujoco, path)
        model = spec.compile()
    except Exception as err:  # MuJoCo raises ValueError and others with its own message
        text = str(err).strip().replace('\n', ' ')
        file, line = locate_compile_error(path, text)
        pointer = lfs_pointer(path)
        if pointer is not None:
            file, line, asset = pointer
            text = (f'[{asset}] is a Git LFS pointer, not the file it stands for (git lfs pull '
                    f'fetches it); MuJoCo: {text}')
        return Diagnostic(ErrorCode.FILE_READ, f'MuJoCo cannot read [{path}]: {text}', file, line)
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    return MjcfSource(path, spec, model, data, source_lines(path))


def _couplings(src: MjcfSource, joints: dict[str, Joint]) -> None:
    m = src.model
    for e in range(m.neq):
        name = str(m.eq(e).name) or f'equality{e}'
        kind = _EQUALITY.get(int(m.eq_type[e]), 'other')
        coef = [float(v) for v in m.eq_data[e][:5]]
        j1 = element_name(src, 'joint', int(m.eq_obj1id[e]), '') if kind == 'joint' else ''
        j2 = (element_name(src, 'joint', int(m.eq_obj2id[e]), '')
              if kind == 'joint' and m.eq_obj2id[e] >= 0 else '')
        if kind == 'joint' and j1 in joints and j2 and joints[j1].axis is not None \
                and not any(coef[2:]):
            axis = joints[j1].axis
            assert axis is not None
            axis.mimic_joint, axis.mimic_offset, axis.mimic_multiplier = j2, coef[0], coef[1]
            continue
        src.report.add(ReportKind.DROPPED, f'equality[{name}]', f'{kind} equality constraint: '
                       'only joint couplings a0 + a1 x (mimic) carry over',
                       *src.where(kind, name))


def _losses(src: MjcfSource, carried: bool, read: dict[str, set[int]] | None = None) -> None:
    import mujoco  # loaded by _compile
    option_losses(src, mujoco.MjModel.from_xml_string('<mujoco/>').opt, carried)
    texture_losses(src)
    m = src.model
    for count, tag, what in _LOST:
        for k in range(int(getattr(m, count, 0))):
            if read is not None and k in read.get(count, set()):
                continue  # carried over (read_sensors.py)
            obj = {'nu': m.actuator, 'ntendon': m.tendon, 'nsensor': m.sensor, 'ncam': m.camera,
                   'nlight': m.light, 'nkey': m.key}.get(count)
            name = str(obj(k).name) if obj is not None else ''
            src.report.add(ReportKind.DROPPED, f'{tag}[{name or k}]', f'{what}: the '
                           'description model has no counterpart', *src.where(tag, name))
    _custom_losses(src)


def _custom_losses(src: MjcfSource) -> None:
    import mujoco  # loaded by _compile
    m = src.model
    kinds = {'numeric': mujoco.mjtObj.mjOBJ_NUMERIC, 'text': mujoco.mjtObj.mjOBJ_TEXT,
             'tuple': mujoco.mjtObj.mjOBJ_TUPLE}
    for count, tag, ours in _CUSTOM:
        for k in range(int(getattr(m, count, 0))):
            name = mujoco.mj_id2name(m, kinds[tag], k) or ''
            if ours and name.startswith(ours):
                continue
            src.report.add(ReportKind.DROPPED, f'custom/{tag}[{name or k}]', f'<custom><{tag}>: '
                           'the description model has no counterpart', *src.where(tag, name))


def _world_link(src: MjcfSource, model: Model) -> None:
    link = Link('world_body', RawPose(Transform()))
    geoms(src, 0, link)
    if link.visuals or link.collisions:
        model.links.insert(0, link)
        model.joints.insert(0, Joint('world_body__fixed', 'fixed', 'world', 'world_body',
                                     RawPose(Transform(), 'world_body')))
        src.report.add(ReportKind.REWRITTEN, 'worldbody', 'geoms of the world body written on '
                       'link [world_body], fixed to the world', str(src.path), None)


def _fresh(name: str, suffix: str, taken: set[str]) -> str:
    """``<name>_<suffix>``, then ``<name>_<suffix>2``, ...: the first one not ``taken``."""
    new, k = f'{name}_{suffix}', 2
    while new in taken:
        new, k = f'{name}_{suffix}{k}', k + 1
    return new


def _one_namespace(src: MjcfSource, model: Model) -> None:
    """Rename joints and sites that share a body's name (MJCF keeps them apart, SDFormat not).

    Menagerie's Cassie names each hinge after its body. The body keeps the name; a joint
    becomes ``<name>_joint`` (the rule our URDF reader follows) and a site
    ``<name>_site``, each renamed element reported with its MJCF line.
    """
    taken = {lk.name for lk in model.links}
    renamed: dict[str, str] = {}
    items: list[tuple[Joint | Frame, str, str]] = [(j, 'joint', 'joint') for j in model.joints]
    items += [(f, 'site', 'site') for f in model.frames]
    for item, tag, suffix in items:
        if item.name not in taken:
            taken.add(item.name)
            continue
        new = _fresh(item.name, suffix, taken)
        # A joint's own name comes back in URDF, MJCF and USD output (file_name below); the
        # line says so, since every output's report carries it (Cassie's 22 hinges).
        kept = (f'; URDF, MJCF and USD output keep [{item.name}] (libsdformat refuses such a '
                'URDF)') if isinstance(item, Joint) else ''
        src.report.add(ReportKind.RENAMED, f'{tag}[{item.name}]', f'written as [{new}]: a '
                       'body has the same name, and SDFormat has one namespace for links, '
                       f'joints and frames{kept}', *src.where(tag, item.name))
        if isinstance(item, Joint):
            renamed[item.name] = new
            item.file_name = item.name  # URDF, MJCF and USD output give it back
        taken.add(new)
        item.name = new
    for j in model.joints:
        if j.axis is not None and j.axis.mimic_joint in renamed:
            j.axis.mimic_joint = renamed[j.axis.mimic_joint]
    for link in model.links:
        _unique_in_link(src, link)


def _unique_in_link(src: MjcfSource, link: Link) -> None:
    """Give a link's visuals and sensors names none of their siblings has.

    A geom that collides and is seen becomes a collision and a visual of the same name;
    libsdformat loads that, but `gz sdf -k` (every version: ``recursiveSiblingUniqueNames``)
    refuses a file whose sibling elements share a name, whatever their types. The collision
    keeps the geom's name (contact sensors and filters name collisions), and so does every
    element whose name is its own; a visual that shares its geom's name with the collision
    becomes ``<geom>_visual``, a sensor named like a geom ``<sensor>_sensor``, each reported.
    """
    items: list[tuple[Collision | Visual | Sensor, str]] = [(c, '') for c in link.collisions]
    items += [(v, 'visual') for v in link.visuals] + [(s, 'sensor') for s in link.sensors]
    taken: set[str] = set()
    clashing = []
    for item, suffix in items:
        if item.name in taken:
            clashing.append((item, suffix))
        taken.add(item.name)
    for item, suffix in clashing:
        new = _fresh(item.name, suffix, taken)
        if isinstance(item, Sensor):
            where = (item.loc.file, item.loc.line) if item.loc else (str(src.path), None)
            el = etree.fromstring(item.xml)
            el.set('name', new)
            item.xml = etree.tostring(el, encoding='unicode')
        else:
            where = src.where('geom', item.name)
        src.report.add(ReportKind.RENAMED, f'{suffix}[{item.name}]', f'written as [{new}]: '
                       f'another element of link [{link.name}] has the name, and `gz sdf -k` '
                       'refuses sibling elements of the same name', *where)
        taken.add(new)
        item.name = new


def read_mjcf(path: str | Path) -> tuple[Document | None, ConversionReport]:
    """Read an MJCF file into a description document; report what did not carry over."""
    got = _compile(Path(path))
    if isinstance(got, Diagnostic):
        return None, ConversionReport(diagnostics=[got])
    src = got
    m = src.model
    src.texts = custom_texts(m)
    name = str(getattr(src.spec, 'modelname', '') or Path(path).stem)
    model = Model(name)
    velocity = velocity_limits(src)
    for b in range(1, m.nbody):
        link = link_of_body(src, b)
        model.links.append(link)
        geoms(src, b, link)
        parent = int(m.body_parentid[b])
        upper = 'world' if parent == 0 else body_name(src, parent)
        model.joints += joints_of_body(src, b, upper, model.links, velocity)
    _world_link(src, model)
    sites(src, model)
    carried = read_sensors(src, model)
    _couplings(src, {j.name: j for j in model.joints})
    key = read_initial_key(src, {j.name: j for j in model.joints})
    _one_namespace(src, model)
    import mujoco  # loaded by _compile
    physics = world_physics(src, mujoco.MjModel.from_xml_string('<mujoco/>').opt)
    _losses(src, bool(physics), {'nsensor': carried[0], 'ncam': carried[1],
                                 'nkey': set() if key is None else {key}})
    if not model.links:  # no body, no world geom: SDFormat would refuse a model without link
        src.report.diagnostics.append(Diagnostic(
            ErrorCode.MODEL_WITHOUT_LINK, f'[{path}] has no <body> and no <geom> in its '
            '<worldbody>: nothing to convert', str(path),
            src.line('worldbody', '') or src.line('mujoco', '')))
        return None, src.report
    if physics:
        world = World(name, [model], extras=physics, loc=src.loc('option', ''))
        return Document(str(path), 'sdf', '1.11', worlds=[world]), src.report
    return Document(str(path), 'sdf', '1.11', model=model), src.report


def _model_of(doc: Document | None) -> Model | None:
    """Return the imported model (the document's, or its world's)."""
    if doc is None:
        return None
    return doc.model if doc.model is not None else doc.worlds[0].models[0]


def _keep_file_names(model: Model, read: Document) -> None:
    """Carry the MJCF names of renamed joints onto the joints the SDFormat text was read into."""
    names = {j.name: j.file_name for j in model.joints if j.file_name}
    got = _model_of(read) if read.model is not None or read.worlds else None
    for j in got.joints if got is not None else []:
        j.file_name = names.get(j.name, j.file_name)


def load_mjcf(path: str, xacro_args: dict[str, str] | None = None) -> Imported:
    """Read MJCF with MuJoCo into a load result (None when MuJoCo cannot read it).

    Every location in the result (its document and diagnostics) is a line of the
    MJCF file. ``xacro_args`` are not used (MJCF has no arguments).
    """
    doc, report = read_mjcf(path)
    if doc is None:
        return Imported(None, report)
    model = _model_of(doc)
    assert model is not None
    sdf = to_text(write_document(doc, WriteOptions(version='1.11')), [], path)  # 1.11: <mimic>
    read = read_string(sdf, path)
    # Only errors of the intermediate SDFormat matter: its defaults and lines are our own.
    errors = [d for d in read.diagnostics if d.severity is Severity.ERROR]
    read.diagnostics = in_mjcf(read.document, errors, str(path), line_map(sdf, origins(model)))
    loaded = read
    if read.document is not None:
        _keep_file_names(model, read.document)
        loaded = load_document(read.document, read.diagnostics)
        loaded.diagnostics = [d for d in loaded.diagnostics if d.severity is Severity.ERROR]
    return Imported(loaded, report, lambda r: name_mjcf(r, str(path)))
