"""Convert files and strings: format detection, dispatch, output and report files.

Reads SDFormat, URDF and xacro (:func:`sdf_tools.load.load_file`), MJCF and
USD (their importers); writes SDFormat, URDF, MJCF and USD. What the CLI
(``sdf_tools convert``), the ROS Convert service and a Python user call::

    result = convert_file('robot.urdf.xacro', to=None, output_path='robot.sdf',
                          options=ConversionOptions(xacro_args={'arm': 'left'}),
                          report_path='robot.report.json')
    if not result.ok:
        for error in result.report.errors:
            print(error)

The output file is written only when the conversion succeeded, atomically
(a temporary file in the same directory, then a rename), so a failed run
never leaves a partial or stale-looking file. The report file is written in
every case, failures included.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sdf_tools.convert.conversion_report import ConversionReport, ConversionResult
from sdf_tools.convert.imported import Imported
from sdf_tools.convert.options import ConversionOptions
from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.extras import is_missing
from sdf_tools.files import write_atomically
from sdf_tools.load import LoadResult, detect_format, load_file, load_string
from sdf_tools.xmlsafe import parse_bytes

if TYPE_CHECKING:
    from sdf_tools.resolved import Resolved

FORMATS = ('sdf', 'urdf', 'usd', 'mjcf')
INPUT_FORMATS = ('auto', 'sdf', 'urdf', 'xacro')
# Output file name endings and the format they imply.
EXTENSIONS = {'.urdf': 'urdf', '.sdf': 'sdf', '.world': 'sdf',
              '.usda': 'usd', '.usd': 'usd', '.usdc': 'usd', '.mjcf': 'mjcf'}
#: The output path that means standard output (``sdf_tools convert IN -o -``).
STDOUT = '-'
# Input file endings read as OpenUSD (through usd-core's UsdPhysics parser).
USD_INPUTS = ('.usda', '.usd', '.usdc')


def output_format(to: str | None, output_path: str | None) -> str | None:
    """Return the output format: ``to`` if given, else from the output file's extension.

    Returns None when neither decides (no ``to`` and an unknown extension).
    """
    if to is not None:
        return to if to in FORMATS else None
    if output_path is None:
        return None
    return EXTENSIONS.get(Path(output_path).suffix.lower())


def _failed(to: str, message: str, code: ErrorCode = ErrorCode.PARAMETER_ERROR,
            report: ConversionReport | None = None) -> ConversionResult:
    report = report if report is not None else ConversionReport()
    report.diagnostics.append(Diagnostic(code, message))
    return ConversionResult(None, to, report)


def convert_loaded(loaded: LoadResult, *, to: str, options: ConversionOptions,
                   resolved: Resolved | None = None) -> ConversionResult:
    """Convert an already loaded file to ``to`` (one of ``FORMATS``: SDFormat, URDF, USD, MJCF).

    ``resolved``: ``loaded`` already resolved, when the caller has it (the URDF
    writer then uses it rather than resolving again).
    """
    if to == 'urdf':
        from sdf_tools.convert.urdf.to_urdf import convert_to_urdf
        return convert_to_urdf(loaded, options, resolved)
    if to == 'sdf':
        from sdf_tools.convert.sdf.to_sdf import convert_to_sdf
        return convert_to_sdf(loaded, options)
    if to == 'usd':
        try:
            from sdf_tools.convert.usd.to_usd import convert_to_usd
        except ImportError as err:
            if not is_missing(err, 'pxr'):
                raise
            return _failed(to, f'OpenUSD export needs usd-core ({err}): pip install usd-core')
        return convert_to_usd(loaded, options)
    if to == 'mjcf':
        from sdf_tools.convert.mjcf.to_mjcf import convert_to_mjcf
        return convert_to_mjcf(loaded, options)
    return _failed(to, f'unknown output format [{to}]: use one of {", ".join(FORMATS)}')


def is_usd_input(path: str | os.PathLike[str], input_format: str = 'auto') -> bool:
    """Return whether ``path`` is read as OpenUSD (``--from usd``, or a USD file ending)."""
    if input_format != 'auto':
        return input_format == 'usd'
    return Path(path).suffix.lower() in USD_INPUTS


def is_mjcf_input(path: str | os.PathLike[str], input_format: str = 'auto') -> bool:
    """Return whether ``path`` is read as MJCF (``--from mjcf``, ``.mjcf``, or ``<mujoco>`` in .xml)."""
    if input_format != 'auto':
        return input_format == 'mjcf'
    suffix = Path(path).suffix.lower()
    if suffix == '.mjcf':
        return True
    try:
        head = Path(path).read_bytes()[:4096] if suffix == '.xml' else b''
    except OSError:
        return False
    return b'<mujoco' in head


def _import(path: str, input_format: str) -> Imported | None:
    """Read an MJCF or USD input (None: the input is SDFormat, URDF or xacro)."""
    if is_mjcf_input(path, input_format):
        from sdf_tools.convert.mjcf.from_mjcf import load_mjcf
        return load_mjcf(path)
    if is_usd_input(path, input_format):
        try:
            from sdf_tools.convert.usd.from_usd import load_usd
        except ImportError as err:
            if not is_missing(err, 'pxr'):
                raise
            return Imported(None, ConversionReport(diagnostics=[Diagnostic(
                ErrorCode.PARAMETER_ERROR,
                f'OpenUSD import needs usd-core ({err}): pip install usd-core')]))
        return load_usd(path)
    return None


def convert_input(input_path: str | os.PathLike[str], *, to: str, options: ConversionOptions,
                  input_format: str = 'auto') -> ConversionResult:
    """Read and convert one input file (nothing is written); ``usable`` says if it could be read.

    Args:
        input_path: an SDFormat, URDF, xacro, MJCF or USD file.
        to: the output format, one of ``FORMATS``.
        options: the conversion options (xacro arguments in ``options.xacro_args``).
        input_format: 'auto' (from the file), 'usd' or 'mjcf'.
    """
    path = os.fspath(input_path)
    imported = _import(path, input_format)
    if imported is not None:
        if imported.loaded is None:
            return imported.failed(to)
        return imported.prepend_to(convert_loaded(imported.loaded, to=to, options=options))
    loaded = load_file(path, options.xacro_args, gazebo=options.gazebo)
    result = convert_loaded(loaded, to=to, options=options)
    result.usable = loaded.usable and loaded.document is not None
    return result


def write_result(path: str | os.PathLike[str], result: ConversionResult, *,
                 assets_dir: str = '') -> None:
    """Write a result's text to ``path``: binary crate for ``.usd``/``.usdc``, else as text.

    MJCF is written with its assets: the files it loads are copied to ``assets_dir``
    (``assets`` next to ``path`` by default) and named relative to it; ``result.text``
    becomes the text written (:mod:`~sdf_tools.convert.mjcf.package`).
    """
    if result.format == 'mjcf' and result.text is not None:
        from sdf_tools.convert.mjcf.package import package_assets
        result.text = package_assets(result.text, path, assets_dir)
    if result.format == 'usd' and Path(path).suffix.lower() in ('.usd', '.usdc'):
        from sdf_tools.convert.usd.files import save_usd
        save_usd(result.text or '', path)
        return
    write_output(path, result.text or '')


def write_output(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically (temporary file, then rename).

    Raises:
        OSError: the directory is missing or not writable.
    """
    write_atomically(path, text)


