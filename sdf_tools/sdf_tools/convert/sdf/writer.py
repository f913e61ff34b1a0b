"""Write a description model as SDFormat 1.9, 1.10, 1.11 or 1.12 text.

Everything the model holds is written: links, joints, frames, nested
models, plugins, sensors, lights and unknown elements (the last four
verbatim, as libsdformat keeps them), worlds with their physics/scene
blocks, actors and top-level lights. Converters prepare the model (lumping,
renaming, placement) before it gets here; this module only prints.

The text starts with a comment block listing the conversion report, one
line per entry, so a reader of the file sees what was assumed, changed or
lost without the JSON report.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from sdf_tools.convert.conversion_report import ReportEntry
from sdf_tools.convert.sdf.elements import (
    frame_element,
    joint_element,
    link_element,
    nums,
    pose_element,
    sub,
)
from sdf_tools.model import Actor, Document, Joint, Light, Model, World
from sdf_tools.sdf.joint import SDF_TOOLS_NS
from sdf_tools.xmlsafe import parse_kept

#: Namespace of URDF elements carried through an SDFormat file (``<urdf:transmission>``).
URDF_NS = 'http://www.ros.org/wiki/urdf'
#: Element names with no meaning in an XML comment.
_COMMENT_UNSAFE = ('--',)


@dataclass
class WriteOptions:
    """How to print: the target version, element order and known namespaces.

    Attributes:
        version: '1.9', '1.10', '1.11' or '1.12' (a model is written in 1.12 as in 1.11:
            libsdformat's 1.11 -> 1.12 conversion is empty).
        joint_before_child: write each joint just before its child link
            (the order libsdformat gives a converted URDF).
        namespaces: prefixes that verbatim pieces may use without declaring
            them (``urdf`` for carried URDF elements).
        expand_auto_inertials: write the values computed for ``<inertial auto="true">``
            (``gz sdf --expand-auto-inertials``) instead of the element as written.
    """

    version: str = '1.9'
    joint_before_child: bool = False
    expand_auto_inertials: bool = False
    namespaces: dict[str, str] = field(default_factory=lambda: {'urdf': URDF_NS,
                                                                     'sdf_tools': SDF_TOOLS_NS})

    @property
    def mimic_in_axis(self) -> bool:
        """SDFormat 1.11+ has ``//joint/axis/mimic``; older versions do not."""
        return self.version not in ('1.9', '1.10')


class _Writer:
    def __init__(self, opts: WriteOptions) -> None:
        self.opts = opts
        self.parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=False)

    def verbatim(self, xml: str) -> etree._Element | None:
        """Parse a kept XML piece; None when it is not well-formed (never expected)."""
        text = xml.strip()
        if not text:
            return None
        wrapped = self._wrap(text)
        try:
            holder = etree.fromstring(wrapped, self.parser)
        except etree.XMLSyntaxError:
            try:
                # A prefix no file declared (gz-sim's odometer.sdf: <sensor gz:type="odometer">
                # with <gz:odometer>) is kept as the reader kept it, as libsdformat writes it.
                holder = parse_kept(wrapped)
            except etree.XMLSyntaxError:
                return None
        return holder[0] if len(holder) else None

    def _wrap(self, text: str) -> str:
        # Declare the prefixes a piece may use without declaring them itself.
        decls = ' '.join(f'xmlns:{p}="{u}"' for p, u in self.opts.namespaces.items()
                         if f'{p}:' in text and f'xmlns:{p}=' not in text)
        return f'<holder {decls}>{text}</holder>'

    def model(self, parent: etree._Element, model: Model) -> etree._Element:
        el = sub(parent, 'model', name=model.name)
        if model.canonical_link:
            el.set('canonical_link', model.canonical_link)
        if model.placement_frame:
            el.set('placement_frame', model.placement_frame)
        if model.static:
            sub(el, 'static', 'true')
        if model.self_collide:
            sub(el, 'self_collide', 'true')
        if not model.allow_auto_disable:
            sub(el, 'allow_auto_disable', 'false')
        if model.enable_wind:
            sub(el, 'enable_wind', 'true')
        pose_element(el, model.pose)
        self._links_and_joints(el, model)
        for f in model.frames:
            frame_element(el, f)
        for m in model.models:
            self.model(el, m)
        self._pieces(el, [p.xml for p in model.plugins] + [e.xml for e in model.extras])
        return el

    def _links_and_joints(self, el: etree._Element, model: Model) -> None:
        mimic = self.opts.mimic_in_axis
        if not self.opts.joint_before_child:
            for link in model.links:
                link_element(el, link, self.verbatim, expand_auto=self.opts.expand_auto_inertials)
            for joint in model.joints:
                joint_element(el, joint, self.verbatim, mimic=mimic)
            return
        by_child: dict[str, list[Joint]] = {}
        for joint in model.joints:
            by_child.setdefault(joint.child, []).append(joint)
        written: set[int] = set()
        for link in model.links:
            for joint in by_child.get(link.name, []):
                joint_element(el, joint, self.verbatim, mimic=mimic)
                written.add(id(joint))
            link_element(el, link, self.verbatim, expand_auto=self.opts.expand_auto_inertials)
        for joint in model.joints:
            if id(joint) not in written:
                joint_element(el, joint, self.verbatim, mimic=mimic)

    def _pieces(self, el: etree._Element, pieces: list[str]) -> None:
        for xml in pieces:
            piece = self.verbatim(xml)
            if piece is not None:
                el.append(piece)

    def light(self, parent: etree._Element, light: Light) -> None:
        self._pieces(parent, [light.xml])

    def actor(self, parent: etree._Element, actor: Actor) -> etree._Element:
        el = sub(parent, 'actor', name=actor.name)
        pose_element(el, actor.pose)
        if actor.skin_filename is not None:
            skin = sub(el, 'skin')
            sub(skin, 'filename', actor.skin_filename)
            sub(skin, 'scale', nums([actor.skin_scale]))
        for a in actor.animations:
            an = sub(el, 'animation', name=a.name)
            sub(an, 'filename', a.filename)
            sub(an, 'scale', nums([a.scale]))
            sub(an, 'interpolate_x', 'true' if a.interpolate_x else 'false')
        script = sub(el, 'script')
        sub(script, 'loop', 'true' if actor.loop else 'false')
        sub(script, 'delay_start', nums([actor.delay_start]))
        sub(script, 'auto_start', 'true' if actor.auto_start else 'false')
        for t in actor.trajectories:
            tr = sub(script, 'trajectory', id=str(t.id), type=t.type, tension=nums([t.tension]))
            for w in t.waypoints:
                wp = sub(tr, 'waypoint')
                sub(wp, 'time', nums([w.time]))
                pose_element(wp, w.pose, keep_relative_to=False)
        shell = Model(actor.name, links=actor.links, joints=actor.joints)
        self._links_and_joints(el, shell)
        self._pieces(el, [p.xml for p in actor.plugins] + [e.xml for e in actor.extras])
        return el

    def world(self, parent: etree._Element, world: World) -> etree._Element:
        el = sub(parent, 'world', name=world.name)
        self._pieces(el, [e.xml for e in world.extras])
        for light in world.lights:
            self.light(el, light)
        for f in world.frames:
            frame_element(el, f)
        for m in world.models:
            self.model(el, m)
        for j in world.joints:
            joint_element(el, j, self.verbatim, mimic=self.opts.mimic_in_axis)
        for a in world.actors:
            self.actor(el, a)
        self._pieces(el, [p.xml for p in world.plugins])
        return el


