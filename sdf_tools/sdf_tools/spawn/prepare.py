"""Turn a model as the user has it (file, URI or text; SDFormat, URDF or xacro) into SDF for Gazebo.

Steps, each stopping with a result code (:class:`~sdf_tools.spawn.result.SpawnError`):

1. find the input: a path, ``file://``, ``package://`` or ``model://`` URI
   (a model folder means its ``model.config``), or text (NO_RESOURCE, NOT_FOUND);
2. tell the format: as given, or from the file name and root element
   (UNSUPPORTED_FORMAT for anything but SDFormat, URDF and xacro);
3. read and validate it with sdf_tools' reader, which follows libsdformat:
   every error comes back with its file and line (RESOURCE_PARSE_ERROR;
   MISSING_ASSETS when included models or meshes cannot be found);
4. expand xacro with its arguments and convert URDF to SDFormat with its
   ``<gazebo>`` tags (:func:`sdf_tools.convert.api.convert_loaded`);
5. make mesh and include URIs resolvable for Gazebo (:mod:`~sdf_tools.spawn.assets`)
   and put the namespace into the ROS plugins (:mod:`~sdf_tools.spawn.naming`);
6. read the result once more, as Gazebo will get it.
"""
from __future__ import annotations

import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from sdf_tools.errors import Diagnostic, ErrorCode
from sdf_tools.load import LoadResult, load_file, load_string, without_read_summary
from sdf_tools.model import Model
from sdf_tools.sdf.uris import model_file_in_dir, resolve_uri
from sdf_tools.spawn.assets import missing_meshes, rewrite_uris
from sdf_tools.spawn.naming import apply_namespace
from sdf_tools.spawn.result import ResultCode, SpawnError
from sdf_tools.spawn.world_model import pick_world_model, standalone_model
from sdf_tools.xmlsafe import parse_bytes

FORMATS = ('auto', 'sdf', 'urdf', 'xacro')
#: File types people try to spawn that Gazebo's create service does not take.
_UNSUPPORTED_SUFFIXES = ('.usd', '.usda', '.usdc', '.usdz', '.mjcf', '.obj', '.dae', '.stl',
                         '.glb', '.gltf', '.fbx', '.json', '.yaml')


@dataclass(frozen=True)
class ModelSource:
    """Where the model comes from: a file or URI, or text (``file`` wins when both are set).

    Attributes:
        file: a path, or a ``file://``, ``package://`` or ``model://`` URI.
        text: the description itself (from a parameter, a topic, a request).
        format: 'auto', 'sdf', 'urdf' or 'xacro'.
        xacro_args: xacro arguments (``name -> value``).
        source_name: how ``text`` is named in messages, e.g. 'parameter [robot_description]'.
        model: for a world file, which of its models to spawn ('' = its only one).
    """

    file: str = ''
    text: str = ''
    format: str = 'auto'
    xacro_args: Mapping[str, str] = field(default_factory=dict)
    source_name: str = ''
    model: str = ''


@dataclass
class PreparedModel:
    """The SDF text to send, the model's own name, and what was done to get there."""

    sdf: str
    model_name: str
    source: str
    format: str
    notes: list[str] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)


def locate(file: str) -> Path:
    """Return the model file a path or URI names (a model folder: its SDF file)."""
    path: Path | None = Path(file) if Path(file).exists() else resolve_uri(file, Path.cwd())
    if path is not None and path.is_dir():
        found = model_file_in_dir(path)
        if found is None:
            raise SpawnError(ResultCode.NOT_FOUND,
                             f'folder [{path}] holds no model.config or model.sdf')
        path = found
    if path is None or not path.is_file():
        raise SpawnError(ResultCode.NOT_FOUND,
                         f'model file [{file}] not found (searched as a path, then as a URI '
                         'under SDF_PATH, GZ_SIM_RESOURCE_PATH, IGN_GAZEBO_RESOURCE_PATH and '
                         'AMENT_PREFIX_PATH)')
    return path


def detect_format(declared: str, data: bytes, source: str) -> str:
    """Return 'sdf', 'urdf' or 'xacro' for the input (``declared`` unless 'auto')."""
    if declared not in FORMATS:
        raise SpawnError(ResultCode.UNSUPPORTED_FORMAT,
                         f'format [{declared}] is not one of {", ".join(FORMATS)}')
    if source.lower().endswith(_UNSUPPORTED_SUFFIXES):
        raise SpawnError(ResultCode.UNSUPPORTED_FORMAT,
                         f'[{source}] is not SDFormat, URDF or xacro: Gazebo spawns those only')
    root, bad = parse_bytes(data, source)
    if root is None:
        raise SpawnError(ResultCode.RESOURCE_PARSE_ERROR, f'[{source}] is not readable XML',
                         [bad] if bad else [])
    xacro_ns = any('xacro' in (uri or '') for uri in (root.nsmap or {}).values())
    found = {'sdf': 'sdf', 'robot': 'xacro' if xacro_ns or source.endswith('.xacro') else 'urdf'}
    actual = found.get(str(root.tag))
    if actual is None:
        raise SpawnError(ResultCode.UNSUPPORTED_FORMAT,
                         f'[{source}] has root element <{root.tag}>: neither SDFormat <sdf> nor '
                         'URDF/xacro <robot>')
    if declared == 'auto' or actual == 'xacro':
        return actual
    if (declared == 'sdf') != (actual == 'sdf'):
        raise SpawnError(ResultCode.RESOURCE_PARSE_ERROR,
                         f'[{source}] was given as {declared} but its root element is <{root.tag}>')
    return declared


