"""The ``spawner`` node: spawn, delete, move and list models in a running Gazebo, over ROS services.

Services (types in ``sdf_tools_interfaces``; ``ros2 interface show`` explains each field):

* ``~/spawn`` (``srv/SpawnModel``): a model from a file/URI, text, a parameter
  (of this node or ``node/parameter`` of another, e.g. robot_state_publisher's
  ``robot_description``) or a topic; SDFormat, URDF or xacro; validated,
  converted, its URIs made resolvable, spawned and confirmed in the world;
* ``~/delete`` (``srv/DeleteEntity``), ``~/set_pose`` (``srv/SetEntityPose``),
  ``~/list`` (``srv/ListEntities``);
* ``~/spawn_entity`` and ``~/delete_entity`` with ``simulation_interfaces``'
  ``SpawnEntity``/``DeleteEntity`` types, when that package is installed.

Parameters: ``backend`` (``auto``, ``gz_cli``, ``gz_python``), ``world``
(default world; '' = the one Gazebo runs), ``timeout`` (seconds),
``uris`` (``file``, ``model``, ``keep``). Any other parameter given to the
node (e.g. ``robot_description``) can be named as a request's ``parameter``.

Spawn at start-up (what ``ros2 run ros_gz_sim create`` does, with its
parameter names): when one of ``file``, ``string``, ``topic`` or ``param``
is set, the node spawns that model once, with ``name``, ``allow_renaming``,
``x y z R P Y``, ``relative_to``, ``format``, ``xacro_args`` (list of
``name:=value``), ``model`` and ``entity_namespace``; with ``exit_after_spawn`` it then exits
(status 0 on success, 1 otherwise), else it goes on serving.

The work is :mod:`sdf_tools.spawn`; this module only moves fields between
messages and it. Every request gets an answer: a bad one gets a result code
and a message, an unexpected exception OPERATION_FAILED; the node keeps
serving.
"""
from __future__ import annotations

import importlib
import shlex
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import rclpy
from geometry_msgs.msg import Pose
from rcl_interfaces.srv import GetParameters
from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.executors import ExternalShutdownException, MultiThreadedExecutor
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from rclpy.signals import SignalHandlerOptions
from std_msgs.msg import String

from sdf_tools.errors import Severity
from sdf_tools.gazebo import TARGETS, using
from sdf_tools.ros.spin import init_or_explain, make_or_explain, say_ready, stop_on_signals
from sdf_tools.ros.typed_params import TypedParameters
from sdf_tools.spawn import (
    EntityInfo,
    Outcome,
    ResultCode,
    SimulatorBackend,
    make_backend,
    to_simulation_interfaces,
)
from sdf_tools.spawn.errors import BackendUnavailableError
from sdf_tools.spawn.result import SpawnError
from sdf_tools.transform import Transform
from sdf_tools.xacro_args import parse_name_values
from sdf_tools_interfaces.msg import SimEntity
from sdf_tools_interfaces.srv import DeleteEntity, ListEntities, SetEntityPose, SpawnModel

if TYPE_CHECKING:  # the pipeline (the reader, the converters) is imported by the first request
    from sdf_tools.spawn.pipeline import SpawnRequest

PARAMETERS: dict[str, Any] = {'backend': 'auto', 'world': '', 'timeout': 5.0, 'uris': 'file',
                              'gazebo': ''}  # gazebo: the target read as ('' : ROS_DISTRO's)
#: The start-up spawn's parameters (ros_gz_sim create's names, plus ours).
STARTUP_PARAMETERS: dict[str, Any] = {
    'file': '', 'string': '', 'topic': '', 'param': '', 'name': '', 'allow_renaming': False,
    'x': 0.0, 'y': 0.0, 'z': 0.0, 'R': 0.0, 'P': 0.0, 'Y': 0.0, 'relative_to': '', 'format': 'auto',
    'xacro_args': '', 'model': '', 'entity_namespace': '', 'exit_after_spawn': False}
LATCHED = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                     reliability=ReliabilityPolicy.RELIABLE)


def transform_from(pose: Any) -> Transform:
    """Return a geometry_msgs Pose as a transform (the quaternion is checked later, not fixed)."""
    p, q = pose.position, pose.orientation
    return Transform((p.x, p.y, p.z), (q.w, q.x, q.y, q.z))


def initial_pose(stamped: Any) -> tuple[Transform | None, str]:
    """Return a PoseStamped as (pose, frame); the identity in no frame means "the model's own pose"."""
    pose, frame = transform_from(stamped.pose), stamped.header.frame_id
    if not frame and pose.p == (0.0, 0.0, 0.0) and pose.q == (1.0, 0.0, 0.0, 0.0):
        return None, ''
    return pose, frame


