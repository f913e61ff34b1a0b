"""The ``description_publisher`` node: robot_description and TF from SDFormat, URDF or xacro.

Like robot_state_publisher, but for any description sdf_tools reads:

* ``robot_description`` (std_msgs/String, reliable, transient local, depth 1)
  on start and after every reload;
* ``/tf_static`` (tf2_msgs/TFMessage, transient local, depth 1): one message
  with every fixed transform, stamped with the time of the (re)load;
* ``/tf`` (depth 100): for each ``joint_states`` message (best effort, depth 100)
  the transforms of the joints it moves, stamped with the message's stamp
  and rate-limited per joint by ``publish_frequency`` as
  robot_state_publisher does; actor frames at ``publish_frequency``,
  stamped now (their script time is the ROS clock with ``use_sim_time``,
  the time since the load otherwise).

Parameters: see :mod:`sdf_tools.ros.params`. A change of a description
parameter reloads; a bad value is refused with the reason. Bad input is
logged once (file:line or joint) and never published: the node keeps what it
had and keeps running.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from builtin_interfaces.msg import Time as BuiltinTime
from geometry_msgs.msg import TransformStamped
from rcl_interfaces.msg import SetParametersResult
from rclpy.parameter import Parameter
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from rclpy.serialization import deserialize_message
from rclpy.subscription import Subscription
from rclpy.time import Time
from rclpy.timer import Timer
from std_msgs.msg import String
from tf2_msgs.msg import TFMessage

from sdf_tools.ros.description import LoadedDescription, load_description
from sdf_tools.ros.once_log import OnceLog
from sdf_tools.ros.params import PUBLISHER_PARAMS, RELOAD_PARAMS, PublisherParams, check_value
from sdf_tools.ros.spin import run_node, say_ready
from sdf_tools.ros.tf_tree import TfTree, file_initial_positions
from sdf_tools.ros.typed_params import TypedParameters
from sdf_tools.transform import Transform

if TYPE_CHECKING:  # imported where used: after the first /tf_static (see __init__)
    from sensor_msgs.msg import JointState

    from sdf_tools.ros.joint_states import Edge, JointStateMapper, PublishThrottle
    from sdf_tools.ros.tf_fast_path import FastTfPath
# sdf_tools.convert.joint_positions (initial_positions) too: it imports the converters'
# package, which a URDF input does not otherwise need before its first /tf_static.

LATCHED = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                     reliability=ReliabilityPolicy.RELIABLE)
TF_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE)
# robot_state_publisher's sensor-data QoS (best effort: matches reliable and best-effort
# publishers), with a deeper queue so that a busy machine does not drop a 1 kHz stream.
JOINT_STATES_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.BEST_EFFORT,
                              durability=DurabilityPolicy.VOLATILE)
ACTOR_FALLBACK_HZ = 20.0  # actor frames when publish_frequency is 0


def fast_path_wanted() -> bool:
    """Return True unless ``SDF_TOOLS_TF_FAST_PATH=0`` or the rmw does not speak CDR."""
    from sdf_tools.ros.tf_fast_path import rmw_speaks_cdr
    return os.environ.get('SDF_TOOLS_TF_FAST_PATH', '1') != '0' and rmw_speaks_cdr()


def fill(msg: TransformStamped, x: Transform) -> TransformStamped:
    """Set the transform fields of ``msg`` from ``x``."""
    t, r = msg.transform.translation, msg.transform.rotation
    t.x, t.y, t.z = x.p
    r.w, r.x, r.y, r.z = x.q
    return msg


class DescriptionPublisher(TypedParameters):
    """Publish robot_description, /tf_static and /tf for one description.

    At start, ``/tf_static`` goes out as soon as the description is loaded:
    what only ``joint_states`` needs (its subscription, the joint mapper and
    their imports) comes after it.
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__('description_publisher', **kwargs)
        self.declare_all([(s.name, s.default, s.description, s.dynamic_typing)
                          for s in PUBLISHER_PARAMS])
        self.params = self._read_params()
        self._description_pub = self.create_publisher(String, 'robot_description', LATCHED)
        self._static_pub = self.create_publisher(TFMessage, '/tf_static', LATCHED)
        self._tf_pub = self.create_publisher(TFMessage, '/tf', TF_QOS)
        self._fast_ok = False  # decided by _subscribe_joint_states
        self._said_ready = False  # see _publish_static
        self._once = OnceLog(self.get_logger())
        self._pending: LoadedDescription | None = None  # checked by _check_params, applied after
        self._mesh_uris_told = False  # the mesh URI rewrite is said once at INFO, then at DEBUG
        self._tree: TfTree | None = None
        self._mapper: JointStateMapper | None = None
        self._fast: FastTfPath | None = None
        self._throttle: PublishThrottle | None = None
        self._moving_msgs: dict[tuple[str, str], TransformStamped] = {}
        self._topic_text: str | None = None
        self._mirroring = False  # setting robot_description to what is published (no reload)
        self._topic_sub: Subscription[String] | None = None
        self._actor_timer: Timer | None = None
        self._initial: dict[str, float] = {}  # joints held at initial_positions until joint_states
        self._initial_timer: Timer | None = None
        self._actor_t0 = self.get_clock().now()
        self.add_on_set_parameters_callback(self._check_params)
        self.add_post_set_parameters_callback(self._params_changed)
        self.reload()
        self._subscribe_joint_states()
        self._subscribe_description_topic()

    def _subscribe_joint_states(self) -> None:
        """Take joint_states, serialized (tf_fast_path) where the rmw's bytes are CDR as we read it."""
        from sensor_msgs.msg import JointState
        self._fast_ok = fast_path_wanted()
        self.get_logger().info('joint_states -> /tf: ' + ('serialized fast path' if self._fast_ok
                                                          else 'ordinary path'))
        if self._mapper is not None:
            self._fast = self._fast_path(self._mapper)
        self.create_subscription(
            JointState, 'joint_states',
            self._on_joint_states_raw if self._fast_ok else self._on_joint_states,
            JOINT_STATES_QOS, raw=self._fast_ok)

    def _fast_path(self, mapper: JointStateMapper) -> FastTfPath | None:
        if not self._fast_ok:
            return None
        from sdf_tools.ros.tf_fast_path import FastTfPath
        return FastTfPath(mapper, self.params.frame_prefix)

    # -- parameters ---------------------------------------------------------------------------
    def _read_params(self) -> PublisherParams:
        values = {s.name: self.get_parameter(s.name).value for s in PUBLISHER_PARAMS}
        params, problems = PublisherParams.from_values(values)
        for p in problems:
            self.get_logger().error(f'{p}; using the default')
        return params

    def _check_params(self, parameters: list[Parameter[Any]]) -> SetParametersResult:
        """Refuse a value out of range, or a description change that cannot be applied.

        A change of a description parameter is loaded here, before it is
        accepted: when the load fails the change is refused with the reason
        (the parameters keep their values and still say what is published);
        when it succeeds, :meth:`_params_changed` publishes what was loaded.
        """
        self._pending = None
        if self._mirroring:
            return SetParametersResult(successful=True)
        for p in parameters:
            if any(s.name == p.name for s in PUBLISHER_PARAMS):
                reason = check_value(p.name, p.value)
                if reason is not None:
                    return SetParametersResult(successful=False, reason=reason)
        names = {p.name for p in parameters}
        if not names & RELOAD_PARAMS:
            return SetParametersResult(successful=True)
        values = {s.name: self.get_parameter(s.name).value for s in PUBLISHER_PARAMS}
        values.update({p.name: p.value for p in parameters if p.name in values})
        params, _ = PublisherParams.from_values(values)
        reason = self._why_not(params, names)
        return SetParametersResult(successful=reason is None, reason=reason or '')

    def _why_not(self, params: PublisherParams, names: set[str]) -> str | None:
        """Load what ``params`` name; return why it cannot be published (None: it can)."""
        if 'robot_description' in names and params.description_file:
            return (f'description_file [{params.description_file}] is set and wins over '
                    'robot_description: set description_file to "" first (or both at once)')
        source_changed = bool(names & {'description_file', 'robot_description'})
        text = None if source_changed else self._topic_text
        where = None if text is None else f'topic {params.description_topic}'
        loaded = load_description(params, text=text, text_source=where)
        if loaded.ok and not loaded.errors and loaded.tree is not None:
            unknown = unknown_joints(loaded.tree, params.initial_positions)
            if unknown:
                return f'initial_positions: {unknown}'
        if loaded.ok and not loaded.errors:
            self._pending = loaded
            return None
        if self._tree is None and not names & {'description_file', 'robot_description', 'model'}:
            return None  # nothing is published yet: the parameter waits for a description
        self._once.clear()
        self._report(loaded)
        why = '; '.join(loaded.errors) or f'{loaded.source}: the description cannot be read'
        return f'not applied, still publishing the previous description: {why[:1000]}'

    def _params_changed(self, parameters: list[Parameter[Any]]) -> None:
        names = {p.name for p in parameters}
        self.params = self._read_params()
        if self._mirroring:
            return
        if names & {'description_file', 'robot_description'}:
            self._topic_text = None  # the newest source wins
        if names & RELOAD_PARAMS:
            pending, self._pending = self._pending, None
            if pending is not None:
                self._once.clear()
                self._report(pending)
                self._apply(pending, from_text=self._topic_text is not None)
            else:
                self.reload()
        elif 'publish_frequency' in names:
            self._restart_actor_timer()
        if 'description_topic' in names:
            self._subscribe_description_topic()

    # -- loading ------------------------------------------------------------------------------
    def reload(self, text: str | None = None, text_source: str | None = None) -> bool:
        """Load the description again and publish it; keep the old one on failure."""
        if text is None and self._topic_text is not None:
            text, text_source = self._topic_text, f'topic {self.params.description_topic}'
        loaded = load_description(self.params, text=text, text_source=text_source)
        self._once.clear()
        self._report(loaded)
        return self._apply(loaded, from_text=text is not None)

    def _apply(self, loaded: LoadedDescription, *, from_text: bool) -> bool:
        """Publish what was loaded (True), or keep what is published when it failed (False)."""
        if loaded.tree is None:
            if self._tree is not None:
                self.get_logger().error(f'{loaded.source}: not loaded; still publishing the '
                                        'previous description')
            return False
        self._tree = loaded.tree
        self._publish_static(loaded.tree)  # first: TF listeners wait for it
        from sdf_tools.ros.joint_states import JointStateMapper, PublishThrottle
        self._mapper = JointStateMapper(loaded.tree)
        self._fast = self._fast_path(self._mapper)
        self._throttle = PublishThrottle()
        self._moving_msgs = {}
        if loaded.text is not None:
            self._description_pub.publish(String(data=loaded.text))
            if from_text or self.params.description_file:
                self._mirror_description(loaded.text)
        self._start_initial(loaded.tree)
        self._actor_t0 = self.get_clock().now()
        self._restart_actor_timer()
        self.get_logger().info(summary(loaded))
        self._tell_mesh_uris(loaded)
        return True

    def _start_initial(self, tree: TfTree) -> None:
        """Hold the joints of ``initial_positions`` there (republished) until joint_states moves them."""
        if self._initial_timer is not None:
            self.destroy_timer(self._initial_timer)
            self._initial_timer = None
        from sdf_tools.convert.joint_positions import parse_joint_positions
        values, problems = parse_joint_positions(self.params.initial_positions)
        problems += [p for p in [unknown_joints(tree, self.params.initial_positions)] if p]
        for p in problems:
            self.get_logger().error(f'initial_positions: {p}; those joints start at their '
                                    '<initial_position> (else 0)')
        if problems:
            values = {}
        # Joints the parameter does not name start at the file's <initial_position>.
        self._initial = {**file_initial_positions(tree, values), **values}
        if self._initial:
            self._publish_initial()
            hz = self.params.publish_frequency or ACTOR_FALLBACK_HZ
            self._initial_timer = self.create_timer(1.0 / hz, self._publish_initial)

    def _publish_initial(self) -> None:
        if self._mapper is None or not self._initial:
            return
        names = list(self._initial)
        result = self._mapper.transforms(names, [self._initial[n] for n in names])
        self._publish_edges(result.edges, self.get_clock().now().to_msg())

    def _joint_states_came(self, names: Sequence[str]) -> None:
        """Joints that joint_states carries are no longer held at their initial position."""
        if self._initial and self._mapper is not None:
            for raw in names:
                name = self._mapper.lookup(raw)[0]
                for key in [k for k in self._initial if self._mapper.lookup(k)[0] == name]:
                    del self._initial[key]

    def _tell_mesh_uris(self, loaded: LoadedDescription) -> None:
        for text in loaded.mesh_uris:
            self._once.debug(text)
        if loaded.mesh_uris and not self._mesh_uris_told:
            self._mesh_uris_told = True
            lost = sum('not found' in text for text in loaded.mesh_uris)
            self.get_logger().info(
                f'mesh_uris {self.params.mesh_uris}: {len(loaded.mesh_uris) - lost} mesh URI(s) of '
                f'the URDF rewritten so that RViz opens them, {lost} not found and kept as written '
                '(each at debug level)')

    def _mirror_description(self, text: str) -> None:
        """Hold what robot_description publishes in the parameter too, as robot_state_publisher does.

        Spawners read it from there (ros_gz_sim's ``-param robot_description``).
        Not done when the parameter itself is the source: it keeps the user's
        text (a xacro stays a xacro that xacro_args can change).
        """
        self._mirroring = True
        try:
            self.set_parameters([Parameter('robot_description', value=text)])
        finally:
            self._mirroring = False

    def _report(self, loaded: LoadedDescription) -> None:
        """Log a load's findings once each: errors, what TF cannot show, the reader's details."""
        for text in loaded.errors:
            self._once.error(text)
        for text in loaded.gazebo_only + loaded.tf_notes:
            self._once.warning(text)
        for text in loaded.warnings:
            self._once.debug(text)

    def _subscribe_description_topic(self) -> None:
        if self._topic_sub is not None:
            self.destroy_subscription(self._topic_sub)
            self._topic_sub = None
        topic = self.params.description_topic
        if not topic:
            return
        own = self.resolve_topic_name('robot_description')
        if self.resolve_topic_name(topic) == own:
            self.get_logger().error(f'description_topic [{topic}] is where this node publishes: '
                                    'not subscribed')
            return
        self._topic_sub = self.create_subscription(String, topic, self._on_description, LATCHED)

    def _on_description(self, msg: String) -> None:
        self._topic_text = msg.data
        self.reload()

    # -- publishing ---------------------------------------------------------------------------
    def _frame(self, name: str) -> str:
        return self.params.frame_prefix + name

    def _stamped(self, parent: str, child: str, x: Transform, stamp: object) -> TransformStamped:
        msg = TransformStamped()
        msg.header.stamp = stamp
        msg.header.frame_id = self._frame(parent)
        msg.child_frame_id = self._frame(child)
        return fill(msg, x)

    def _publish_static(self, tree: TfTree) -> None:
        now = self.get_clock().now().to_msg()
        msg = TFMessage(transforms=[self._stamped(f.parent, f.child, f.transform, now)
                                    for f in tree.fixed])
        self._static_pub.publish(msg)
        if not self._said_ready:
            self._said_ready = True
            say_ready(self, 'first /tf_static published')

    def _on_joint_states(self, msg: JointState) -> None:
        if self._mapper is None or self._throttle is None:
            return
        names: Sequence[str] = msg.name
        if msg.header.stamp.sec < 0:
            self._negative_stamp(msg.header.stamp.sec)
            return
        stamp = Time.from_msg(msg.header.stamp).nanoseconds
        now = self.get_clock().now().nanoseconds
        publish, moved_back = self._throttle.check(names, stamp, now, self.params.publish_frequency,
                                                   self.params.ignore_timestamp)
        if moved_back:
            self.get_logger().warning('Moved backwards in time, re-publishing joint transforms!')
        self._joint_states_came(names)
        if not publish:
            return
        result = self._mapper.transforms(names, msg.position)
        for text in result.reports:
            self.get_logger().warning(text)
        self._publish_edges(result.edges, msg.header.stamp)
        self._throttle.mark(names, stamp)

    def _negative_stamp(self, sec: int) -> None:
        """A stamp before 1970 is no ROS time (rclpy and rclcpp refuse it): drop the message."""
        self._once.warning(f'joint_states stamped {sec} s (negative, not a ROS time): such '
                       'messages are ignored')

    def _publish_edges(self, edges: list[Edge], stamp: object) -> None:
        if edges:
            out = []
            for parent, child, x in edges:
                tf = self._moving_msgs.get((parent, child))
                if tf is None:
                    tf = self._stamped(parent, child, x, stamp)
                    self._moving_msgs[(parent, child)] = tf
                tf.header.stamp = stamp
                out.append(fill(tf, x))
            self._tf_pub.publish(TFMessage(transforms=out))

    def _on_joint_states_raw(self, data: bytes) -> None:
        """The same as :meth:`_on_joint_states`, on serialized messages (tf_fast_path)."""
        if self._fast is None or self._throttle is None:
            return
        msg = self._fast.parse(data)
        if msg is None:  # not little-endian CDR: the ordinary way
            from sensor_msgs.msg import JointState
            self._on_joint_states(deserialize_message(data, JointState))
            return
        if msg.sec < 0:
            self._negative_stamp(msg.sec)
            return
        now = self.get_clock().now().nanoseconds
        publish, moved_back = self._throttle.check(msg.names, msg.stamp_ns, now,
                                                   self.params.publish_frequency,
                                                   self.params.ignore_timestamp)
        if moved_back:
            self.get_logger().warning('Moved backwards in time, re-publishing joint transforms!')
        self._joint_states_came(msg.names)
        if not publish:
            return
        out = self._fast.transforms(msg)
        for text in out.reports:
            self.get_logger().warning(text)
        if out.serialized is not None:
            self._tf_pub.publish(out.serialized)
        else:
            self._publish_edges(out.edges, BuiltinTime(sec=msg.sec, nanosec=msg.nanosec))
        self._throttle.mark(msg.names, msg.stamp_ns)

    def _restart_actor_timer(self) -> None:
        if self._actor_timer is not None:
            self.destroy_timer(self._actor_timer)
            self._actor_timer = None
        if self._tree is None or not self._tree.actors:
            return
        hz = self.params.publish_frequency or ACTOR_FALLBACK_HZ
        self._actor_timer = self.create_timer(1.0 / hz, self._publish_actors)

    def _script_time(self) -> float:
        now = self.get_clock().now()
        if self.get_parameter('use_sim_time').value:
            return now.nanoseconds * 1e-9
        return (now - self._actor_t0).nanoseconds * 1e-9

    def _publish_actors(self) -> None:
        if self._tree is None:
            return
        t = self._script_time()
        stamp = self.get_clock().now().to_msg()
        self._tf_pub.publish(TFMessage(transforms=[
            self._stamped(a.parent, a.child, a.motion.pose_at(t), stamp) for a in self._tree.actors]))


