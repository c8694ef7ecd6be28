"""Launch descriptions and selectors: pure parsing, no device needed."""

from __future__ import annotations

import pytest

from cllint.server.runner import RunnerError, from_annotation
from cllint.server.runner.launch import ArgInfo, Launch, resolve
from cllint.server.runner.selector import select

SIG = [ArgInfo("x", "float4*", "global", const=True), ArgInfo("tmp", "float*", "local"),
       ArgInfo("n", "int", "private")]


def test_annotation_block_above_kernel_only():
    text = ("// cllint-run: global=8 x=zeros\n__kernel void a(__global float4 *x) {}\n"
            "// unrelated\n// cllint-run: local=4\n// cllint-run: n=3\n__kernel void b(int n) {}\n")
    assert from_annotation(text, "a").args == {"x": "zeros"}
    b = from_annotation(text, "b")
    assert b.local_size == (4,) and b.args == {"n": "3"} and b.global_size is None


def test_resolve_vectors_local_and_scalars():
    r = resolve(Launch(global_size=(128,)), SIG, "k", max_wg=256)
    x, tmp, n = r.args
    assert (x.width, x.count, x.show) == (4, 128, False)
    assert r.local_size == (64,) and tmp.count == 64  # local args need a work-group size
    assert n.value == 128
    assert resolve(Launch(args={"tmp": "local(1024)"}), SIG, "k").args[1].count == 256


def test_resolve_rejects_mismatches():
    with pytest.raises(RunnerError, match="not a multiple of local size"):
        resolve(Launch(global_size=(100,), local_size=(64,)), SIG, "k")
    with pytest.raises(RunnerError, match="'float4\\*' but the description gives 'float'"):
        resolve(Launch(args={"x": "zeros:float"}), SIG, "k")


def test_selector_errors_name_the_fix():
    with pytest.raises(RunnerError, match="no OpenCL platform found") as exc:
        select([], None)
    assert "pocl-opencl-icd" in exc.value.hint
