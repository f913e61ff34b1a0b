"""A missing extra says "pip install ..."; any other failed import is not dressed up as one."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sdf_tools.convert.api import convert_file
from sdf_tools.convert.options import ConversionOptions

ARM = Path(__file__).resolve().parent / 'data' / 'sim' / 'sensor_arm.sdf'
WRITER = 'sdf_tools.convert.usd.to_usd'


def test_usd_export_without_usd_core_says_how_to_install_it(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, WRITER, raising=False)
    monkeypatch.setitem(sys.modules, 'pxr', None)  # import pxr -> ImportError(name='pxr')
    result = convert_file(ARM, to='usd', output_path=tmp_path / 'arm.usda',
                          options=ConversionOptions())
    assert not result.ok
    assert any('needs usd-core' in d.message and 'pip install usd-core' in d.message
               for d in result.report.errors), result.report.errors


def test_a_broken_import_of_our_own_is_not_reported_as_usd_core_missing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, WRITER, None)  # our writer itself fails to import
    with pytest.raises(ImportError) as err:
        convert_file(ARM, to='usd', output_path=tmp_path / 'arm.usda', options=ConversionOptions())
    assert err.value.name == WRITER
