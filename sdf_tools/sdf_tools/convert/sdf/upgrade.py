"""SDF -> SDF: bring a loaded SDFormat document (any version) up to 1.9+.

The reader already turned old semantics into the model's (``//pose/@frame``
into ``relative_to``, ``use_parent_model_frame`` into ``expressed_in``,
pre-1.7 name clashes renamed), so links, joints and frames are written
from the model as they are. What is left to do here is what the reader
keeps verbatim or does not keep at all:

* verbatim pieces (sensors, lights, plugins, unknown elements) of files
  older than 1.7 get libsdformat's conversions: ``//pose/@frame`` renamed
  ``relative_to`` (not inside ``<plugin>`` or namespaced elements), and
  for files older than 1.6 the world's ``physics/gravity`` and
  ``physics/magnetic_field`` moved up to the world;
* elements the reader does not model (``<velocity_decay>``, ``<battery>``,
  a joint's ``<physics>``, a heightmap's textures...) are copied from the
  source file, found by the line the model recorded;
* every ``<include>`` is written expanded (reported), since the written
  file must not depend on the versions of the files it included.
"""
from __future__ import annotations

from pathlib import Path

from lxml import etree

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.model import Extra, Joint, Link, Model, World
from sdf_tools.model.common import Loc
from sdf_tools.sdf.context import version_tuple
from sdf_tools.xmlsafe import line_of, parse_file, parse_kept, to_xml

# Children of <link>/<joint> the reader recognises but does not keep.
_LINK_UNMODELLED = ('enable_wind', 'must_be_base_link', 'velocity_decay', 'projector',
                    'audio_sink', 'audio_source', 'battery', 'particle_emitter')
_JOINT_UNMODELLED = ('physics',)
# Pre-1.7 elements with no 1.7+ meaning: reported as dropped.
_LEGACY_ONLY = ('frame',)


class SourceIndex:
    """Find the element a model item was read from, by file and line."""

    def __init__(self) -> None:
        self._files: dict[str, dict[tuple[int, str], list[etree._Element]]] = {}

    def find(self, loc: Loc | None, tag: str, name: str | None = None) -> etree._Element | None:
        """Return the ``<tag name=...>`` element starting at ``loc``, or None."""
        if loc is None or loc.file is None or loc.line is None:
            return None
        table = self._files.get(loc.file)
        if table is None:
            table = self._index(loc.file)
            self._files[loc.file] = table
        for el in table.get((loc.line, tag), []):
            if name is None or el.get('name') == name:
                return el
        return None

    @staticmethod
    def _index(file: str) -> dict[tuple[int, str], list[etree._Element]]:
        table: dict[tuple[int, str], list[etree._Element]] = {}
        if not Path(file).is_file():
            return table
        root, _ = parse_file(file)
        if root is None:
            return table
        for el in root.iter(etree.Element):
            line = line_of(el)
            if line is not None:
                table.setdefault((line, str(el.tag)), []).append(el)
        return table


def rename_pose_frame(el: etree._Element) -> None:
    """Rename ``//pose/@frame`` to ``relative_to`` outside plugins and namespaced elements."""
    if not isinstance(el.tag, str) or el.tag == 'plugin' or ':' in el.tag or el.tag.startswith('{'):
        return
    if el.tag == 'pose' and el.get('frame') is not None:
        value = el.attrib.pop('frame')
        if value and el.get('relative_to') is None:
            el.set('relative_to', value)
    for c in el:
        rename_pose_frame(c)


def _sub(parent: etree._Element, tag: str) -> etree._Element:
    found = parent.find(tag)
    return found if found is not None else etree.SubElement(parent, tag)


def upgrade_imu_noise(sensor: etree._Element) -> bool:
    """1.5 -> 1.6: an IMU's ``noise/rate`` and ``noise/accel`` become per-axis noise elements."""
    imu = sensor.find('imu')
    noise = imu.find('noise') if imu is not None else None
    if imu is None or noise is None:
        return False
    kind = (noise.findtext('type') or '').strip()
    for target, source in (('angular_velocity', 'rate'), ('linear_acceleration', 'accel')):
        src = noise.find(source)
        for axis in 'xyz':
            n = _sub(_sub(_sub(imu, target), axis), 'noise')
            if kind:
                n.set('type', kind)
            for field in ('mean', 'stddev', 'bias_mean', 'bias_stddev'):
                value = src.findtext(field) if src is not None else None
                if value is not None:
                    etree.SubElement(n, field).text = value.strip()
    imu.remove(noise)
    return True


def _fix_xml(xml: str, version: tuple[int, int], imus: list[str] | None = None) -> str:
    """Apply libsdformat's pre-1.7 conversions to a verbatim piece (``imus`` collects IMUs changed)."""
    if version >= (1, 7) or ('frame' not in xml and 'imu' not in xml):
        return xml
    try:
        el = parse_kept(xml)
    except etree.XMLSyntaxError:
        return xml
    rename_pose_frame(el)
    if version < (1, 6):
        for sensor in el.iter('sensor'):
            if upgrade_imu_noise(sensor) and imus is not None:
                imus.append(sensor.get('name', ''))
    return to_xml(el)


