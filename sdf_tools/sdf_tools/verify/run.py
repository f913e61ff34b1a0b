"""Load both files, each in its own engine, and compare them."""
from __future__ import annotations

import contextlib
import sys
from pathlib import Path

from sdf_tools.convert.api import is_mjcf_input, is_usd_input
from sdf_tools.extras import is_missing
from sdf_tools.load import load_file
from sdf_tools.resolved import Resolved, resolve
from sdf_tools.verify.compare import Verdict, compare
from sdf_tools.verify.expected import snapshot
from sdf_tools.verify.snapshot import Snapshot


class UnusableError(Exception):
    """A file cannot be loaded (or its engine is missing): nothing was compared."""


def _resolved(path: str, xacro_args: dict[str, str] | None) -> Resolved:
    loaded = load_file(path, xacro_args)
    if not loaded.usable or loaded.document is None:
        first = next((str(d) for d in loaded.diagnostics), 'unreadable')
        raise UnusableError(f'cannot load [{path}]: {first}')
    return resolve(loaded, path)


def output_snapshot(path: str, *, model: str | None = None, input_format: str = 'auto'
                    ) -> Snapshot:
    """Return the snapshot of an output file, loaded by its own engine.

    Raises:
        UnusableError: the engine cannot load the file, or is not installed.
    """
    if not Path(path).is_file():
        raise UnusableError(f'no file [{path}]')
    if is_mjcf_input(path, input_format):
        try:
            from sdf_tools.verify.mujoco_side import mujoco_snapshot
            return mujoco_snapshot(path)
        except ImportError as err:
            if not is_missing(err, 'mujoco'):
                raise
            raise UnusableError(f'verifying MJCF needs MuJoCo ({err}): pip install mujoco') from err
        except ValueError as err:
            raise UnusableError(f'MuJoCo cannot compile [{path}]: {err}') from err
    if is_usd_input(path, input_format):
        try:
            from sdf_tools.verify.usd_side import usd_snapshot
        except ImportError as err:
            if not is_missing(err, 'pxr'):
                raise
            raise UnusableError(f'verifying USD needs usd-core ({err}): pip install usd-core') from err
        got = usd_snapshot(path, model)
        if isinstance(got, str):
            raise UnusableError(got)
        return got

    r = _resolved(path, None)
    return snapshot(r, f'sdf_tools reader ({(r.format or "").upper()})', model)


def _target(path: str, input_format: str) -> str:
    """The format OUT was written in (whose 'no mass' rule the converter followed)."""
    if is_mjcf_input(path, input_format):
        return 'mjcf'
    if is_usd_input(path, input_format):
        return 'usd'
    return 'urdf' if Path(path).suffix.lower() == '.urdf' else 'sdf'


def verify_files(output: str, source: str, *, model: str | None = None,
                 xacro_args: dict[str, str] | None = None, input_format: str = 'auto') -> Verdict:
    """Compare ``output`` (MJCF, USD, SDFormat or URDF) with ``source`` as resolved.

    Args:
        output: the converted file.
        source: the file it was converted from (SDFormat, URDF or xacro).
        model: the model of a world that was converted (``convert --model``).
        xacro_args: arguments for a xacro source.
        input_format: how to read ``output``: 'auto' (from its name), 'mjcf' or 'usd'.

    Raises:
        UnusableError: either file cannot be loaded.
    """
    if is_usd_input(output, input_format):
        _newton_schemas_first()
    obs = output_snapshot(output, model=model, input_format=input_format)
    exp = snapshot(_resolved(source, xacro_args), 'source', model,
                   target=_target(output, input_format))
    verdict = compare(exp, obs)
    if obs.paths and is_usd_input(output, input_format):
        verdict = _with_newton(verdict, exp, obs, output)
    return verdict


def _newton_schemas_first() -> None:
    """Import Newton before usd-core opens a stage: its schemas (NewtonMimicAPI...) register
    as plugins, which usd-core's schema registry takes only until it first composes a stage
    from a file; after that Newton's add_usd no longer sees them (it imported no mimic)."""
    try:
        with contextlib.redirect_stdout(sys.stderr):  # warp announces itself on stdout
            import newton  # noqa: F401
    except ImportError:
        pass  # verify notes the missing Newton (_with_newton)


def _with_newton(verdict: Verdict, exp: Snapshot, usd: Snapshot, path: str) -> Verdict:
    """Add what Newton's importer makes of the same stage (a note when Newton is missing)."""
    try:
        from sdf_tools.verify.newton_side import newton_snapshot
        got = newton_snapshot(path, usd)
    except ImportError as err:
        if not is_missing(err, 'newton', 'warp'):
            raise
        verdict.notes.append(f'Newton not installed ({err}): the stage was checked by usd-core '
                             'only (pip install newton)')
        return verdict
    if isinstance(got, str):
        raise UnusableError(got)
    return verdict.joined(compare(exp, got), 'Newton')
