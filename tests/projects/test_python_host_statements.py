"""Python hosts end a statement at the end of a line whose brackets are closed, and `#` starts a
comment (issue 29: btcrecover's test script names one kernel file per call on consecutive
lines, some commented out, `#scrypt_test(..., "sCrypt_Bip38fork.cl")`; reading those lines as
one statement joined the two files into one program, and clang-19 then reported every shared
definition as redefined, CL099 in the editor).

Cases marked HELD_OUT were written beside the others and first run once the code was done."""

from __future__ import annotations

from pathlib import Path

import pytest

from cllint.project.hosts import host_programs

STEMS = ["common", "scrypt", "scrypt_alt", "sha"]


def _programs(text: str) -> list[tuple[str, ...]]:
    return [p.stems for p in host_programs({Path("/w/host.py"): text.encode()}, STEMS)]


def test_consecutive_calls_name_one_source_each() -> None:
    text = ('def main():\n'
            '    run(algos, "scrypt.cl")\n'
            '    run(algos, "scrypt_alt.cl")\n')
    assert _programs(text) == []


def test_commented_out_calls_name_nothing() -> None:
    text = ('def main():\n'
            '    #run(algos, words, 14, "scrypt.cl")\n'
            '    #run(algos, words, 18, "scrypt_alt.cl")\n'
            '    other()\n')
    assert _programs(text) == []


def test_a_line_still_joins_its_sources() -> None:
    text = 'src = read("common.cl") + read("scrypt.cl")\n'
    assert _programs(text) == [("common", "scrypt")]


def test_a_bracketed_list_over_lines_still_joins() -> None:
    text = 'files = [read("common.cl"),\n         read("sha.cl")]\nbuild(files)\n'
    assert _programs(text) == [("common", "sha")]


HELD_OUT = pytest.mark.parametrize("case", [
    # a comment after the code on the same line names nothing
    ('prg = build(read("common.cl"))  # was: read("scrypt.cl")\n', []),
    # a call whose arguments run over lines is one statement
    ('prg = build(\n    read("common.cl"),\n    read("scrypt_alt.cl"),\n)\n', [("common", "scrypt_alt")]),
    # two assignments on consecutive lines, inside a function, with a comment between
    ('def f():\n    a = load("common.cl")\n    # then the hash\n    b = load("sha.cl")\n', []),
])


@HELD_OUT
def test_held_out(case: tuple[str, list[tuple[str, ...]]]) -> None:
    text, expected = case
    assert _programs(text) == expected