def _fix_pieces(model: Model, version: tuple[int, int], report: ConversionReport) -> None:
    for link in model.links:
        for s in link.sensors:
            imus: list[str] = []
            s.xml = _fix_xml(s.xml, version, imus)
            if imus and s.loc is not None:
                report.add(ReportKind.REWRITTEN, f'model[{model.name}]/link[{link.name}]/sensor[{s.name}]',
                           'IMU <noise> rewritten as per-axis angular_velocity and '
                           'linear_acceleration noise (SDFormat 1.6 layout)', s.loc.file, s.loc.line)
        for li in link.lights:
            li.xml = _fix_xml(li.xml, version)
        link.extras = [Extra(e.tag, _fix_xml(e.xml, version), e.loc) for e in link.extras]
        for v in link.visuals:
            v.extras = [Extra(e.tag, _fix_xml(e.xml, version), e.loc) for e in v.extras]
        for c in link.collisions:
            c.extras = [Extra(e.tag, _fix_xml(e.xml, version), e.loc) for e in c.extras]
    for joint in model.joints:
        for s in joint.sensors:
            s.xml = _fix_xml(s.xml, version)
        joint.extras = [Extra(e.tag, _fix_xml(e.xml, version), e.loc) for e in joint.extras]
    model.extras = [Extra(e.tag, _fix_xml(e.xml, version), e.loc) for e in model.extras]


def _recover(src: SourceIndex, owner: Link | Joint, kind: str, keep: tuple[str, ...],
             report: ConversionReport, where: str) -> None:
    """Copy the children the reader did not keep from the source element."""
    el = src.find(owner.loc, kind, owner.name)
    if el is None:
        return
    for c in el.iterchildren(etree.Element):
        tag = str(c.tag)
        loc = owner.loc
        if tag in keep:
            owner.extras.append(Extra(tag, to_xml(c), Loc(loc.file if loc else None, line_of(c))))
        elif tag in _LEGACY_ONLY:
            report.add(ReportKind.DROPPED, f'{where}/{tag}',
                       f'<{tag}> inside <{kind}> is a pre-1.7 element that libsdformat ignores',
                       loc.file if loc else None, line_of(c))


def _recover_heightmaps(src: SourceIndex, link: Link) -> None:
    """Keep a heightmap's textures, blends and options, which the model does not hold."""
    for g in [c.geometry for c in link.collisions] + [v.geometry for v in link.visuals]:
        if g is None or g.type != 'heightmap':
            continue
        el = src.find(g.loc, 'heightmap')
        if el is not None:
            g.params['verbatim'] = to_xml(el)


def upgrade_model(model: Model, src: SourceIndex, report: ConversionReport, scope: str = '') -> None:
    """Prepare one model (and its nested models) read from SDFormat for writing."""
    where = f'{scope}model[{model.name}]'
    version = version_tuple(model.version)
    if model.source_uri:
        loc = model.loc
        report.add(ReportKind.REWRITTEN, where,
                   f'<include> of [{model.source_uri}] written out in full (SDFormat {model.version} '
                   'source brought to the output version)', loc.file if loc else None,
                   loc.line if loc else None)
    _fix_pieces(model, version, report)
    for link in model.links:
        _recover(src, link, 'link', _LINK_UNMODELLED, report, f'{where}/link[{link.name}]')
        _recover_heightmaps(src, link)
    for joint in model.joints:
        _recover(src, joint, 'joint', _JOINT_UNMODELLED, report, f'{where}/joint[{joint.name}]')
    for m in model.models:
        upgrade_model(m, src, report, f'{where}/')


def _move_world_physics(world: World, report: ConversionReport) -> None:
    """1.5 -> 1.6: ``physics/gravity`` and ``physics/magnetic_field`` move up to the world."""
    have = {e.tag for e in world.extras}
    for i, extra in enumerate(list(world.extras)):
        if extra.tag != 'physics':
            continue
        el = parse_kept(extra.xml)
        for tag in ('gravity', 'magnetic_field'):
            found = el.find(tag)
            if found is None:
                continue
            el.remove(found)
            found.tail = None
            if tag not in have:
                world.extras.append(Extra(tag, to_xml(found), extra.loc))
                have.add(tag)
            report.add(ReportKind.REWRITTEN, f'world[{world.name}]/physics/{tag}',
                       f'moved to world/{tag} (SDFormat 1.6 moved it there)',
                       extra.loc.file if extra.loc else None, extra.loc.line if extra.loc else None)
        world.extras[i] = Extra('physics', to_xml(el), extra.loc)


def upgrade_world(world: World, doc_version: str, src: SourceIndex, report: ConversionReport) -> None:
    """Prepare a world read from SDFormat for writing."""
    version = version_tuple(doc_version)
    if version < (1, 6):
        _move_world_physics(world, report)
    world.extras = [Extra(e.tag, _fix_xml(e.xml, version), e.loc) for e in world.extras]
    for light in world.lights:
        light.xml = _fix_xml(light.xml, version)
    for m in world.models:
        upgrade_model(m, src, report)
