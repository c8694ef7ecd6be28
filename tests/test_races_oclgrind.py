"""Dynamic confirmation of the labelled race set under Oclgrind: every fixture's
`// sim: KERNEL | GLOBAL | LOCAL | ARG...` header is run with `oclgrind-kernel
--data-races` (with `--build-options` from a `// sim-options: ...` line, e.g. -cl-std=CL2.0); positives must make Oclgrind report a data race, negatives must not."""

from __future__ import annotations

import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

SIM = re.compile(r"^// sim: (.+)$", re.M)
SIM_OPTIONS = re.compile(r"^// sim-options: (.+)$", re.M)
EXPECT = re.compile(r"^// expect: (CL\d+) line (\d+)\s*$", re.M)
CASES = sorted((Path(__file__).parent / "rules" / "fixtures" / "races").rglob("*.cl"))
OCLGRIND = shutil.which("oclgrind-kernel")
pytestmark = pytest.mark.skipif(OCLGRIND is None, reason="oclgrind-kernel is not installed (Debian package 'oclgrind')")


def _run(path: Path, tmp: Path) -> str:
    kernel, *rest = [part.strip() for part in SIM.search(path.read_text()).group(1).split("|")]
    sim = tmp / f"{path.parent.name}_{path.stem}.sim"
    sim.write_text("\n".join([str(path.resolve()), kernel, *rest]) + "\n")
    opts = SIM_OPTIONS.search(path.read_text())
    build = ["--build-options", opts.group(1).strip()] if opts else []
    proc = subprocess.run([OCLGRIND, "--data-races", "--max-errors", "4", *build, str(sim)], capture_output=True,
                          text=True, timeout=60)
    return proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, str]:
    tmp = tmp_path_factory.mktemp("race_sims")
    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip(CASES, pool.map(lambda p: _run(p, tmp), CASES)))


def test_every_case_is_simulated() -> None:
    assert all(SIM.search(p.read_text()) for p in CASES) and len(CASES) >= 24


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_oclgrind_agrees(path: Path, outputs: dict[Path, str]) -> None:
    out = outputs[path]
    assert "build failure" not in out.lower() and "invalid" not in out.lower(), out
    assert ("data race" in out.lower()) == bool(EXPECT.search(path.read_text())), out
