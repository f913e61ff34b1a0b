"""The ``Convert`` service without ROS: a request in, a response out, never an exception.

Mirrors ``sdf_tools_interfaces/srv/Convert`` field by field, so the node only
copies fields. Everything ``sdf_tools convert`` does is available: input as a
path (also ``package://`` and ``model://``) or as text, input format auto or
forced, output format (or taken from the output path's extension), xacro
arguments, conversion options as YAML, an optional output file (written
atomically, only on success). Every bad request gets ``success`` false and
an error message naming the file and line when there is one.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from sdf_tools.errors import Severity
from sdf_tools.ros.params import parse_xacro_args, resolve_description_file

if TYPE_CHECKING:  # the converters are imported by the first request: the service is up sooner
    from sdf_tools.convert.conversion_report import ConversionResult
    from sdf_tools.convert.options import ConversionOptions

TEXT_SOURCE = 'input_text'  # how an input given as text is named in messages


@dataclass
class ConvertRequest:
    """``Convert.Request``."""

    input_path: str = ''
    input_text: str = ''
    input_format: str = ''
    output_format: str = ''
    xacro_args: list[str] = field(default_factory=list)
    options_yaml: str = ''
    output_path: str = ''


@dataclass
class ConvertResponse:
    """``Convert.Response``."""

    success: bool = False
    output_text: str = ''
    output_path: str = ''
    warnings: list[str] = field(default_factory=list)
    losses: list[str] = field(default_factory=list)
    error_message: str = ''
    error_file: str = ''
    error_line: int = 0

    @staticmethod
    def failure(message: str, file: str | None = None, line: int | None = None) -> ConvertResponse:
        return ConvertResponse(error_message=message, error_file=file or '', error_line=line or 0)


def _options(req: ConvertRequest) -> ConversionOptions | ConvertResponse:
    from sdf_tools.convert.options import ConversionOptions
    args, problems = parse_xacro_args(list(req.xacro_args))
    if problems:
        return ConvertResponse.failure('; '.join(problems))
    try:
        data: Any = yaml.safe_load(req.options_yaml) if req.options_yaml.strip() else {}
    except yaml.YAMLError as err:
        mark = getattr(err, 'problem_mark', None)
        return ConvertResponse.failure(f'options_yaml is not valid YAML: {err}', 'options_yaml',
                                       mark.line + 1 if mark is not None else None)
    if not isinstance(data, dict):
        return ConvertResponse.failure('options_yaml must be a YAML mapping, e.g. '
                                       "{sdf_version: '1.10', keep_fixed_joints: true}")
    data = {**data, 'xacro_args': {**dict(data.get('xacro_args') or {}), **args}}
    try:
        options, problems = ConversionOptions.from_mapping(data)
    except (TypeError, ValueError) as err:
        return ConvertResponse.failure(f'options_yaml: {err}')
    if problems:
        known = ', '.join(f.name for f in dataclasses.fields(ConversionOptions))
        return ConvertResponse.failure(f'options_yaml: {"; ".join(problems)} (options: {known})')
    return options


def _convert(req: ConvertRequest, to: str, options: ConversionOptions) -> ConversionResult | ConvertResponse:
    from sdf_tools.convert.api import convert_file, convert_text
    input_format = req.input_format or 'auto'
    if req.input_text:
        return convert_text(req.input_text, input_format=input_format, to=to, options=options,
                            source_name=TEXT_SOURCE)
    path, why = resolve_description_file(req.input_path, 'input_path')
    if path is None:
        return ConvertResponse.failure(why or 'no such file', req.input_path)
    if path.is_dir():
        from sdf_tools.sdf.uris import model_file_in_dir
        found = model_file_in_dir(path)
        if found is None:
            return ConvertResponse.failure(f'{path}: the directory holds no model.config or '
                                           'model.sdf', str(path))
        path = found
    if input_format == 'auto':
        return convert_file(path, to=to, output_path=None, options=options)
    return convert_text(Path(path).read_text(encoding='utf-8'), input_format=input_format, to=to,
                        options=options, source_name=str(path))


def _check(req: ConvertRequest) -> str | None:
    from sdf_tools.convert.api import FORMATS, INPUT_FORMATS
    if bool(req.input_path) == bool(req.input_text):
        return 'give exactly one of input_path and input_text'
    if req.input_format and req.input_format not in INPUT_FORMATS:
        return f'input_format [{req.input_format}] must be one of {", ".join(INPUT_FORMATS)}'
    if req.output_format and req.output_format not in FORMATS:
        return f'output_format [{req.output_format}] must be one of {", ".join(FORMATS)}'
    return None


def _respond(result: ConversionResult, req: ConvertRequest,
             options: ConversionOptions) -> ConvertResponse:
    from sdf_tools.convert.api import write_result
    from sdf_tools.load import without_read_summary
    report = result.report
    resp = ConvertResponse(
        warnings=[str(d) for d in report.diagnostics if d.severity is Severity.WARNING],
        losses=[str(e) for e in report.entries])
    if not result.ok or result.text is None:
        errors = without_read_summary(report.errors)
        located = next((d for d in errors if d.file), None)
        resp.error_message = '\n'.join(str(d) for d in errors) or 'the conversion failed'
        # input_text is no file: error_file stays empty, error_line is the line of the text
        resp.error_file = (located.file or '') if located and located.file != TEXT_SOURCE else ''
        resp.error_line = (located.line or 0) if located else 0
        return resp
    if req.output_path:
        try:
            # as convert_file writes it: MJCF with its meshes copied beside it (assets_dir),
            # .usd/.usdc as a binary crate; output_text is then the text written
            write_result(req.output_path, result, assets_dir=options.assets_dir)
        except OSError as err:
            return ConvertResponse.failure(f'cannot write [{req.output_path}]: '
                                           f'{err.strerror or err}', req.output_path)
        resp.output_path = req.output_path
    resp.success, resp.output_text = True, result.text or ''
    return resp


def handle_convert(req: ConvertRequest) -> ConvertResponse:
    """Answer one Convert request; never raises."""
    try:
        problem = _check(req)
        if problem is not None:
            return ConvertResponse.failure(problem)
        from sdf_tools.convert.api import FORMATS, output_format
        to = output_format(req.output_format or None, req.output_path or None)
        if to is None:
            return ConvertResponse.failure('output_format is empty and the output_path extension '
                                           f'does not tell it: give one of {", ".join(FORMATS)}')
        options = _options(req)
        if isinstance(options, ConvertResponse):
            return options
        result = _convert(req, to, options)
        if isinstance(result, ConvertResponse):
            return result
        return _respond(result, req, options)
    except Exception as err:  # a service must answer whatever happens
        return ConvertResponse.failure(f'internal error while converting: {type(err).__name__}: '
                                       f'{err}')
