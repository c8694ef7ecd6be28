"""General forms of real kernel files that a grammar tuned on one corpus missed (issue 17):
each fixture is a real-looking kernel that uses one form and carries a planted bug marked
`// expect: CODE`. The file must parse with no syntax error, and the analyses must find
exactly the planted bugs, on their lines, as `cllint check` reports them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cllint.grammar import parse

FIXTURES = Path(__file__).with_name("fixtures") / "unseen"
FILES = sorted(FIXTURES.glob("*.cl"))
EXPECT = re.compile(r"//\s*expect:\s*((?:CL\d+\s*)+)")


def expected(path: Path) -> set[tuple[str, int, str]]:
    out = set()
    for line_no, line in enumerate(path.read_text().splitlines(), 1):
        m = EXPECT.search(line)
        if m:
            out |= {(path.name, line_no, code) for code in m.group(1).split()}
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_fixture_parses_without_errors(path: Path) -> None:
    tree = parse(path.read_bytes())
    assert not tree.root_node.has_error


def test_analyses_find_exactly_the_planted_bugs() -> None:
    # the syntax, address-space and barrier rules: the families these forms used to blind
    r = subprocess.run(
        [sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json",
         "--select", "CL001,CL1,CL2", *map(str, FILES)],
        capture_output=True, text=True, timeout=120,
    )
    found = {(Path(row["path"]).name, row["line"], row["code"]) for row in json.loads(r.stdout)}
    want = set().union(*map(expected, FILES))
    assert len(want) >= len(FILES)
    assert found == want
