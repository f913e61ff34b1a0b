"""Entity names and ROS namespaces: check them, and put a namespace into a model's ROS plugins.

How a namespace reaches the model: every ROS plugin of the model (a
``<plugin>`` that already has a ``<ros>`` block, or whose ``filename`` or
``name`` mentions ROS: ``gz_ros2_control-system``, ``libgazebo_ros_*``...)
gets ``<ros><namespace>NS</namespace></ros>``, the convention of
gz_ros2_control and of the gazebo_ros plugins. A relative namespace the
plugin already had is put under NS (``NS/old``); an absolute one is kept and
reported. Gazebo's own systems publish on gz-transport topics scoped by the
entity name (``/model/<name>/...``), which the unique name returned by a
spawn already separates.
"""
from __future__ import annotations

import re

from lxml import etree

_TOKEN = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')
_ROS_HINT = re.compile(r'ros', re.IGNORECASE)
# Characters gz-transport does not allow in topic names, which carry entity names.
_TOPIC_UNSAFE = re.compile(r'[\s@:=#"\'\\]')
RESERVED_NAMES = ('world', '__model__', '__root__')


def entity_name_problem(name: str) -> str | None:
    """Return why ``name`` cannot name a top-level Gazebo entity, or None when it can.

    SDFormat reserves ``::`` (the scope delimiter), names starting and
    ending with ``__`` and the name ``world``; gz-transport topics, which
    carry entity names, take no blanks and none of ``@ : = # " ' \\``.
    """
    if not name:
        return 'the name is empty'
    if '::' in name:
        return f'name [{name}] contains "::", the SDFormat scope delimiter'
    if name in RESERVED_NAMES or (name.startswith('__') and name.endswith('__')):
        return f'name [{name}] is reserved by SDFormat'
    bad = _TOPIC_UNSAFE.search(name)
    if bad:
        return f'name [{name}] contains {bad.group(0)!r}, which Gazebo topic names cannot hold'
    return None


def namespace_problem(namespace: str) -> str | None:
    """Return why ``namespace`` is not a valid ROS namespace, or None ('' means none).

    A namespace is ``/``-separated tokens of letters, digits and ``_`` that
    do not start with a digit, optionally starting with ``/``; no empty
    token, no trailing ``/``.
    """
    if not namespace or namespace == '/':
        return None
    body = namespace[1:] if namespace.startswith('/') else namespace
    for token in body.split('/'):
        if not _TOKEN.fullmatch(token):
            return (f'namespace [{namespace}] is not a valid ROS namespace: [{token}] must be '
                    'letters, digits and _ not starting with a digit')
    return None


def is_ros_plugin(plugin: etree._Element) -> bool:
    """Return True for a plugin that takes ``<ros><namespace>``."""
    if plugin.find('ros') is not None:
        return True
    return bool(_ROS_HINT.search(plugin.get('filename', '')) or _ROS_HINT.search(plugin.get('name', '')))


def apply_namespace(root: etree._Element, namespace: str) -> list[str]:
    """Give every ROS plugin under ``root`` the ``namespace``; return one note per plugin."""
    notes: list[str] = []
    if not namespace:
        return notes
    ns = namespace.rstrip('/') or '/'
    for plugin in root.iter('plugin'):
        if not is_ros_plugin(plugin):
            continue
        label = f'plugin [{plugin.get("name", "")}] ({plugin.get("filename", "")})'
        ros = plugin.find('ros')
        if ros is None:
            ros = etree.SubElement(plugin, 'ros')
        el = ros.find('namespace')
        old = (el.text or '').strip() if el is not None else ''
        if old.startswith('/'):
            notes.append(f'{label}: kept its absolute namespace [{old}]')
            continue
        if el is None:
            el = etree.SubElement(ros, 'namespace')
        el.text = f'{ns.rstrip("/")}/{old}' if old else ns
        notes.append(f'{label}: ROS namespace set to [{el.text}]')
    return notes
