"""CL1xx against clang-19 as the oracle, line by line, on the address_space fixtures.

For each fixture and target: every line where clang reports an address-space error (the
messages in `addrspace_eval.IN_SCOPE`) must carry a CL1xx diagnostic, and every CL1xx
diagnostic must sit on a line where clang reports an error (beyond-the-compiler rules excepted).
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from addrspace_eval import CLANG, IN_SCOPE, clang_errors  # noqa: E402
from test_address_space import lint  # noqa: E402

pytestmark = pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "address_space"
BEYOND = {"CL113", "CL115"}  # warnings clang does not give
CASES = [(p, s) for p in sorted(FIXTURES.glob("*.cl")) if p.stem != "valid" for s in ("CL1.2", "CL2.0")]


@pytest.fixture(scope="module")
def clang_results() -> dict[tuple[str, str], list[tuple[int, str]] | None]:
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda c: clang_errors(*c), CASES))
    return {(p.name, s): g for (p, s), g in zip(CASES, got, strict=True)}


@pytest.mark.parametrize(("path", "std"), CASES, ids=lambda x: x.stem if isinstance(x, Path) else x)
def test_agrees_with_clang(path: Path, std: str, clang_results) -> None:  # noqa: ANN001
    errs = clang_results[(path.name, std)]
    assert errs is not None
    want = {ln for ln, msg in errs if IN_SCOPE.search(msg)}
    source = path.read_bytes()
    diags = [d for d in lint(source, std) if d.code not in BEYOND]
    have = {source.count(b"\n", 0, d.span.start) + 1 for d in diags}
    assert want - have == set(), [m for ln, m in errs if ln in want - have]
    assert have - {ln for ln, _ in errs} == set()
