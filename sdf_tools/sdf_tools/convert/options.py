"""One option set for every converter and exporter (URDF/SDF now, MJCF/USD later).

Modelled on the import options of physics engines (floating base, collapse
fixed joints, self-collision, visual->collision fallback, inertia from
geometry, mesh collision mode, joint drive from transmissions, root
transform). Every field has a documented default; the CLI exposes each as a
flag and the ROS service takes them as a YAML mapping.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from sdf_tools.transform import IDENTITY, Transform


@dataclass
class ConversionOptions:
    """How a conversion should treat what the formats do not share.

    Attributes:
        sdf_version: SDFormat version written ('1.9', '1.10', '1.11', '1.12'); None: the
            Gazebo target's (1.9 for Fortress, 1.11 for Harmonic, 1.12 for Ionic and Jetty).
        keep_fixed_joints: keep every fixed joint instead of lumping fixed
            children into their parent as Gazebo does by default.
        collapse_fixed_joints: MJCF and USD export: merge each link held to
            its parent by a fixed joint into the parent body (mass and inertia
            combined, shapes moved, the link kept as a site/Xform); by default
            every link stays a body, welded (MJCF) or held by a FixedJoint
            (USD). No effect on SDFormat/URDF output (``keep_fixed_joints``
            governs URDF -> SDF lumping).
        massless_links: what to do with URDF links without mass, which
            libsdformat silently drops with their subtree: 'lump' (default:
            fold them into their parent through fixed joints where possible,
            otherwise give them a small reported mass), 'default-mass'
            (give each the mass ``default_mass``), 'drop' (libsdformat's
            behaviour, reported), 'error'.
        default_mass: mass (kg) used by 'default-mass' and the fallback of 'lump'.
        uris: mesh URI handling: 'keep' as written, 'model' (package:// ->
            model://, as libsdformat does), 'file' (absolute file:// paths),
            'package' (URDF: package:// where a ROS package holds the mesh, else
            file://; what RViz opens).
        floating_base: True leaves the root free; False fixes it to the world
            (adds a fixed joint to ``world`` when the input has none).
        root_transform: pose applied to the model's root in the world.
        self_collide: force self-collision on (True), off (False) or keep (None).
        visual_as_collision: give links that have visuals but no collision
            a collision made from their visuals.
        inertia_from_geometry: replace authored inertia by the inertia of the
            collision geometry at the authored mass.
        mesh_collision: 'keep', 'box' (bounding box) or 'convex' (convex hull).
        joint_drive_from_transmission: derive default joint drives (effort,
            position or velocity interfaces) from ``<transmission>`` and
            ``<ros2_control>`` blocks.
        model: which model of a world to convert (SDF -> URDF).
        scope_separator: how nested-model scopes are flattened in URDF names.
        frames_as_links: write SDF ``<frame>``s as fixed-jointed links in URDF.
        break_loops: cut kinematic loops (reported) instead of failing.
        usd_mesh_approximation: USD export: the ``MeshCollisionAPI`` approximation of
            mesh collisions on moving bodies (PhysX simulates no triangle mesh on a
            dynamic body); a body that never moves keeps its triangles ('none').
            ``mesh_collision`` 'convex' or 'box' decides for every body.
        actuators: MJCF and USD export: 'ros2_control' gives exactly the joints a
            ``<ros2_control>`` command interface (or a ``<transmission>``) names
            the actuator of that interface (USD: a drive), even with
            ``joint_drive_from_transmission`` off, and reports a model that has
            none; 'position' and 'motor' give, in addition, every other hinge
            and slide with an effort limit one, as Menagerie's robots have (a
            servo, or a torque or force); 'none' (the default) gives actuators
            only to the joints ``joint_drive_from_transmission`` drives -- so a
            URDF with ``<ros2_control>`` gets its interfaces' actuators by default.
        joint_positions: MJCF/USD export: where joints start, by scoped joint
            name (overrides ``<initial_position>``; see convert/joint_positions.py).
        assets_dir: MJCF written to a file: the directory its meshes, height
            fields and textures are copied to and named from (relative to the
            output's directory, or absolute; '' for ``assets`` next to it).
        gazebo: the Gazebo release the input is read as ('fortress', 'harmonic',
            'ionic', 'jetty'; None: ``ROS_DISTRO``'s, else the newest).
        expand_auto_inertials: SDFormat output: write the values computed for
            ``<inertial auto="true">`` (as ``gz sdf --expand-auto-inertials``).
    """

    sdf_version: str | None = None
    keep_fixed_joints: bool = False
    collapse_fixed_joints: bool = False
    massless_links: str = 'lump'
    default_mass: float = 1e-3
    uris: str = 'keep'
    floating_base: bool = True
    root_transform: Transform = IDENTITY
    self_collide: bool | None = None
    visual_as_collision: bool = False
    inertia_from_geometry: bool = False
    mesh_collision: str = 'keep'
    joint_drive_from_transmission: bool = True
    model: str | None = None
    scope_separator: str = '::'
    frames_as_links: bool = True
    break_loops: bool = False
    assets_dir: str = ''
    usd_mesh_approximation: str = 'convexHull'
    actuators: str = 'none'
    joint_positions: dict[str, float] = field(default_factory=dict)
    xacro_args: dict[str, str] = field(default_factory=dict)
    gazebo: str | None = None
    expand_auto_inertials: bool = False

    CHOICES = {
        'sdf_version': (None, '1.9', '1.10', '1.11', '1.12'),
        'massless_links': ('lump', 'default-mass', 'drop', 'error'),
        'uris': ('keep', 'model', 'file', 'package'),
        'mesh_collision': ('keep', 'box', 'convex'),
        'actuators': ('none', 'ros2_control', 'position', 'motor'),
        'usd_mesh_approximation': ('convexHull', 'convexDecomposition', 'meshSimplification',
                                   'boundingSphere', 'boundingCube', 'none'),
    }

    def validate(self) -> list[str]:
        """Return a message for each option value outside its choices."""
        problems = []
        for name, choices in self.CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                problems.append(f'option {name}={value!r} must be one of '
                                f'{", ".join(str(c) for c in choices if c is not None)}')
        if not self.default_mass > 0:
            problems.append('option default_mass must be > 0')
        return problems

    @classmethod
    def from_mapping(cls, data: dict[str, Any]) -> tuple[ConversionOptions, list[str]]:
        """Build options from a mapping (YAML, service request); unknown keys are reported."""
        names = {f.name for f in dataclasses.fields(cls)}
        problems = [f'unknown option {k!r}' for k in data if k not in names]
        known = {k: v for k, v in data.items() if k in names and k != 'root_transform'}
        opts = cls(**known)
        if 'root_transform' in data:
            rt = data['root_transform']
            try:
                xyz = tuple(float(v) for v in rt.get('xyz', (0, 0, 0)))
                rpy = tuple(float(v) for v in rt.get('rpy', (0, 0, 0)))
                opts.root_transform = Transform.from_xyz_rpy(xyz, rpy)  # type: ignore[arg-type]
            except (AttributeError, TypeError, ValueError):
                problems.append('option root_transform must be {xyz: [x,y,z], rpy: [r,p,y]}')
        return opts, problems + opts.validate()
