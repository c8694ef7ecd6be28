"""Dynamic confirmation of the labelled barrier set under Oclgrind.

Every fixture with a `// sim: KERNEL | GLOBAL | LOCAL | ARG...` header is run with
`oclgrind-kernel`; positives must make Oclgrind report work-group divergence and
negatives must not. The runs go in parallel, one process each (about 0.1 s apiece).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import pytest


SIM = re.compile(r"^// sim: (.+)$", re.M)
EXPECT = re.compile(r"^// expect: (CL\d+) line (\d+)\s*$", re.M)
CASES = sorted((Path(__file__).parent / "rules" / "fixtures" / "barriers").rglob("*.cl"))


def expected(src: str) -> set[tuple[str, str]]:
    return set(EXPECT.findall(src))

OCLGRIND = shutil.which("oclgrind-kernel")
pytestmark = pytest.mark.skipif(OCLGRIND is None, reason="oclgrind-kernel is not installed (Debian package 'oclgrind')")

SIMULATED = [p for p in CASES if SIM.search(p.read_text())]


def _run(path: Path, tmp: Path) -> str:
    kernel, *rest = [part.strip() for part in SIM.search(path.read_text()).group(1).split("|")]
    sim = tmp / f"{path.stem}.sim"
    sim.write_text("\n".join([str(path.resolve()), kernel, *rest]) + "\n")
    proc = subprocess.run([OCLGRIND, "--max-errors", "4", str(sim)], capture_output=True,
                          text=True, timeout=60)
    return proc.stdout + proc.stderr


@cache
def _outputs(tmp: str) -> dict[str, str]:
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = pool.map(lambda p: _run(p, Path(tmp)), SIMULATED)
        return {p.stem: out for p, out in zip(SIMULATED, results)}


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return _outputs(str(tmp_path_factory.mktemp("sims")))


def test_enough_cases_are_simulated() -> None:
    positives = [p for p in SIMULATED if expected(p.read_text())]
    assert len(positives) >= 6 and len(SIMULATED) - len(positives) >= 6


@pytest.mark.parametrize("path", SIMULATED, ids=lambda p: p.stem)
def test_oclgrind_agrees(path: Path, outputs: dict[str, str]) -> None:
    out = outputs[path.stem]
    assert "build failure" not in out.lower() and "error building" not in out.lower(), out
    divergent = "divergence" in out.lower()
    assert divergent == bool(expected(path.read_text())), out
