"""Barrier divergence and data races on realistic kernels (tests/rules/fixtures/realistic_sync/).

The set was written and labelled by running it under Oclgrind before cllint saw it; nothing in
the analysis was tuned on it. These tests check that the labels still hold under
`oclgrind-kernel` (skipped without it) and hold cllint to BENCHMARKS.md's targets. Figures:

    .venv/bin/python bench/sync_realistic.py --details
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import sync_realistic as sr  # noqa: E402

KERNELS = sr.kernels()
LABELS = sr.labels()
needs_oclgrind = pytest.mark.skipif(sr.OCLGRIND is None,
                                    reason="oclgrind-kernel is not installed (Debian package 'oclgrind')")


def _sim_sizes(k: sr.Kernel) -> tuple[list[int], list[int]]:
    lines = [ln.split("#")[0].strip() for ln in k.path.with_suffix(".sim").read_text().splitlines()]
    lines = [ln for ln in lines if ln]
    return [int(v) for v in lines[2].split()], [int(v) for v in lines[3].split()]


def test_every_kernel_is_labelled_and_simulated() -> None:
    assert {k.name for k in KERNELS} == set(LABELS) and len(KERNELS) >= 24
    kinds = [LABELS[k.name]["bug"] for k in KERNELS]
    assert kinds.count("divergence") >= 6 and kinds.count("race") >= 6 and kinds.count(None) >= 12
    assert {LABELS[k.name]["split"] for k in KERNELS} == {"tune", "heldout"}


@pytest.mark.parametrize("k", KERNELS, ids=lambda k: k.path.stem)
def test_header_matches_the_sim_file(k: sr.Kernel) -> None:
    """The `// ndrange:` and `// kernel:` headers say what the .sim runs."""
    sim = k.path.with_suffix(".sim").read_text().split()
    assert sim[0] == k.name and sim[1] == k.kernel
    size = dict(re.findall(r"(global|local)=([\d,]+)", k.ndrange))
    glob, loc = _sim_sizes(k)
    for key, dims in (("global", glob), ("local", loc)):
        want = [int(v) for v in size[key].split(",")]
        assert dims == want + [1] * (3 - len(want)), (key, dims, want)


CLANG = shutil.which("clang-19")


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("std", ["CL1.2", "CL3.0"])
def test_clang_accepts_every_kernel(std: str) -> None:
    """Silence matters only on code compilers accept: clang-19 reports nothing on any file."""
    for k in KERNELS:
        proc = subprocess.run([CLANG, "-x", "cl", f"-cl-std={std}", "-fsyntax-only", "-Xclang",
                               "-finclude-default-header", *k.flags, str(k.path)],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0 and not proc.stderr, (k.name, proc.stderr)


@cache
def _runs() -> dict[str, sr.OclgrindRun]:
    return sr.oclgrind_all(KERNELS)


@needs_oclgrind
@pytest.mark.parametrize("k", KERNELS, ids=lambda k: k.path.stem)
def test_oclgrind_confirms_the_label(k: sr.Kernel) -> None:
    run = _runs()[k.name]
    assert sr.label_disagreements(k, LABELS[k.name], run) == [], run.output[-3000:]
    if LABELS[k.name]["bug"] is None:
        assert not run.divergence and not run.race and not run.output.strip(), run.output


def test_oclgrind_output_is_parsed() -> None:
    """The block parser the labels rest on, on Oclgrind 21.10's own wording."""
    out = ("Work-group divergence detected (barrier)\n\tKernel:     k\n\tWork-group: (1,0,0)\n"
           "\tOnly 12 out of 16 work-items executed barrier\n\t  tail call ...\n"
           "\tAt line 6 (column 3) of input.cl:\n\t  barrier(CLK_LOCAL_MEM_FENCE);\n\t\n\n"
           "Read-write data race at local memory address 0x1000000000004\n\tKernel: k\n\t\n"
           "\tFirst entity:  Global(1,0,0)\n\tAt line 8 (column 10) of input.cl:\n\t  s[lid] = 0;\n\t\n"
           "\tSecond entity: Global(0,0,0)\n\tAt line 7 (column 12) of input.cl:\n\t  a = s[1];\n\t\n\n")
    heads = {head: {int(n) for n in sr.AT_LINE.findall(body)} for head, body in sr.BLOCK.findall(out)}
    assert heads == {"Work-group divergence detected (barrier)": {6},
                     "Read-write data race at local memory address 0x1000000000004": {7, 8}}


def test_scoring_counts_the_right_family_only() -> None:
    """A divergent kernel answered only with a race report is a miss; any CL2xx on a correct
    kernel is a false alarm; CL212 counts as a race report."""
    names = ["a.cl", "b.cl", "c.cl", "d.cl"]
    ks = [sr.Kernel(Path(n), "k", (), "") for n in names]
    labelled = {"a.cl": {"bug": "divergence", "what": "early return"}, "b.cl": {"bug": "race", "what": "w"},
                "c.cl": {"bug": None, "what": "ok"}, "d.cl": {"bug": None, "what": "ok"}}
    reports = {"a.cl": [sr.Report(3, "CL210", "m")], "b.cl": [sr.Report(5, "CL212", "m")],
               "c.cl": [sr.Report(7, "CL201", "m")], "d.cl": []}
    s = sr.score(ks, labelled, reports)
    assert (s.found, s.buggy) == ({"divergence": 0, "race": 1}, {"divergence": 1, "race": 1})
    assert s.recall == 0.5 and s.false_alarm_rate == 0.5
    assert s.misses == ["a.cl (divergence): early return"] and s.false_alarms == ["c.cl:7:CL201:m"]
    assert s.wrong_family == ["a.cl:3:CL210:m"]


@cache
def _scores() -> dict[str, sr.Score]:
    return sr.measure(KERNELS)


# Scored once, at e2b66fa, after the labels were committed (BENCHMARKS.md, "Barrier divergence"
# and "Data races, CL21x"): divergence 9/9, races 2/9, false alarms 1/21. A target missed then
# stays a strict xfail: it reports the figure, and fails once the target is met so the marker goes.
MISSED = pytest.mark.xfail(strict=True, reason="below BENCHMARKS.md's target when scored (report only)")


@pytest.mark.parametrize("fam", ["divergence", pytest.param("race", marks=MISSED),
                                 pytest.param("all", marks=MISSED)])
def test_recall_target(fam: str) -> None:
    s = _scores()["all"]
    found = sum(s.found.values()) if fam == "all" else s.found[fam]
    buggy = sum(s.buggy.values()) if fam == "all" else s.buggy[fam]
    assert found / buggy >= sr.RECALL_TARGET, s.line() + "\n" + "\n".join(s.misses)


@MISSED
def test_false_alarm_target() -> None:
    s = _scores()["all"]
    assert s.false_alarm_rate <= sr.FALSE_ALARM_TARGET, s.line() + "\n" + "\n".join(s.false_alarms)