def report_json(result: ConversionResult, *, input_path: str | None,
                output_path: str | None) -> dict[str, Any]:
    """Return the ``--report`` JSON object of a conversion (failed or not)."""
    return {
        'ok': result.ok,
        'input': input_path,
        'output': output_path if result.ok else None,
        'format': result.format,
        'summary': result.report.summary(),
        **result.report.to_json(),
    }


def write_report(path: str | os.PathLike[str], result: ConversionResult, *,
                 input_path: str | None, output_path: str | None) -> None:
    """Write the report JSON of ``result`` to ``path`` (atomically)."""
    data = report_json(result, input_path=input_path, output_path=output_path)
    write_output(path, json.dumps(data, indent=1, allow_nan=False) + '\n')


def _write_error(result: ConversionResult, what: str, path: str, err: OSError) -> None:
    result.write_failed = True
    result.report.diagnostics.append(Diagnostic(
        ErrorCode.FATAL_ERROR, f'cannot write the {what} [{path}]: {err.strerror or err}', path))


def convert_file(input_path: str | os.PathLike[str], *, to: str | None,
                 output_path: str | os.PathLike[str] | None, options: ConversionOptions,
                 report_path: str | os.PathLike[str] | None = None,
                 input_format: str = 'auto') -> ConversionResult:
    """Convert a file; write the output (on success) and the report (always).

    What ``sdf_tools convert`` runs.

    Args:
        input_path: an SDFormat, URDF, xacro, MJCF or USD file (xacro
            arguments in ``options.xacro_args``).
        to: one of ``FORMATS``; None to take it from ``output_path``'s extension.
        output_path: where to write the result (``-``: standard output);
            None to write nothing.
        options: the conversion options.
        report_path: where to write the report JSON; None for none.
        input_format: 'auto' (from the file), 'usd' or 'mjcf'.

    Returns:
        The result; ``result.ok`` is False when the input was unusable or
        invalid, the conversion failed, or the output could not be written
        (``result.usable`` and ``result.write_failed`` say which).
    """
    out = None if output_path is None else os.fspath(output_path)
    src = os.fspath(input_path)
    fmt = output_format(to, None if out == STDOUT else out)
    if fmt is None:
        result = _failed(to or 'unknown', f'cannot tell the output format from [{out}]: '
                         f'give to= one of {", ".join(FORMATS)}')
    else:
        result = convert_input(src, to=fmt, options=options, input_format=input_format)
    if result.ok and out is not None and result.text is not None:
        try:
            if out == STDOUT:
                sys.stdout.write(result.text)
            else:
                write_result(out, result, assets_dir=options.assets_dir)
        except OSError as err:
            _write_error(result, 'output', out, err)
    if report_path is not None:
        rp = os.fspath(report_path)
        try:
            write_report(rp, result, input_path=src, output_path=out)
        except OSError as err:
            _write_error(result, 'report', rp, err)
    return result


