"""Kernels clang-19 accepts that cllint must leave alone (fixtures/accepted_{tune,heldout}.txt).
Shared by test_semantic_accepted.py and its once-only held-out score."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CLANG = shutil.which("clang-19")
_HEADER = re.compile(r"^=== (\S+) (CL\d\.\d)\s*$")
# What must stay quiet: the semantic family, the `#if` check and function pointers.
EXTRA_CODES = ("CL004", "CL401")


@dataclass(frozen=True)
class Case:
    name: str
    std: str
    source: str


def load(split: str) -> list[Case]:
    cases: list[Case] = []
    head: tuple[str, str] | None = None
    lines: list[str] = []
    for ln in (FIXTURES / f"accepted_{split}.txt").read_text().splitlines() + ["=== <end> CL0.0"]:
        m = _HEADER.match(ln)
        if m:
            if head is not None:
                cases.append(Case(head[0], head[1], "\n".join(lines).strip("\n") + "\n"))
            head, lines = (m.group(1), m.group(2)), []
        elif head is not None:
            lines.append(ln)
    return cases


def clang_errors(case: Case) -> list[str]:
    assert CLANG is not None
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "k.cl"
        path.write_text(case.source)
        run = subprocess.run([CLANG, "-x", "cl", f"-cl-std={case.std}", "-Xclang", "-finclude-default-header",
                              "-fsyntax-only", str(path)], capture_output=True, text=True, timeout=60)
    return [ln for ln in run.stderr.splitlines() if ": error:" in ln]


def cllint_reports(case: Case) -> list[tuple[int, str, str]]:
    from cllint.analysis.lint import LintOptions, lint_tree
    from cllint.analysis.rules.semantic import RULES
    from cllint.analysis.target import Target
    from cllint.grammar import parse

    data = case.source.encode()
    codes = tuple(r.code for r in RULES) + EXTRA_CODES
    diags = lint_tree("k.cl", data, parse(data), LintOptions(select=codes, target=Target.preset(case.std)))
    return [(data.count(b"\n", 0, d.span.start) + 1, d.code, d.message) for d in diags]
