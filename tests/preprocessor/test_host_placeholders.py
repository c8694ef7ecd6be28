"""Text templates whose `<name>` slots the host fills before it builds (issue 29: btcrecover's
`buffer_structs_template.cl`, `#define wordSize <word_size>` then `#if wordSize == 4`, filled by
the Python host's `fill_template`). `<name>` where a preprocessor value goes is never C, so it
is read as a value the host supplies: the condition is undecided, not an error (CL004). Any
other `<` at the start of a value keeps its CL004.

A fixture whose first line says `EXPECT CL0xx at N` must get that report; the others no error.
`tune/` holds the cases the code was written against, `heldout/` those written beside them and
first run once the code was done (both passed then)."""

from __future__ import annotations

import sys
import re
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fixture_lint import fixture_id, reports  # noqa: E402

FIXTURES = Path(__file__).with_name("fixtures") / "host_placeholders"
FILES = sorted(FIXTURES.glob("*/*.cl"))
_EXPECT = re.compile(r"EXPECT (CL\d+) at (\d+)")


def test_split() -> None:
    held = [p for p in FILES if p.parent.name == "heldout"]
    assert len(held) * 3 >= len(FILES) - 1 and len(held) >= 2


@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_reports(path: Path) -> None:
    found = reports(path)
    errors = [(d["line"], d["code"]) for d in found if d["severity"] == "error"]
    m = _EXPECT.search(path.read_text().splitlines()[0])
    if m is None:
        assert errors == []
    else:
        assert (int(m.group(2)), m.group(1)) in errors
