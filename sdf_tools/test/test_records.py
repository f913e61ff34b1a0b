"""The dataclasses whose methods are written out behave as the generated ones would.

Each class is held to a reference dataclass made by ``dataclasses.make_dataclass`` from its
own fields (same names, order, defaults, ``frozen``): the ``__init__`` takes the same
parameters with the same defaults, and ``__repr__``, ``__eq__`` and ``__hash__`` give what
the reference's generated methods give.
"""
from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import pytest

from sdf_tools.errors import Diagnostic, ErrorCode, Severity
from sdf_tools.frames.graph import FrameGraphs, PoseEdge
from sdf_tools.gazebo import GazeboTarget
from sdf_tools.load import LoadResult
from sdf_tools.model import (
    Collision,
    Document,
    Extra,
    Frame,
    Geometry,
    Inertial,
    Joint,
    JointAxis,
    Link,
    Loc,
    Model,
    RawPose,
    Visual,
    World,
)
from sdf_tools.records import fields_eq, fields_repr
from sdf_tools.sdf.context import ReadContext, read_as, version_tuple
from sdf_tools.sdf.spec import AttributeSpec, ElementSpec
from sdf_tools.transform import IDENTITY, Transform

WRITTEN_OUT: list[type] = [
    Geometry, Visual, Collision, Inertial, Link, JointAxis, Joint, Frame, Model, World,
    Document, Loc, RawPose, Extra, Diagnostic, Transform, PoseEdge, FrameGraphs, LoadResult,
    ReadContext, GazeboTarget, AttributeSpec, ElementSpec,
]

# A value for each required field, by name.
REQUIRED: dict[str, object] = {
    'name': 'n', 'type': 'revolute', 'file': 'f.sdf', 'format': 'sdf', 'version': '1.9',
    'tag': 'plugin', 'xml': '<plugin/>', 'code': ErrorCode.DUPLICATE_NAME, 'message': 'm',
    'parent': 0, 'value': IDENTITY, 'document': None, 'libsdformat': 12, 'spec': '1.9',
    'ros_distro': 'humble', 'convert_version': '1.9', 'default': '', 'required': False,
}


def _read_context_post_init(self: Any) -> None:
    self.version_tuple = version_tuple(self.version)
    self.read_as = read_as(self.version)


# Classes made with eq=False: equality is identity, as for any object.
IDENTITY_EQ = {ElementSpec}

# What a class's generated __init__ called after setting the fields.
POST_INIT: dict[type, Any] = {ReadContext: _read_context_post_init}


def _reference(cls: type) -> type:
    """The dataclass ``@dataclass`` makes from ``cls``'s fields, methods generated."""
    specs = []
    for f in dataclasses.fields(cls):
        kw: dict[str, Any] = {'repr': f.repr, 'compare': f.compare, 'hash': f.hash}
        if f.default is not dataclasses.MISSING:
            kw['default'] = f.default
        if f.default_factory is not dataclasses.MISSING:
            kw['default_factory'] = f.default_factory
        specs.append((f.name, f.type, dataclasses.field(**kw)))
    params = cls.__dataclass_params__
    namespace = {'__post_init__': POST_INIT[cls]} if cls in POST_INIT else None
    ref = dataclasses.make_dataclass(cls.__name__, specs, frozen=params.frozen,
                                     eq=cls not in IDENTITY_EQ,
                                     unsafe_hash=cls.__hash__ is not None and not params.frozen,
                                     namespace=namespace)
    ref.__qualname__ = cls.__qualname__
    return ref


def _required(cls: type) -> dict[str, object]:
    return {f.name: REQUIRED[f.name] for f in dataclasses.fields(cls)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}


@pytest.mark.parametrize('cls', WRITTEN_OUT, ids=lambda c: c.__name__)
def test_written_out_init_takes_the_fields_with_their_defaults(cls: type) -> None:
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = dataclasses.fields(cls)
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields, strict=True):
        if f.default_factory is not dataclasses.MISSING:
            assert p.default is None  # made fresh for each instance, as the factory does
        elif f.default is not dataclasses.MISSING:
            assert p.default == f.default and type(p.default) is type(f.default)
        else:
            assert p.default is inspect.Parameter.empty
    ref = _reference(cls)
    ours, theirs = cls(**_required(cls)), ref(**_required(cls))
    assert dataclasses.astuple(ours) == dataclasses.astuple(theirs)
    for f in fields:
        if f.default_factory in (list, dict, set):  # not one container shared by all
            assert getattr(ours, f.name) is not getattr(cls(**_required(cls)), f.name)


@pytest.mark.parametrize('cls', WRITTEN_OUT, ids=lambda c: c.__name__)
def test_written_out_repr_eq_and_hash_are_the_generated_ones(cls: type) -> None:
    ref = _reference(cls)
    values = _required(cls)
    assert repr(cls(**values)) == repr(ref(**values))
    assert (cls(**values) == cls(**values)) == (cls not in IDENTITY_EQ)
    assert cls(**values) != ref(**values)  # another class: NotImplemented both ways
    assert cls(**values).__eq__(object()) is NotImplemented
    if cls in IDENTITY_EQ:
        return
    assert (cls.__hash__ is None) == (ref.__hash__ is None)
    if cls.__hash__ is not None:
        assert hash(cls(**values)) == hash(ref(**values))
    # Each field takes part in equality and shows in the repr.
    for f in dataclasses.fields(cls):
        changed = dict(values, **{f.name: 'changed'})
        if getattr(cls(**changed), f.name) != 'changed':
            continue  # set from another field (ReadContext.read_as from its version)
        assert cls(**changed) != cls(**values), f.name
        assert repr(cls(**changed)) == repr(ref(**changed))
        assert (f"{f.name}='changed'" in repr(cls(**changed))) == f.repr


def test_dataclass_api_works_on_written_out_classes() -> None:
    link = Link('l', visuals=[Visual('v', geometry=Geometry('box', {'size': (1, 2, 3)}))])
    moved = dataclasses.replace(link, name='m')
    assert moved.name == 'm' and moved.visuals is link.visuals
    assert dataclasses.asdict(link)['visuals'][0]['geometry'] == {
        'type': 'box', 'params': {'size': (1, 2, 3)}, 'loc': None}
    assert Joint.__match_args__[:2] == ('name', 'type')
    assert dataclasses.is_dataclass(Model('m'))
    d = Diagnostic(ErrorCode.WARNING, 'w', severity=Severity.WARNING)
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.message = 'x'  # type: ignore[misc]
    assert {d, dataclasses.replace(d)} == {d}


def test_fields_repr_marks_a_cycle_and_fields_eq_compares_in_field_order() -> None:
    model = Model('outer')
    model.models.append(model)
    assert fields_repr(model).count('Model(') == 1 and '[...]' in fields_repr(model)
    nan = float('nan')
    pose = RawPose(Transform((nan, 0.0, 0.0)))
    # the tuples' comparison, as the generated __eq__: identical NaNs are equal
    assert fields_eq(pose, RawPose(pose.value)) is True
    assert fields_eq(pose, Loc()) is NotImplemented
