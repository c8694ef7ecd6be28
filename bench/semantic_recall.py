"""Recall of the semantic family (CL010-CL049) on the labelled one-mistake kernels, per split.

A case counts when clang-19 reports the mistake on the marked line and cllint reports the
case's code on that same line; a false report is any report of the family on a corrected
kernel. The held-out split (tests/semantic/fixtures/heldout.txt) is reported separately.
Then the kernels that include headers (tests/semantic/fixtures/headers/, linted as `cllint check
-I` does, clang-19 with the same `-I`): the same recall, plus reports on kernels that must stay
quiet (clang-clean ones, and ones whose include cannot be read).

    .venv/bin/python bench/semantic_recall.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "semantic"))

import header_cases  # noqa: E402
from semantic_cases import CLANG, SPLITS, clang, load  # noqa: E402
from test_semantic_cases import semantic  # noqa: E402
from test_semantic_headers import semantic as semantic_with_headers  # noqa: E402


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
    for split in header_cases.SPLITS:
        cases = header_cases.load(split)
        errors = [c for c in cases if c.expect.startswith("CL")]
        found = false = 0
        for c in errors:
            got = semantic_with_headers(c, c.kernel)
            if (c.line, c.expect) in {(ln, code) for ln, code, _ in got}:
                found += 1
            else:
                print(f"  missed headers/{c.name}: {got}")
            extra = semantic_with_headers(c, c.fixed)
            false += len(extra)
            for e in extra:
                print(f"  false report on corrected headers/{c.name}: {e}")
        quiet = [c for c in cases if not c.expect.startswith("CL")]
        for c in quiet:
            extra = semantic_with_headers(c, c.kernel)
            false += len(extra)
            for e in extra:
                print(f"  false report on quiet headers/{c.name} ({c.expect}): {e}")
        print(f"headers {split}: recall {found}/{len(errors)} = {found / max(len(errors), 1):.3f}, reports on "
              f"{len(errors)} corrected and {len(quiet)} quiet kernels: {false}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
