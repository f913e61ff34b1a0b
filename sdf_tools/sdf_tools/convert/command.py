"""The ``sdf_tools convert`` subcommand: one flag per conversion option.

::

    sdf_tools convert robot.urdf.xacro -o robot.sdf arm:=left --report robot.json
    sdf_tools convert world.sdf -o rover.urdf --model rover --scope-separator /

Exit codes: 0 converted; 1 the input is invalid or the conversion failed;
2 the input is unusable (missing, not XML, unknown root) or the command
line is wrong. Nothing is written to OUT unless the exit code is 0; the
``--report`` file is written whatever happens.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from sdf_tools.convert.api import EXTENSIONS, FORMATS, STDOUT, convert_file, output_format
from sdf_tools.convert.conversion_report import ConversionResult
from sdf_tools.convert.joint_positions import parse_joint_positions
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.formats import CONVERT_READS, CONVERT_WRITES, names
from sdf_tools.gazebo import GAZEBO_HELP, TARGETS
from sdf_tools.transform import Transform
from sdf_tools.xacro_args import parse_name_values

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
_D = ConversionOptions()

# (option field, flags, argparse keyword arguments); the help states each default.
FLAGS: list[tuple[str, tuple[str, ...], dict[str, Any]]] = [
    ('gazebo', ('--gazebo',), {
        'choices': tuple(TARGETS), 'default': None, 'help': GAZEBO_HELP}),
    ('expand_auto_inertials', ('--expand-auto-inertials',), {
        'action': 'store_true', 'help': 'SDFormat output: write the mass, centre of mass and '
        'inertia computed for <inertial auto="true"> (as gz sdf --expand-auto-inertials) '
        '(default: write the element as the input has it)'}),
    ('sdf_version', ('--sdf-version',), {
        'choices': [v for v in ConversionOptions.CHOICES['sdf_version'] if v], 'default': None,
        'help': "SDFormat version written (default: the --gazebo target's, as its libsdformat "
        'writes a URDF: 1.9 for fortress, 1.11 for harmonic, 1.12 for ionic and jetty)'}),
    ('keep_fixed_joints', ('--keep-fixed-joints',), {
        'action': 'store_true', 'help': 'URDF -> SDF: keep every fixed joint instead of merging '
        'fixed children into their parent as Gazebo does (default: merge)'}),
    ('collapse_fixed_joints', ('--collapse-fixed-joints',), {
        'action': 'store_true', 'help': 'MJCF/USD export: merge each link held by a fixed joint '
        'into its parent body, keeping it as a site/Xform (default: one body per link)'}),
    ('massless_links', ('--massless-links',), {
        'choices': ConversionOptions.CHOICES['massless_links'], 'default': _D.massless_links,
        'help': 'URDF -> SDF: links without mass, which libsdformat drops with their subtree '
        '(default: %(default)s)'}),
    ('default_mass', ('--default-mass',), {
        'type': float, 'metavar': 'KG', 'default': _D.default_mass,
        'help': 'mass given to links that need one (default-mass, lump fallback; in URDF '
        'output the links added between the joints of a ball or universal joint) '
        '(default: %(default)s)'}),
    ('uris', ('--uris', '--mesh-uris'), {
        'choices': ConversionOptions.CHOICES['uris'], 'default': _D.uris,
        'help': 'mesh URIs: keep as written, model (package:// -> model://), file '
        '(absolute file://) or package (package:// where a ROS package holds the mesh, else '
        'file://: what RViz opens in a URDF) (default: %(default)s)'}),
    ('floating_base', ('--fixed-base',), {
        'action': 'store_false', 'help': 'fix the root link to the world (default: leave the '
        'base floating as the input has it)'}),
    ('root_transform', ('--root-transform',), {
        'metavar': '"X Y Z ROLL PITCH YAW"', 'default': '0 0 0 0 0 0',
        'help': 'pose applied to the model root in the world (default: %(default)s)'}),
    ('self_collide', ('--self-collide',), {
        'choices': ('on', 'off', 'keep'), 'default': 'keep',
        'help': 'URDF -> SDF: force self-collision on or off (default: %(default)s)'}),
    ('visual_as_collision', ('--visual-as-collision',), {
        'action': 'store_true', 'help': 'give links with visuals but no collision their visuals '
        'as collisions (default: off)'}),
    ('inertia_from_geometry', ('--inertia-from-geometry',), {
        'action': 'store_true', 'help': 'URDF -> SDF: inertia of the collision geometry at the '
        'authored mass (default: off)'}),
    ('mesh_collision', ('--mesh-collision',), {
        'choices': ConversionOptions.CHOICES['mesh_collision'], 'default': _D.mesh_collision,
        'help': 'URDF -> SDF: mesh collisions kept, or replaced by their bounding box or convex '
        'hull (default: %(default)s)'}),
    ('joint_drive_from_transmission', ('--no-joint-drive-from-transmission',), {
        'action': 'store_false', 'help': 'URDF -> SDF: do not derive joint drives from '
        '<transmission>/<ros2_control> (default: derive them)'}),
    ('model', ('--model',), {
        'metavar': 'NAME', 'help': 'SDF -> URDF: the model of a world to convert (default: the '
        'only one)'}),
    ('scope_separator', ('--scope-separator',), {
        'metavar': 'SEP', 'default': _D.scope_separator,
        'help': "SDF -> URDF: replaces :: in the names of nested models' links, joints and "
        'frames (default: %(default)s)'}),
    ('frames_as_links', ('--drop-frames',), {
        'action': 'store_false', 'help': 'SDF -> URDF: drop <frame>s (default: write each as a '
        'massless link on a fixed joint)'}),
    ('break_loops', ('--break-loops',), {
        'action': 'store_true', 'help': 'SDF -> URDF: cut the joints closing kinematic loops '
        '(reported) instead of failing (default: fail)'}),
    ('assets_dir', ('--assets-dir',), {
        'metavar': 'DIR', 'default': _D.assets_dir,
        'help': 'MJCF output: copy the meshes, height fields and textures there and name them '
        "relative to it, so the model moves with them (default: 'assets' next to OUT)"}),
    ('usd_mesh_approximation', ('--usd-mesh-approximation',), {
        'choices': ConversionOptions.CHOICES['usd_mesh_approximation'],
        'default': _D.usd_mesh_approximation,
        'help': 'USD output: collision approximation of meshes on moving bodies, which PhysX '
        'cannot simulate as triangles; static bodies keep triangles (default: %(default)s)'}),
    ('actuators', ('--actuators',), {
        'choices': ConversionOptions.CHOICES['actuators'], 'default': _D.actuators,
        'help': 'MJCF/USD output: ros2_control: an actuator (USD: a drive) of its interface on '
        'each joint a <ros2_control> command interface or <transmission> names, and no other '
        '(the default does this too unless --no-joint-drive-from-transmission); position / '
        'motor: also on every other joint with an effort limit, a servo (kp from the effort) '
        'or a motor (default: %(default)s)'}),
    ('joint_positions', ('--joint-positions',), {
        'metavar': 'FILE.yaml|NAME=VALUE,...', 'default': '',
        'help': 'MJCF/USD output: where joints start (radians, metres), overriding '
        '<initial_position>: an MJCF keyframe "initial", the USD joint state (default: the '
        "file's initial positions)"}),
]


def add_convert_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the positional arguments and every option flag of ``convert``."""
    parser.add_argument('input', metavar='IN', help=f'{names(CONVERT_READS)} file')
    parser.add_argument('args', nargs='*', metavar='name:=value', help='xacro arguments')
    parser.add_argument('-o', '--output', metavar='OUT', required=True,
                        help='output file (- for standard output); its extension '
                        f'({", ".join(sorted(EXTENSIONS))}) gives the format unless --to does')
    parser.add_argument('--to', choices=FORMATS, help='output format')
    parser.add_argument('--from', dest='from_format', choices=('auto', 'usd', 'mjcf'),
                        default='auto',
                        help='input format: auto (USD for .usda/.usd/.usdc, MJCF for .mjcf or '
                        'an .xml whose root is <mujoco>, else SDFormat, URDF or xacro from the '
                        'root element), usd or mjcf (default: %(default)s)')
    parser.add_argument('--report', metavar='FILE.json',
                        help='write every assumption, change and loss as JSON (also on failure)')
    parser.add_argument('-q', '--quiet', action='store_true',
                        help='print only errors and the summary, not warnings and '
                        'report entries')
    group = parser.add_argument_group('conversion options')
    for dest, flags, kwargs in FLAGS:
        group.add_argument(*flags, dest=dest, **kwargs)