def unknown_joints(tree: TfTree, text: str) -> str:
    """Name the joints of ``initial_positions`` that are no movable joint of ``tree`` ('' : none)."""
    from sdf_tools.convert.joint_positions import parse_joint_positions
    from sdf_tools.ros.joint_states import JointStateMapper
    mapper = JointStateMapper(tree)
    bad = [n for n in parse_joint_positions(text)[0] if mapper.lookup(n)[0] is None]
    if not bad:
        return ''
    return (f'no movable joint named {", ".join(f"[{n}]" for n in bad)} '
            f'(movable joints: {", ".join(sorted(tree.moving)) or "none"})')


def summary(loaded: LoadedDescription) -> str:
    """Return the one INFO line of a load: what is published, how many details are at DEBUG."""
    tree = loaded.tree
    counts = ('nothing' if tree is None else
              f'{len(tree.fixed)} static and {len(tree.moving)} moving transforms'
              + (f', {len(tree.actors)} actor(s)' if tree.actors else ''))
    line = f'{loaded.source}: publishing {counts}'
    if loaded.text is None:
        line += '; no robot_description'
    if loaded.warnings:
        line += f' ({len(loaded.warnings)} reader note(s) at debug level)'
    return line


def main(args: list[str] | None = None) -> int:
    """Run the node until SIGINT or SIGTERM."""
    return run_node(DescriptionPublisher, args)


if __name__ == '__main__':
    sys.exit(main())