def pose_msg(x: Transform | None) -> Pose:
    """Return a geometry_msgs Pose for ``x`` (identity when None)."""
    msg = Pose()
    if x is not None:
        msg.position.x, msg.position.y, msg.position.z = x.p
        msg.orientation.w, msg.orientation.x, msg.orientation.y, msg.orientation.z = x.q
    return msg


def xacro_args(items: Sequence[str]) -> dict[str, str]:
    """Return ``name:=value`` items as a dict (raises SpawnError for a malformed one)."""
    out, bad = parse_name_values(items)
    if bad:
        raise SpawnError(ResultCode.RESOURCE_PARSE_ERROR, f'xacro argument {bad[0]}')
    return out


def _string_list(value: Any) -> list[str]:
    """Return a parameter that is a list of strings or one shell-quoted string as a list."""
    if isinstance(value, str):
        return shlex.split(value)
    return [str(v) for v in value or [] if v]


def entity_msg(e: EntityInfo) -> SimEntity:
    """Return the SimEntity message of an entity."""
    return SimEntity(name=e.name, id=e.id, kind=e.kind, parent=e.parent, is_static=e.static,
                     pose=pose_msg(e.world_pose), relative_pose=pose_msg(e.pose))


def _fill_result(result: Any, outcome: Outcome, code: int) -> None:
    result.result = code
    result.error_message = outcome.details()


