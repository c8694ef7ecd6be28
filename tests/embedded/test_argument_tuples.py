"""pyopencl's `arguments=` given as a variable (issue 29, Python hosts): the argument list is
the value last assigned to the name before the call, a string or a tuple or list of strings
(pyopencl joins those), and never a string assigned in another method when the last assignment
is something else. Labelled cases: which names clang-19 would call undeclared in the kernel
pyopencl generates (the snippet's own names; `i`, `a`, `b`, `item` are the library's).
`HELD_OUT` was scored once, after the code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAD = "import numpy\nimport pyopencl\nfrom pyopencl.scan import GenericScanKernel\n" \
       "from pyopencl.elementwise import ElementwiseKernel\n\n\nclass Codec:\n"
EARLIER = '    def _copy(self, ctx):\n        arguments = "__global char *raw, int n"\n' \
          '        return ElementwiseKernel(ctx, arguments, "raw[i] = 0")\n\n'
SCAN = '    def _scan(self, ctx):\n        arguments = {args}\n        return GenericScanKernel(\n' \
       '            ctx, numpy.int32, arguments=arguments,\n            input_expr="{expr}",\n' \
       '            scan_expr="a+b", neutral="0", output_statement="value[i] = item;")\n'

# name -> (host text, undeclared names cllint must report)
TUNE = {
    "tuple_after_other_method": (HEAD + EARLIER + SCAN.format(
        args='"__global int *value", "__global int *index"', expr="index[i] > 0 ? 0 : value[i]"), []),
    "tuple_misspelt_name": (HEAD + EARLIER + SCAN.format(
        args='"__global int *value", "__global int *index"', expr="indx[i] > 0 ? 0 : value[i]"), ["indx"]),
    "computed_after_other_method": (HEAD + EARLIER + SCAN.format(
        args="self.argument_list()", expr="index[i] > 0 ? 0 : value[i]"), []),
}
HELD_OUT = {
    "list_after_other_method": (HEAD + EARLIER + SCAN.format(
        args='["__global int *value", "__global int *index"]', expr="value[i] + index[i]"), []),
    "parenthesised_tuple_misspelt": (HEAD + EARLIER + SCAN.format(
        args='("__global int *value", "__global int *index")', expr="value[i] + idx[i]"), ["idx"]),
}


def _undeclared(text: str, tmp_path: Path) -> list[str]:
    (tmp_path / "codec.py").write_text(text)
    done = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json", "--exit-zero",
                           "codec.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return sorted(r["message"].split("'")[1] for r in json.loads(done.stdout) if r["code"] == "CL010")


@pytest.mark.parametrize("name", sorted(TUNE))
def test_tune(name: str, tmp_path: Path) -> None:
    text, want = TUNE[name]
    assert _undeclared(text, tmp_path) == want


@pytest.mark.parametrize("name", sorted(HELD_OUT))
def test_held_out(name: str, tmp_path: Path) -> None:
    text, want = HELD_OUT[name]
    assert _undeclared(text, tmp_path) == want