def _check(result: LoadResult, source: str) -> None:
    """Stop on the reader's errors."""
    errors = without_read_summary(result.errors)
    if errors:
        lookup = any(d.code is ErrorCode.URI_LOOKUP for d in errors)  # the rest may follow from it
        code = ResultCode.MISSING_ASSETS if lookup else ResultCode.RESOURCE_PARSE_ERROR
        what = 'cannot find what it includes' if lookup else 'is invalid'
        raise SpawnError(code, f'[{source}] {what}: {len(errors)} error(s)', errors)
    if result.document is None:
        raise SpawnError(ResultCode.RESOURCE_PARSE_ERROR, f'[{source}] cannot be read')


#: The end of the note of a model taken out of a world; the spawn drops that part when the
#: request gives the pose itself.
WORLD_POSE_NOTE = 'the world gives it'


def _model_of(loaded: LoadResult, data: bytes, wanted: str, source: str) -> tuple[Model, str | None]:
    """Return the model to spawn, and its SDF text when cut out of a world (else None)."""
    doc = loaded.document
    assert doc is not None
    if doc.model is not None:
        if wanted and wanted != doc.model.name:
            raise SpawnError(ResultCode.NOT_FOUND, f'[{source}] holds model [{doc.model.name}], '
                             f'not [{wanted}]')
        return doc.model, None
    if not doc.worlds:
        raise SpawnError(ResultCode.RESOURCE_PARSE_ERROR,
                         f'[{source}] holds no <model>: Gazebo spawns models (and this tool '
                         'spawns no lone <light> or <actor>)')
    model, pose = pick_world_model(loaded, wanted, source)
    root, _ = parse_bytes(data, source)
    assert root is not None
    return model, standalone_model(root, model.name, pose)


def _to_sdf(loaded: LoadResult, source: str, uris: str) -> tuple[str, list[str]]:
    """Convert a loaded URDF (xacro already expanded) to SDFormat, with its Gazebo tags."""
    try:
        from sdf_tools.convert.api import convert_loaded
        from sdf_tools.convert.options import ConversionOptions
    except ImportError as err:
        raise SpawnError(ResultCode.FEATURE_UNSUPPORTED,
                         f'URDF to SDFormat conversion is not available here ({err})') from err
    result = convert_loaded(loaded, to='sdf', options=ConversionOptions(uris=uris))
    if not result.ok or result.text is None:
        raise SpawnError(ResultCode.RESOURCE_PARSE_ERROR,
                         f'[{source}] cannot be converted to SDFormat', result.report.errors)
    return result.text, [f'converted from URDF to SDFormat: {result.report.summary()}']


def _finish(sdf: str, base: Path | None, *, namespace: str, uris: str,
            source: str) -> tuple[str, str, list[str]]:
    """Rewrite URIs and namespace, re-read the result; return text, model name and notes."""
    root, bad = parse_bytes(sdf.encode('utf-8'), source)
    if root is None:
        raise SpawnError(ResultCode.OPERATION_FAILED, f'the SDF made from [{source}] is not XML',
                         [bad] if bad else [])
    notes = rewrite_uris(root, base, uris) + apply_namespace(root, namespace)
    text = etree.tostring(root.getroottree(), encoding='unicode')
    # Read with no folder, as Gazebo reads the text it gets.
    check = load_string(text, source='<as sent to Gazebo>')
    if any(d.code is ErrorCode.URI_LOOKUP for d in check.errors):
        raise SpawnError(ResultCode.MISSING_ASSETS,
                         f'[{source}] as sent to Gazebo has URIs Gazebo cannot resolve (a relative '
                         f'path with uris={uris}?)', check.errors)
    if check.errors or check.document is None or check.document.model is None:
        raise SpawnError(ResultCode.OPERATION_FAILED,
                         f'the SDF made from [{source}] does not load (please report this)',
                         check.errors)
    return text, check.document.model.name, notes


def _read_input(source: ModelSource) -> tuple[Path | None, bytes, str]:
    """Return the file (None for text), its bytes and its name in messages."""
    if source.file:
        path = locate(source.file)
        return path, path.read_bytes(), str(path)
    if not source.text.strip():
        raise SpawnError(ResultCode.NO_RESOURCE, 'no model given: set a file/URI or the text')
    return None, source.text.encode('utf-8'), source.source_name or '<text>'


def prepare_model(source: ModelSource, *, namespace: str = '', uris: str = 'file') -> PreparedModel:
    """Return the SDF to send to Gazebo for ``source`` (raises SpawnError with a code)."""
    with tempfile.TemporaryDirectory(prefix='sdf_tools_spawn_') as tmp:
        path, data, name = _read_input(source)
        fmt = detect_format(source.format, data, name if path is None else str(path))
        if fmt == 'xacro' and path is None:
            path = Path(tmp) / 'model.urdf.xacro'  # xacro reads files only
            path.write_bytes(data)
        args = dict(source.xacro_args)
        loaded = load_file(path, args) if path is not None else load_string(data, source=name)
        _check(loaded, name)
        model, cut = _model_of(loaded, data, source.model, name)
        missing = missing_meshes(model, str(path) if path else None)
        if missing:
            raise SpawnError(ResultCode.MISSING_ASSETS,
                             f'[{name}] uses {len(missing)} mesh(es) that cannot be found', missing)
        notes: list[str] = []
        if cut is not None:
            sdf = cut
            notes.append(f'model [{model.name}] taken out of the world of [{name}], at the pose '
                         f'{WORLD_POSE_NOTE}')
        elif fmt == 'sdf':
            sdf = data.decode('utf-8')
        else:
            sdf, notes = _to_sdf(loaded, name, uris)
        base = path.parent if path is not None and source.file else None
        text, model_name, more = _finish(sdf, base, namespace=namespace, uris=uris, source=name)
    return PreparedModel(text, model_name, name, fmt, notes + more, loaded.warnings)