class SpawnerNode(TypedParameters):
    """Serve spawn, delete, set_pose and list for a running Gazebo."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__('spawner', allow_undeclared_parameters=True, **kwargs)
        # xacro_args is a list of strings or one shell-quoted string
        self.declare_all([(name, default, '', name == 'xacro_args')
                          for name, default in {**PARAMETERS, **STARTUP_PARAMETERS}.items()])
        self.exit_code: int | None = None
        self._group = ReentrantCallbackGroup()
        self._backend: SimulatorBackend | None = None
        self._backend_lock = threading.Lock()
        for srv_type, name, handler in ((SpawnModel, '~/spawn', self._on_spawn),
                                        (DeleteEntity, '~/delete', self._on_delete),
                                        (SetEntityPose, '~/set_pose', self._on_set_pose),
                                        (ListEntities, '~/list', self._on_list)):
            self.create_service(srv_type, name, self._guard(handler), callback_group=self._group)
        self._serve_simulation_interfaces()
        say_ready(self, 'services created')
        if any(self._param(key) for key in ('file', 'string', 'topic', 'param')):
            self._startup = self.create_timer(0.0, self._spawn_at_startup, callback_group=self._group)

    # --- plumbing -------------------------------------------------------------------------------
    def _gazebo(self) -> str | None:
        """The ``gazebo`` parameter (None: ROS_DISTRO's target); a bad value is logged, not used."""
        name = str(self._param('gazebo') or '')
        if name and name not in TARGETS:
            self.get_logger().error(f'parameter gazebo={name!r} must be one of '
                                    f'{", ".join(TARGETS)}: using ROS_DISTRO\'s target')
            return None
        return name or None

    def _param(self, name: str) -> Any:
        return self.get_parameter(name).value

    def _timeout(self, requested: float) -> float:
        value = requested if requested > 0 else float(self._param('timeout'))
        return value if value > 0 else float(PARAMETERS['timeout'])

    def backend(self) -> SimulatorBackend:
        """Return the backend the ``backend`` parameter names (made on first use)."""
        with self._backend_lock:
            if self._backend is None:
                self._backend = make_backend(str(self._param('backend')),
                                             timeout=self._timeout(0.0))
            return self._backend

    def _guard(self, handler: Callable[[Any, Any], Outcome],
               code: Callable[[ResultCode], int] = int, *, log: bool = True
               ) -> Callable[[Any, Any], Any]:
        """Wrap a handler: whatever happens, fill the response's result and return it.

        ``log``: log the outcome (a service call); the start-up spawn logs its own, once.
        """
        def callback(request: Any, response: Any) -> Any:
            try:
                outcome = handler(request, response)
            except SpawnError as err:
                outcome = Outcome(err.code, err.message, diagnostics=err.diagnostics)
            except BackendUnavailableError as err:
                outcome = Outcome(ResultCode.FEATURE_UNSUPPORTED, str(err))
            except Exception as err:  # noqa: BLE001 (a service must answer, whatever broke)
                self.get_logger().error(f'unexpected error: {type(err).__name__}: {err}')
                outcome = Outcome(ResultCode.OPERATION_FAILED,
                                  f'internal error: {type(err).__name__}: {err}')
            _fill_result(response.result, outcome, code(outcome.code))
            if not log:
                return response
            # One call site per severity: rclpy refuses a call site whose severity changes.
            if outcome.ok:
                self.get_logger().info(f'{outcome.code.name}: {outcome.message}')
            else:
                self.get_logger().warning(f'{outcome.code.name}: {outcome.message}')
            return response
        return callback

    # --- where the model text comes from ---------------------------------------------------------
    def text_from_parameter(self, spec: str, timeout: float) -> str:
        """Return a string parameter: ``name`` of this node or ``node/name`` of another."""
        node, _, name = spec.rpartition('/')
        if not node:
            if not self.has_parameter(name) or not isinstance(self._param(name), str):
                raise SpawnError(ResultCode.NOT_FOUND, f'this node has no string parameter [{name}]')
            return str(self._param(name))
        client: Any = self.create_client(GetParameters, f'{node}/get_parameters',
                                    callback_group=self._group)
        try:
            if not client.wait_for_service(timeout_sec=timeout):
                raise SpawnError(ResultCode.NOT_FOUND, f'node [{node}] does not answer')
            done = threading.Event()
            future = client.call_async(GetParameters.Request(names=[name]))
            future.add_done_callback(lambda _: done.set())
            reply: Any = future.result() if done.wait(timeout) else None
            if reply is None:
                raise SpawnError(ResultCode.TIMEOUT, f'node [{node}] did not send [{name}]')
            values = reply.values
        finally:
            self.destroy_client(client)
        if not values or not values[0].string_value:
            raise SpawnError(ResultCode.NOT_FOUND, f'node [{node}] has no string parameter [{name}]')
        return str(values[0].string_value)

    def text_from_topic(self, topic: str, timeout: float) -> str:
        """Return the first (latched) std_msgs/String published on ``topic``."""
        got: list[str] = []
        done = threading.Event()

        def on_message(msg: String) -> None:
            got.append(msg.data)
            done.set()

        sub = self.create_subscription(String, topic, on_message, LATCHED, callback_group=self._group)
        try:
            if not done.wait(timeout):
                raise SpawnError(ResultCode.NOT_FOUND,
                                 f'nothing was published on [{topic}] within {timeout:g} s')
        finally:
            self.destroy_subscription(sub)
        return got[0]

    def spawn_request(self, req: Any, timeout: float) -> SpawnRequest:
        """Return the pipeline's request for a SpawnModel request."""
        from sdf_tools.spawn.pipeline import SpawnRequest
        from sdf_tools.spawn.prepare import ModelSource
        text, source_name = req.text, ''
        if not req.file and not text and req.parameter:
            text, source_name = self.text_from_parameter(req.parameter, timeout), \
                f'parameter [{req.parameter}]'
        elif not req.file and not text and req.topic:
            text, source_name = self.text_from_topic(req.topic, timeout), f'topic [{req.topic}]'
        source = ModelSource(req.file, text, req.format or 'auto', xacro_args(req.xacro_args),
                             source_name, req.model)
        pose, frame = initial_pose(req.initial_pose)
        return SpawnRequest(source, req.name, req.allow_renaming, req.world or self._param('world'),
                            pose, frame, req.entity_namespace, req.uris or self._param('uris'))

    # --- our services ----------------------------------------------------------------------------
    def _on_spawn(self, req: Any, res: Any) -> Outcome:
        from sdf_tools.spawn.pipeline import spawn
        timeout = self._timeout(req.timeout)
        with using(self._gazebo()):
            outcome = spawn(self.backend(), self.spawn_request(req, timeout), timeout=timeout)
        res.entity_name, res.world, res.pose = outcome.entity_name, outcome.world, pose_msg(outcome.pose)
        res.errors = [str(d) for d in outcome.diagnostics if d.severity is Severity.ERROR]
        res.notes = [*outcome.notes,
                     *(str(d) for d in outcome.diagnostics if d.severity is not Severity.ERROR)]
        return outcome

    def _on_delete(self, req: Any, res: Any) -> Outcome:
        from sdf_tools.spawn.pipeline import delete
        return delete(self.backend(), req.name, world=req.world or self._param('world'),
                      timeout=self._timeout(req.timeout))

    def _on_set_pose(self, req: Any, res: Any) -> Outcome:
        from sdf_tools.spawn.pipeline import set_pose
        outcome = set_pose(self.backend(), req.name, transform_from(req.pose.pose),
                           relative_to=req.pose.header.frame_id,
                           world=req.world or self._param('world'), timeout=self._timeout(req.timeout))
        res.pose = pose_msg(outcome.pose)
        return outcome

    def _on_list(self, req: Any, res: Any) -> Outcome:
        from sdf_tools.spawn.pipeline import list_entities
        outcome, entities = list_entities(self.backend(), world=req.world or self._param('world'))
        res.world = outcome.world
        res.entities = [entity_msg(e) for e in entities]
        return outcome

    # --- spawn at start-up -------------------------------------------------------------------------
    def startup_request(self) -> Any:
        """Return the SpawnModel request the start-up parameters describe."""
        p = self._param
        req = SpawnModel.Request(file=p('file'), text=p('string'), topic=p('topic'),
                                 parameter=p('param'), name=p('name'),
                                 allow_renaming=bool(p('allow_renaming')), format=p('format'),
                                 xacro_args=_string_list(p('xacro_args')), model=p('model'),
                                 entity_namespace=p('entity_namespace'))
        pose = Transform.from_xyz_rpy((p('x'), p('y'), p('z')), (p('R'), p('P'), p('Y')))
        req.initial_pose.pose = pose_msg(pose)
        req.initial_pose.header.frame_id = p('relative_to')
        return req

    def _spawn_at_startup(self) -> None:
        self._startup.cancel()
        response = self._guard(self._on_spawn, log=False)(self.startup_request(),
                                                          SpawnModel.Response())
        ok = response.result.result == ResultCode.OK
        # Once, at the level it deserves: the launch ends on a failed start-up spawn.
        if ok:
            self.get_logger().info(response.result.error_message)
        else:
            code = ResultCode(response.result.result).name
            self.get_logger().error(f'{code}: {response.result.error_message}')
        if self._param('exit_after_spawn'):
            self.exit_code = 0 if ok else 1
            rclpy.try_shutdown()

    # --- simulation_interfaces --------------------------------------------------------------------
    def _serve_simulation_interfaces(self) -> None:
        try:
            srv = importlib.import_module('simulation_interfaces.srv')
        except ImportError:
            # the usual case (no distro ships it in every install): not worth a line at each start
            self.get_logger().debug('simulation_interfaces is not installed: serving only '
                                    'sdf_tools_interfaces services')
            return
        self.create_service(srv.SpawnEntity, '~/spawn_entity',
                            self._guard(self._on_si_spawn, to_simulation_interfaces),
                            callback_group=self._group)
        self.create_service(srv.DeleteEntity, '~/delete_entity',
                            self._guard(self._on_si_delete, to_simulation_interfaces),
                            callback_group=self._group)

    def _on_si_spawn(self, req: Any, res: Any) -> Outcome:
        from sdf_tools.spawn.pipeline import SpawnRequest, spawn
        from sdf_tools.spawn.prepare import ModelSource
        timeout = self._timeout(0.0)
        source = ModelSource(file=req.entity_resource.uri, text=req.entity_resource.resource_string)
        pose, frame = initial_pose(req.initial_pose)
        request = SpawnRequest(source, req.name, req.allow_renaming, self._param('world'), pose, frame,
                               req.entity_namespace, self._param('uris'))
        with using(self._gazebo()):
            outcome = spawn(self.backend(), request, timeout=timeout)
        res.entity_name = outcome.entity_name
        return outcome

    def _on_si_delete(self, req: Any, res: Any) -> Outcome:
        from sdf_tools.spawn.pipeline import delete
        return delete(self.backend(), req.entity, world=self._param('world'),
                      timeout=self._timeout(0.0))


def main(args: list[str] | None = None) -> int:
    """Run the node until SIGINT or SIGTERM (several threads: requests wait on Gazebo).

    Our signal handlers (:func:`sdf_tools.ros.spin.stop_on_signals`), not rclpy's:
    a request still waiting on Gazebo must not keep a signalled spawner alive
    (CI's Jazzy pass saw one outlive SIGTERM by 10 s); after the grace period
    the process ends, saying so. A start-up spawn with ``exit_after_spawn``
    shuts rclpy down itself, which ends the loop too.
    """
    if not init_or_explain(args, signal_handler_options=SignalHandlerOptions.NO):
        return 2
    stop = stop_on_signals()
    node = make_or_explain(SpawnerNode)
    if node is None:
        return 2
    executor = MultiThreadedExecutor(num_threads=4)
    executor.add_node(node)
    try:
        while not stop.is_set() and rclpy.ok():
            executor.spin_once(timeout_sec=0.1)
    except ExternalShutdownException:
        pass
    finally:
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown()
    return node.exit_code or 0


if __name__ == '__main__':
    sys.exit(main())