def _transform(text: str) -> Transform | None:
    try:
        v = [float(x) for x in text.replace(',', ' ').split()]
    except ValueError:
        return None
    if len(v) != 6:
        return None
    return Transform.from_xyz_rpy((v[0], v[1], v[2]), (v[3], v[4], v[5]))


def options_from_args(ns: argparse.Namespace) -> tuple[ConversionOptions, list[str]]:
    """Build the options from parsed arguments; return them and any problems."""
    problems: list[str] = []
    values = {dest: getattr(ns, dest) for dest, _, _ in FLAGS}
    root = _transform(values['root_transform'])
    if root is None:
        problems.append('--root-transform needs six numbers: "X Y Z ROLL PITCH YAW"')
    values['root_transform'] = root or Transform()
    values['self_collide'] = {'on': True, 'off': False}.get(values['self_collide'])
    values['joint_positions'], bad_positions = parse_joint_positions(values['joint_positions'])
    problems += bad_positions
    xargs, bad = parse_name_values(ns.args)
    problems += [f'argument after IN: {b}' for b in bad]
    opts = ConversionOptions(**values, xacro_args=xargs)
    return opts, problems + opts.validate()


def _print_outcome(result: ConversionResult, quiet: bool) -> None:
    for d in result.report.diagnostics if not quiet else result.report.errors:
        print(str(d), file=sys.stderr)
    if not quiet:
        for e in result.report.entries:
            print(str(e), file=sys.stderr)


