"""Issue 30, class 7: GPUVerify's specification intrinsics (analysis/annotations.py) are not
memory accesses and not calls to undeclared functions; annotated kernels are silent unless
the code itself is wrong.

Fixtures: tests/rules/fixtures/annotations/ (tune/ worked on, heldout/ a third kept aside),
in GPUVerify's style (`//pass` / `//xfail` headers, its intrinsics, a header only it has).
Each names what the default rules must report (`// expect: CL210 line 13`, `// expect: none`).
Labels are Oclgrind's (`--data-races`), with the annotations as no-ops (gpuverify_noop.h,
`-include`d: annotations are never run); run here when `oclgrind-kernel` is installed.
Kernel-level figures: a positive counts as found when its labelled report is made, a
negative as silent when nothing but its labelled reports is:

    .venv/bin/python tests/test_annotations_gpuverify.py
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.grammar import parse

ROOT = Path(__file__).parent / "rules" / "fixtures" / "annotations"
TUNE = sorted((ROOT / "tune").glob("*.cl"))
HELDOUT = sorted((ROOT / "heldout").glob("*.cl"))
EXPECT = re.compile(r"^// expect: (CL\d+) line (\d+)\s*$", re.M)
SIMD = re.compile(r"^// simd: (.+?) \|\| (.+)$", re.M)
OCLGRIND = shutil.which("oclgrind-kernel")


def expected(path: Path) -> set[tuple[str, int]]:
    return {(c, int(n)) for c, n in EXPECT.findall(path.read_text())}


def reported(path: Path) -> set[tuple[str, int]]:
    source = path.read_bytes()
    diags = lint_tree(str(path), source, parse(source), LintOptions())
    return {(d.code, source.count(b"\n", 0, d.span.start) + 1) for d in diags}


def _positive(path: Path) -> bool:
    return any(code.startswith("CL2") for code, _ in expected(path))


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    assert reported(path) == expected(path)


def figures(cases: list[Path]) -> dict[str, float]:
    tp = fn = fp = tn = 0
    for path in cases:
        want, got = expected(path), reported(path)
        if _positive(path):
            found = want <= got
            tp, fn = tp + found, fn + (not found)
        else:
            quiet = got <= want
            tn, fp = tn + quiet, fp + (not quiet)
    return {"positives": tp + fn, "negatives": tn + fp, "tp": tp, "fn": fn, "fp": fp, "tn": tn,
            "recall": tp / max(tp + fn, 1), "false_alarm_rate": fp / max(fp + tn, 1)}


def test_heldout_targets() -> None:
    f = figures(HELDOUT)
    assert f["recall"] >= 0.99 and f["false_alarm_rate"] <= 0.01, f


def test_annotation_reads_are_not_accesses() -> None:
    """Issue 31's defect: `__barrier_invariant_1(A[0] == 0, ...)` read as a racing access."""
    src = (b"__kernel void foo() {\n  __local int A[16];\n  A[get_local_id(0)] = get_local_id(0);\n"
           b"  __barrier_invariant_1(A[0] == 0, get_local_id(0));\n  barrier(CLK_LOCAL_MEM_FENCE);\n}\n")
    diags = lint_tree("k.cl", src, parse(src), LintOptions(select=("CL2",)))
    assert diags == []
    racy = src.replace(b"  __barrier_invariant_1(A[0] == 0, get_local_id(0));\n", b"  A[0] = A[1];\n")
    assert "CL210" in {d.code for d in lint_tree("k.cl", racy, parse(racy), LintOptions(select=("CL2",)))}


@pytest.mark.skipif(OCLGRIND is None, reason="oclgrind-kernel is not installed")
@pytest.mark.parametrize("path", [p for p in TUNE + HELDOUT if SIMD.search(p.read_text())],
                         ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_oclgrind_agrees(path: Path, tmp_path: Path) -> None:
    options, sim = SIMD.search(path.read_text()).groups()
    kernel, *rest = [part.strip() for part in sim.split("|")]
    simfile = tmp_path / "k.sim"
    simfile.write_text("\n".join([str(path.resolve()), kernel, *rest]) + "\n")
    proc = subprocess.run([OCLGRIND, "--data-races", "--build-options", options, "--max-errors", "4", str(simfile)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    out = (proc.stdout + proc.stderr).lower()
    assert "build" not in out and "invalid" not in out, out
    want = {code[:4] for code, _ in expected(path)}
    assert ("divergence" in out) == ("CL20" in want), out
    assert ("data race" in out) == ("CL21" in want), out


if __name__ == "__main__":
    for name, cases in (("tune", TUNE), ("heldout", HELDOUT)):
        print(name, figures(cases))
