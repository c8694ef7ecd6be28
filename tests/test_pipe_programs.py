"""CL301 on programs whose every kernel takes a pipe (issue 29, as image and fp64 programs): a
kernel with a `pipe` parameter cannot be declared without `__opencl_c_pipes`, so a guard only
removes it; where every kernel is such a kernel the program requires pipes (its host checks
CL_DEVICE_PIPE_SUPPORT): one information note, no per-function warnings. A program with a
kernel without a pipe parameter reports per function as before.

Checked at `--std CL3.0` (portability mode; pipes are optional there). Cases written before the
change, each clang-19 -cl-std=CL3.0 clean; HELDOUT scored only once it was done."""

from __future__ import annotations

import pytest

from cllint.analysis.diagnostics import Severity
from cllint.analysis.lint import lint_tree
from cllint.config import Settings, lint_options
from cllint.grammar import parse

PRODUCER = (b"kernel void produce(write_only pipe int out, global const int *src) {\n"
            b"    write_pipe(out, &src[get_global_id(0)]);\n}\n")
CONSUMER = (b"kernel void consume(read_only pipe int in, global int *dst) {\n"
            b"    read_pipe(in, &dst[get_global_id(0)]);\n}\n")
PLAIN = b"kernel void fill(global int *dst) { dst[get_global_id(0)] = 0; }\n"

# (source, warning lines, note lines)
TUNE = {
    "all_pipe_kernels": (PRODUCER + CONSUMER, set(), [1]),
    "a_plain_kernel_too": (PRODUCER + PLAIN, {1}, []),
}

HELDOUT = {
    "pipes_of_two_types": (PRODUCER + b"kernel void pass(read_only pipe float4 in, write_only pipe float4 out) {\n"
                           b"    float4 v;\n    if (read_pipe(in, &v) == 0) write_pipe(out, &v);\n}\n", set(), [1]),
    "plain_kernel_in_a_dead_arm": (b"#if 0\n" + PLAIN + b"#endif\n" + CONSUMER, set(), [4]),
    "plain_kernel_first": (PLAIN + CONSUMER, {2}, []),
}


def _reports(src: bytes) -> tuple[set[int], list[int]]:
    options = lint_options(Settings(std="CL3.0", select=["CL301"]))
    diags = [d for d in lint_tree("t.cl", src, parse(src), options) if "pipe" in d.message]
    line = lambda d: src.count(b"\n", 0, d.span.start) + 1  # noqa: E731
    return ({line(d) for d in diags if d.severity != Severity.INFO},
            [line(d) for d in diags if d.severity == Severity.INFO])


@pytest.mark.parametrize("name", sorted(TUNE))
def test_tune(name: str) -> None:
    src, warnings, notes = TUNE[name]
    assert _reports(src) == (warnings, notes)


@pytest.mark.parametrize("name", sorted(HELDOUT))
def test_heldout(name: str) -> None:
    src, warnings, notes = HELDOUT[name]
    assert _reports(src) == (warnings, notes)


def test_a_pipe_parameter_is_no_host_template(tmp_path) -> None:  # noqa: ANN001
    """`read_only pipe int in`: `pipe` is OpenCL C 2.0's keyword, not a type the host defines
    (host_templates.py read it as one: a CL007 "template completed by its host" note)."""
    import json
    import subprocess
    import sys

    (tmp_path / "k.cl").write_bytes(PRODUCER + CONSUMER)
    r = subprocess.run([sys.executable, "-m", "cllint", "check", "--format", "json", "--exit-zero", "--no-cache", "."],
                       cwd=tmp_path, capture_output=True, timeout=300)
    found = json.loads(r.stdout)
    assert [d["code"] for d in found] == ["CL301"] and found[0]["severity"] == "info"
