"""gz-transport through its Python bindings (Gazebo Harmonic and later), when they are installed.

The bindings are versioned modules (``gz.transport13`` + ``gz.msgs10`` in
Harmonic, ``gz.transport14`` + ``gz.msgs11`` in Ionic, unversioned from
Jetty); the newest importable pair is used. Requests and replies go through
protobuf's own text format, so :class:`~sdf_tools.spawn.gz_backend.GzBackend`
is the same whichever transport carries them. Fortress has no bindings: the
command-line backend is used there.
"""
from __future__ import annotations

import importlib
import threading
from typing import Any

from sdf_tools.spawn.errors import BackendError, BackendTimeoutError, BackendUnavailableError
from sdf_tools.spawn.gz_backend import GzBackend
from sdf_tools.spawn.textproto import TextFormatError, TextMessage, parse

_VERSIONS = (('gz.transport', 'gz.msgs'), ('gz.transport14', 'gz.msgs11'),
             ('gz.transport13', 'gz.msgs10'))
_MODULES = {'Empty': 'empty', 'Boolean': 'boolean', 'EntityFactory': 'entity_factory',
            'Entity': 'entity', 'Pose': 'pose', 'Pose_V': 'pose_v', 'Scene': 'scene',
            'StringMsg_V': 'stringmsg_v'}


def import_bindings() -> tuple[Any, str]:
    """Return the transport module and the message package name of the newest bindings.

    Raises:
        BackendUnavailableError: no gz-transport Python bindings can be imported.
    """
    for transport, msgs in _VERSIONS:
        try:
            module = importlib.import_module(transport)
            importlib.import_module(f'{msgs}.empty_pb2')
        except ImportError:
            continue
        return module, msgs
    raise BackendUnavailableError('the gz-transport Python bindings (gz.transport13 or later) '
                                  'are not installed')


class GzPythonTransport:
    """A :class:`~sdf_tools.spawn.gz_backend.GzTransport` over the Python bindings."""

    max_request: int | None = None

    def __init__(self, *, timeout: float = 5.0) -> None:
        transport, self.msgs = import_bindings()
        self.node = transport.Node()
        self.timeout = timeout
        self.text_format: Any = importlib.import_module('google.protobuf.text_format')

    def _type(self, name: str) -> Any:
        module = importlib.import_module(f'{self.msgs}.{_MODULES[name]}_pb2')
        return getattr(module, name)

    def _read(self, message: Any, where: str) -> TextMessage:
        try:
            return parse(self.text_format.MessageToString(message))
        except TextFormatError as err:
            raise BackendError(f'unreadable answer on {where}: {err}') from err

    def request(self, service: str, req_type: str, rep_type: str, request: str) -> TextMessage:
        req_cls, rep_cls = self._type(req_type), self._type(rep_type)
        msg = self.text_format.Parse(request, req_cls())
        ok, reply = self.node.request(service, msg, req_cls, rep_cls, int(self.timeout * 1000))
        if not ok:
            raise BackendTimeoutError(f'no answer on {service} within {self.timeout:g} s')
        return self._read(reply, service)

    def echo_one(self, topic: str, msg_type: str) -> TextMessage:
        got: list[Any] = []
        event = threading.Event()

        def on_message(message: Any) -> None:
            if not got:
                got.append(message)
                event.set()

        if not self.node.subscribe(self._type(msg_type), topic, on_message):
            raise BackendError(f'cannot subscribe to {topic}')
        try:
            if not event.wait(min(self.timeout, 2.0)):
                raise BackendTimeoutError(f'nothing published on {topic}')
        finally:
            self.node.unsubscribe(topic)
        return self._read(got[0], topic)


def gz_python_backend(*, timeout: float = 5.0) -> GzBackend:
    """Return a Gazebo backend over the Python bindings (raises ``BackendUnavailableError``)."""
    return GzBackend(GzPythonTransport(timeout=timeout))
