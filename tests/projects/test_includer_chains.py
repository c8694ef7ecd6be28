"""A fragment two `#include`s deep reads every includer's text before its `#include` line, outermost
first (session 17): a library's top file includes its header of macros and pragmas, then a
middle file that includes the leaf, and the compiler reads the leaf after all of it (IGC's
built-ins: `IBiF_Impl.cl` -> `IBiF_Math_Common.cl` -> `Math/acos.cl`). Written as cases for a
change that turned out not to be needed: all three (tune 2, held out 1) pass on the session's
start tree, so they stay as regression tests; IGC's CL309 on `half` in such leaves has another
cause, still open. Labelled by clang-19 compiling the top file."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from test_includer_prelude import check, errors, write

CLANG = shutil.which("clang-19")

CASES = {
    "tune/macro_from_the_top_header": {
        "top.cl": '#include "defs.h"\n#include "mid.cl"\nkernel void k(global float *o) { o[0] = leaf(o[1]); }\n',
        "defs.h": "#define SCALE 4.0f\n#define INLINE inline\n",
        "mid.cl": 'INLINE float twice(float x) { return 2.0f * x; }\n#include "leaf.cl"\n',
        "leaf.cl": "INLINE float leaf(float x) { return twice(x) * SCALE; }\n",
    },
    "tune/type_from_the_top_file": {
        "top.cl": 'typedef struct { float a, b; } pair_t;\n#include "lib/mid.cl"\n'
                  "kernel void k(global pair_t *p) { p[0].a = sum(p[1]); }\n",
        "lib/mid.cl": '#include "leaf.cl"\n',
        "lib/leaf.cl": "float sum(pair_t p) { return p.a + p.b; }\n",
    },
    "heldout/pragma_from_the_top_header": {
        "top.cl": '#include "ext.h"\n#include "math/common.cl"\nkernel void k(global float *o) { o[0] = 1.0f; }\n',
        "ext.h": "#ifdef cl_khr_fp16\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n#endif\n",
        "math/common.cl": '#include "halfs.cl"\n',
        "math/halfs.cl": "#ifdef cl_khr_fp16\nhalf2 twice_h(half2 v) { return v + v; }\n#endif\n",
    },
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_no_report_on_a_program_clang_compiles(name: str, tmp_path: Path) -> None:
    root = write(tmp_path, CASES[name])
    found = check(".", cwd=root)
    leaves = [p for p in CASES[name] if p.endswith(".cl") and p != "top.cl"]
    assert [e for leaf in leaves for e in errors(found, Path(leaf).name)] == []


@pytest.mark.skipif(CLANG is None, reason="clang-19 labels the cases")
@pytest.mark.parametrize("name", sorted(CASES))
def test_clang_compiles_the_top_file(name: str, tmp_path: Path) -> None:
    root = write(tmp_path, CASES[name])
    done = subprocess.run([CLANG, "-x", "cl", "-cl-std=CL1.2", "-fsyntax-only", "top.cl"], cwd=root,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
