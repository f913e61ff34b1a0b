"""The launch actions every launch file of ours is made of: watched nodes, a clean stop on SIGTERM.

``launch`` and ``launch_ros`` are imported inside the functions: this module
is imported by the launch files only, where ``ros2 launch`` has them, while
the rules these actions follow live in :mod:`sdf_tools.ros.launch_logic` and
are tested without launch (CI has none).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sdf_tools.ros.launch_logic import NodeDiedError, NodeSpec, node_exit_failure, stop_on_sigterm

#: Why the launch must fail when a node exits with a code (None: it must not), given whether
#: the launch is shutting down: ``node_exit_failure`` of its spec unless a launch says otherwise.
ExitRule = Callable[[int | None, bool], str | None]


def watched(spec: NodeSpec, *, rule: ExitRule | None = None,
            error: type[Exception] = NodeDiedError) -> list[Any]:
    """Return the node of ``spec`` and a handler that fails the launch when it dies.

    Args:
        spec: the node (see :func:`sdf_tools.ros.launch_logic.description_nodes`).
        rule: when its exit fails the launch; default :func:`node_exit_failure`.
        error: raised with the reason: ``ros2 launch`` then stops the rest and exits 1.
    """
    from launch.actions import RegisterEventHandler
    from launch.event_handlers import OnProcessExit
    from launch_ros.actions import Node

    node = Node(package=spec.package, executable=spec.executable, name=spec.name,
                namespace=spec.namespace, parameters=spec.parameters, arguments=spec.arguments,
                output='screen')

    def judge(returncode: int | None, shutting_down: bool) -> str | None:
        return node_exit_failure(spec, returncode, shutting_down=shutting_down)

    def on_exit(event: Any, context: Any) -> None:
        reason = (rule or judge)(event.returncode, bool(context.is_shutdown))
        if reason is not None:
            raise error(reason)

    return [node, RegisterEventHandler(OnProcessExit(target_action=node, on_exit=on_exit))]


def sigterm_stops_cleanly() -> Any:
    """Return an action after which a SIGTERM stops the launch as Ctrl-C does (exit status 0).

    See :func:`sdf_tools.ros.launch_logic.stop_on_sigterm` for why ``ros2
    launch`` needs it. The signal manager ``ros2 launch`` runs is found where
    launch keeps the current one; a launch without it keeps launch's own
    handling, said at debug level.
    """
    from launch.actions import OpaqueFunction
    return OpaqueFunction(function=_take_over_sigterm)


def _take_over_sigterm(context: Any) -> None:
    import launch.logging
    from launch.events import Shutdown
    from launch.utilities.signal_management import AsyncSafeSignalManager

    logger = launch.logging.get_logger('sdf_tools')
    manager = getattr(AsyncSafeSignalManager, '_AsyncSafeSignalManager__current', None)
    if manager is None:
        logger.debug("no launch signal manager running: SIGTERM keeps launch's own handling")
        return

    def stop(reason: str) -> None:
        logger.info(f'{reason}: stopping the nodes as Ctrl-C does')
        context.emit_event_sync(Shutdown(reason=reason))

    stop_on_sigterm(manager, stop)
