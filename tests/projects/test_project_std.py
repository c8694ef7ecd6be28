"""A project whose hosts build at one `-cl-std` version that cllint cannot tie to sources
(issue 29, item 3: a choice the host makes and no program says for which source): gpuowl's
`baseArgs{linkArgs + "-cl-std=CL2.0 " + clArgs}`, Huawei bolt's option format strings
`"-cl-std=CL2.0 -DT=%s ..."`. Its sources that no build names are judged at that version, so
nothing is reported that holds only at the default 1.x (a program-scope `global`, CL110). Two
versions in a project's hosts, a version in a comment: as before.

Cases written before the code, each a workspace checked as a user runs `cllint check .`; held
out by crc32(name) % 3 == 0, run once after. The witness is the program-scope `global`
variable: clang-19 rejects it at CL1.2 and accepts it at CL2.0."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent))  # (tests/inline_cases.py)
from inline_cases import case_id  # noqa: E402
from labelled_workspaces import check_json, write_workspace  # noqa: E402

KERNEL = "global int counter = 0;\nkernel void k(global int *p) { p[get_global_id(0)] = counter; }\n"
COMPUTED = """#include <CL/cl.h>
#include <string>
void build(cl_program p, cl_device_id d, const std::string &extra) {
    std::string args = std::string("-I. ") + "%s " + extra;
    clBuildProgram(p, 1, &d, args.c_str(), NULL, NULL);
}
"""

# case -> (files, the (path, code, line) error and warning reports wanted)
CASES: dict[str, tuple[dict[str, str], list[tuple[str, str, int]]]] = {
    "computed_options_one_version": ({
        "src/host.cpp": COMPUTED % "-cl-std=CL2.0", "src/cl/k.cl": KERNEL,
    }, []),
    "two_versions_left_alone": ({
        "a/host.cpp": COMPUTED % "-cl-std=CL2.0", "b/host.cpp": COMPUTED % "-cl-std=CL1.2", "k.cl": KERNEL,
    }, [("k.cl", "CL110", 1)]),
    "named_and_unnamed_sources": ({
        "host.c": '#include <CL/cl.h>\nvoid b(cl_program p, cl_device_id d) {\n'
                  '    const char *f = "first.cl";\n    clBuildProgram(p, 1, &d, "-cl-std=CL2.0", NULL, NULL);\n}\n',
        "first.cl": KERNEL, "second.cl": KERNEL,
    }, []),
    "no_host_no_change": ({"k.cl": KERNEL}, [("k.cl", "CL110", 1)]),
    "python_options_list_one_version": ({
        "run.py": "import pyopencl as cl\n\ndef build(ctx, src, extra):\n"
                  "    opts = [\"-cl-std=CL2.0\"] + extra\n    return cl.Program(ctx, src).build(options=opts)\n",
        "kernels/k.cl": KERNEL,
    }, []),
    "comment_mention_is_not_a_build": ({
        "host.c": "#include <CL/cl.h>\n// one day: build with -cl-std=CL2.0\n"
                  "void b(cl_program p, cl_device_id d, const char *o) { clBuildProgram(p, 1, &d, o, NULL, NULL); }\n",
        "k.cl": KERNEL,
    }, [("k.cl", "CL110", 1)]),
    "version_in_a_printf_format": ({
        "opt.h": '#include <stdio.h>\nstatic void options(char *buf, const char *t) {\n'
                 '    sprintf(buf, "-cl-std=CL2.0 -DT=%s", t);\n}\n',
        "cl/k.cl": KERNEL,
    }, []),
}


@pytest.mark.parametrize("name", sorted(CASES), ids=case_id)
def test_sources_no_build_names_take_the_projects_one_version(name: str, tmp_path: Path) -> None:
    files, wanted = CASES[name]
    write_workspace(tmp_path, files)
    got = sorted((r["path"], r["code"], r["line"]) for r in check_json(tmp_path) if r["severity"] != "info")
    assert got == sorted(wanted)
