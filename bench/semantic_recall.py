"""Recall of the semantic family (CL010-CL049) on the labelled one-mistake kernels, per split.

A case counts when clang-19 reports the mistake on the marked line and cllint reports the
case's code on that same line; a false report is any report of the family on a corrected
kernel. The held-out split (tests/semantic/fixtures/heldout.txt) is reported separately.

    .venv/bin/python bench/semantic_recall.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "semantic"))

from semantic_cases import CLANG, SPLITS, clang, load  # noqa: E402
from test_semantic_cases import semantic  # noqa: E402


def main() -> int:
    for split in SPLITS:
        cases = load(split)
        confirmed = found = any_code = false = 0
        for c in cases:
            if CLANG is not None and not any(ln == c.line and k == c.kind for ln, k, _ in clang(c.bad)):
                print(f"  {c.name}: clang does not confirm the mistake")
                continue
            confirmed += 1
            got = semantic(c.bad)
            if (c.line, c.code) in {(ln, code) for ln, code, _ in got}:
                found += 1
            else:
                print(f"  missed {c.name}: {got}")
            if any(ln == c.line for ln, _, _ in got):
                any_code += 1
            extra = semantic(c.fixed)
            false += len(extra)
            for e in extra:
                print(f"  false report on corrected {c.name}: {e}")
        print(f"{split}: {confirmed} clang-confirmed cases, recall {found}/{confirmed} = {found / max(confirmed, 1):.3f} "
              f"(any code on the line: {any_code}), reports on corrected kernels: {false}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
