"""Every help text (each subcommand's) and the README name the formats the tools read and write."""
from __future__ import annotations

from pathlib import Path

import pytest

from sdf_tools.cli import main
from sdf_tools.convert.api import FORMATS as OUTPUT_KEYS
from sdf_tools.formats import CONVERT_READS, CONVERT_WRITES, FORMATS, LOADED, names

README = Path(__file__).resolve().parents[2] / 'README.md'
# What each subcommand reads (and writes); commands that read no file are not listed.
READS = {'check': LOADED, 'inspect': LOADED, 'frames': LOADED, 'report': LOADED,
         'spawn': LOADED, 'convert': CONVERT_READS + CONVERT_WRITES}


def _help(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main([*args, '--help']) == 0
    return ' '.join(capsys.readouterr().out.split())


@pytest.mark.parametrize('command', sorted(READS))
def test_each_subcommands_help_names_every_format_it_reads(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = _help(capsys, command)
    missing = [f for f in READS[command] if f not in text]
    assert not missing, f'sdf_tools {command} --help does not name {missing}'


def test_top_level_help_names_what_is_read_and_what_convert_writes(
        capsys: pytest.CaptureFixture[str]) -> None:
    text = _help(capsys)
    assert f'Read {names(LOADED, "and")} as libsdformat does' in text
    assert f'convert {names(CONVERT_READS)} to {names(CONVERT_WRITES)}' in text


def test_the_list_matches_the_output_formats_convert_accepts() -> None:
    assert {f.key for f in FORMATS if f.written} == set(OUTPUT_KEYS)


def test_readme_names_every_format() -> None:
    text = README.read_text(encoding='utf-8')
    assert [f.name for f in FORMATS if f.name not in text] == []


def test_names_joins_as_prose() -> None:
    assert names(('A',)) == 'A' and names(('A', 'B', 'C'), 'and') == 'A, B and C'
