"""Headers the build generates (issue 29, session 16: beignet's built-in library includes
`ocl_as.h`, `ocl_math.h`... that its CMake writes from `script/ocl_as.sh` and
`tmpl/ocl_math.tmpl.h`). A checkout lacks them; the program as its build compiles it has them,
so no CL002 for an `#include` whose file the workspace has as a template (`config.h.in`,
`ocl_math.tmpl.h`) or makes with a script a build file names (`ocl_as.sh`, named `ocl_as` in a
CMakeLists.txt), and nothing that depends on its contents. A name with no such source (a
`settings.md` beside `settings.h`, a script no build runs, a template of another stem) stays
CL002.

Each case folder is a small workspace checked as a user runs `cllint check .` in it. Labels are
clang-19's on the case's source with the generated header made as `BUILD` says (`generated: NAME
<- TEMPLATE` copies the template, `<- sh SCRIPT` runs the script) on its include path; without a
`generated:` line the header is missing and clang-19 fails. `heldout/` was written with `tune/`
and not looked at while the code was written."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from labelled_workspaces import CLANG, build_fields, case_id, cases, expected, reports

CASES = cases("generated_headers")


def test_both_sets_have_cases() -> None:
    assert {p.parent.name for p in CASES} == {"tune", "heldout"}


@pytest.mark.skipif(CLANG is None, reason="clang-19 labels the cases")
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_label_is_clangs(case: Path, tmp_path: Path) -> None:
    fields = build_fields(case)
    if "generated" in fields:
        name, made_from = (part.strip() for part in fields["generated"].split("<-"))
        if made_from.startswith("sh "):
            text = subprocess.run(["sh", made_from[3:]], cwd=case, capture_output=True, check=True).stdout
        else:
            text = (case / made_from).read_bytes()
        (tmp_path / name).write_bytes(text)
    done = subprocess.run([CLANG, "-x", "cl", "-cl-std=CL1.2", "-target", "spir64", "-fsyntax-only",
                           "-I", str(tmp_path), fields["source"]], cwd=case, capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode != 0) == bool(expected(case)), done.stderr


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_reports_are_the_labels(case: Path) -> None:
    assert reports(case) == expected(case)
