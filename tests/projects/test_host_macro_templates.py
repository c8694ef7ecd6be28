"""Templates whose host is elsewhere (issue 29, items 2c, 3 and 6): a file that cannot compile
without macros its host prepends (a parameter's type is a name nothing in the workspace defines)
and that no program of the workspace builds. The macro-named words nothing defines are the
host's: one information note per file names them, and nothing that depends on them is
reported. A file with its host in the workspace, or without such evidence, keeps its reports.

Each case is a small workspace (labelled_workspaces.py): `EXPECT` the reports wanted (the
CL007 note included), `BUILD` the options a host would pass; clang-19 on the program with them
must fail exactly when an error (CL01x) is expected. `heldout/` was written with `tune/` and
not looked at while the check was written; its figures are reported apart."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from labelled_workspaces import build, case_id, cases, expected, reports

CASES = cases("host_macro_templates")
CLANG = shutil.which("clang-19")


def test_both_sets_have_cases() -> None:
    assert {p.parent.name for p in CASES} == {"tune", "heldout"}


@pytest.mark.skipif(CLANG is None, reason="clang-19 labels the cases")
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_label_is_clangs(case: Path, tmp_path: Path) -> None:
    options, sources = build(case)
    program = tmp_path / "program.cl"
    program.write_bytes(b"".join((case / s).read_bytes() for s in sources))
    std = next((o.split("=", 1)[1] for o in options if o.startswith("-cl-std=")), "CL3.0")
    done = subprocess.run([CLANG, "-x", "cl", f"-cl-std={std}", "-target", "spir64", "-fsyntax-only",
                           *(o for o in options if not o.startswith("-cl-std=")), str(program)],
                          capture_output=True, text=True, timeout=60, cwd=case)
    errors = [e for e in expected(case) if e[1].startswith(("CL01", "CL02"))]
    assert (done.returncode != 0) == bool(errors), done.stderr


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_reports_are_the_labels(case: Path) -> None:
    assert reports(case, keep=frozenset({"CL007"})) == expected(case)


def test_the_note_names_the_hosts_macros_once() -> None:
    case = next(c for c in CASES if c.name == "image_params")
    done = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json",
                           "--exit-zero", "."], cwd=case, capture_output=True, text=True, timeout=180)
    notes = [r for r in json.loads(done.stdout) if r["code"] == "CL007"]
    assert len(notes) == 1 and notes[0]["severity"] == "info"
    message = notes[0]["message"]
    for name in ("IMAGE_src_TYPE", "READ_src_IMAGE", "CONVERT_dst_PIXEL_TYPE"):
        assert name in message
    assert "-D" in message and "[[program]]" in message
    # the span is the first parameter's type, exactly
    assert (notes[0]["line"], notes[0]["column"], notes[0]["end_column"]) == (4, 5, 5 + len("IMAGE_src_TYPE"))


def test_the_users_own_defines_complete_the_template() -> None:
    """`-D` on the command line says what the host's names are: the file is built as the user
    says, so it is no longer a template and gets no note (the realistic reduce_sum.cl, with
    `-DT=float -DWG=256`, had one)."""
    case = next(c for c in CASES if c.name == "lowercase_type")
    options, _ = build(case)
    done = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json",
                           "--exit-zero", *options, "."], cwd=case, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    assert [r for r in json.loads(done.stdout) if r["code"] == "CL007"] == []
