"""The race check reads a kernel's uniformity facts from the uniformity family's analysis of
it in the same lint instead of running the dataflow again (issue 32, session 14): counted in
dataflow runs, not timed. Where the two analyses would not see the same inputs (a macro the
race check reads as the built-in it wraps, an arm the file decides is kept, calls in a cycle),
the race check runs its own, and every race reported is the same either way."""

from __future__ import annotations

from pathlib import Path

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.analysis.uniformity import dataflow, summaries
from cllint.grammar import parse

KERNELS = "".join(
    f"float helper_{i}(__global const float *s, int n) {{ float a = 0.0f; for (int j = 0; j < n; ++j) a += s[j];"
    f" return a; }}\n"
    f"__kernel void k_{i}(__global const float *in, __global float *out, __local float *t, int n) {{\n"
    f"    int gid = get_global_id(0), lid = get_local_id(0);\n"
    f"    t[lid] = in[gid];\n    barrier(CLK_LOCAL_MEM_FENCE);\n"
    f"    out[gid] = t[(lid + 1) % get_local_size(0)] + helper_{i}(in, n);\n}}\n"
    for i in range(3))

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races"


def _count_dataflow(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    runs: list[int] = []
    real = dataflow.analyse

    def counting(names, cfg, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
        runs.append(cfg.entry)
        return real(names, cfg, *args, **kwargs)

    monkeypatch.setattr(summaries, "analyse", counting)
    import cllint.analysis.races.check as check
    monkeypatch.setattr(check, "analyse", counting)
    return runs


def _lint(src: bytes, select: tuple[str, ...] = ("CL2",)) -> list[tuple[str, int, int, str]]:
    summaries.forget()  # no function result memoised by an earlier test
    diags = lint_tree("r.cl", src, parse(src), LintOptions(select=select))
    return [(d.code, d.span.start, d.span.end, d.message) for d in diags]


def test_each_function_is_analysed_once_per_lint(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = _count_dataflow(monkeypatch)
    _lint(KERNELS.encode())
    assert len(runs) == 6, runs  # three kernels and three helpers; the race check adds none


def test_the_race_check_alone_analyses_each_kernel_once(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = _count_dataflow(monkeypatch)
    _lint(KERNELS.encode(), ("CL21",))
    assert len(runs) == 6, runs


def _race_fixtures() -> list[Path]:
    return sorted(FIXTURES.rglob("*.cl"))


def test_the_races_are_those_of_an_analysis_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every race fixture and the cases below: the same diagnostics with the facts shared
    and with the race check's own dataflow."""
    cases = [p.read_bytes() for p in _race_fixtures()] + [c.encode() for c in OWN_ANALYSIS]
    assert len(cases) > 60
    shared = [_lint(src) for src in cases]
    monkeypatch.setattr(summaries._FileAnalysis, "kernel_facts", lambda self, name: None)
    own = [_lint(src) for src in cases]
    assert shared == own
    assert sum(1 for d in shared if any(c[0].startswith("CL21") for c in d)) >= 20  # races among them


# Inputs that differ between the two analyses: the race check must not take the family's facts.
OWN_ANALYSIS = [
    # a macro whose body is the built-in called on its parameters: the race check reads its
    # arguments as the collective's
    "#define WG_SUM(x) work_group_reduce_add(x)\n"
    "__kernel void k(__global int *o, __local int *t) {\n  int l = get_local_id(0);\n  t[l] = 1;\n"
    "  int s = WG_SUM(t[l]);\n  barrier(CLK_LOCAL_MEM_FENCE);\n  t[s % 4] = l;\n  o[l] = t[l];\n}\n",
    # an arm the file decides is kept: no path around it in the race check's CFG
    "#define R 1\n__kernel void k(__global int *o, __local int *t) {\n  int l = get_local_id(0);\n"
    "#if R == 1\n  t[l] = 1;\n  barrier(CLK_LOCAL_MEM_FENCE);\n#endif\n  o[l] = t[(l + 1) % 4];\n}\n",
    # a race that the barrier in one branch leaves (divergent branch)
    "__kernel void k(__global int *o, __local int *t) {\n  int l = get_local_id(0);\n  t[l] = l;\n"
    "  if (o[0] > 0) barrier(CLK_LOCAL_MEM_FENCE);\n  o[l] = t[(l + 1) % get_local_size(0)];\n}\n",
]


@pytest.mark.parametrize("case", range(len(OWN_ANALYSIS)))
def test_inputs_that_differ_get_the_race_checks_own_analysis(monkeypatch: pytest.MonkeyPatch, case: int) -> None:
    runs = _count_dataflow(monkeypatch)
    _lint(OWN_ANALYSIS[case].encode())
    assert len(runs) == (1 if case == 2 else 2), runs
