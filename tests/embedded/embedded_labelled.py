"""Labelled host files: `# kernels: N` and `# expect: CODE text` lines (`//` in C/C++)
at the top; `text` is what the diagnostic's range covers in the host file."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from cllint.analysis.embedded import find_kernels, lint_host
from cllint.analysis.lint import LintOptions

HERE = Path(__file__).parent
_KERNELS = re.compile(r"^(?:#|//) kernels: (\d+)$", re.MULTILINE)
_EXPECT = re.compile(r"^(?:#|//) expect: (none|CL\d+ .+)$", re.MULTILINE)


@dataclass(frozen=True)
class Case:
    path: Path
    kernels: int
    expected: frozenset[tuple[str, str]]  # (code, text under the range)


def cases(folder: str) -> list[Case]:
    out = []
    for path in sorted((HERE / folder).iterdir()):
        text = path.read_text()
        kernels = int(_KERNELS.search(text).group(1))  # type: ignore[union-attr]
        expected = set()
        for m in _EXPECT.finditer(text):
            if m.group(1) != "none":
                code, _, snippet = m.group(1).partition(" ")
                expected.add((code, snippet))
        out.append(Case(path, kernels, frozenset(expected)))
    return out


def actual(case: Case) -> tuple[int, set[tuple[str, str]]]:
    source = case.path.read_bytes()
    found = find_kernels(str(case.path), source)
    diags = lint_host(str(case.path), source, LintOptions())
    return len(found), {(d.code, source[d.span.start:d.span.end].decode()) for d in diags}
