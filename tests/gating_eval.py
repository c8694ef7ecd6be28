"""Scores the CL3xx rules on labelled kernels (tests/rules/fixtures/gating/{tune,heldout}).

Each kernel names its target in header comments (`// target: PRESET`, `// features: LIST`,
`// std: CLx.y` for the language version alone, as `--std` (portability mode at that version,
issue 30), `// mode: target|portability`, and `// define: NAME=VALUE NAME...` for the host's `-D`s) and marks every line the spec says a CL3xx rule must report
with a trailing `// expect CL301` (several codes may follow). Hints (CL304 since issue 30), which
`cllint check` prints only when selected by code, are scored apart. A report counts when its code
and line match a mark; a CL301 report's other uses in the same function are its notes
("also used here"), and count on their own lines. The `heldout` third was written with the rest, before the rules were
changed, and left untouched while they were: it is scored separately.

    .venv/bin/python tests/gating_eval.py            # recall and precision per split and mode
    .venv/bin/python tests/gating_eval.py --details  # also the held-out misses and extras
    .venv/bin/python tests/gating_eval.py --details --split=heldout_r5  # one split only
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from cllint.analysis.records import replace
from cllint.analysis.diagnostics import Severity
from cllint.analysis.lint import LintOptions, lint_tree
from cllint.analysis.registry import all_rules
from cllint.config import Settings, lint_options
from cllint.grammar import parse

ROOT = Path(__file__).parent / "rules" / "fixtures" / "gating"
# Round 3 (session 7) came in its own pair of folders, so each round is scored apart. Round 4
# is a held-out set only, written by someone who had seen neither the rule changes nor the other held-out files;
# round 5 likewise, by another author who had seen neither. Round 6 (issue 18, per-overload
# version floors and byte-addressable stores on 1.0): a tune pair and a held-out third
# written with it before the code, scored once after. heldout_r6 is a held-out set only, by
# another author who had seen neither the code changes nor the other held-out files.
# heldout_r7 likewise (round 7), by another author again, written before the round-7 fixes landed.
# Round 7 (issue 18 follow-up: the 32-bit atom_* by address space on 1.0, vstore into byte
# pointers on 1.0): a tune set, and a held-out third written with it before the code, scored
# once after both classes were in.
SPLITS = ("tune", "heldout", "tune_r3", "heldout_r3", "heldout_r4", "heldout_r5", "tune_r6", "heldout_r6a",
          "heldout_r6", "tune_r7", "heldout_r7a", "heldout_r7", "tune_r8", "heldout_r8a")
# Round 8 (issue 30: `--std` alone is portability at that version, `CL3.0-all` is what clang-19
# accepts, CL308 in target mode without fp64): a tune set and a held-out third written with it
# before the code, scored once after.
_MARK = re.compile(r"//\s*expect((?:\s+CL\d{3})+)\s*$")


@dataclass(frozen=True)
class Score:
    expected: frozenset[tuple[str, str, int]]
    reported: frozenset[tuple[str, str, int]]

    @property
    def recall(self) -> float:
        return len(self.expected & self.reported) / len(self.expected) if self.expected else 1.0

    @property
    def precision(self) -> float:
        return len(self.expected & self.reported) / len(self.reported) if self.reported else 1.0

    def misses(self) -> list[tuple[str, str, int]]:
        return sorted(self.expected - self.reported)

    def extras(self) -> list[tuple[str, str, int]]:
        return sorted(self.reported - self.expected)


def header(text: str, key: str) -> str | None:
    m = re.search(rf"^// {key}:[ \t]*(.*)$", text, re.M)
    return m.group(1).strip() if m else None


def defines_for(text: str) -> tuple[tuple[str, str], ...]:
    """The `-D`s a `// define:` header names: `A=1 B` is (("A", "1"), ("B", "1")), as clang reads `-DB`."""
    out = []
    for word in (header(text, "define") or "").split():
        name, _, value = word.partition("=")
        out.append((name, value or "1"))
    return tuple(out)


def options_for(text: str) -> LintOptions:
    """The options `cllint check` would use for the fixture's headers (cllint/config.py decides
    the mode from them), all CL3xx rules selected; `// mode:` must agree (test_gating_labelled)."""
    settings = Settings(std=header(text, "std"), target=header(text, "target"),
                        features=header(text, "features") or None)
    return replace(lint_options(settings), select=("CL3",), defines=defines_for(text))


def labels(path: Path) -> set[tuple[str, str, int]]:
    out = set()
    for number, line in enumerate(path.read_text().splitlines(), 1):
        m = _MARK.search(line)
        if m:
            out.update((path.name, code, number) for code in m.group(1).split())
    return out


def reports(path: Path) -> set[tuple[str, str, int]]:
    source = path.read_bytes()
    diags = lint_tree(path.name, source, parse(source), options_for(path.read_text()))
    out = {(path.name, d.code, source.count(b"\n", 0, d.span.start) + 1) for d in diags}
    # One report per need and function (issue 29): its other uses are its related locations.
    out |= {(path.name, d.code, source.count(b"\n", 0, n.span.start) + 1) for d in diags for n in d.notes
            if n.message.startswith(_ALSO)}
    return out


_ALSO = ("also used here", "and ")


def files(split: str, mode: str | None = None) -> list[Path]:
    found = sorted((ROOT / split).glob("*.cl"))
    return [p for p in found if mode is None or (header(p.read_text(), "mode") or "portability") == mode]


def hint_codes() -> frozenset[str]:
    """Rules whose reports are hints (CL304, issue 30): `cllint check` prints them only when
    selected by code, so the figures leave them out and score them apart (`hints=True`)."""
    return frozenset(code for code, rule in all_rules().items() if rule.severity is Severity.HINT)


def score(split: str, mode: str | None = None, hints: bool = False) -> Score:
    expected: set[tuple[str, str, int]] = set()
    reported: set[tuple[str, str, int]] = set()
    for path in files(split, mode):
        expected |= labels(path)
        reported |= reports(path)
    keep = hint_codes()
    expected = {e for e in expected if (e[1] in keep) == hints}
    reported = {r for r in reported if (r[1] in keep) == hints}
    return Score(frozenset(expected), frozenset(reported))


def main(argv: list[str]) -> int:
    details = "--details" in argv  # the held-out misses are printed only when asked
    chosen = [a.removeprefix("--split=") for a in argv if a.startswith("--split=")]  # one split's details alone
    for split in chosen or SPLITS:
        for mode in ("portability", "target"):
            s = score(split, mode)
            print(f"{split:8} {mode:12} labelled {len(s.expected):3}  reported {len(s.reported):3}  "
                  f"recall {s.recall:.3f}  precision {s.precision:.3f}")
            if split.startswith("heldout") and not details:
                continue
            for miss in s.misses():
                print(f"    missed {miss}")
            for extra in s.extras():
                print(f"    extra  {extra}")
            h = score(split, mode, hints=True)
            if h.expected or h.reported:
                print(f"    hints (CL304, shown when selected by code): labelled {len(h.expected)}  "
                      f"reported {len(h.reported)}  recall {h.recall:.3f}  precision {h.precision:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