def _xacro_dir(source_name: str | None) -> Path | None:
    """Return the directory of the source file if a temporary file can go there."""
    if not source_name or not Path(source_name).is_file():
        return None
    folder = Path(source_name).resolve().parent
    return folder if folder.is_dir() and os.access(folder, os.W_OK) else None


def _load_xacro_text(text: str, source_name: str | None,
                     xacro_args: dict[str, str], gazebo: str | None = None) -> LoadResult:
    """Expand xacro given as text through a temporary file (xacro reads files).

    The file goes next to ``source_name`` when that is a file in a writable
    directory, so that relative ``<xacro:include>``s resolve as they would for
    the real file; otherwise into a temporary directory. It is removed afterwards.
    """
    folder = _xacro_dir(source_name)
    fd, tmp = tempfile.mkstemp(prefix='.sdf_tools_', suffix='.urdf.xacro',
                               dir=str(folder) if folder else None)
    try:
        with os.fdopen(fd, 'w', encoding='utf-8') as f:
            f.write(text)
        loaded = load_file(tmp, xacro_args, gazebo=gazebo)
    finally:
        Path(tmp).unlink(missing_ok=True)
    shown = source_name or '<string>'
    loaded.diagnostics = [d if d.file != tmp else
                          Diagnostic(d.code, d.message, shown, d.line, d.xml_path, d.severity)
                          for d in loaded.diagnostics]
    if loaded.document is not None and loaded.document.file == tmp:
        loaded.document.file = shown
    return loaded


def _is_xacro(text: str, source_name: str | None) -> bool:
    root, _ = parse_bytes(text.encode('utf-8'), source_name)
    return root is not None and detect_format(root, source_name) == 'xacro'


def convert_text(text: str, *, input_format: str = 'auto', to: str, options: ConversionOptions,
                 source_name: str | None = None) -> ConversionResult:
    """Convert a description given as text (for services: nothing is written).

    Args:
        text: SDFormat, URDF or xacro (MJCF and USD are read from files: :func:`convert_file`).
        input_format: 'auto' (from the root element and namespace), 'sdf',
            'urdf' or 'xacro'; a mismatch with the text is an error.
        to: one of ``FORMATS`` ('sdf', 'urdf', 'usd', 'mjcf').
        options: the conversion options.
        source_name: names the text in messages; relative includes (SDFormat
            or xacro) resolve against its directory.
    """
    if input_format not in INPUT_FORMATS:
        return _failed(to, f'unknown input format [{input_format}]: use one of '
                       f'{", ".join(INPUT_FORMATS)}')
    if input_format == 'xacro' or (input_format == 'auto' and _is_xacro(text, source_name)):
        loaded = _load_xacro_text(text, source_name, options.xacro_args, options.gazebo)
    else:
        loaded = load_string(text, source_name, options.xacro_args, gazebo=options.gazebo)
        doc = loaded.document
        if doc is not None and input_format in ('sdf', 'urdf') and doc.format != input_format:
            return _failed(to, f'the text is {doc.format.upper()}, not {input_format.upper()}',
                           ErrorCode.ELEMENT_INVALID,
                           ConversionReport(diagnostics=list(loaded.diagnostics)))
    return convert_loaded(loaded, to=to, options=options)