def _exit_code(result: ConversionResult) -> int:
    if not result.usable or result.write_failed:
        return EXIT_USAGE
    return EXIT_OK if result.ok else EXIT_FAILED


def run_convert(ns: argparse.Namespace) -> int:
    """Run ``sdf_tools convert`` with parsed arguments; return the exit code."""
    options, problems = options_from_args(ns)
    fmt = output_format(ns.to, None if ns.output == STDOUT else ns.output)
    if fmt is None:
        problems.append(f'cannot tell the output format from [{ns.output}]: use --to '
                        f'{"|".join(FORMATS)}')
    if problems:
        for p in problems:
            print(f'sdf_tools convert: {p}', file=sys.stderr)
        return EXIT_USAGE
    result = convert_file(ns.input, to=fmt, output_path=ns.output, options=options,
                          report_path=ns.report, input_format=ns.from_format)
    code = _exit_code(result)
    _print_outcome(result, ns.quiet)
    if code == EXIT_OK:
        print(f'converted {ns.input} -> {ns.output} ({result.format}): '
              f'{result.report.summary()}', file=sys.stderr if ns.output == STDOUT else sys.stdout)
    else:
        n = len(result.report.errors)
        print(f'not converted: {ns.input} ({n} error{"s" if n != 1 else ""}; nothing written '
              f'to {ns.output})', file=sys.stderr)
    return code


DESCRIPTION = (f'Convert {names(CONVERT_READS)} to {names(CONVERT_WRITES)}. Every default '
               'assumed and every element renamed, merged, rewritten or dropped is reported '
               '(with file:line), printed, listed in a comment at the top of OUT and written '
               'to --report.')
EPILOG = ('exit codes: 0 converted; 1 invalid input or conversion error; 2 unusable input or '
          'usage error. OUT is written only on success, atomically.')


def main(argv: Sequence[str]) -> int:
    """Run ``sdf_tools convert ARGS`` (xacro arguments may come anywhere)."""
    parser = argparse.ArgumentParser(prog='sdf_tools convert', description=DESCRIPTION,
                                     epilog=EPILOG)
    add_convert_arguments(parser)
    try:
        ns = parser.parse_intermixed_args(argv)
    except SystemExit as exc:
        return EXIT_USAGE if exc.code else EXIT_OK
    return run_convert(ns)

