"""Running a node: signal handling and the fastest executor this rclpy has."""
from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import TypeVar

import rclpy
from rclpy.executors import Executor, SingleThreadedExecutor
from rclpy.node import Node
from rclpy.signals import SignalHandlerOptions

from sdf_tools.ros.typed_params import ParameterTypeError


def say_ready(node: Node, what: str) -> None:
    """Log at DEBUG, on the logger ``<node name>.startup``, that ``node`` is up and what it cost.

    ``what`` names the moment (its services created, its first ``/tf_static``
    published). The line carries the process's CPU time so far; its stamp is
    the moment. ``bench/bench_ros_startup.py`` turns that one logger on
    (``--log-level <name>.startup:=debug``) to time a start without waiting on DDS
    discovery, whose steps of ~0.25 s would hide what the node itself takes.
    """
    node.get_logger().get_child('startup').debug(
        f'ready: {what} ({time.process_time():.4f} s CPU since the process started)')


def events_executor() -> Callable[[], Executor] | None:
    """Return rclpy's events executor class where it exists (Jazzy and later), else None.

    It has several times less overhead per callback than the single-threaded
    executor, which is what a 1 kHz joint_states stream needs.
    """
    try:
        from rclpy.experimental import EventsExecutor  # type: ignore[attr-defined]
    except ImportError:
        return None
    return EventsExecutor


# How long a node may take to stop once signalled: a callback still waiting on a simulator, or
# a transport thread that does not end, must not keep a SIGTERMed node alive (CI saw a spawner
# outlive SIGTERM by 10 s once in many runs).
STOP_GRACE_S = 5.0


def _exit_now() -> None:
    print(f'[sdf_tools] did not stop within {STOP_GRACE_S:g} s of the signal: exiting',
          file=sys.stderr, flush=True)
    os._exit(0)


def stop_on_signals() -> threading.Event:
    """Return an event set by SIGINT or SIGTERM (Python handlers, checked between callbacks).

    The first signal also arms a daemon timer that ends the process after ``STOP_GRACE_S``
    if the orderly stop (spin loop, destroy_node, rclpy shutdown, thread joins) hangs.
    """
    stop = threading.Event()

    def on_signal(*_: object) -> None:
        if not stop.is_set():
            timer = threading.Timer(STOP_GRACE_S, _exit_now)
            timer.daemon = True
            timer.start()
        stop.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, on_signal)
    return stop


def spin_until(node: Node, stop: threading.Event) -> None:
    """Spin ``node`` until ``stop`` is set, with the fastest executor this rclpy has.

    A loop of ``spin_once`` with our own signal handlers: the events executor
    ignores rclpy's handlers, and this way no executor thread outlives the node.
    """
    factory = events_executor()
    executor = factory() if factory is not None else SingleThreadedExecutor()
    executor.add_node(node)
    while not stop.is_set():
        executor.spin_once(timeout_sec=0.1)
    executor.remove_node(node)


def init_or_explain(args: list[str] | None, **kwargs: object) -> bool:
    """``rclpy.init``; on arguments rcl refuses, say so on stderr (no traceback) and return False.

    rcl refuses e.g. ``-p robot_description:=<a whole URDF>`` (the value is
    read as YAML); its message names the rule it could not parse.
    """
    try:
        rclpy.init(args=args if args is not None else sys.argv, **kwargs)  # type: ignore[arg-type]
    except Exception as err:  # noqa: BLE001 (rclpy raises its C extension's RCLError)
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        print(f'cannot start: {first[:400]}{"..." if len(first) > 400 else ""}\n'
              'A parameter value rcl cannot parse (a whole URDF in -p, say) belongs in a '
              '--params-file.', file=sys.stderr)
        return False
    return True


N = TypeVar('N', bound=Node)


def make_or_explain(factory: Callable[[], N]) -> N | None:
    """Create the node; when a start-up parameter has the wrong type, say so on stderr, return None."""
    try:
        return factory()
    except ParameterTypeError as err:
        print(f'cannot start: {err}', file=sys.stderr)
        rclpy.try_shutdown()
        return None


def run_node(factory: Callable[[], Node], args: list[str] | None = None) -> int:
    """Create the node, spin it until SIGINT or SIGTERM, shut down; return 0 (2: cannot start)."""
    if not init_or_explain(args, signal_handler_options=SignalHandlerOptions.NO):
        return 2
    stop = stop_on_signals()
    node = make_or_explain(factory)
    if node is None:
        return 2
    try:
        spin_until(node, stop)
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    return 0