def write_document(doc: Document, opts: WriteOptions) -> etree._Element:
    """Return the ``<sdf>`` element of ``doc`` in version ``opts.version``.

    Only the namespaces some element or attribute uses are declared, on
    ``<sdf>``, as libsdformat wants for custom elements.
    """
    w = _Writer(opts)
    scratch = etree.Element('sdf', nsmap=dict(opts.namespaces))
    for world in doc.worlds:
        w.world(scratch, world)
    if doc.model is not None:
        w.model(scratch, doc.model)
    if doc.light is not None:
        w.light(scratch, doc.light)
    if doc.actor is not None:
        w.actor(scratch, doc.actor)
    nsmap = _used_namespaces(scratch)
    root = etree.Element('sdf', {'version': opts.version}, nsmap=nsmap)
    for child in list(scratch):
        root.append(child)
    etree.cleanup_namespaces(root, top_nsmap=nsmap)
    return root


def _used_namespaces(root: etree._Element) -> dict[str, str]:
    """Map each prefix used by an element or attribute to its namespace (first one wins)."""
    used: dict[str, str] = {}
    for el in root.iter(etree.Element):
        names = [str(el.tag), *(str(a) for a in el.attrib)]
        for name in names:
            if not name.startswith('{'):
                continue
            uri = name[1:].split('}')[0]
            prefix = next((p for p, u in (el.nsmap or {}).items() if u == uri and p), None)
            if prefix is not None and prefix not in used and uri not in used.values():
                used[prefix] = uri
    return used


def header_comment(entries: list[ReportEntry], source: str | None = None,
                   tool: str = 'sdf_tools convert') -> str:
    """Return the comment block listing the report, one entry per line.

    Entries from ``source`` (the converted file, named once at the top) give
    their line only; entries from other files give ``file:line``.
    """
    head = f' {tool}: {len(entries)} report entr{"y" if len(entries) == 1 else "ies"}'
    if source:
        head += f' for {source}'
    lines = [head]
    for e in entries:
        if e.file is None or e.file == source:
            where = f'line {e.line}' if e.line is not None else 'input'
        else:
            where = f'{e.file}:{e.line}' if e.line is not None else e.file
        line = f'   {e.kind.value}: {e.element}: {e.message} ({where})'
        for bad in _COMMENT_UNSAFE:
            line = line.replace(bad, '- -')
        lines.append(line)
    return '<!--\n' + '\n'.join(lines) + '\n-->'


def to_text(root: etree._Element, entries: list[ReportEntry], source: str | None = None) -> str:
    """Serialise ``<sdf>`` with the XML declaration and the report comment."""
    etree.indent(root, space='  ')
    body = etree.tostring(root, encoding='unicode')
    return '<?xml version="1.0"?>\n' + header_comment(entries, source) + '\n' + body + '\n'
