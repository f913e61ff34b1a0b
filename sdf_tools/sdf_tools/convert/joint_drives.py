"""Default joint drives from ``<transmission>`` and ``<ros2_control>`` (``joint_drive_from_transmission``).

SDFormat has no joint drive element: in Gazebo a joint is driven by a
system plugin. When a robot says how its joints are commanded (a
``<ros2_control>`` ``<command_interface>``, or a ``<transmission>``
``hardwareInterface``) but carries no ros2_control plugin for Gazebo
(``gz_ros2_control``, ``ign_ros2_control`` or ``gazebo_ros2_control``,
which reads those blocks itself from ``robot_description``), each commanded
joint gets the gz-sim system of its interface, so that it is driven rather
than limp:

=========  ===================================================================
position   ``gz-sim-joint-position-controller-system`` (JointPositionController)
velocity   ``gz-sim-joint-controller-system`` (JointController)
effort     ``gz-sim-apply-joint-force-system`` (ApplyJointForce)
=========  ===================================================================

Each one is reported as assumed. The blocks themselves stay in the file
as ``<urdf:transmission>`` / ``<urdf:ros2_control>``.
"""
from __future__ import annotations

from lxml import etree

from sdf_tools.convert.conversion_report import ConversionReport, ReportKind
from sdf_tools.model import Model, Plugin
from sdf_tools.xmlsafe import line_of, parse_kept

_SYSTEMS = {
    'position': ('gz-sim-joint-position-controller-system', 'gz::sim::systems::JointPositionController'),
    'velocity': ('gz-sim-joint-controller-system', 'gz::sim::systems::JointController'),
    'effort': ('gz-sim-apply-joint-force-system', 'gz::sim::systems::ApplyJointForce'),
}
# Plugin files and ros2_control hardware plugins that mean Gazebo's ros2_control drives the joints.
_CONTROL_PLUGINS = ('ros_control', 'ros2_control')


def _interface(text: str) -> str | None:
    low = text.lower()
    for kind in ('position', 'velocity', 'effort'):
        if kind in low:
            return kind
    return None


def _blocks(model: Model) -> list[tuple[str, etree._Element, int | None, str | None]]:
    """Return the ros2_control blocks, then the transmissions, parsed (ros2_control wins)."""
    out: list[tuple[str, etree._Element, int | None, str | None]] = []
    for kind in ('ros2_control', 'transmission'):
        for extra in model.extras:
            if extra.tag.split(':')[-1] != kind:
                continue
            try:
                el = parse_kept(extra.xml)
            except etree.XMLSyntaxError:
                continue
            base = extra.loc.line if extra.loc and extra.loc.line else None
            out.append((kind, el, base, extra.loc.file if extra.loc else None))
    return out


def commanded_joints(model: Model) -> dict[str, tuple[str, int | None, str | None]]:
    """Return joint -> (interface, line, file) from the ros2_control blocks, then the transmissions."""
    out: dict[str, tuple[str, int | None, str | None]] = {}
    for _, el, base, file in _blocks(model):
        for joint in el.iter('joint'):
            name = joint.get('name')
            texts = [c.get('name', '') for c in joint.iter('command_interface')]
            texts += [(c.text or '') for c in joint.iter('hardwareInterface')]
            kinds = [k for k in (_interface(t) for t in texts) if k is not None]
            if name and kinds and name not in out:
                own = line_of(joint)
                line = base + own - 1 if base is not None and own is not None else base
                out[name] = (kinds[0], line, file)
    return out


def _gazebo_control(model: Model) -> bool:
    """Return whether Gazebo's ros2_control (or ros_control) is meant to drive the joints."""
    if any(any(k in p.filename for k in _CONTROL_PLUGINS) for p in model.plugins):
        return True
    for kind, el, _, _ in _blocks(model):
        if kind == 'ros2_control':
            for plugin in el.iter('plugin'):
                text = (plugin.text or '').lower()
                if 'gz_ros2_control' in text or 'ign_ros2_control' in text or 'gazebo_ros2_control' in text:
                    return True
    return False


def add_joint_drives(model: Model, report: ConversionReport) -> None:
    """Add a gz-sim drive system per commanded joint unless a ros2_control plugin is there."""
    commanded = commanded_joints(model)
    if not commanded:
        return
    if _gazebo_control(model):
        report.add(ReportKind.KEPT, f'model[{model.name}]/ros2_control',
                   "Gazebo's ros2_control drives the joints (a ros_control/ros2_control plugin, "
                   'or a Gazebo ros2_control hardware plugin): no joint drive added')
        return
    joints = {j.name: j for j in model.joints}
    for name, (kind, line, file) in commanded.items():
        if name not in joints or joints[name].type == 'fixed':
            continue
        filename, cls = _SYSTEMS[kind]
        xml = (f'<plugin filename="{filename}" name="{cls}"><joint_name>{name}</joint_name>'
               '</plugin>')
        model.plugins.append(Plugin(cls, filename, xml))
        report.add(ReportKind.ASSUMED, f'joint[{name}]/drive',
                   f'commanded through the {kind} interface and no ros2_control plugin is '
                   f'given: {cls} added (joint_drive_from_transmission)', file, line)
