"""A host that drops its kernels' `#include` lines before building them (silx's
`read_cl_file`: `[l for l in f if not l.startswith("#include ")]`, an IDE-only header the
checkout lacks): a missing include of a source that host reads is no error of the program (no
CL002); a host that only reads files keeps it. Cases written before the change; `heldout`
scored once after it."""
from __future__ import annotations

from pathlib import Path

import pytest
from labelled_workspaces import check_json, write_workspace

_KERNEL = '#include "for_the_ide.h"\nkernel void k(global float *x) { x[get_global_id(0)] *= 2.0f; }\n'

CASES = {
    "tune/python_startswith": ({
        "pkg/utils.py": "def read_cl(name):\n    with open(name) as f:\n"
                        "        lines = [l for l in f.readlines() if not l.startswith('#include ')]\n"
                        "    return ''.join(lines)\n",
        "pkg/run.py": "import pyopencl as cl\nfrom .utils import read_cl\n"
                      "prg = cl.Program(ctx, read_cl('kernels/scale.cl')).build()\n",
        "kernels/scale.cl": _KERNEL,
    }, []),
    "tune/control_plain_read": ({
        "pkg/run.py": "import pyopencl as cl\nprg = cl.Program(ctx, open('kernels/scale.cl').read()).build()\n",
        "kernels/scale.cl": _KERNEL,
    }, ["CL002"]),
    "heldout/cpp_rfind": ({
        "src/loader.cpp": '#include <fstream>\n#include <string>\nstd::string load(const char *path) {\n'
                          '  std::ifstream in(path); std::string line, out;\n'
                          '  while (std::getline(in, line)) {\n'
                          '    if (line.rfind("#include", 0) == 0) continue;  // the IDE\'s, not the device\'s\n'
                          '    out += line + "\\n";\n  }\n  return out;\n}\n'
                          'void build(cl_context c) { std::string s = load("kernels/scale.cl"); }\n',
        "kernels/scale.cl": _KERNEL,
    }, []),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_missing_include_of_a_stripped_source(case: str, tmp_path: Path) -> None:
    files, wanted = CASES[case]
    write_workspace(tmp_path, files)
    got = [r["code"] for r in check_json(tmp_path) if r["severity"] != "info" and r["path"].endswith(".cl")]
    assert got == wanted
