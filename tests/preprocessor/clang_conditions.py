"""Labelled `#if` cases (fixtures/clang_conditions/{tune,heldout}.txt): clang-19 is the oracle
of which arms are taken; shared by test_clang_conditions.py and its once-only held-out score."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "clang_conditions"
SPLITS = ("tune", "heldout")
STDS = ("CL1.2", "CL2.0")
CLANG = shutil.which("clang-19")
_HEADER = re.compile(r"^=== (\S+)\s*$")
_ARM = re.compile(r"#warning (TAKEN_\w+)")


@dataclass(frozen=True)
class Case:
    name: str
    split: str
    source: str

    @property
    def arms(self) -> list[str]:
        return _ARM.findall(self.source)


def load(split: str) -> list[Case]:
    cases: list[Case] = []
    name, lines = "", []
    for ln in (FIXTURES / f"{split}.txt").read_text().splitlines() + ["=== <end>"]:
        m = _HEADER.match(ln)
        if m:
            if name:
                cases.append(Case(name, split, "\n".join(lines).strip("\n") + "\n"))
            name, lines = m.group(1), []
        elif name:
            lines.append(ln)
    return cases


def clang_taken(source: str, std: str) -> tuple[set[str], list[str]]:
    """(arms clang-19 takes, its error lines) for `source` at OpenCL C `std`."""
    assert CLANG is not None
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "k.cl"
        path.write_text(source)
        run = subprocess.run([CLANG, "-x", "cl", f"-cl-std={std}", "-fsyntax-only", str(path)],
                             capture_output=True, text=True, timeout=60)
    taken = set(re.findall(r"warning: (TAKEN_\w+)", run.stderr))
    return taken, [ln for ln in run.stderr.splitlines() if ": error:" in ln]


def cllint_arms(source: str, std: str) -> tuple[dict[str, bool | None], list[str]]:
    """(arm -> active per cllint's view: True, False or None for undecided, its CL002-CL004)."""
    from cllint.analysis.preprocessor import build_view
    from cllint.analysis.target import Target

    data = source.encode()
    view = build_view("k.cl", data, target=Target.preset(std))
    arms = {m.group(1): view.active_at(m.start()) for m in _ARM.finditer(source)}
    return arms, [f"{d.code} {d.message}" for d in view.diagnostics]


def agrees(case: Case, std: str, taken: set[str]) -> tuple[bool, str]:
    arms, diags = cllint_arms(case.source, std)
    wrong = [a for a, active in arms.items() if active is (a not in taken)]
    ok = not diags and not wrong
    return ok, f"{case.name} {std}: diagnostics {diags}, arms {arms}, clang takes {sorted(taken)}"
